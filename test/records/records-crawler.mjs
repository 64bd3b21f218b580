/**
 * A crawl with records on, for the signal tests: a CheerioCrawler with Heed attached, records held
 * in a buffer no timer or size flushes during the test (so only a flush on the signal, at the end
 * of the run or at exit writes them). Runs the built packages (dist).
 *
 *   node records-crawler.mjs '{"startUrl":"http://…","file":"…","snapshots":"…"}'
 *
 * Prints `{"handled":url}` per page handled.
 */
import { createRequire } from 'node:module';

const root = new URL('../../', import.meta.url);
const fromCrawlee = createRequire(new URL('packages/crawlee/package.json', root));
const { CheerioCrawler, Configuration, log } = fromCrawlee('@crawlee/cheerio');
const { RobotsPlugin } = await import(new URL('packages/crawlee/dist/bundle.js', root).href);

const { startUrl, file, snapshots } = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.ERROR);

const crawler = new CheerioCrawler(
  {
    maxConcurrency: 1,
    maxRequestRetries: 0,
    requestHandler: async ({ request, enqueueLinks }) => {
      console.log(JSON.stringify({ handled: request.url }));
      await enqueueLinks();
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true }),
);
await RobotsPlugin.attach(crawler, {
  userAgent: 'HeedBot/1.0 (+https://example.com/bot)',
  sitemaps: false,
  logSummary: false,
  records: { file, snapshots, flushSecs: 60, maxBufferBytes: 64 * 1024 * 1024 },
});
await crawler.run([startUrl]);
