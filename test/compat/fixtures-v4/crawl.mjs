// A user's ESM crawler on Crawlee 4: CheerioCrawler + RobotsPlugin, crawling the site the test started.
// Prints one JSON line: what was handled and what the plugin and Crawlee reported.
import { CheerioCrawler } from '@crawlee/cheerio';
import { MemoryStorageBackend, serviceLocator } from '@crawlee/core';
import { RobotsDisallowedError, RobotsPlugin } from '@heed/crawlee';

serviceLocator.setStorageBackend(new MemoryStorageBackend());
const { start } = JSON.parse(process.env.HEED_COMPAT);
const handled = [];
const crawleeSkips = [];
const sent = [];
/** What the handler's sendRequest() of an allowed URL ended as (its status, or the error). */
const sentAllowed = [];
const noindex = [];
const crawler = new CheerioCrawler({
  maxRequestRetries: 0,
  // Crawlee's own check: Heed replaces it while attached.
  respectRobotsTxtFile: true,
  onSkippedRequest: (skip) => void crawleeSkips.push(skip),
  // A hook that rewrites a URL after the request manager's check: checked again before the fetch.
  preNavigationHooks: [
    ({ request }) => {
      if (new URL(request.url).pathname === '/rewrite-me') request.url = new URL('/private/rewritten', request.url).href;
    },
  ],
  requestHandler: async ({ request, enqueueLinks, sendRequest, robotsDirectives }) => {
    const url = request.loadedUrl ?? request.url;
    handled.push(url);
    // The page's robots meta tag, as the context property and as robots.directives() read it.
    if (robotsDirectives?.noindex && robots.directives({ request }).noindex) noindex.push(url);
    if (new URL(request.url).pathname === '/ok') {
      // A disallowed URL asked of sendRequest() is not sent: the call rejects.
      await sendRequest({ url: new URL('/private/api', request.url).href }).then(
        () => void sent.push('sent'),
        (error) => void sent.push(error instanceof RobotsDisallowedError ? 'RobotsDisallowedError' : String(error)),
      );
      // An allowed one is sent, under the plugin's userAgent (identifyPages).
      await sendRequest({ url: new URL('/api/ok', request.url).href }).then(
        (response) => void sentAllowed.push(String(response.status)),
        (error) => void sentAllowed.push(String(error)),
      );
    }
    await enqueueLinks({ strategy: 'all' });
  },
});
const skips = [];
const robots = await RobotsPlugin.attach(crawler, {
  userAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
  onSkip: (e) => void skips.push([e.url, e.stage, e.reason]),
});
await crawler.run(start);
await robots.close();
console.log(
  JSON.stringify({
    handled,
    skips,
    crawleeSkips,
    sent,
    sentAllowed,
    noindex,
    failed: crawler.statistics.state.requestsFailed,
    flavour: 'esm',
  }),
);
