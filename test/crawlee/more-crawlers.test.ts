/**
 * The same site crawled by JSDOMCrawler (an HTTP crawler with a DOM) and PuppeteerCrawler (Debian's
 * Chromium through request interception): no disallowed path requested, every allowed page crawled,
 * no failed request.
 */
import { describe, expect, it } from 'vitest';
import type { SkipEvent } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { crawlScenarioOnce, followEveryLink, puppeteerCrawler } from './crawlers.js';
import { crawleeJsdom, freshConfig } from './site.js';
import { expectNoDisallowedRequests, type Scenario } from './scenario.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';

interface Outcome {
  handled: string[];
  skips: SkipEvent[];
  failed: number;
}

describe('JSDOMCrawler with RobotsPlugin', () => {
  let s: Scenario;
  const outcome: Outcome = { handled: [], skips: [], failed: 0 };

  crawlScenarioOnce(
    {
      userAgent: HEEDBOT,
      plugin: { onSkip: (e) => void outcome.skips.push(e) },
      timeout: 60_000,
      crawler: () =>
        new crawleeJsdom.JSDOMCrawler(
          { maxConcurrency: 4, requestHandler: followEveryLink((url) => void outcome.handled.push(url)) },
          freshConfig(),
        ),
    },
    (run) => ({ s, failed: outcome.failed } = run),
  );

  it('never requests a disallowed path and crawls every allowed page', () => {
    expectNoDisallowedRequests(s);
    expect(new Set(outcome.handled)).toEqual(new Set([...s.heedbotMustHandle, s.a.url('/early-js-redirect')]));
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/redirected'))).toMatchObject({ stage: 'redirect' });
    expect(outcome.failed).toBe(0);
  });
});

describe.skipIf(!has('chromium', 'test/crawlee/more-crawlers.test.ts, PuppeteerCrawler'))('PuppeteerCrawler with RobotsPlugin', () => {
  let s: Scenario;
  const outcome: Outcome = { handled: [], skips: [], failed: 0 };

  crawlScenarioOnce(
    {
      userAgent: HEEDBOT,
      plugin: { blockSubresources: true, onSkip: (e) => void outcome.skips.push(e) },
      timeout: 120_000,
      crawler: () =>
        puppeteerCrawler({
          maxConcurrency: 2,
          maxRequestRetries: 1,
          requestHandler: async (ctx) => {
            outcome.handled.push(ctx.request.loadedUrl ?? ctx.request.url);
            await ctx.enqueueLinks({ strategy: 'all' });
            if (ctx.request.url.endsWith('/js-redirect')) await new Promise((r) => setTimeout(r, 300));
          },
        }),
    },
    (run) => ({ s, failed: outcome.failed } = run),
  );

  it('never requests a disallowed path: links, redirects, script navigations, images', () => {
    expectNoDisallowedRequests(s);
    expect(s.c.paths()).toEqual(['/robots.txt']);
  });

  it('crawls every allowed page, loads allowed sub-resources, fails nothing', () => {
    expect(new Set(outcome.handled)).toEqual(new Set(s.heedbotMustHandle));
    expect(s.a.count('/ok-pixel.png')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/redirected'))).toMatchObject({ stage: 'redirect' });
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/pixel.png'))).toMatchObject({ stage: 'subresource' });
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/js-target'))).toMatchObject({ stage: 'redirect' });
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/early-js-target'))).toMatchObject({ stage: 'redirect' });
    expect(outcome.failed).toBe(0);
  });
});
