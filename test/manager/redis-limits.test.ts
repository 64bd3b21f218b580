/**
 * RedisStore's bounds. A fetch lock that is never given (a store whose lock never frees) holds a new
 * origin for one lock life at most, and says so; a lock answered with something other than OK or
 * nil (a proxy speaking another dialect) takes the process's own lock at once. A stored value above
 * `maxRecordBytes` is never transferred. Fifty commands before the first connection share one
 * 'ready' listener (ioredis warns with MaxListenersExceededWarning past ten).
 *
 * The lock cases run against a fake Redis on loopback that speaks RESP and answers SET NX as told,
 * and count the lock requests it received (how long a new origin waits shows in how often it asked);
 * the others against a real redis-server.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore, RobotsManager, type RedisClientLike } from '@heed/manager';
import { has } from '../support/requirements.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { goodRecord, withStatus } from './records.js';
import { redisCommand, startRedis, type RedisServer } from './redis-helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';

/** A loopback server speaking enough RESP for ioredis and the store; `SET … NX` is answered with `lockReply`. */
async function fakeRedis(lockReply: string): Promise<{ url: string; commands: string[][]; close(): Promise<void> }> {
  const commands: string[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = readCommand(buffer);
        if (parsed === undefined) return;
        buffer = buffer.subarray(parsed.used);
        commands.push(parsed.args);
        socket.write(answer(parsed.args));
      }
    });
  });
  const answer = (args: string[]): string => {
    const name = (args[0] ?? '').toUpperCase();
    if (name === 'INFO') {
      const info = 'redis_version:7.2.0\r\nloading:0\r\n';
      return `$${info.length}\r\n${info}\r\n`;
    }
    if (name === 'SET' && args.some((a) => a.toUpperCase() === 'NX')) return lockReply;
    if (name === 'GET' || name === 'EVAL') return '$-1\r\n';
    return '+OK\r\n';
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One RESP array of bulk strings from the start of `buffer`, or undefined when incomplete. */
function readCommand(buffer: Buffer): { args: string[]; used: number } | undefined {
  const text = buffer.toString('latin1');
  let at = text.indexOf('\r\n');
  if (at === -1) return undefined;
  const count = Number(text.slice(1, at));
  at += 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = text.indexOf('\r\n', at);
    if (end === -1) return undefined;
    const length = Number(text.slice(at + 1, end));
    if (text.length < end + 2 + length + 2) return undefined;
    args.push(text.slice(end + 2, end + 2 + length));
    at = end + 2 + length + 2;
  }
  return { args, used: at };
}

/**
 * The most lock requests a wait of one lock life of `lockTtlMs` can make: the loader asks, then sleeps
 * 25 ms, doubling up to 500 ms, until the lock life is over. A timer fires no earlier than asked, so a
 * slower machine only asks fewer times; two more for timers that fire a millisecond early.
 */
function lockRequestsWithin(lockTtlMs: number): number {
  let waited = 0;
  let requests = 0;
  for (let pollMs = 25; waited < lockTtlMs; pollMs = Math.min(pollMs * 2, 500)) {
    requests++;
    waited += Math.min(pollMs, lockTtlMs - waited);
  }
  return requests + 2;
}

