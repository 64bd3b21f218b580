/**
 * A real CheerioCrawler with the plugin attached, crawling the local three-origin site: what the
 * servers saw is what matters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { cheerioCrawler, crawlRecord, crawlScenarioOnce } from './crawlers.js';
import { crawleeCheerio, freshConfig } from './site.js';
import { expectNoDisallowedRequests, startScenario, type Scenario } from './scenario.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';
const OTHERBOT = 'OtherBot/2.0';

describe('CheerioCrawler with RobotsPlugin', () => {
  let s: Scenario;
  let clock = Date.now();
  let manager: RobotsManager;
  const { handled, directives, heedSkips, crawleeSkips, onSkip, onSkippedRequest, notePage } = crawlRecord();
  let plugin: RobotsPlugin;
  let failed: number;

  crawlScenarioOnce(
    {
      userAgent: HEEDBOT,
      manager: { now: () => clock },
      plugin: { onSkip },
      crawler: () =>
        cheerioCrawler({
          maxConcurrency: 4,
          maxRequestRetries: 1,
          onSkippedRequest,
          requestHandler: async (ctx) => {
            notePage(ctx);
            await ctx.enqueueLinks({ strategy: 'all' });
          },
        }),
    },
    (run) => ({ s, manager, plugin, failed } = run),
  );

  it('never requests a disallowed path: links, other origins, start URLs, redirects, sitemap entries, nofollow links', () => {
    expectNoDisallowedRequests(s);
    // Origin C's robots.txt answers 503: nothing but robots.txt is requested there.
    expect(s.c.paths()).toEqual(['/robots.txt']);
  });

  it('crawls every allowed page, including sitemap-only pages and allowed redirect targets', () => {
    // Without a browser, the page with an immediate script redirect is just a page.
    expect(new Set(handled)).toEqual(new Set([...s.heedbotMustHandle, s.a.url('/early-js-redirect')]));
  });

  it("fetches each robots.txt once, with the crawler's user-agent", () => {
    for (const origin of [s.a, s.b, s.c]) {
      expect(origin.count('/robots.txt')).toBe(1);
      expect(origin.hits.find((h) => h.path === '/robots.txt')?.userAgent).toBe(HEEDBOT);
    }
  });

  it("reads sitemaps with the crawler's user-agent: XML index, gzipped urlset and text", () => {
    for (const path of ['/sitemap-index.xml', '/sitemap-pages.xml.gz', '/sitemap.txt']) {
      expect(s.a.hits.filter((h) => h.path === path).map((h) => h.userAgent)).toEqual([HEEDBOT]);
    }
    expect(plugin.stats.sitemapsRead).toBe(3);
    expect(plugin.stats.sitemapUrlsEnqueued).toBe(2);
  });

  it('explains every skip with origin, product token and the deciding line and rule', () => {
    const linked = heedSkips.find((e) => e.url === s.a.url('/private/linked'));
    expect(linked).toMatchObject({
      origin: s.a.origin,
      productToken: 'HeedBot',
      reason: 'rules',
      stage: 'enqueue',
      line: 5,
      referrer: s.a.url('/'),
    });
    expect(linked?.rule).toMatchObject({ directive: 'disallow', pattern: '/private' });
    expect(heedSkips.find((e) => e.url === s.a.url('/secret-heed'))).toMatchObject({ reason: 'rules', line: 6 });
    expect(heedSkips.find((e) => e.url === s.a.url('/private/redirected'))).toMatchObject({
      stage: 'redirect',
      referrer: s.a.url('/redirect-to-private'),
    });
    expect(heedSkips.find((e) => e.url === s.c.url('/'))).toMatchObject({ reason: 'unreachable', httpStatus: 503 });
    expect(heedSkips.find((e) => e.url === s.a.url('/private/from-sitemap'))).toMatchObject({ stage: 'sitemap' });
    expect(heedSkips.find((e) => e.url === s.a.url('/private/start'))).toMatchObject({ stage: 'enqueue' });
    for (const path of ['/only-from-nofollow', '/only-from-heed-nofollow', '/only-from-xrt', '/rel-target']) {
      expect(heedSkips.find((e) => e.url === s.a.url(path))).toMatchObject({ reason: 'nofollow', stage: 'enqueue' });
    }
    expect(heedSkips.find((e) => e.url === s.a.url('/only-from-xrt'))?.message).toBe(
      `not enqueued from ${s.a.url('/xrt-page')}: its X-Robots-Tag header says nofollow`,
    );
    expect(heedSkips.find((e) => e.url === s.a.url('/rel-target'))?.message).toMatch(/the link is rel="nofollow"/);
    expect(linked?.message).toBe(`disallowed for HeedBot by "Disallow: /private" at ${s.a.origin}/robots.txt line 5`);
  });

  it("reports skips to Crawlee's onSkippedRequest as robotsTxt and never as failed requests", () => {
    const robotsSkips = new Set(crawleeSkips.filter((x) => x.reason === 'robotsTxt').map((x) => x.url));
    for (const event of heedSkips) expect(robotsSkips.has(event.url)).toBe(true);
    expect(failed).toBe(0);
  });

  it('counts skips by reason', () => {
    const stats = plugin.stats;
    expect(stats.skippedByReason.nofollow).toBe(4);
    expect(stats.skippedByReason.unreachable).toBe(1);
    expect(stats.skippedByReason.rules).toBe(heedSkips.filter((e) => e.reason === 'rules').length);
    expect(stats.skipped).toBe(heedSkips.length);
    expect(stats.robotsByStatus).toEqual({ '200': 2, '503': 1 });
    expect(plugin.summary()).toMatch(/allowed; \d+ URLs never fetched \(rules \d+, unreachable 1\), 4 links not followed \(nofollow\)/);
  });

  it("gives the request handler the page's robots directives; the more specific token wins", () => {
    expect(directives.get(s.a.url('/noindex-page'))).toMatchObject({ noindex: true, nofollow: false, maxSnippet: 20 });
    expect(directives.get(s.a.url('/heed-nofollow-page'))).toMatchObject({ nofollow: true, noarchive: true, noindex: false });
    expect(directives.get(s.a.url('/xrt-page'))).toMatchObject({ nofollow: true, sources: ['header'] });
    expect(directives.get(s.a.url('/page1'))).toMatchObject({ noindex: false, nofollow: false });
  });

  it('crawls an origin whose robots.txt answered 503 once it answers 200', async () => {
    s.setCRobotsOk(true);
    clock += 2 * 60 * 60 * 1000; // past the retry interval of the unreachable record
    const seen: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        requestHandler: async (ctx) => {
          seen.push(ctx.request.url);
          await ctx.enqueueLinks();
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: HEEDBOT, manager, sitemaps: false, logSummary: false });
    await crawler.run([s.c.url('/')]);
    expect(seen.sort()).toEqual([s.c.url('/'), s.c.url('/c-page')]);
    expect(s.c.count('/robots.txt')).toBe(2);
  });
});

describe('two crawlers with different user-agents sharing one manager', () => {
  let s: Scenario;
  let manager: RobotsManager;

  beforeAll(async () => {
    s = await startScenario();
    s.setCRobotsOk(true);
  });

  afterAll(async () => {
    await manager?.close();
    await s?.site.close();
  });

  it('fetch each robots.txt once and obey their own groups', async () => {
    manager = new RobotsManager({ userAgent: HEEDBOT });
    const handledBy: Record<string, string[]> = { heed: [], other: [] };
    const make = (name: 'heed' | 'other', userAgent: string) => {
      const crawler = new crawleeCheerio.CheerioCrawler(
        {
          maxConcurrency: 2,
          additionalMimeTypes: ['text/plain'],
          preNavigationHooks: [(_ctx, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent })],
          requestHandler: async (ctx) => {
            handledBy[name]!.push(new URL(ctx.request.loadedUrl ?? ctx.request.url).pathname);
            await ctx.enqueueLinks();
          },
        },
        freshConfig(),
      );
      return crawler;
    };
    const heed = make('heed', HEEDBOT);
    const other = make('other', OTHERBOT);
    await RobotsPlugin.attach(heed, { userAgent: HEEDBOT, manager, sitemaps: false });
    await RobotsPlugin.attach(other, { userAgent: OTHERBOT, manager, sitemaps: false });
    const start = [s.a.url('/'), s.a.url('/secret-heed'), s.a.url('/other-only')];
    await Promise.all([heed.run(start), other.run(start)]);

    expect(s.a.count('/robots.txt')).toBe(1);
    const pagesFor = (agent: string) => s.a.hits.filter((h) => h.userAgent === agent).map((h) => h.path);
    expect(pagesFor(HEEDBOT)).not.toContain('/secret-heed');
    expect(pagesFor(HEEDBOT)).toContain('/other-only');
    expect(pagesFor(OTHERBOT)).not.toContain('/other-only');
    expect(pagesFor(OTHERBOT)).toContain('/secret-heed');
    expect(handledBy.heed).toContain('/page1');
    expect(handledBy.other).toContain('/page1');
    expect(heed.stats.state.requestsFailed + other.stats.state.requestsFailed).toBe(0);
  });
});
