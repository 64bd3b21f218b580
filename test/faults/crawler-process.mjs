/**
 * A crawler process for the kill -9 test: a CheerioCrawler with Heed attached, its robots records in
 * a Crawlee key-value store persisted to a directory (MemoryStorage), the crawl queue in memory.
 * Runs the built packages (the test builds them first).
 *
 *   node crawler-process.mjs <storage dir> <start URL>...
 *
 * Prints one JSON line per handled page and `{"done":true,...}` at the end.
 */
import { createRequire } from 'node:module';

const root = new URL('../../', import.meta.url);
// Crawlee as each package has it (pnpm keeps dependencies per package).
const fromCrawlee = createRequire(new URL('packages/crawlee/package.json', root));
const fromManager = createRequire(new URL('packages/manager/package.json', root));
const { CheerioCrawler } = fromCrawlee('@crawlee/cheerio');
const { Configuration } = fromManager('@crawlee/core');
const { MemoryStorage } = fromManager('@crawlee/memory-storage');
const { RobotsPlugin } = await import(new URL('packages/crawlee/dist/bundle.js', root).href);
const { KeyValueStoreStore, RobotsManager } = await import(new URL('packages/manager/dist/bundle.js', root).href);

const [storageDir, ...startUrls] = process.argv.slice(2);
const USER_AGENT = 'HeedBot/1.0 (+https://example.com/bot)';

const storageClient = new MemoryStorage({ localDataDirectory: storageDir, persistStorage: true });
const store = new KeyValueStoreStore({ name: 'heed-robots', openOptions: { config: new Configuration(), storageClient } });
// A long timeout: a hanging robots.txt keeps the run in flight until the test kills it.
const manager = new RobotsManager({ userAgent: USER_AGENT, store, timeoutSecs: 60 });

const crawler = new CheerioCrawler(
  {
    maxRequestRetries: 0,
    requestHandler: async ({ request, enqueueLinks }) => {
      console.log(JSON.stringify({ handled: request.url }));
      await enqueueLinks({ strategy: 'all' });
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true }),
);
await RobotsPlugin.attach(crawler, { userAgent: USER_AGENT, manager, sitemaps: false, logSummary: false });
await crawler.run(startUrls);
await manager.close();
await storageClient.teardown();
console.log(JSON.stringify({ done: true, failed: crawler.stats.state.requestsFailed }));
