/**
 * The same site crawled by JSDOMCrawler (an HTTP crawler with a DOM) and PuppeteerCrawler (Debian's
 * Chromium through request interception): no disallowed path requested, every allowed page crawled,
 * no failed request.
 */
import type { BasicCrawler, CrawlingContext } from '@crawlee/basic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { crawleeJsdom, crawleePuppeteer, freshConfig, puppeteer } from './site.js';
import { expectNoDisallowedRequests, startScenario, type Scenario } from './scenario.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';
import { has } from '../support/requirements.js';

interface Outcome {
  handled: string[];
  skips: SkipEvent[];
  failed: number;
}

async function crawlWith<Context extends CrawlingContext>(
  make: (handled: string[]) => BasicCrawler<Context>,
  s: Scenario,
  extra: Record<string, unknown> = {},
): Promise<Outcome> {
  const handled: string[] = [];
  const skips: SkipEvent[] = [];
  const manager = new RobotsManager({ userAgent: HEEDBOT });
  const crawler = make(handled);
  await RobotsPlugin.attach(crawler, { userAgent: HEEDBOT, manager, honorRelNofollow: true, onSkip: (e) => void skips.push(e), ...extra });
  await crawler.run([s.a.url('/'), s.a.url('/private/start'), s.b.url('/blocked/start')]);
  await manager.close();
  return { handled, skips, failed: crawler.stats.state.requestsFailed };
}

describe('JSDOMCrawler with RobotsPlugin', () => {
  let s: Scenario;
  let outcome: Outcome;

  beforeAll(async () => {
    s = await startScenario();
    outcome = await crawlWith(
      (handled) =>
        new crawleeJsdom.JSDOMCrawler(
          {
            maxConcurrency: 4,
            requestHandler: async (ctx) => {
              handled.push(ctx.request.loadedUrl ?? ctx.request.url);
              await ctx.enqueueLinks({ strategy: 'all' });
            },
          },
          freshConfig(),
        ),
      s,
    );
  }, 60_000);

  afterAll(async () => {
    await s?.site.close();
  });

  it('never requests a disallowed path and crawls every allowed page', () => {
    expectNoDisallowedRequests(s);
    expect(new Set(outcome.handled)).toEqual(new Set([...s.heedbotMustHandle, s.a.url('/early-js-redirect')]));
    expect(outcome.skips.find((e) => e.url === s.a.url('/private/redirected'))).toMatchObject({ stage: 'redirect' });
    expect(outcome.failed).toBe(0);
  });
});

describe.skipIf(!has('chromium', 'test/crawlee/more-crawlers.test.ts, PuppeteerCrawler'))('PuppeteerCrawler with RobotsPlugin', () => {
  let s: Scenario;
  let outcome: Outcome;

  beforeAll(async () => {
    s = await startScenario();
    outcome = await crawlWith(
      (handled) =>
        new crawleePuppeteer.PuppeteerCrawler(
          {
            launchContext: {
              launcher: puppeteer,
              launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
            },
            headless: true,
            maxConcurrency: 2,
            maxRequestRetries: 1,
            browserPoolOptions: { useFingerprints: false },
            requestHandler: async (ctx) => {
              handled.push(ctx.request.loadedUrl ?? ctx.request.url);
              await ctx.enqueueLinks({ strategy: 'all' });
              if (ctx.request.url.endsWith('/js-redirect')) await new Promise((r) => setTimeout(r, 300));
            },
          },
          freshConfig(),
        ),
      s,
      { blockSubresources: true },
    );
  }, 120_000);

  afterAll(async () => {
    await s?.site.close();
  });

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
