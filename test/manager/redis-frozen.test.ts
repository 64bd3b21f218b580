/**
 * A frozen Redis (SIGSTOP: the connection stays open, nothing answers) must not make every check
 * of a new origin wait: before the circuit breaker, each one waited ~4-5 s (read, lock, read again,
 * write and release, each timing out after 1 s). Now a check waits for Redis at most once
 * (`commandTimeoutSecs`), the checks after it not at all, the outage is logged once, and Redis is
 * used again once it answers. A real redis-server, frozen and thawed.
 *
 * The waits are counted, not timed: the store waits on Redis only for a command it sent, so the
 * commands a check sent that Redis had not answered when the check returned are the command
 * timeouts it waited out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore, RobotsManager, type RedisClientLike } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { has } from '../support/requirements.js';
import { redisCommand, startRedis, type RedisServer } from './redis-helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const redisAvailable = has('redis-server', 'test/manager/redis-frozen.test.ts');

/**
 * `client`, with every command sent through it recorded, and whether Redis has answered it yet;
 * the store's background PINGs (while the circuit is open) are left out: no check waits on them.
 */
function countingClient(client: RedisClientLike): { client: RedisClientLike; commands: { answered: boolean }[]; pings: number[] } {
  const commands: { answered: boolean }[] = [];
  const pings: number[] = [];
  const counting: RedisClientLike = {
    get status() {
      return client.status;
    },
    call(command, args) {
      if (command === 'PING') {
        pings.push(Date.now());
        return client.call(command, args);
      }
      // A robots.txt snapshot is written in the background: no check waits on it.
      if (args.some((arg) => String(arg).includes('snapshot:'))) return client.call(command, args);
      const sent = { answered: false };
      commands.push(sent);
      const reply = client.call(command, args);
      const answered = () => void (sent.answered = true);
      reply.then(answered, answered);
      return reply;
    },
    once: (event, listener) => client.once(event, listener),
    off: (event, listener) => client.off(event, listener),
    quit: () => client.quit(),
    disconnect: () => client.disconnect(),
  };
  return { client: counting, commands, pings };
}

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

  it('costs one command timeout once, then nothing; logged once; Redis used again once it answers', async () => {
    const { Redis } = await import('../../packages/manager/node_modules/ioredis/built/index.js');
    // As the store connects itself from a URL: commands fail at once while disconnected, never queue.
    const ioredis = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const { client, commands } = countingClient(ioredis as unknown as RedisClientLike);
    const { lines, log } = recordingLog();
    const store = new RedisStore({ client, keyPrefix: 'test-frozen:', commandTimeoutSecs: 1, circuitBreakSecs: 2, log });
    const manager = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    /** The verdict of `url`, the commands its check sent, and how many of them it left unanswered (waited out). */
    const check = async (url: string) => {
      const from = commands.length;
      const allowed = await manager.isAllowed(url);
      const sent = commands.slice(from);
      return { allowed, sent: sent.length, waitedOut: sent.filter((command) => !command.answered).length };
    };
    const [a, b, c, d, e, f] = sites as [TestServer, TestServer, TestServer, TestServer, TestServer, TestServer];
    try {
      const answering = await check(`${a.origin}/private`);
      expect(answering.allowed).toBe(false);
      expect(answering.sent).toBeGreaterThan(1);
      expect(answering.waitedOut).toBe(0);
      expect(store.usingFallback).toBe(false);

      redis.pause();
      // The first new origin meets the frozen Redis: one command timeout, not four or five.
      expect(await check(`${b.origin}/private`)).toEqual({ allowed: false, sent: 1, waitedOut: 1 });
      // The next ones go to memory at once: no command sent, none waited for. (The circuit stays
      // open for 2 s, ten times what these two checks take on a busy machine.)
      for (const site of [c, d]) expect(await check(`${site.origin}/private`)).toEqual({ allowed: false, sent: 0, waitedOut: 0 });
      expect(store.usingFallback).toBe(true);
      expect(lines.filter((l) => l.level === 'warning').map((l) => l.message)).toEqual([expect.stringMatching(/Redis is unreachable/)]);
      // While frozen past the break, a probe costs at most one more timeout, and the outage is not logged again.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect(await check(`${e.origin}/private`)).toEqual({ allowed: false, sent: 1, waitedOut: 1 });
      expect(lines.filter((l) => l.level === 'warning')).toHaveLength(1);

      redis.resume();
      // After the break the next command probes Redis, finds it answering, and the store uses it again.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const thawed = await check(`${f.origin}/private`);
      expect(thawed.allowed).toBe(false);
      expect(thawed.waitedOut).toBe(0);
      expect(store.usingFallback).toBe(false);
      // The store's lines: on a busy machine the manager may also say it waits on a slow robots.txt.
      expect(lines.filter((l) => l.level === 'info' && /Redis/.test(l.message)).map((l) => l.message)).toEqual([
        expect.stringMatching(/reachable again/),
      ]);
      expect(await redisCommand(redis.port, 'GET', `test-frozen:record:${f.origin}`)).toContain('"status":"ok"');
      // One fetch per origin throughout: the outage's records were kept in memory.
      expect(sites.map((site) => site.robotsRequests())).toEqual([1, 1, 1, 1, 1, 1]);
    } finally {
      redis.resume();
      await manager.close();
      await store.close();
      ioredis.disconnect();
    }
  }, 60_000);

  it('uses a thawed Redis again within about a second (a PING watches it), not at the end of the 30 s break', async () => {
    const { Redis } = await import('../../packages/manager/node_modules/ioredis/built/index.js');
    const ioredis = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const { client, commands, pings } = countingClient(ioredis as unknown as RedisClientLike);
    const { lines, log } = recordingLog();
    // circuitBreakSecs left at its default, 30 s: a fleet would spend all of it on per-process clocks.
    const store = new RedisStore({ client, keyPrefix: 'test-thaw:', commandTimeoutSecs: 0.5, log });
    const origin = 'http://thaw.example';
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      expect(await store.reserveCrawlSlot(origin, 1_000)).toBeDefined();
      redis.pause();
      // The first command meets the frozen Redis and opens the circuit; the next go to memory at once.
      expect(await store.reserveCrawlSlot(origin, 1_000)).toBeUndefined();
      const sent = commands.length;
      await sleep(2_000);
      expect(await store.claimCrawlSend(origin, 1_000)).toBeUndefined();
      expect(commands.length).toBe(sent);
      expect(store.usingFallback).toBe(true);
      // Unanswered PINGs went out meanwhile, one at a time, and kept the circuit open.
      expect(pings.length).toBeGreaterThan(0);

      redis.resume();
      const thawed = Date.now();
      while (store.usingFallback && Date.now() - thawed < 20_000) await sleep(10);
      const backMs = Date.now() - thawed;
      console.log(`a Redis thawed after 2 s frozen: used again ${backMs} ms later (circuit break 30 s, a PING a second)`);
      // A PING a second: ten times that allows for a busy machine, and is a third of the break.
      expect(backMs).toBeLessThan(10_000);
      expect(store.usingFallback).toBe(false);
      // The store's lines: on a busy machine the manager may also say it waits on a slow robots.txt.
      expect(lines.filter((l) => l.level === 'info' && /Redis/.test(l.message)).map((l) => l.message)).toEqual([
        expect.stringMatching(/reachable again/),
      ]);
      // Commands go to Redis again: the slot comes from Redis's clock, and the PINGs have stopped.
      expect((await store.reserveCrawlSlot(origin, 1_000))?.waitMs).toBeGreaterThanOrEqual(0);
      expect(commands.length).toBe(sent + 1);
      const pinged = pings.length;
      await sleep(1_500);
      expect(pings.length).toBe(pinged);
    } finally {
      redis.resume();
      await store.close();
      ioredis.disconnect();
    }
  }, 60_000);
});
