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

it('prints the URLs it never fetched, each once, apart from the links it did not follow, as the User-Agent given', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const main = new URL('../../examples/cheerio-basic/dist/main.js', import.meta.url).pathname;
  const before = site.requests.length;
  const { stdout } = await promisify(execFile)(process.execPath, [main, '--user-agent', 'MyBot/1.0', '--', site.url('shop', '/')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  // --user-agent is an option, not the start URL: the crawl ran, and as MyBot/1.0.
  const shop = site.requests.slice(before).filter((request) => request.origin === 'shop');
  expect(shop.length).toBeGreaterThan(1);
  expect(new Set(shop.map((request) => request.userAgent))).toEqual(new Set(['MyBot/1.0']));
  const lines = stdout.split('\n');
  const listed = (heading: RegExp): string[] => {
    const at = lines.findIndex((line) => heading.test(line));
    expect(at, stdout).toBeGreaterThan(-1);
    const rest = lines.slice(at + 1);
    const end = rest.findIndex((line) => !line.startsWith('  '));
    return (end === -1 ? rest : rest.slice(0, end)).map((line) => line.trim().split(/\s+/)[0] ?? '');
  };
  const neverFetched = listed(/^\d+ URLs? never fetched( \(\d+ times\))?:$/);
  expect(neverFetched.length).toBeGreaterThan(0);
  expect(new Set(neverFetched).size).toBe(neverFetched.length);
  // A page it crawled is never among the URLs never fetched (a nofollow link to it is listed apart).
  const crawled = new Set(shop.map((request) => site.url('shop', request.path)));
  expect(neverFetched.filter((url) => crawled.has(url))).toEqual([]);
  expect(listed(/^\d+ URLs? not followed \(nofollow\)( \(\d+ times\))?:$/).length).toBeGreaterThan(0);
  expect(stdout).toMatch(/\d+ pages crawled/);
});