describe('RedisStore fetch locks that never come', () => {
  let site: TestServer;
  beforeAll(async () => {
    site = await startServer((_req, res) => res.end(ROBOTS));
  });
  afterAll(() => site?.close());

  const lockRequests = (commands: string[][]) =>
    commands.filter((c) => c[0] === 'SET' && c.includes('NX') && String(c[1]).includes('lock:')).length;

  it('a lock never given: one lock life of waiting (not two), one warning naming the origin, then one fetch', async () => {
    const redis = await fakeRedis('$-1\r\n');
    const storeLog = recordingLog();
    const managerLog = recordingLog();
    const store = new RedisStore({ url: redis.url, keyPrefix: 'never:', log: storeLog.log });
    // The lock requests made by the time the manager gives up on the lock (and says so).
    let asked = 0;
    const log = {
      ...managerLog.log,
      warning: (message: string, data?: Record<string, unknown>) => {
        asked = lockRequests(redis.commands);
        managerLog.log.warning(message, data);
      },
    };
    const manager = new RobotsManager({ userAgent: UA, store, lockTtlSecs: 3, log });
    try {
      expect(await manager.isAllowed(`${site.origin}/private`)).toBe(false);
      const warnings = managerLog.lines.filter((l) => l.level === 'warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain(`fetch lock of ${site.origin} was not given within lockTtlSecs (3 s)`);
      expect(warnings[0]?.message).toContain('fetching it without the lock');
      expect(site.robotsRequests()).toBe(1);
      // It waited, asking again and again, for one lock life: at most 12 requests, where two lock
      // lives would take 16.
      expect(asked).toBeGreaterThan(1);
      expect(asked).toBeLessThanOrEqual(lockRequestsWithin(3_000));
      // Then it fetched without the lock: no request after the warning.
      expect(lockRequests(redis.commands)).toBe(asked);
      // The store itself saw nothing wrong: Redis answered every command.
      expect(storeLog.lines.filter((l) => l.level === 'warning')).toEqual([]);
    } finally {
      await manager.close();
      await store.close();
      await redis.close();
    }
  });

  it('a lock answered with neither OK nor nil: the process lock at once, one warning for the store, nothing waits', async () => {
    const redis = await fakeRedis(':1\r\n');
    const storeLog = recordingLog();
    const store = new RedisStore({ url: redis.url, keyPrefix: 'wrong:', log: storeLog.log });
    const manager = new RobotsManager({ userAgent: UA, store, lockTtlSecs: 5, log: recordingLog().log });
    const other = await startServer((_req, res) => res.end(ROBOTS));
    try {
      expect(await manager.isAllowed(`${site.origin}/private`)).toBe(false);
      expect(await manager.isAllowed(`${other.origin}/private`)).toBe(false);
      // One lock request per origin: the wrong reply takes the process's lock at once, where a
      // lock read as held would be asked for again and again, for two lock lives (10 s here).
      expect(lockRequests(redis.commands)).toBe(2);
      const warnings = storeLog.lines.filter((l) => l.level === 'warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain(`fetch lock of ${site.origin} (SET NX) with the integer 1`);
      expect(warnings[0]?.message).toContain('taken in process memory');
      expect(other.robotsRequests()).toBe(1);
    } finally {
      await manager.close();
      await store.close();
      await redis.close();
      await other.close();
    }
  }, 30_000);
});

const redisAvailable = has('redis-server', 'test/manager/redis-limits.test.ts');

describe.skipIf(!redisAvailable)('RedisStore replies and listeners (real redis-server)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('never transfers a stored value above maxRecordBytes: it reads as absent, with a warning; a larger record stays in memory', async () => {
    const origin = 'https://big.example';
    // A valid record, 6 MB of body: what a store of another configuration (or anyone) could have left.
    const big = goodRecord(origin, `User-agent: *\nDisallow: /${'x'.repeat(6 * 1024 * 1024)}\n`);
    await redisCommand(redis.port, 'SET', `big:record:${origin}`, JSON.stringify(big));
    expect(Number((await redisCommand(redis.port, 'STRLEN', `big:record:${origin}`)).slice(1))).toBeGreaterThan(8_000_000);

    const { Redis } = await import('../../packages/manager/node_modules/ioredis/built/index.js');
    const client = new Redis(redis.url);
    const replies: number[] = [];
    // Every reply the store receives, by size: the value must not cross the wire.
    const recording = new Proxy(client, {
      get(target, property) {
        if (property === 'call') {
          return async (command: string, args: (string | number)[]) => {
            const reply: unknown = await target.call(command, ...args);
            replies.push(typeof reply === 'string' ? reply.length : 0);
            return reply;
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as unknown as RedisClientLike;
    const { lines, log } = recordingLog();
    const store = new RedisStore({ client: recording, keyPrefix: 'big:', log });
    try {
      expect(await store.get(origin)).toBeUndefined();
      // The size, not the 8 MB value, crosses the wire.
      expect(Math.max(...replies)).toBeLessThan(1024);
      expect(lines.filter((l) => l.level === 'warning').map((l) => l.message)).toEqual([
        expect.stringContaining(`The stored robots record of ${origin} is`),
      ]);
      // Writing one that large: kept in the fallback (this process), not in Redis, whose older copy goes.
      await store.set('https://big2.example', goodRecord('https://big2.example', ROBOTS), 60_000);
      expect(await redisCommand(redis.port, 'EXISTS', 'big:record:https://big2.example')).toBe(':1\r\n');
      await store.set('https://big2.example', big, 60_000);
      expect(await redisCommand(redis.port, 'EXISTS', 'big:record:https://big2.example')).toBe(':0\r\n');
      expect(withStatus(await store.get('https://big2.example'), 'ok').body).toBe(big.body);
      expect(lines.filter((l) => l.level === 'warning')).toHaveLength(2);
      // A normal record still goes to Redis and back.
      await store.set('https://small.example', goodRecord('https://small.example', ROBOTS), 60_000);
      expect(withStatus(await store.get('https://small.example'), 'ok').body).toBeDefined();
      expect(await redisCommand(redis.port, 'EXISTS', 'big:record:https://small.example')).toBe(':1\r\n');
    } finally {
      await store.close();
      client.disconnect();
    }
  });

  it('50 commands before the first connection raise no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const store = new RedisStore({ url: redis.url, keyPrefix: 'many:' });
    try {
      const records = await Promise.all(Array.from({ length: 50 }, (_, i) => store.get(`https://o${i}.example`)));
      expect(records.every((r) => r === undefined)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
      expect(store.usingFallback).toBe(false);
    } finally {
      process.off('warning', onWarning);
      await store.close();
    }
  });
});
