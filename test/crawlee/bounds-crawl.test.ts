/**
 * A real crawl over 200 origins (50 ports on each of four loopback addresses): every origin's
 * robots.txt is obeyed, crawl-delays are kept although the scheduler is given a bound of 20 idle
 * origins (so it forgets and relearns origins throughout the crawl), and the plugin's per-origin
 * state stays within its bounds. What the servers saw is counted; the crawl-delays are lower bounds
 * on the time between two fetches of an origin, which a busy machine only lengthens.
 *
 * `pnpm test:stress` runs this file over 2,000 origins (test/stress/bounds.stress.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { CrawlDelayScheduler } from '../../packages/crawlee/src/politeness/scheduler.js';
import type { RobotsGuard } from '../../packages/crawlee/src/guard/guard.js';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { crawleeHttp, freshConfig, page, startSiteOn, text, type Site, type SiteOrigin } from './site.js';

const UA = 'BoundsBot/1.0 (+https://heed.example/bot)';
const ORIGINS = process.env['HEED_BOUNDS_SCALE'] === 'full' ? 2_000 : 200;
const DELAY_SECS = 0.3;
/** Twenty origins (every 10th of 200, every 100th of 2,000) have a crawl-delay and three pages. */
const delayed = (i: number) => i % (ORIGINS / 20) === 0;

describe(`a crawl over ${ORIGINS} origins`, () => {
  let site: Site;
  let manager: RobotsManager;

  beforeAll(async () => {
    const addresses = Array.from({ length: ORIGINS }, (_, i) => `127.0.0.${1 + (i % 4)}`);
    site = await startSiteOn(addresses);
    site.origins.forEach((o, i) => {
      o.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /private\n${delayed(i) ? `Crawl-delay: ${DELAY_SECS}\n` : ''}`));
      for (const path of ['/', '/b', '/c', '/private/x']) o.routes.set(path, page(path, []));
    });
    manager = new RobotsManager({ userAgent: UA, maxConcurrency: 50 });
  }, 120_000);

  afterAll(async () => {
    await manager?.close();
    await site?.close();
  });

  it('obeys every robots.txt and every crawl-delay while the crawl-delay state forgets idle origins', async () => {
    /** When each fetch started, as the crawler's pre-navigation hooks (the plugin's, then this one) see it. */
    const starts = new Map<string, number>();
    const crawler = new crawleeHttp.HttpCrawler(
      {
        maxConcurrency: 40,
        maxRequestRetries: 0,
        preNavigationHooks: [({ request }) => void starts.set(request.url, Date.now())],
        requestHandler: async () => {},
      },
      freshConfig(),
    );
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false });
    // A scheduler bounded at 20 idle origins instead of 10,000, so that the crawl runs far past it.
    const guard = (robots as unknown as { guard: RobotsGuard }).guard;
    const scheduler = new CrawlDelayScheduler(robots.options.maxCrawlDelaySecs * 1000, 20);
    (guard.clock as unknown as { scheduler: CrawlDelayScheduler }).scheduler = scheduler;
    let largest = 0;
    const watch = setInterval(() => (largest = Math.max(largest, scheduler.size)), 10);

    const start: string[] = [];
    site.origins.forEach((o, i) => {
      start.push(o.url('/'), o.url('/private/x'));
      if (delayed(i)) start.push(o.url('/b'), o.url('/c'));
    });
    const loop = watchEventLoop();
    await crawler.run(start);
    const holdMs = loop.longestMs();
    loop.stop();
    clearInterval(watch);

    // What the servers saw: no disallowed path; every allowed page once.
    const disallowed = site.origins.flatMap((o) => o.hits.filter((h) => h.path.startsWith('/private')).map((h) => `${o.origin}${h.path}`));
    expect(disallowed).toEqual([]);
    site.origins.forEach((o: SiteOrigin, i) => {
      expect(o.count('/')).toBe(1);
      expect(o.count('/robots.txt')).toBe(1);
      if (!delayed(i)) return;
      const times = o.hits.filter((h) => ['/', '/b', '/c'].includes(h.path)).map((h) => h.at);
      expect(times).toHaveLength(3);
      // Counted from when each fetch starts (the scheduler's promise): at least the delay apart,
      // in the order they started (the crawler may take /c before /b).
      const began = ['/', '/b', '/c'].map((path) => starts.get(o.url(path))!).sort((a, b) => a - b);
      for (let k = 1; k < began.length; k++) expect(began[k]! - began[k - 1]!).toBeGreaterThanOrEqual(DELAY_SECS * 1000 - 10);
      // At the server, less what the first request of an origin spends connecting, and the longest
      // hold of this process's event loop, where the site stamps requests: a fetch let go at once
      // would arrive ~0 ms apart.
      for (let k = 1; k < times.length; k++) expect(times[k]! - times[k - 1]!).toBeGreaterThanOrEqual(DELAY_SECS * 1000 - 150 - holdMs);
    });
    const stats = robots.stats;
    expect(stats.skippedByReason.rules).toBe(ORIGINS);
    expect(stats.robotsByStatus).toEqual({ 200: ORIGINS });
    expect(stats.crawlDelayDeferrals).toBeGreaterThan(0);
    // Bounded: 20 idle origins plus those inside their delay (a few at a time).
    expect(largest).toBeLessThan(60);
    expect(crawler.stats.state.requestsFailed).toBe(0);
    console.log(`bounds crawl: ${ORIGINS} origins, the crawl-delay scheduler held at most ${largest} origins`);
  }, 300_000);
});
