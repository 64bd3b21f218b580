/**
 * Promises made per page on the link-dense site (link-dense.bench.mjs's shape, 300 pages, one
 * process): a count, not a time, so it holds on a loaded machine where CPU figures move by ±15%.
 * Counted by an `async_hooks` init hook while `crawler.run()` runs.
 *
 *   node test/bench/crawl/promise-count.mjs none|crawlee|heed [/other/checkout]
 *
 * The optional second argument is another checkout whose packages are built (its Heed is counted).
 */
import { createHook } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSite } from './site-host.mjs';
import { startUrls } from './site.mjs';

const variant = process.argv[2] ?? 'heed';
const root = process.argv[3] ?? fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(`${root}/packages/crawlee/package.json`);
const { CheerioCrawler, Configuration, log } = require('@crawlee/cheerio');
log.setLevel(log.LEVELS.ERROR);
const quiet = { debug() {}, info() {}, warning() {}, error() {} };

const config = { origins: 1, pagesPerOrigin: 3000, block: 45, robots: 'rules', typicalRobots: true, linksPerPage: 40, padBytes: 2000 };
const site = await startSite(config);
let promises = 0;
let counting = false;
createHook({
  init(_id, type) {
    if (counting && type === 'PROMISE') promises++;
  },
}).enable();
const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: 300,
    maxConcurrency: 20,
    statusMessageLoggingInterval: 3600,
    respectRobotsTxtFile: variant === 'crawlee',
    async requestHandler({ enqueueLinks }) {
      await enqueueLinks({ strategy: 'all' });
    },
  },
  new Configuration({ persistStorage: false }),
);
let close = async () => {};
if (variant === 'heed') {
  const { RobotsPlugin } = await import(pathToFileURL(`${root}/packages/crawlee/dist/bundle.js`).href);
  const { RobotsManager } = await import(pathToFileURL(`${root}/packages/manager/dist/bundle.js`).href);
  const manager = new RobotsManager({ userAgent: 'HeedBot/1.0', log: quiet });
  const robots = await RobotsPlugin.attach(crawler, { userAgent: 'HeedBot/1.0', manager, logSummary: false });
  close = async () => {
    await robots.close();
    await manager.close();
  };
}
counting = true;
const stats = await crawler.run(startUrls(config, site.port, 1));
counting = false;
console.log(`${variant}: ${(promises / stats.requestsFinished).toFixed(0)} promises per page (${stats.requestsFinished} pages)`);
await close();
await site.close();
process.exit(0);
