/**
 * A frozen Redis (SIGSTOP: the connection stays open, nothing answers) must not make every check
 * of a new origin wait: before the circuit breaker, each one waited ~4-5 s (read, lock, read again,
 * write and release, each timing out after 1 s). Now a check waits for Redis at most once
 * (`commandTimeoutSecs`), the checks after it not at all, the outage is logged once, and Redis is
 * used again once it answers. A real redis-server, frozen and thawed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore, RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { has } from '../support/requirements.js';
import { redisCommand, startRedis, type RedisServer } from './redis-helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const redisAvailable = has('redis-server', 'test/manager/redis-frozen.test.ts');

describe.skipIf(!redisAvailable)('a frozen Redis (SIGSTOP)', () => {
  let redis: RedisServer;
  const sites: TestServer[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 6; i++) sites.push(await startServer((_req, res) => res.end(ROBOTS)));
  });
  afterAll(async () => {
    redis?.resume();
    await redis?.stop();
    await Promise.all(sites.map((site) => site.close()));
  });

  /** How long `isAllowed` takes, and its verdict. */
  async function timed(manager: RobotsManager, url: string): Promise<{ ms: number; allowed: boolean }> {
    const start = performance.now();
    const allowed = await manager.isAllowed(url);
    return { ms: performance.now() - start, allowed };
  }

  it('costs one command timeout once, then nothing; logged once; Redis used again once it answers', async () => {
    const { lines, log } = recordingLog();
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test-frozen:', commandTimeoutSecs: 1, circuitBreakSecs: 2, log });
    const manager = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    const [a, b, c, d, e, f] = sites as [TestServer, TestServer, TestServer, TestServer, TestServer, TestServer];
    try {
      expect(await manager.isAllowed(`${a.origin}/private`)).toBe(false);
      expect(store.usingFallback).toBe(false);

      redis.pause();
      // The first new origin meets the frozen Redis: one command timeout (1 s), not four or five.
      const first = await timed(manager, `${b.origin}/private`);
      expect(first.allowed).toBe(false);
      expect(first.ms).toBeGreaterThanOrEqual(900);
      expect(first.ms).toBeLessThan(2_500);
      // The next ones go to memory at once, not after a command timeout each.
      for (const site of [c, d]) {
        const next = await timed(manager, `${site.origin}/private`);
        expect(next.allowed).toBe(false);
        expect(next.ms).toBeLessThan(500);
      }
      expect(store.usingFallback).toBe(true);
      expect(lines.filter((l) => l.level === 'warning').map((l) => l.message)).toEqual([expect.stringMatching(/Redis is unreachable/)]);
      // While frozen past the break, a probe costs at most one more timeout, and the outage is not logged again.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const probe = await timed(manager, `${e.origin}/private`);
      expect(probe.allowed).toBe(false);
      expect(probe.ms).toBeLessThan(2_500);
      expect(lines.filter((l) => l.level === 'warning')).toHaveLength(1);

      redis.resume();
      // After the break the next command probes Redis, finds it answering, and the store uses it again.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect(await manager.isAllowed(`${f.origin}/private`)).toBe(false);
      expect(store.usingFallback).toBe(false);
      expect(lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([expect.stringMatching(/reachable again/)]);
      expect(await redisCommand(redis.port, 'GET', `test-frozen:record:${f.origin}`)).toContain('"status":"ok"');
      // One fetch per origin throughout: the outage's records were kept in memory.
      expect(sites.map((site) => site.robotsRequests())).toEqual([1, 1, 1, 1, 1, 1]);
    } finally {
      redis.resume();
      await manager.close();
      await store.close();
    }
  }, 60_000);
});
