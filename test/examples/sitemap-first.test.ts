import { afterAll, beforeAll, expect, it } from 'vitest';
import { crawlSitemapsFirst, type SitemapFirstSummary } from '../../examples/sitemap-first/src/index.js';
import { DEMO_ORIGIN_NAMES, DEMO_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

let site: DemoSite;
let summary: SitemapFirstSummary;

beforeAll(async () => {
  site = await startDemoSite();
  summary = await crawlSitemapsFirst(
    DEMO_ORIGIN_NAMES.map((name) => site.url(name, '/')),
    { userAgent: DEMO_USER_AGENT },
  );
});
afterAll(async () => {
  await site.close();
});

it('crawls every allowed sitemap URL (index, gzipped and text sitemaps) and nothing it was not given', () => {
  const starts = new Set(DEMO_ORIGIN_NAMES.map((name) => site.url(name, '/')));
  const fromSitemaps = site.expected.allowedSitemapUrls.filter((url) => !starts.has(url)).sort();
  expect([...summary.sitemapPages].sort()).toEqual(fromSitemaps);
  // Sitemap-only pages, linked from nowhere, are among them.
  expect(summary.sitemapPages).toEqual(
    expect.arrayContaining([site.url('shop', '/products/gadget'), site.url('shop', '/products/gizmo'), site.url('blog', '/posts/3')]),
  );
  // Link-only pages are not: nothing follows links.
  expect(summary.sitemapPages).not.toContain(site.url('shop', '/members/'));
  expect(summary.failedRequests).toBe(0);
});

it('keeps disallowed sitemap entries and the unreachable origin out, and the server never sees them', () => {
  const sitemapSkips = summary.skipped
    .filter((skip) => skip.stage === 'sitemap')
    .map((skip) => skip.url)
    .sort();
  expect(sitemapSkips).toEqual([site.url('blog', '/drafts/upcoming'), site.url('shop', '/private/old-press-kit')].sort());
  expect(summary.skipped.find((skip) => skip.url === site.url('mirror', '/'))?.reason).toBe('unreachable');
  const never = new Set(site.expected.neverFetched);
  expect(site.requests.filter((request) => never.has(site.url(request.origin, request.path)))).toEqual([]);
  expect(summary.stats.sitemapsRead).toBe(4);
  expect(summary.stats.sitemapUrlsEnqueued).toBe(site.expected.allowedSitemapUrls.length);
});
