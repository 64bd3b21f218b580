/**
 * Cache hits read a coarse clock (packages/manager/src/hit-clock.ts) when the manager runs on the
 * real clock: entries must still expire, early rather than late, even in a run of checks that
 * never yields to timers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { HitClock } from '../../packages/manager/src/hit-clock.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('HitClock', () => {
  it('lets a deadline pass up to one resolution early, never late once timers run', async () => {
    const clock = new HitClock(20);
    try {
      expect(clock.before(Date.now() + 1_000)).toBe(true);
      expect(clock.before(Date.now() + 10)).toBe(false); // within one resolution: already passed
      const deadline = Date.now() + 60;
      expect(clock.before(deadline)).toBe(true);
      await sleep(100);
      expect(clock.before(deadline)).toBe(false);
    } finally {
      clock.stop();
    }
  });

  it('sees time pass in a run of reads that never yields to its timer', () => {
    const clock = new HitClock(60_000);
    try {
      const deadline = Date.now() + 60_000 + 30;
      expect(clock.before(deadline)).toBe(true);
      const until = Date.now() + 50;
      while (Date.now() < until) {
        // busy: the timer cannot run
      }
      let passed = false;
      for (let i = 0; i < 2_048 && !passed; i++) passed = !clock.before(deadline);
      expect(passed).toBe(true);
    } finally {
      clock.stop();
    }
  });
});

describe('a manager on the real clock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    server.handle((_req, res) => res.end('User-agent: *\nDisallow: /private\n'));
  });
  afterAll(() => server.close());

  it('refetches an origin once its record has expired', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log, defaultTtlMs: 600, minTtlMs: 100 });
    try {
      expect(await m.isAllowed(`${server.origin}/private/1`)).toBe(false);
      for (let i = 0; i < 100; i++) await m.isAllowed(`${server.origin}/page/${i}`);
      expect(server.robotsRequests()).toBe(1);
      await sleep(1_000);
      expect(await m.isAllowed(`${server.origin}/private/2`)).toBe(false);
      expect(server.robotsRequests()).toBe(2);
    } finally {
      await m.close();
    }
  });
});
