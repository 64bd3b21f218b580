/**
 * Every per-origin and per-URL structure of the plugin stays within its documented bound over many
 * origins, and a forgotten entry never changes a verdict: 14,000 origins and 70,000 URLs (past the
 * bounds of 10,000 origins counted and 50,000 URLs admitted) through the real guard, queue wrapper,
 * crawl-delay scheduler and stats (a real RobotsManager whose store already holds every origin's
 * robots.txt, so nothing is fetched), with time passed in where the scheduler takes it. The bounds
 * are sizes, counted; nothing here is timed.
 *
 * `pnpm test:stress` runs this file at full scale, 20,000 origins and 100,000 URLs, and the
 * scheduler's bound at 1,000 instead of 100 (test/stress/bounds.stress.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoryStore, RobotsManager } from '@heed/manager';
import { PendingRequests, QueueHooks, MAX_ADMITTED_URLS } from '../../packages/crawlee/src/taps/request-queue.js';
import type { LogInternals, RequestInternals, RequestQueueLike } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { CrawlDelayScheduler, MAX_IDLE_ORIGINS } from '../../packages/crawlee/src/politeness/scheduler.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { MAX_COUNTED_ORIGINS } from '../../packages/crawlee/src/report/stats.js';
import { goodRecord } from '../manager/records.js';
import { testGuard } from '../support/guard.js';

const UA = 'BoundsBot/1.0 (+https://example.com/bot)';
const FULL_SCALE = process.env['HEED_BOUNDS_SCALE'] === 'full';
const ORIGINS = FULL_SCALE ? 20_000 : 14_000;
const URLS_PER_ORIGIN = 5;
/** Idle origins the scheduler tests keep, and how many origins they run through it. */
const IDLE_BOUND = FULL_SCALE ? 1_000 : 100;
const SCHEDULER_ORIGINS = 20 * IDLE_BOUND;

const originOf = (i: number) => `https://o${i}.example`;

/** A manager whose store holds a fresh robots.txt for every origin: `/private` disallowed, and a crawl-delay on every 100th. */
async function preloadedManager(origins: number): Promise<RobotsManager> {
  const store = new MemoryStore({ maxBytes: 512 * 1024 * 1024 });
  const now = Date.now();
  for (let i = 0; i < origins; i++) {
    const origin = originOf(i);
    const body = `User-agent: *\nDisallow: /private\n${i % 100 === 0 ? 'Crawl-delay: 2\n' : ''}`;
    await store.set(origin, goodRecord(origin, body, now), 3_600_000);
  }
  return new RobotsManager({ userAgent: UA, store, cacheSize: 1_000 });
}

/** A FIFO request queue with the methods the wrapper uses; what it was told is recorded. */
function fifoQueue() {
  const items: RequestInternals[] = [];
  let next = 0;
  let ids = 0;
  const handled: string[] = [];
  const take = (request: unknown) => {
    const url = typeof request === 'string' ? request : (request as { url: string }).url;
    items.push({ id: String(ids++), uniqueKey: url, url, noRetry: false, state: 0 });
  };
  const queue: RequestQueueLike = {
    addRequest: async (request) => take(request),
    addRequests: async (requests) => {
      for (const request of requests as Iterable<unknown>) take(request);
    },
    addRequestsBatched: async (requests) => {
      for await (const request of requests as AsyncIterable<unknown>) take(request);
    },
    fetchNextRequest: async () => (next < items.length ? items[next++]! : null),
    markRequestHandled: async (request) => handled.push(request.url),
    reclaimRequest: async () => undefined,
    isFinished: async () => next >= items.length,
  };
  /** A request put straight into the queue, past the wrapper (as a queue filled before attach()). */
  const inject = (url: string) => take(url);
  return { queue, handled, inject };
}

function silentLog(): LogInternals & { errors: string[] } {
  const errors: string[] = [];
  return { info() {}, warning() {}, debug() {}, error: (message: string) => errors.push(message), errors };
}

