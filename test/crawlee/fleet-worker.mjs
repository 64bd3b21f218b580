/**
 * One worker of a fleet for the politeness tests: a CheerioCrawler with Heed attached and a
 * RobotsManager on a RedisStore shared with the other workers. Runs the built packages (dist).
 *
 *   node fleet-worker.mjs '{"redisUrl":"redis://…","startUrls":["http://…"],"enqueue":false,"commandTimeoutSecs":0.5}'
 *
 * Prints one JSON line per handled page (`{"handled":url}`), per line the store logged
 * (`{"log":"warning","message":…,"at":ms}`, `at` when it was logged) and `{"done":true,"failed":n}`
 * at the end. With `enqueue`, each page's links (to any origin) are crawled too.
 */
import { createRequire } from 'node:module';

const root = new URL('../../', import.meta.url);
// Crawlee as the plugin's package has it (pnpm keeps dependencies per package).
const fromCrawlee = createRequire(new URL('packages/crawlee/package.json', root));
const { CheerioCrawler, Configuration, log } = fromCrawlee('@crawlee/cheerio');
const { RobotsPlugin } = await import(new URL('packages/crawlee/dist/bundle.js', root).href);
const { RedisStore, RobotsManager } = await import(new URL('packages/manager/dist/bundle.js', root).href);

const { redisUrl, startUrls, enqueue = false, commandTimeoutSecs = 0.5 } = JSON.parse(process.argv[2]);
const USER_AGENT = 'HeedBot/1.0 (+https://example.com/bot)';
const print = (line) => console.log(JSON.stringify(line));
log.setLevel(log.LEVELS.ERROR);

const storeLog = {
  debug() {},
  info: (message) => print({ log: 'info', message, at: Date.now() }),
  warning: (message) => print({ log: 'warning', message, at: Date.now() }),
  error: (message) => print({ log: 'error', message, at: Date.now() }),
};
const store = new RedisStore({ url: redisUrl, log: storeLog, commandTimeoutSecs });
const manager = new RobotsManager({ userAgent: USER_AGENT, store, log: storeLog });

const crawler = new CheerioCrawler(
  {
    maxRequestRetries: 3,
    requestHandler: async ({ request, enqueueLinks }) => {
      print({ handled: request.url });
      if (enqueue) await enqueueLinks({ strategy: 'all' });
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true }),
);
await RobotsPlugin.attach(crawler, { userAgent: USER_AGENT, manager, sitemaps: false, logSummary: false });
await crawler.run(startUrls);
await manager.close();
await store.close();
print({ done: true, failed: crawler.stats.state.requestsFailed });
