/**
 * The crawl-delay scheduler hands out one slot per origin per delay, in order, and never holds
 * back an origin without a delay. Time is passed in, so nothing here waits.
 */
import { describe, expect, it } from 'vitest';
import { CrawlDelayScheduler } from '../../packages/crawlee/src/politeness/scheduler.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import type { SharedCrawlClock } from '@heed/manager';
import { testGuard } from '../support/guard.js';

/**
 * A guard whose manager knows one thing: every origin's robots.txt says `Crawl-delay: seconds`;
 * with `crawlClock`, the manager's store keeps a fleet's crawl clock.
 */
function guardWith(seconds: number, maxDelayMs: number, crawlClock?: () => SharedCrawlClock) {
  const unused = async () => {
    throw new Error('not asked here');
  };
  const manager: RobotsManagerLike = {
    crawlDelay: async () => seconds,
    decide: unused,
    sitemaps: unused,
    prefetch: unused,
    close: unused,
    ...(crawlClock ? { crawlClock } : {}),
  };
  return testGuard(manager, { userAgent: 'HeedBot/1.0', crawlDelay: true }, new CrawlDelayScheduler(maxDelayMs));
}

describe('CrawlDelayScheduler', () => {
  it('lets the first fetch go and spaces the next ones by the delay, in order', () => {
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 2);
    expect(s.acquire('http://a', 'r1', 1_000)).toBe(0);
    expect(s.acquire('http://a', 'r2', 1_100)).toBe(1_900); // slot at 3,000
    expect(s.acquire('http://a', 'r3', 1_200)).toBe(3_800); // slot at 5,000
    // r2 comes back at its slot and goes; coming back early it is told the rest of its wait.
    expect(s.acquire('http://a', 'r3', 4_000)).toBe(1_000);
    expect(s.acquire('http://a', 'r2', 3_000)).toBe(0);
    expect(s.acquire('http://a', 'r3', 5_000)).toBe(0);
    expect(s.acquire('http://a', 'r4', 6_000)).toBe(1_000);
  });

  it('does not hold back other origins', () => {
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 10);
    expect(s.acquire('http://a', 'a1', 0)).toBe(0);
    expect(s.acquire('http://b', 'b1', 1)).toBe(0);
    expect(s.acquire('http://b', 'b2', 2)).toBe(0);
  });

  it('caps the delay and ignores a missing, zero or negative one', () => {
    const s = new CrawlDelayScheduler(5_000);
    s.setDelay('http://a', 3_600);
    s.setDelay('http://b', 0);
    s.setDelay('http://c', undefined);
    expect(s.acquire('http://a', 'a1', 0)).toBe(0);
    expect(s.acquire('http://a', 'a2', 0)).toBe(5_000);
    for (const origin of ['http://b', 'http://c', 'http://unknown']) {
      expect(s.acquire(origin, `${origin}1`, 0)).toBe(0);
      expect(s.acquire(origin, `${origin}2`, 0)).toBe(0);
    }
  });

  it('spaces the second fetch even when the delay was learnt after the first', () => {
    const s = new CrawlDelayScheduler(60_000);
    expect(s.acquire('http://a', 'a1', 0)).toBe(0);
    s.setDelay('http://a', 1);
    expect(s.acquire('http://a', 'a2', 10)).toBe(990);
  });
});

describe('the origin let go at once (no clock lookups for a run of its requests)', () => {
  it('answers yes only for the origin last let go without a delay, until a delay, a pause or a forgetting', () => {
    const s = new CrawlDelayScheduler(60_000, 2);
    expect(s.goesAtOnce('http://a')).toBe(false); // nothing known yet
    s.setDelay('http://a', 0);
    expect(s.acquire('http://a', 'a1', 0)).toBe(0);
    expect(s.goesAtOnce('http://a')).toBe(true);
    expect(s.goesAtOnce('http://b')).toBe(false);
    // The delay learnt later (a robots.txt fetched again) holds the next request back.
    s.setDelay('http://a', 1);
    expect(s.goesAtOnce('http://a')).toBe(false);
    expect(s.acquire('http://a', 'a2', 10)).toBe(990);

    s.setDelay('http://b', 0);
    expect(s.acquire('http://b', 'b1', 0)).toBe(0);
    expect(s.goesAtOnce('http://b')).toBe(true);
    s.pause('http://b', 5_000, 0); // a 429 or 503 answer
    expect(s.goesAtOnce('http://b')).toBe(false);
    expect(s.acquire('http://b', 'b2', 100)).toBe(4_900);

    s.setDelay('http://c', 0);
    expect(s.acquire('http://c', 'c1', 10_000)).toBe(0);
    expect(s.goesAtOnce('http://c')).toBe(true);
    // Past the bound (two idle origins) a new origin makes the scheduler forget an idle one.
    s.setDelay('http://d', 0);
    expect(s.goesAtOnce('http://c')).toBe(false);
  });

  it('is never taken by the guard with a fleet clock: another process may have paused the origin', async () => {
    const reserved: string[] = [];
    const { guard, scheduler } = guardWith(0, 60_000, () => ({
      reserveCrawlSlot: async (origin: string) => {
        reserved.push(origin);
        return { waitMs: 0, at: 0 };
      },
      claimCrawlSend: async () => 0,
      confirmCrawlSend: async () => true,
      pauseOrigin: async () => true,
    }));
    scheduler.setDelay('http://a.test', 0);
    expect(scheduler.acquire('http://a.test', 'local', 0)).toBe(0);
    expect(scheduler.goesAtOnce('http://a.test')).toBe(true);
    expect(guard.clock!.goesAtOnce('http://a.test')).toBe(false);
    expect(await guard.clock!.slotFor('http://a.test', 'http://a.test/', 'r1')).toBe(0);
    expect(reserved).toEqual(['http://a.test']);
  });
});

