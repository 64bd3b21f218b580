/**
 * The crawl-delay scheduler hands out one slot per origin per delay, in order, and never holds
 * back an origin without a delay. Time is passed in, so nothing here waits.
 */
import { describe, expect, it } from 'vitest';
import { CrawlDelayScheduler } from '../../packages/crawlee/src/crawl-delay.js';

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

describe('a long queue of one origin', () => {
  it('never asks a timer for more than Node can wait (a longer one would fire after 1 ms)', async () => {
    const { timerDelay } = await import('../../packages/crawlee/src/crawl-delay.js');
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
    s.started('r1', 380); // a busy machine: r1 left 380 ms after it was let go
    expect(s.acquire('http://a', 'r2', 400)).toBe(380); // not before 780
    expect(s.acquire('http://a', 'r2', 780)).toBe(0);
    s.started('r2', 790);
    expect(s.acquire('http://a', 'r3', 800)).toBe(390); // a new request: 400 after r2's start
    s.started('r-unknown', 5_000); // never let go: changes nothing
    expect(s.acquire('http://a', 'r3', 1_190)).toBe(0);
  });
});
