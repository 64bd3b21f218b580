import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoCrawl, type DemoCrawlSummary } from '../../examples/demo-crawl/src/index.js';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

/** The demo crawl's summary is what the README's first command shows; it must match the site's expected outcome. */
describe('the demo crawl of the bundled demo site', () => {
  let summary: DemoCrawlSummary;
  let reference: DemoSite;
  const printed: string[] = [];
  const path = (url: string): string => new URL(url).pathname + new URL(url).search;

  beforeAll(async () => {
    summary = await runDemoCrawl({ print: (line) => printed.push(line) });
    // Ports differ from the crawl's own site, so compare by origin name and path.
    reference = await startDemoSite();
  });
  afterAll(async () => {
    await reference.close();
  });

  const byName = (urls: readonly string[], site: { origins: Readonly<Record<string, string>> }): string[] =>
    urls
      .map((url) => {
        const name = Object.entries(site.origins).find(([, origin]) => url.startsWith(`${origin}/`))?.[0] ?? '?';
        return `${name} ${path(url)}`;
      })
      .sort();

  it('crawls exactly the pages the expected outcome lists, and fails none', () => {
    const origins = Object.fromEntries(summary.robots.map((robots) => [robots.name ?? '?', robots.origin]));
    expect(
      byName(
        summary.pages.map((page) => page.url),
        { origins },
      ),
    ).toEqual(byName(reference.expected.crawled, reference));
    expect(summary.failedRequests).toBe(0);
    expect(summary.violations).toEqual([]);
    expect(summary.mode).toBe('demo-site');
    expect(summary.userAgent).toBe(DEMO_USER_AGENT);
  });

  it('skips every disallowed, unreachable and nofollow URL it comes across, with its reason and deciding line', () => {
    const origins = Object.fromEntries(summary.robots.map((robots) => [robots.name ?? '?', robots.origin]));
    const nameOf = (url: string): string => byName([url], { origins })[0] ?? '?';
    const expectedSkips = reference.expected.urls.filter(
      (url) => url.kind !== 'subresource' && ['skipped-robots', 'skipped-unreachable', 'not-followed'].includes(url.demoCrawl),
    );
    const skippedKeys = new Set(summary.skipped.map((skip) => nameOf(skip.url)));
    expect([...skippedKeys].sort()).toEqual(expectedSkips.map((url) => `${url.origin} ${url.path}`).sort());
    expect(summary.skippedUrls).toBe(expectedSkips.length);

    for (const skip of summary.skipped) {
      const expected = expectedSkips.find((url) => `${url.origin} ${url.path}` === nameOf(skip.url));
      const reason = expected?.demoCrawl === 'not-followed' ? 'nofollow' : expected?.demoBot.reason;
      expect(skip.reason, skip.url).toBe(reason);
      if (skip.reason === 'rules') {
        expect(skip.decidingLine, skip.url).toBe(expected?.demoBot.decidingLine?.text);
        expect(skip.lineNumber, skip.url).toBe(expected?.demoBot.decidingLine?.line);
      }
    }
    const redirect = summary.skipped.find((skip) => skip.stage === 'redirect');
    expect(redirect && nameOf(redirect.url)).toBe('shop /private/account');
    expect(summary.skippedByReason).toMatchObject({ unreachable: 1, nofollow: 2 });
  });

  it("reports each origin's robots.txt fetches, status and policy", () => {
    const robots = Object.fromEntries(summary.robots.map((entry) => [entry.name, entry]));
    for (const [name, expected] of Object.entries(reference.expected.robots)) {
      expect(robots[name], name).toMatchObject({
        fetches: expected.fetchPaths.length,
        statuses: expected.statuses,
        policy: expected.policy,
      });
    }
    expect(robots.blog?.crawlDelaySeconds).toBe(1);
    expect(robots.shop?.sitemaps).toHaveLength(1);
  });

  it('reads every sitemap URL and enqueues the allowed ones', () => {
    expect(summary.sitemaps).toEqual({
      filesRead: 4,
      urlsFound: reference.expected.sitemapUrls.length,
      urlsEnqueued: reference.expected.allowedSitemapUrls.length,
      urlsSkipped: reference.expected.sitemapUrls.length - reference.expected.allowedSitemapUrls.length,
    });
    expect(summary.stoppedAtMax).toBe(false);
  });

  it('prints progress while it runs and a summary at the end', () => {
    const text = printed.join('\n');
    expect(printed.filter((line) => line.startsWith('  crawled  '))).toHaveLength(reference.expected.crawled.length);
    expect(text).toContain('skipped  shop   /cart  rules: "Disallow: /cart" (robots.txt line 13)');
    expect(text).toContain('Pages crawled: 19 (2 marked noindex: crawl, but do not store)');
    // Distinct URLs, then how many times: the same way every example prints its skips.
    expect(text).toContain(`  ${summary.skippedUrls} URLs skipped (${summary.skipped.length} times)`);
    expect(summary.skipped.length).toBeGreaterThan(summary.skippedUrls);
    expect(text).toContain('mirror  1 request, HTTP 503: unreachable');
    expect(text).toContain('The demo site never saw a request for a disallowed URL.');
  });
});

describe('the demo crawl with a start URL of its own', () => {
  let site: DemoSite;
  beforeAll(async () => {
    site = await startDemoSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('crawls that URL instead, bounded by maxRequestsPerCrawl, and still never fetches a disallowed URL', async () => {
    const summary = await runDemoCrawl({ startUrls: [site.url('shop', '/')], maxRequestsPerCrawl: 4, print: () => {} });
    expect(summary.mode).toBe('url');
    expect(summary.pages.length).toBeGreaterThan(0);
    expect(summary.pages.length).toBeLessThanOrEqual(4);
    const never = new Set(site.expected.neverFetched);
    expect(site.requests.filter((request) => never.has(site.url(request.origin, request.path)))).toEqual([]);
    expect(summary.robots.map((robots) => robots.origin)).toContain(site.origins.shop);
  });
});
