/**
 * A real PlaywrightCrawler (Debian's Chromium) with the plugin attached, crawling the local
 * three-origin site: redirects are checked before the browser follows them, script navigations
 * and (with `blockSubresources`) images robots.txt disallows are never requested.
 */
import { describe, expect, it } from 'vitest';
import type { RobotsPlugin } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { crawlRecord, crawlScenarioOnce, playwrightCrawler } from './crawlers.js';
import { expectNoDisallowedRequests, type Scenario } from './scenario.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';

describe.skipIf(!has('chromium', 'test/crawlee/playwright.test.ts'))('PlaywrightCrawler with RobotsPlugin', () => {
  let s: Scenario;
  const { handled, directives, heedSkips, crawleeSkips, onSkip, onSkippedRequest, notePage } = crawlRecord();
  let plugin: RobotsPlugin;
  let failed: number;

  crawlScenarioOnce(
    {
      userAgent: HEEDBOT,
      plugin: { blockSubresources: true, onSkip },
      timeout: 120_000,
      crawler: () =>
        playwrightCrawler({
          maxConcurrency: 2,
          maxRequestRetries: 1,
          onSkippedRequest,
          requestHandler: async (ctx) => {
            notePage(ctx);
            await ctx.enqueueLinks({ strategy: 'all' });
            // Give script navigations a moment to start while the page is still open.
            if (ctx.request.url.endsWith('/js-redirect')) await ctx.page.waitForTimeout(300);
          },
        }),
    },
    (run) => ({ s, plugin, failed } = run),
  );

  it('never requests a disallowed path: links, redirects, script navigations, images, sitemap entries', () => {
    expectNoDisallowedRequests(s);
    expect(s.c.paths()).toEqual(['/robots.txt']);
  });

  it('crawls every allowed page and loads allowed sub-resources', () => {
    expect(new Set(handled)).toEqual(new Set(s.heedbotMustHandle));
    expect(s.a.count('/ok-pixel.png')).toBeGreaterThan(0);
  });

  it('reports redirect and sub-resource skips, never a failed request', () => {
    expect(heedSkips.find((e) => e.url === s.a.url('/private/redirected'))).toMatchObject({
      stage: 'redirect',
      reason: 'rules',
      referrer: s.a.url('/redirect-to-private'),
    });
    expect(heedSkips.find((e) => e.url === s.b.url('/blocked/redirected'))).toMatchObject({ stage: 'redirect', origin: s.b.origin });
    expect(heedSkips.find((e) => e.url === s.a.url('/private/pixel.png'))).toMatchObject({ stage: 'subresource' });
    // A script navigation after load is stopped and the page handled; one during loading ends the
    // request as a skip, like a redirect.
    expect(heedSkips.find((e) => e.url === s.a.url('/private/js-target'))).toMatchObject({ stage: 'redirect' });
    expect(heedSkips.find((e) => e.url === s.a.url('/private/early-js-target'))).toMatchObject({
      stage: 'redirect',
      referrer: s.a.url('/early-js-redirect'),
    });
    const robotsSkips = new Set(crawleeSkips.filter((x) => x.reason === 'robotsTxt').map((x) => x.url));
    for (const event of heedSkips.filter((e) => e.stage !== 'subresource')) expect(robotsSkips.has(event.url)).toBe(true);
    expect(failed).toBe(0);
    expect(plugin.stats.skippedByStage.redirect).toBeGreaterThanOrEqual(2);
  });

  it('reads robots directives from the rendered page and the response header', () => {
    expect(directives.get(s.a.url('/noindex-page'))).toMatchObject({ noindex: true, nofollow: false });
    expect(directives.get(s.a.url('/heed-nofollow-page'))).toMatchObject({ nofollow: true });
    expect(directives.get(s.a.url('/xrt-page'))).toMatchObject({ nofollow: true });
  });
});
