/**
 * Crawl-delay counted from when a request really leaves, and `Retry-After` in one process: a
 * CheerioCrawler whose first request is held up inside got (after the pre-navigation hooks, where
 * got-scraping builds its headers: about half a second on a first request under load) still
 * reaches the site a full delay before its next page; a `429` pauses its origin for the crawler.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { DEFAULT_RETRY_AFTER_SECS, retryAfterMs } from '../../packages/crawlee/src/politeness/retry-after.js';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const DELAY_MS = 500;
/** What got does before the first request leaves, slowed down the way a loaded machine slows it. */
const FIRST_REQUEST_HELD_MS = 700;

let site: Site;
let manager: RobotsManager;

beforeAll(async () => {
  site = await startSite(2);
  manager = new RobotsManager({ userAgent: UA });
});
afterAll(async () => {
  await manager?.close();
  await site?.close();
});

/** A crawler whose first request waits `FIRST_REQUEST_HELD_MS` in got's `beforeRequest`, like got-scraping's header generator. */
function crawlerHoldingItsFirstRequest(handled: string[]) {
  let first = true;
  return new crawleeCheerio.CheerioCrawler(
    {
      maxRequestRetries: 1,
      preNavigationHooks: [
        (_context, gotOptions) => {
          const hold = first;
          first = false;
          const hooks = (gotOptions.hooks ?? {}) as { beforeRequest?: (() => Promise<void>)[] };
          const slowHeaders = async () => {
            if (hold) await new Promise((resolve) => setTimeout(resolve, FIRST_REQUEST_HELD_MS));
          };
          gotOptions.hooks = { ...hooks, beforeRequest: [...(hooks.beforeRequest ?? []), slowHeaders] } as NonNullable<
            typeof gotOptions.hooks
          >;
        },
      ],
      requestHandler: async ({ request }) => void handled.push(request.url),
    },
    freshConfig(),
  );
}

function pageTimes(origin: SiteOrigin): number[] {
  return origin.hits.filter((hit) => hit.path !== '/robots.txt').map((hit) => hit.at);
}

describe('crawl-delay counted from when the request leaves', () => {
  it("keeps a worker's first two pages the delay apart as the site saw them, however late the first left", async () => {
    const loop = watchEventLoop();
    onTestFinished(() => loop.stop());
    const origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`));
    origin.routes.set('/a', page('a', []));
    origin.routes.set('/b', page('b', []));
    const handled: string[] = [];
    const crawler = crawlerHoldingItsFirstRequest(handled);
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, logSummary: false });
    await crawler.run([origin.url('/a'), origin.url('/b')]);
    expect(handled.sort()).toEqual([origin.url('/a'), origin.url('/b')]);
    const [first, second] = pageTimes(origin);
    expect(second! - first!).toBeGreaterThanOrEqual(DELAY_MS - 50 - loop.longestMs());
  }, 30_000);
});

describe('Retry-After in one crawler', () => {
  it('pauses the origin of a page answered 429 until its Retry-After has passed', async () => {
    const origin = site.origins[1]!;
    origin.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    let tooManyAt = 0;
    origin.routes.set('/busy', () => {
      if (tooManyAt > 0) return page('busy', []);
      tooManyAt = Date.now();
      return text('slow down', 429, { 'retry-after': '1' });
    });
    for (const path of ['/x', '/y', '/z']) origin.routes.set(path, page(path, []));
    const handled: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      { maxRequestRetries: 2, maxConcurrency: 1, requestHandler: async ({ request }) => void handled.push(request.url) },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, logSummary: false });
    await crawler.run(['/busy', '/x', '/y', '/z'].map((path) => origin.url(path)));
    expect(handled.sort()).toEqual(['/busy', '/x', '/y', '/z'].map((path) => origin.url(path)).sort());
    const after = pageTimes(origin).filter((at) => at > tooManyAt);
    expect(after).toHaveLength(4); // the three others and /busy again
    expect(Math.min(...after) - tooManyAt).toBeGreaterThanOrEqual(1_000 - 50);
  }, 30_000);
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['seconds', 429, '3', 3_000],
    ['an HTTP date', 503, 'Thu, 01 Jan 2026 00:00:10 GMT', 10_000],
    ['a date in the past', 429, 'Wed, 31 Dec 2025 23:00:00 GMT', 0],
    ['no header: the default backoff', 503, undefined, DEFAULT_RETRY_AFTER_SECS * 1000],
    ['an unreadable value: the default backoff', 429, '-1', DEFAULT_RETRY_AFTER_SECS * 1000],
    ['words before a number (Date.parse reads a date in 2001): the default backoff', 503, 'soon 5', DEFAULT_RETRY_AFTER_SECS * 1000],
    ['a day: capped', 429, '86400', 60_000],
    ['another status: no pause', 500, '3', undefined],
  ])('%s', (_what, status, header, expected) => {
    expect(retryAfterMs(status, header, now, 60_000)).toBe(expected);
  });
});