// A real collection before each reading (vitest's workers run without --expose-gc).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapMb(): number {
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe(`${ORIGINS.toLocaleString('en-US')} origins and ${(ORIGINS * URLS_PER_ORIGIN).toLocaleString('en-US')} URLs through the plugin`, () => {
  it('the admitted-URL set, the stats and the crawl-delay state stay bounded, and no disallowed URL is released', async () => {
    const manager = await preloadedManager(ORIGINS);
    const { guard, scheduler, stats, skips } = testGuard(manager as unknown as RobotsManagerLike, { userAgent: UA, crawlDelay: true });
    const log = silentLog();
    const hooks = new QueueHooks(guard, skips, new PendingRequests(), log);
    const { queue, handled } = fifoQueue();
    hooks.wrap(queue);
    const admitted = (hooks as unknown as { admitted: Set<string> }).admitted;

    const before = heapMb();
    const released: string[] = [];
    // Batches of 1,000 URLs (200 origins × 5 paths), each batch fetched back before the next:
    // every fifth URL is disallowed.
    for (let start = 0; start < ORIGINS; start += 200) {
      const batch: string[] = [];
      for (let i = start; i < start + 200; i++) {
        for (let p = 0; p < URLS_PER_ORIGIN; p++) batch.push(`${originOf(i)}/${p === 0 ? 'private/' : ''}page-${p}`);
      }
      await queue.addRequests(batch);
      for (;;) {
        const request = await queue.fetchNextRequest();
        if (!request) break;
        released.push(request.url);
      }
      expect(admitted.size).toBeLessThanOrEqual(MAX_ADMITTED_URLS);
    }
    const grown = heapMb() - before;

    // Verdicts: every allowed URL released once, no disallowed one (skipped at enqueue).
    expect(released.some((url) => url.includes('/private/'))).toBe(false);
    // Every 100th origin has a crawl-delay: its first URL goes, its other three are deferred (this
    // queue does not take them back).
    expect(stats.crawlDelayDeferrals).toBe((ORIGINS / 100) * 3);
    expect(new Set(released).size).toBe(ORIGINS * (URLS_PER_ORIGIN - 1) - stats.crawlDelayDeferrals);
    expect(stats.snapshot().skippedByReason.rules).toBe(ORIGINS);
    expect(handled).toHaveLength(0);
    // Bounds.
    expect(admitted.size).toBe(MAX_ADMITTED_URLS);
    expect(scheduler.size).toBeLessThanOrEqual(MAX_IDLE_ORIGINS + 200);
    expect((stats as unknown as { originStatus: Map<string, string> }).originStatus.size).toBe(MAX_COUNTED_ORIGINS);
    // Every origin counted once, though half were forgotten.
    expect(stats.snapshot().robotsByStatus).toEqual({ 200: ORIGINS });
    // No false bypass warning although URLs were forgotten.
    expect(log.errors).toEqual([]);
    // What grew, measured: the URLs released (four in five, held by this test), the manager's cache
    // (1,000 parsed origins), the deferral timers, and the bounded structures.
    console.log(
      `bounds: ${ORIGINS * URLS_PER_ORIGIN} URLs of ${ORIGINS} origins: heap grew ${grown.toFixed(1)} MB (admitted ${admitted.size}, scheduler ${scheduler.size} origins)`,
    );
    await manager.close();
  }, 120_000);

  it('a disallowed URL that bypassed the enqueue filter after the admitted set forgot URLs is still skipped before its fetch', async () => {
    const manager = await preloadedManager(3);
    const { guard, stats, skips } = testGuard(manager as unknown as RobotsManagerLike, { userAgent: UA, crawlDelay: false });
    const hooks = new QueueHooks(guard, skips, new PendingRequests(), silentLog());
    const { queue, handled, inject } = fifoQueue();
    hooks.wrap(queue);
    const urls = Array.from({ length: MAX_ADMITTED_URLS + 10 }, (_, i) => `${originOf(i % 3)}/page-${i}`);
    await queue.addRequests(urls);
    inject(`${originOf(0)}/private/secret`);
    inject(`${originOf(1)}/page-0`); // never admitted, allowed: fetched
    const released = new Set<string>();
    for (;;) {
      const request = await queue.fetchNextRequest();
      if (!request) break;
      released.add(request.url);
    }
    expect(released.has(`${originOf(0)}/private/secret`)).toBe(false);
    expect(handled).toEqual([`${originOf(0)}/private/secret`]);
    expect(stats.snapshot().skippedByStage['before-fetch']).toBe(1);
    expect(released.size).toBe(MAX_ADMITTED_URLS + 11);
    await manager.close();
  }, 60_000);
});

