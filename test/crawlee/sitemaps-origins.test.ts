/**
 * The sitemap feeder remembers the origins it has read within a byte bound (a
 * per-origin structure that only grew). A crawl over more origins than the bound forgets the least
 * recently seen; an origin seen on its pages stays; an origin still being fed is never read twice.
 * The manager here is a stand-in that counts `sitemaps()` calls: the feeder asks it once per read.
 */
import { describe, expect, it } from 'vitest';
import { SITEMAP_OPTIONS } from '../../packages/crawlee/src/options.js';
import { SitemapFeeder } from '../../packages/crawlee/src/sitemaps/feeder.js';
import { MAX_RECENT_ORIGIN_BYTES, RecentOrigins } from '../../packages/crawlee/src/sitemaps/recent-origins.js';
import { PluginStats } from '../../packages/crawlee/src/report/stats.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';

const origin = (i: number) => `https://host-${i}.example.com`;
/** 164-character origins (labels under 63 characters): about 21,000 fit in the 8 MiB bound. */
const longOrigin = (i: number) =>
  `https://host-${i}.${'a-long-label-'.repeat(4)}x.${'another-long-label-'.repeat(3)}y.${'b'.repeat(20)}.example.com`;

describe('RecentOrigins', () => {
  it('200,000 origins: holds at most its byte bound, forgetting the least recently seen', () => {
    const recent = new RecentOrigins();
    let fresh = 0;
    for (let i = 0; i < 200_000; i++) {
      if (!recent.touch(origin(i))) fresh++;
      // Origin 0 is seen again and again, like a site being crawled.
      if (i % 1_000 === 0) recent.touch(origin(0));
    }
    expect(fresh).toBe(200_000);
    expect(recent.byteSize).toBeLessThanOrEqual(MAX_RECENT_ORIGIN_BYTES);
    // 8 MiB of 30-character origins: tens of thousands, not all 200,000.
    expect(recent.size).toBeGreaterThan(50_000);
    expect(recent.size).toBeLessThan(100_000);
    expect(recent.touch(origin(199_999))).toBe(true);
    expect(recent.touch(origin(0))).toBe(true);
    expect(recent.touch(origin(1))).toBe(false);
  });
});

describe('the sitemap feeder over more origins than it remembers', () => {
  function start() {
    const reads = new Map<string, number>();
    const held = new Map<string, () => void>();
    const manager = {
      sitemaps: async (url: string) => {
        const o = new URL(url).origin;
        reads.set(o, (reads.get(o) ?? 0) + 1);
        // A held origin's read stays under way until released.
        if (o.startsWith('https://held')) await new Promise<void>((resolve) => held.set(o, resolve));
        return [];
      },
    } as unknown as RobotsManagerLike;
    const feeder = new SitemapFeeder(SITEMAP_OPTIONS.resolve({}), {
      manager,
      userAgent: 'HeedBot/1.0',
      stats: new PluginStats(),
      enqueue: async (urls) => urls.length,
      pending: () => 0,
      warn: () => {},
      admit: async () => undefined,
    });
    const seen = (o: string) => feeder.originSeen(o, `${o}/page`);
    return { feeder, reads, held, seen };
  }

  it('reads a forgotten origin again, a recently seen one and one still being fed only once', async () => {
    const { feeder, reads, held, seen } = start();
    const crawled = 'https://crawled.example.com';
    const slow = 'https://held.example.com';
    seen(crawled);
    seen(slow);
    const n = 30_000;
    expect(n * (2 * longOrigin(n).length + 64)).toBeGreaterThan(1.1 * MAX_RECENT_ORIGIN_BYTES);
    for (let i = 0; i < n; i++) {
      seen(longOrigin(i));
      if (i % 1_000 === 0) {
        seen(crawled);
        // A crawl meets origins over time: let their tasks run (and vitest's worker answer its runner).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // Forgotten (30,000 origins since, over the 8 MiB bound) but still being read: not read again.
    seen(slow);
    expect(reads.get(slow)).toBe(1);
    held.get(slow)!();
    await feeder.whenIdle();

    seen(crawled);
    seen(longOrigin(n - 1));
    seen(longOrigin(0));
    expect(reads.get(crawled)).toBe(1);
    expect(reads.get(longOrigin(n - 1))).toBe(1);
    // The least recently seen origin was forgotten: seen again, it is read again.
    expect(reads.get(longOrigin(0))).toBe(2);
    await feeder.whenIdle();
  });
});
