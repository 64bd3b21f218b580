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
  site.expected.urls
    .filter((url) => url.origin === 'shop' && url.kind !== 'subresource' && outcomes.includes(url.demoCrawl))
    .map((url) => url.url)
    .sort();

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

it('prints its skips as the other examples do: each URL once, under "N URLs skipped (M times)"', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const main = new URL('../../examples/cheerio-basic/dist/main.js', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(process.execPath, [main, '--', site.url('shop', '/')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = stdout.split('\n');
  const heading = lines.findIndex((line) => /^\d+ URLs? skipped( \(\d+ times\))?:$/.test(line));
  expect(heading, stdout).toBeGreaterThan(-1);
  const listed = lines
    .slice(heading + 1)
    .filter((line) => line.startsWith('  http'))
    .map((line) => line.trim().split(/\s+/)[0]);
  expect(listed.length).toBeGreaterThan(0);
  expect(new Set(listed).size).toBe(listed.length);
  expect(lines[heading]).toMatch(new RegExp(`^${listed.length} URLs skipped`));
  expect(stdout).toContain(`${summary.pages.length} pages crawled`);
});
