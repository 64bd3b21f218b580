import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { has } from '../support/requirements.js';
import { crawlWithBrowser, type PlaywrightExampleSummary } from '../../examples/playwright/src/index.js';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

describe.skipIf(!has('chromium', 'test/examples/playwright.test.ts'))('examples/playwright (PlaywrightCrawler on Debian Chromium)', () => {
  let site: DemoSite;
  let summary: PlaywrightExampleSummary;

  beforeAll(async () => {
    site = await startDemoSite();
    summary = await crawlWithBrowser(site.expected.startUrls, { userAgent: DEMO_USER_AGENT });
  }, 180_000);
  afterAll(async () => {
    await site.close();
  });

  const shopUrls = (outcome: string): string[] =>
    site.expected.urls
      .filter((url) => url.origin === 'shop' && url.kind !== 'subresource' && url.demoCrawl === outcome)
      .map((url) => url.url)
      .sort();

  it('opens every allowed page of the shop in Chromium, sitemap-only pages included, and fails none', () => {
    expect(summary.pages.map((page) => page.url).sort()).toEqual(shopUrls('crawled'));
    expect(summary.pages.every((page) => page.title !== '')).toBe(true);
    expect(summary.failedRequests).toBe(0);
  });

  it('never lets the browser request a disallowed URL: links, redirects, sitemap entries, sub-resources', () => {
    const never = new Set(site.expected.neverFetched);
    expect(site.requests.filter((request) => never.has(site.url(request.origin, request.path)))).toEqual([]);
    expect(summary.skipped.some((skip) => skip.stage === 'redirect' && skip.url === site.url('shop', '/private/account'))).toBe(true);
  });

  it('aborts the disallowed tracking script and lets the allowed stylesheet load', () => {
    expect(summary.blockedSubresources).toEqual([site.url('shop', '/tracking/pixel.js')]);
    expect(site.requests.some((request) => request.path === '/static/site.css')).toBe(true);
    expect(site.requests.some((request) => request.path === '/tracking/pixel.js')).toBe(false);
  });

  it('browses with its own User-Agent', () => {
    const pages = site.requests.filter((request) => request.origin === 'shop' && !request.path.startsWith('/static/'));
    expect(new Set(pages.map((request) => request.userAgent))).toEqual(new Set([DEMO_USER_AGENT]));
  });
});
