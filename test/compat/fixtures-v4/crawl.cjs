// A user's CommonJS crawler on Crawlee 4: the same crawl as crawl.mjs, loaded with require().
const { CheerioCrawler } = require('@crawlee/cheerio');
const { MemoryStorageBackend, serviceLocator } = require('@crawlee/core');
const { RobotsDisallowedError, RobotsPlugin } = require('@heed/crawlee');
const { URL } = require('node:url');

async function main() {
  serviceLocator.setStorageBackend(new MemoryStorageBackend());
  const { start } = JSON.parse(process.env.HEED_COMPAT);
  const handled = [];
  const crawleeSkips = [];
  const sent = [];
  const noindex = [];
  const crawler = new CheerioCrawler({
    maxRequestRetries: 0,
    onSkippedRequest: (skip) => void crawleeSkips.push(skip),
    // A hook that rewrites a URL after the request manager's check: checked again before the fetch.
    preNavigationHooks: [
      ({ request }) => {
        if (new URL(request.url).pathname === '/rewrite-me') request.url = new URL('/private/rewritten', request.url).href;
      },
    ],
    requestHandler: async ({ request, enqueueLinks, sendRequest }) => {
      handled.push(request.loadedUrl ?? request.url);
      // The page's robots meta tag, as robots.directives() reads it.
      if (robots.directives({ request }).noindex) noindex.push(request.loadedUrl ?? request.url);
      if (new URL(request.url).pathname === '/ok') {
        await sendRequest({ url: new URL('/private/api', request.url).href }).then(
          () => void sent.push('sent'),
          (error) => void sent.push(error instanceof RobotsDisallowedError ? 'RobotsDisallowedError' : String(error)),
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
    JSON.stringify({ handled, skips, crawleeSkips, sent, noindex, failed: crawler.statistics.state.requestsFailed, flavour: 'cjs' }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
