/**
 * The sitemap feeder hands its backlog to the crawler one batch per event-loop turn (a
 * 50,000-URL sitemap fed into a CheerioCrawler held the loop 110–130 ms). Crawlee's in-memory queue
 * adds a batch without waiting on I/O, so batches chained by `await` alone ran back to back as
 * microtasks, and the hold grew with the backlog. Here the backlog is built on purpose: the crawler
 * reports a full queue (back-pressure) until the 4,000 URLs are read, then drains; the turn of the
 * event loop each batch is added in is counted, not timed. How long a real crawler's queue holds the
 * loop, at full scale, is in test/stress/sitemaps.stress.ts.
 */
import { afterAll, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { SITEMAP_OPTIONS } from '../../packages/crawlee/src/options.js';
import { SitemapFeeder } from '../../packages/crawlee/src/sitemaps/feeder.js';
import { PluginStats } from '../../packages/crawlee/src/report/stats.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { startSite, text, type Site } from './site.js';
import { countTurns } from '../support/growth.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const sites: Site[] = [];
afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
});

it('a backlog of 4,000 URLs reaches the queue one batch per turn: the event loop is never held for the whole backlog', async () => {
  const site = await startSite(1);
  sites.push(site);
  const a = site.origins[0]!;
  const urls = Array.from({ length: 4_001 }, (_, i) => `<url><loc>${a.url(`/item-${i}`)}</loc></url>`).join('\n');
  a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/sitemap.xml')}\n`));
  a.routes.set('/sitemap.xml', { headers: { 'content-type': 'application/xml' }, body: `<urlset>${urls}</urlset>` });

  const manager = new RobotsManager({ userAgent: UA });
  let readAll!: () => void;
  const read = new Promise<void>((resolve) => (readAll = resolve));
  let queueFull = true;
  const added: string[] = [];
  /** The turn of the event loop each batch was added in. */
  const batchTurns: number[] = [];
  let loop: ReturnType<typeof countTurns> | undefined;
  const stats = new PluginStats();
  const feeder = new SitemapFeeder(SITEMAP_OPTIONS.resolve({ maxUrlsPerOrigin: 4_000 }), {
    manager: manager as unknown as RobotsManagerLike,
    userAgent: UA,
    stats,
    // The reader stops at maxUrlsPerOrigin and says so: the whole backlog is read.
    warn: (message) => {
      if (message.includes('sitemaps.maxUrlsPerOrigin')) readAll();
    },
    pending: () => (queueFull ? 1_000_000 : 0),
    admit: async () => undefined,
    enqueue: async (entries) => {
      batchTurns.push(loop?.turns ?? -1);
      added.push(...entries.map((e) => e.url));
      return entries.length;
    },
  });
  try {
    feeder.originSeen(a.origin, a.url('/'));
    await read;
    loop = countTurns();
    queueFull = false;
    await feeder.whenIdle();
    loop.stop();
    expect(added).toHaveLength(4_000);
    expect(new Set(added).size).toBe(4_000);
    expect(stats.sitemapUrlsEnqueued).toBe(4_000);
    // 40 batches of 100, each in a turn of its own: the loop is held for one batch at a time, never
    // for the backlog (back to back, all 40 would be added in one turn).
    expect(batchTurns).toHaveLength(40);
    expect(new Set(batchTurns).size).toBe(40);
  } finally {
    feeder.close();
    await manager.close();
  }
});
