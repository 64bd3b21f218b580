// A user's ESM TypeScript crawler on Crawlee 4 (module NodeNext, strict): typechecked with tsc, then run.
import { CheerioCrawler, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { MemoryStorageBackend, serviceLocator } from '@crawlee/core';
import { RobotsDisallowedError, RobotsPlugin, type RobotsPluginStats, type SkipEvent } from '@heed/crawlee';

interface Input {
  start: string[];
}
serviceLocator.setStorageBackend(new MemoryStorageBackend());
const { start } = JSON.parse(process.env['HEED_COMPAT'] ?? '{}') as Input;
const handled: string[] = [];
const crawleeSkips: { url: string; reason: string }[] = [];
const sent: string[] = [];
const noindex: string[] = [];
const crawler = new CheerioCrawler({
  maxRequestRetries: 0,
  onSkippedRequest: (skip: { url: string; reason: string }) => void crawleeSkips.push(skip),
  // A hook that rewrites a URL after the request manager's check: checked again before the fetch.
  preNavigationHooks: [
    ({ request }) => {
      if (new URL(request.url).pathname === '/rewrite-me') request.url = new URL('/private/rewritten', request.url).href;
    },
  ],
  requestHandler: async ({ request, enqueueLinks, sendRequest }: CheerioCrawlingContext) => {
    handled.push(request.loadedUrl ?? request.url);
    // The page's robots meta tag, as robots.directives() reads it.
    if (robots.directives({ request }).noindex) noindex.push(request.loadedUrl ?? request.url);
    if (new URL(request.url).pathname === '/ok') {
      // A disallowed URL asked of sendRequest() is not sent: the call rejects with a typed error.
      await sendRequest({ url: new URL('/private/api', request.url).href }).then(
        () => void sent.push('sent'),
        (error: unknown) => void sent.push(error instanceof RobotsDisallowedError ? error.name : String(error)),
      );
    }
    await enqueueLinks({ strategy: 'all' });
  },
});
const skips: [string, SkipEvent['stage'], SkipEvent['reason']][] = [];
const robots: RobotsPlugin = await RobotsPlugin.attach(crawler, {
  userAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
  onSkip: (e: SkipEvent) => void skips.push([e.url, e.stage, e.reason]),
  checkSendRequest: true,
});
// @ts-expect-error attach() takes a Crawlee crawler, not any object.
void RobotsPlugin.attach({ run() {} }, { userAgent: 'HeedBot' }).catch(() => {});
await crawler.run(start);
const stats: RobotsPluginStats = robots.stats;
await robots.close();
console.log(
  JSON.stringify({
    handled,
    skips,
    crawleeSkips,
    sent,
    noindex,
    failed: crawler.statistics.state.requestsFailed,
    skipped: stats.skipped,
    flavour: 'ts',
  }),
);
