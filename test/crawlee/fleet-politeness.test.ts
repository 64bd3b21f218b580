/**
 * Politeness across a fleet: three worker processes (real CheerioCrawlers with the plugin, each a
 * RobotsManager on one real redis-server) crawl one origin with `Crawl-delay: 0.5`, and the test
 * asserts what the origin saw: the gaps between page requests of all workers together, no request
 * inside a `Retry-After`, and a crawl that goes on (each worker on its own clock) when Redis dies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, RedisStore, RobotsManager } from '@heed/manager';
import { recordingLog } from '../manager/helpers.js';
import { redisCommand, startRedis, type RedisServer } from '../manager/redis-helpers.js';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { has } from '../support/requirements.js';
import { pageHits, runWorker, smallestGap, type WorkerResult } from './fleet.js';
import { page, startSite, text, type Site, type SiteOrigin } from './site.js';

const DELAY_MS = 500;
/**
 * How much earlier than the delay a request may seem to arrive: the site stamps a request when its
 * event loop (this test process's) reads it, a few ms after it left, and later still by the
 * longest time that loop was held up (`slackMs`: a busy machine's scheduler), which shortens the
 * gap after a late stamp by as much. Lower bounds only: no load can fail them.
 */
const TOLERANCE_MS = 50;
let slackMs = 0;
const WORKERS = 3;
const PAGES_PER_WORKER = 3;

/** The pages of worker `w` on `origin`. */
function pagesOf(origin: SiteOrigin, w: number): string[] {
  return Array.from({ length: PAGES_PER_WORKER }, (_, p) => origin.url(`/w${w}/p${p}`));
}