describe('a crawl-delay forgotten while requests of its origin are being released', () => {
  it('is in force for the slot: two requests of the origin released together never both go at once', async () => {
    const real = await preloadedManager(8); // o0 has a 2 s crawl-delay, o1-o7 none
    // Crawl-delays answered together once every request waits for one, so that the origins learnt
    // after o0 push it out of the scheduler before o0's requests ask for their slots.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const manager = new Proxy(real, {
      get(target, name) {
        if (name === 'crawlDelay') {
          return async (url: string) => {
            await answered;
            return url.startsWith(`${originOf(0)}/`) ? 2 : undefined;
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // Two idle origins at most: every other origin's delay, learnt in between, pushes o0 out.
    const { guard, stats, skips } = testGuard(
      manager as unknown as RobotsManagerLike,
      { userAgent: UA, crawlDelay: true },
      new CrawlDelayScheduler(60_000, 2),
    );
    const hooks = new QueueHooks(guard, skips, new PendingRequests(), silentLog());
    const { queue } = fifoQueue();
    hooks.wrap(queue);
    const urls = [`${originOf(0)}/a`, ...[1, 2, 3, 4, 5, 6, 7].map((i) => `${originOf(i)}/a`), `${originOf(0)}/b`];
    await queue.addRequests(urls);
    // Released concurrently, as a crawler with free task slots asks for them.
    const releasing = Promise.all(urls.map(() => queue.fetchNextRequest()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer();
    const released = await releasing;
    const ofSlow = released.filter((request) => request?.url.startsWith(originOf(0)));
    expect(ofSlow.map((request) => request?.url)).toEqual([`${originOf(0)}/a`]);
    expect(stats.crawlDelayDeferrals).toBe(1);
    await real.close();
  });
});

describe('CrawlDelayScheduler over many origins', () => {
  it('keeps at most its bound of idle origins, and a forgotten origin is spaced by its delay again once relearnt', () => {
    const delays = (origin: string) => (origin.endsWith('7') ? 2 : undefined); // every tenth origin: 2 s
    const s = new CrawlDelayScheduler(60_000, IDLE_BOUND);
    let now = 0;
    // Five requests per origin, 5 ms apart: each origin comes back after twenty times the bound of
    // other origins pushed it out. Wrong answers are counted, one assertion at the end.
    const wrong: string[] = [];
    let largest = 0;
    for (let r = 0; r < SCHEDULER_ORIGINS * 5; r++) {
      now += 5;
      const origin = originOf(r % SCHEDULER_ORIGINS);
      // What the queue does: learn a forgotten delay before asking for the slot.
      if (!s.knows(origin)) s.setDelay(origin, delays(origin), now);
      if (s.acquire(origin, `a${r}`, now) !== 0) wrong.push(`${origin} a${r}`);
      // A second request at once: held back by the delay, forgotten or not.
      if (s.acquire(origin, `b${r}`, now) !== (delays(origin) === undefined ? 0 : 2_000)) wrong.push(`${origin} b${r}`);
      largest = Math.max(largest, s.size);
    }
    expect(wrong).toEqual([]);
    expect(largest).toBeLessThanOrEqual(IDLE_BOUND);
  }, 120_000);

  it('never forgets an origin inside its delay: its next fetch waits, whatever came in between', () => {
    const s = new CrawlDelayScheduler(60_000, 100);
    s.setDelay('https://slow.example', 30, 0);
    expect(s.acquire('https://slow.example', 'first', 0)).toBe(0);
    // 2,000 other origins (no delay) in the next 10 s: far past the bound of 100.
    const step = 10_000 / 2_000;
    let held = 0;
    for (let i = 0; i < 2_000; i++) {
      const origin = originOf(i);
      if (!s.knows(origin)) s.setDelay(origin, undefined, i * step);
      if (s.acquire(origin, `o${i}`, i * step) !== 0) held++;
    }
    expect(held).toBe(0);
    expect(s.knows('https://slow.example')).toBe(true);
    expect(s.acquire('https://slow.example', 'second', 10_000)).toBe(20_000);
    expect(s.size).toBeLessThanOrEqual(101 + 8);
  });

  it('an origin with requests reserved far ahead is kept until the last of them is due', () => {
    const s = new CrawlDelayScheduler(60_000, 10);
    s.setDelay('https://busy.example', 1, 0);
    for (let i = 0; i < 50; i++) s.acquire('https://busy.example', `b${i}`, 0); // slots at 0, 1 s, ... 49 s
    for (let i = 0; i < 1_000; i++) {
      const origin = originOf(i);
      s.setDelay(origin, undefined, 100 + i);
      s.acquire(origin, `o${i}`, 100 + i);
    }
    // A new request of the busy origin at 20 s still queues behind the 49 s slot.
    expect(s.acquire('https://busy.example', 'late', 20_000)).toBe(30_000);
  });
});