describe('a long queue of one origin', () => {
  it('never asks a timer for more than Node can wait (a longer one would fire after 1 ms)', async () => {
    const { timerDelay } = await import('../../packages/crawlee/src/politeness/scheduler.js');
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 60);
    let last = 0;
    for (let i = 0; i < 40_000; i++) last = s.acquire('http://a', `r${i}`, 0);
    expect(last).toBeGreaterThan(2 ** 31 - 1); // the slot itself is that far away
    expect(timerDelay(last)).toBe(2 ** 31 - 1);
    expect(timerDelay(1_500)).toBe(1_500);
    // Woken early by the cap, the request is told the rest of its wait and keeps its slot.
    expect(s.acquire('http://a', 'r39999', 2 ** 31 - 1)).toBe(last - (2 ** 31 - 1));
  });
});

describe('a fetch that starts late', () => {
  it('moves the next slot: requests of one origin reach it at least the delay apart', () => {
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 0.4);
    expect(s.acquire('http://a', 'r1', 0)).toBe(0);
    expect(s.acquire('http://a', 'r2', 1)).toBe(399); // slot at 400
    expect(s.claimSend('http://a', 380)).toBe(0); // a busy machine: r1 left 380 ms after it was let go
    expect(s.acquire('http://a', 'r2', 400)).toBe(380); // not before 780
    expect(s.acquire('http://a', 'r2', 780)).toBe(0);
    expect(s.claimSend('http://a', 790)).toBe(0);
    expect(s.acquire('http://a', 'r3', 800)).toBe(390); // a new request: 400 after r2's start
    expect(s.acquire('http://a', 'r3', 1_190)).toBe(0);
  });

  it('holds a request let go on time while the one before it left late, until the delay since that one', () => {
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 1);
    expect(s.acquire('http://a', 'r1', 0)).toBe(0);
    expect(s.acquire('http://a', 'r2', 10)).toBe(990);
    expect(s.acquire('http://a', 'r2', 1_000)).toBe(0); // its slot: r1 has not reported leaving yet
    expect(s.claimSend('http://a', 1_100)).toBe(0); // r1 leaves 1.1 s late (a first request under load)
    expect(s.claimSend('http://a', 1_120)).toBe(980); // r2, right behind it, waits a full delay
    expect(s.claimSend('http://a', 2_100)).toBe(0);
  });
});

describe('a Retry-After pause', () => {
  it('holds every slot and every send of the origin until it ends, reserved ones included', () => {
    const s = new CrawlDelayScheduler(60_000);
    s.setDelay('http://a', 0);
    s.setDelay('http://b', 1);
    expect(s.acquire('http://b', 'b1', 0)).toBe(0);
    expect(s.acquire('http://b', 'b2', 0)).toBe(1_000);
    s.pause('http://a', 3_000, 0);
    s.pause('http://b', 3_000, 0);
    s.pause('http://b', 2_000, 0); // a shorter pause does not shorten the longer one
    expect(s.acquire('http://a', 'a1', 100)).toBe(2_900);
    expect(s.claimSend('http://a', 100)).toBe(2_900);
    expect(s.acquire('http://b', 'b2', 1_000)).toBe(2_000);
    expect(s.acquire('http://a', 'a1', 3_000)).toBe(0);
    expect(s.claimSend('http://a', 3_000)).toBe(0);
    expect(s.acquire('http://c', 'c1', 100)).toBe(0); // other origins go on
  });
});

describe("the crawl clock's awaitHop (requests under way: redirect hops, popups)", () => {
  it('lets requests of one origin go one capped delay apart, in the order they asked, after the slots already given to pages', async () => {
    const { guard, scheduler } = guardWith(3_600, 150); // cut to 150 ms
    const t0 = Date.now();
    const went: { name: string; at: number }[] = [];
    const hop = (name: string, url: string) => guard.clock!.awaitHop(url).then(() => void went.push({ name, at: Date.now() - t0 }));
    await hop('first', 'http://a.test/1');
    // A page of the origin deferred by the queue holds the next slot: the hops come after it.
    expect(scheduler.acquire('http://a.test', 'page', Date.now())).toBeGreaterThan(0);
    await Promise.all([hop('second', 'http://a.test/2'), hop('third', 'http://a.test/3'), hop('other origin', 'http://b.test/1')]);
    expect(went.map((w) => w.name)).toEqual(['first', 'other origin', 'second', 'third']);
    const at = Object.fromEntries(went.map((w) => [w.name, w.at]));
    // Slots: first at 0, the page at 150, second at 300, third at 450 (each waited past the cap).
    expect(at['other origin']!).toBeLessThan(100);
    expect(at['second']! - at['first']!).toBeGreaterThanOrEqual(290);
    expect(at['third']! - at['second']!).toBeGreaterThanOrEqual(140);
  });

  it('gives up its slot when its signal aborts, and never lets a later request go sooner', async () => {
    const { guard } = guardWith(0.2, 60_000);
    await guard.clock!.awaitHop('http://a.test/1');
    const t0 = Date.now();
    const abort = new AbortController();
    const waiting = guard.clock!.awaitHop('http://a.test/2', abort.signal);
    abort.abort(new Error('the sitemap timed out'));
    await expect(waiting).rejects.toThrow('the sitemap timed out');
    await guard.clock!.awaitHop('http://a.test/3');
    // The abandoned slot (at 200 ms) stays taken: the next request goes one delay after it.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(380);
  });
});