/** An origin with `Crawl-delay: 0.5` and every worker's pages. */
function programOrigin(origin: SiteOrigin): void {
  origin.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`));
  for (let w = 0; w < WORKERS; w++) {
    for (let p = 0; p < PAGES_PER_WORKER; p++) origin.routes.set(`/w${w}/p${p}`, page(`w${w} p${p}`, []));
  }
}

describe.skipIf(!has('redis-server', 'test/crawlee/fleet-politeness.test.ts'))('a fleet of three workers on one RedisStore', () => {
  let redis: RedisServer;
  let site: Site;
  let workers: WorkerResult[];
  let paced: SiteOrigin;
  let throttled: SiteOrigin;
  let tooManyAt = 0;

  beforeAll(async () => {
    redis = await startRedis();
    site = await startSite(2);
    const loop = watchEventLoop();
    [paced, throttled] = site.origins as [SiteOrigin, SiteOrigin];
    programOrigin(paced);
    programOrigin(throttled);
    // The first page request of the fleet to this origin, whichever worker sends it, is answered
    // 429 with Retry-After: 2; every later one (its retry included) 200.
    for (let w = 0; w < WORKERS; w++) {
      for (let p = 0; p < PAGES_PER_WORKER; p++) {
        throttled.routes.set(`/w${w}/p${p}`, () => {
          if (tooManyAt > 0) return page(`w${w} p${p}`, []);
          tooManyAt = Date.now();
          return text('slow down', 429, { 'retry-after': '2' });
        });
      }
    }
    workers = await Promise.all(
      Array.from({ length: WORKERS }, (_, w) => runWorker(redis.url, [...pagesOf(paced, w), ...pagesOf(throttled, w)])),
    );
    slackMs = loop.longestMs();
    loop.stop();
  }, 90_000);
  afterAll(async () => {
    await site?.close();
    await redis?.stop();
  });

  it('crawls every page once, one robots.txt fetch per origin for the fleet', () => {
    for (let w = 0; w < WORKERS; w++) {
      expect(workers[w]!.failed).toBe(0);
      expect([...workers[w]!.handled].sort()).toEqual([...pagesOf(paced, w), ...pagesOf(throttled, w)].sort());
    }
    expect(paced.count('/robots.txt')).toBe(1);
    expect(throttled.count('/robots.txt')).toBe(1);
  });

  it('keeps Crawl-delay across the workers: page requests reach the origin at least the delay apart', () => {
    const hits = pageHits(paced);
    expect(hits).toHaveLength(WORKERS * PAGES_PER_WORKER);
    const gap = smallestGap(hits);
    console.log(`fleet of ${WORKERS}, Crawl-delay ${DELAY_MS} ms: smallest gap between page requests ${gap} ms`);
    expect(gap).toBeGreaterThanOrEqual(DELAY_MS - TOLERANCE_MS - slackMs);
  });

  it('keeps a 429 Retry-After for every worker: no page request reaches the origin before it ends', () => {
    expect(tooManyAt).toBeGreaterThan(0);
    const after = pageHits(throttled).filter((hit) => hit.at > tooManyAt);
    // Every other page of the fleet, and the answered one again: all after the pause.
    expect(after).toHaveLength(WORKERS * PAGES_PER_WORKER);
    const first = Math.min(...after.map((hit) => hit.at));
    console.log(`429 Retry-After: 2 s: the next page request of the fleet came ${first - tooManyAt} ms later`);
    expect(first - tooManyAt).toBeGreaterThanOrEqual(2_000 - TOLERANCE_MS - slackMs);
    expect(smallestGap(pageHits(throttled))).toBeGreaterThanOrEqual(DELAY_MS - TOLERANCE_MS - slackMs);
  });
});

describe.skipIf(!has('redis-server', 'test/crawlee/fleet-politeness.test.ts'))('Redis killed in the middle of a fleet crawl', () => {
  let redis: RedisServer;
  let site: Site;
  let killed = false;

  beforeAll(async () => {
    redis = await startRedis();
    site = await startSite(1);
  });
  afterAll(async () => {
    await site?.close();
    if (!killed) await redis?.stop();
  });

  it('goes on with each worker on its own clock, and says so once per worker', async () => {
    const origin = site.origins[0]!;
    programOrigin(origin);
    // Two workers are enough to show each going on alone, and start faster on a busy machine.
    const count = 2;
    const running = Promise.all(Array.from({ length: count }, (_, w) => runWorker(redis.url, pagesOf(origin, w))));
    // Killed once the fleet's clock has let a few pages go.
    const kill = (async () => {
      const deadline = Date.now() + 60_000;
      while (pageHits(origin).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      killed = true;
      await redis.stop();
      return pageHits(origin).length;
    })();
    const workers = await running;
    const hitsWhenKilled = await kill;
    expect(hitsWhenKilled).toBeLessThan(count * PAGES_PER_WORKER);
    for (let w = 0; w < count; w++) {
      expect(workers[w]!.failed).toBe(0);
      expect([...workers[w]!.handled].sort()).toEqual(pagesOf(origin, w));
      expect(workers[w]!.warnings).toEqual([expect.stringMatching(/Redis is unreachable.*crawl-delay/)]);
      // Each worker's own requests still keep the delay (its own clock took over).
      const own = pageHits(origin).filter((hit) => hit.path.startsWith(`/w${w}/`));
      expect(smallestGap(own)).toBeGreaterThanOrEqual(DELAY_MS - TOLERANCE_MS);
    }
  }, 90_000);
});

describe.skipIf(!has('redis-server', 'test/crawlee/fleet-politeness.test.ts'))("RedisStore's crawl clock", () => {
  let redis: RedisServer;
  let store: RedisStore;

  beforeAll(async () => {
    redis = await startRedis();
    store = new RedisStore({ url: redis.url, keyPrefix: 'clock:', log: recordingLog().log });
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('is what RobotsManager.crawlClock() hands the plugin; a store without one gives none', async () => {
    const shared = new RobotsManager({ userAgent: 'HeedBot/1.0', store });
    const alone = new RobotsManager({ userAgent: 'HeedBot/1.0', store: new MemoryStore() });
    expect(shared.crawlClock()).toBeDefined();
    expect(alone.crawlClock()).toBeUndefined();
    expect((await shared.crawlClock()!.reserveCrawlSlot('http://m.example', 1_000))?.waitMs).toBe(0);
    await shared.close();
    await alone.close();
  });

  it('hands out one slot per delay, keeps a held slot, and lets its key expire once idle', async () => {
    const origin = 'http://a.example';
    const first = await store.reserveCrawlSlot(origin, 1_000);
    expect(first?.waitMs).toBe(0);
    const second = await store.reserveCrawlSlot(origin, 1_000);
    expect(second?.at).toBe(first!.at + 1_000);
    // Coming back for its slot takes no new one.
    expect((await store.reserveCrawlSlot(origin, 1_000, second!.at))?.at).toBe(second!.at);
    expect((await store.reserveCrawlSlot(origin, 1_000))?.at).toBe(first!.at + 2_000);
    // Bounded: the key outlives its last slot by the delay and a second, no more.
    const ttl = Number((await redisCommand(redis.port, 'PTTL', `clock:pace:${origin}`)).slice(1));
    expect(ttl).toBeGreaterThan(2_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('holds sends one delay apart and pauses an origin for the whole fleet', async () => {
    const origin = 'http://b.example';
    expect(await store.claimCrawlSend(origin, 1_000)).toBe(0);
    expect(await store.claimCrawlSend(origin, 1_000)).toBeGreaterThan(900);
    const other = 'http://c.example';
    expect(await store.pauseOrigin(other, 3_000)).toBe(true);
    // A pause holds an origin without a delay too, for slots and for sends.
    expect((await store.reserveCrawlSlot(other, 0))?.waitMs).toBeGreaterThan(2_500);
    expect(await store.claimCrawlSend(other, 0)).toBeGreaterThan(2_500);
    // A held slot a pause has moved past is given up for one after the pause.
    const slot = await store.reserveCrawlSlot(origin, 1_000);
    await store.pauseOrigin(origin, 10_000);
    expect((await store.reserveCrawlSlot(origin, 1_000, slot!.at))?.waitMs).toBeGreaterThan(9_000);
  });
});
