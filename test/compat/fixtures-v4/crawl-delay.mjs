// Crawl-delay on Crawlee 4: a crawler whose request manager paces domains itself (a
// ThrottlingRequestManager, here made by `sameDomainDelaySecs`) is handed each robots.txt delay;
// Heed defers nothing of its own. Prints one JSON line: what was handled and Heed's deferrals.
import { CheerioCrawler } from '@crawlee/cheerio';
import { MemoryStorageBackend, serviceLocator } from '@crawlee/core';
import { RobotsPlugin } from '@heed/crawlee';

serviceLocator.setStorageBackend(new MemoryStorageBackend());
const { start } = JSON.parse(process.env.HEED_COMPAT);
const handled = [];
const crawler = new CheerioCrawler({
  maxRequestRetries: 0,
  maxConcurrency: 4,
  sameDomainDelaySecs: 0.01,
  requestHandler: async ({ request }) => void handled.push(request.url),
});
const robots = await RobotsPlugin.attach(crawler, { userAgent: 'HeedBot/1.0 (+https://heed.example/bot)', sitemaps: false });
await crawler.run(start);
await robots.close();
console.log(JSON.stringify({ handled, deferrals: robots.stats.crawlDelayDeferrals }));
