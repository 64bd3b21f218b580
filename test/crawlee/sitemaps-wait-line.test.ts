/**
 * The end of a crawl waiting on sitemaps says so: the queue is empty, a sitemap still loads, and
 * after 5 s the crawler's log names the origin whose sitemaps hold the crawl's end.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { RobotsPlugin } from '@heed/crawlee';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

let site: Site;
let a: SiteOrigin;

beforeAll(async () => {
  site = await startSite(1);
  a = site.origins[0]!;
  a.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /private\nSitemap: ${a.url('/slow-sitemap.xml')}\n`));
  a.routes.set('/', page('home', []));
  a.routes.set('/listed', page('listed', []));
  // Answers after 6.5 s: past the first line (5 s), well before the next (20 s) and the timeouts.
  a.routes.set('/slow-sitemap.xml', async () => {
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    return {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${a.url('/listed')}</loc></url></urlset>`,
    };
  });
});
afterAll(async () => {
  await site?.close();
});

it('names the origin whose sitemaps keep the crawl from ending, once it has waited 5 s', async () => {
  const crawled: string[] = [];
  const crawler = new crawleeCheerio.CheerioCrawler(
    { requestHandler: async ({ request }) => void crawled.push(request.url) },
    freshConfig(),
  );
  // A file silent for 6.5 s is not cut as stalled (stallSecs, 5 s by default).
  const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: { stallSecs: 10 } });
  const info = vi.spyOn(crawler.log, 'info');
  await crawler.run([a.url('/')]);
  await robots.close();
  // The sitemap's URL was still crawled: the crawl waited for it.
  expect(crawled.sort()).toEqual([a.url('/'), a.url('/listed')]);
  const lines = info.mock.calls.map(([message]) => message).filter((m) => m.includes('waited'));
  expect(lines).toHaveLength(1);
  expect(lines[0]?.replace(/waited \d s/, 'waited N s')).toBe(
    `RobotsPlugin: the queue is empty; the crawl has waited N s for the sitemaps of ${a.origin}, still being read (sitemaps.maxTimePerOriginSecs bounds it)`,
  );
}, 60_000);
