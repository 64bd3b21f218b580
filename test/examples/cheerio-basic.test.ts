import { afterAll, beforeAll, expect, it } from 'vitest';
import { crawlWithHeed, type CheerioBasicSummary } from '../../examples/cheerio-basic/src/index.js';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

let site: DemoSite;
let summary: CheerioBasicSummary;

beforeAll(async () => {
  site = await startDemoSite();
  summary = await crawlWithHeed(site.expected.startUrls, { userAgent: DEMO_USER_AGENT });
});
afterAll(async () => {
  await site.close();
});

const shopUrls = (outcomes: readonly string[]): string[] =>
  site.expected.urls.filter((url) => url.origin === 'shop' && url.kind !== 'subresource' && outcomes.includes(url.demoCrawl)).map((url) => url.url).sort();

it('crawls every allowed page of the shop, sitemap-only pages included, and fails none', () => {
  expect([...summary.pages].sort()).toEqual(shopUrls(['crawled']));
  expect(summary.failedRequests).toBe(0);
});

it('skips every disallowed or nofollow URL it meets, and the server never sees one', () => {
  expect([...new Set(summary.skipped.map((skip) => skip.url))].sort()).toEqual(shopUrls(['skipped-robots', 'not-followed']));
  const never = new Set(site.expected.neverFetched);
  expect(site.requests.filter((request) => never.has(site.url(request.origin, request.path)))).toEqual([]);
  expect(summary.stats.skippedByReason).toMatchObject({ rules: 6, nofollow: 1 });
  expect(summary.stats.sitemapUrlsEnqueued).toBe(5);
});

it('fetches pages and robots.txt with its own User-Agent, robots.txt once', () => {
  const shop = site.requests.filter((request) => request.origin === 'shop');
  expect(new Set(shop.map((request) => request.userAgent))).toEqual(new Set([DEMO_USER_AGENT]));
  expect(shop.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
});
