/**
 * The three stores, for real: MemoryStore's bound, a Crawlee key-value store persisted to disk
 * across two runs, and a real redis-server shared by two crawler processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyValueStoreStore, MemoryStore, RedisStore, RobotsManager, type RobotsRecord } from '@heed/manager';
import { goodRecord } from './records.js';
import { deadPort, recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { has } from '../support/requirements.js';
import { redisCommand, startRedis, type RedisServer } from './redis-helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const root = fileURLToPath(new URL('../../', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end(ROBOTS));
});
afterAll(() => server.close());

function record(origin: string, now = Date.now()): RobotsRecord {
  return goodRecord(origin, ROBOTS, now);
}

describe('MemoryStore', () => {
  it('keeps at most maxEntries origins, evicting the least recently used', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (const name of ['a', 'b', 'c']) await store.set(`https://${name}.example`, record(`https://${name}.example`), 60_000);
    await store.get('https://a.example'); // a is used again...
    for (const name of ['d', 'e']) await store.set(`https://${name}.example`, record(`https://${name}.example`), 60_000);
    expect(store.size).toBe(3);
    // a was read after b and c were written, so b and c went first.
    expect(await store.get('https://a.example')).toBeDefined();
    expect(await store.get('https://e.example')).toBeDefined();
    expect(await store.get('https://b.example')).toBeUndefined();
    expect(await store.get('https://c.example')).toBeUndefined();
  });

  it('forgets records past their retention', async () => {
    const store = new MemoryStore();
    await store.set('https://a.example', record('https://a.example'), -1);
    expect(await store.get('https://a.example')).toBeUndefined();
  });

  it('hands out its fetch lock to one holder at a time', async () => {
    const store = new MemoryStore();
    const first = await store.lock('https://a.example', 60_000);
    expect(first).toBeDefined();
    expect(await store.lock('https://a.example', 60_000)).toBeUndefined();
    await first?.release();
    expect(await store.lock('https://a.example', 60_000)).toBeDefined();
  });
});

describe('KeyValueStoreStore (Crawlee)', () => {
  // @crawlee/core is a dependency of the manager package, not of the test root: load it from there.
  const crawleeCore = join(root, 'packages/manager/node_modules/@crawlee/core/index.mjs');
  const memoryStorage = join(root, 'packages/manager/node_modules/@crawlee/memory-storage/index.mjs');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heed-kvs-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One crawler run: a fresh Configuration and storage client over the same directory. */
  async function run(urls: string[]) {
    const { Configuration } = (await import(crawleeCore)) as typeof import('@crawlee/core');
    const { MemoryStorage } = (await import(memoryStorage)) as typeof import('@crawlee/memory-storage');
    const storageClient = new MemoryStorage({ localDataDirectory: dir, persistStorage: true });
    const store = new KeyValueStoreStore({ name: 'heed-robots', openOptions: { config: new Configuration(), storageClient } });
    const manager = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    const verdicts = await Promise.all(urls.map((url) => manager.isAllowed(url)));
    await manager.close();
    await storageClient.teardown(); // the run ends: its writes are on disk
    return verdicts;
  }

  it('a second run over the same store makes 0 requests', async () => {
    server.seen.length = 0;
    const urls = [`${server.origin}/private/a`, `${server.origin}/public`];
    expect(await run(urls)).toEqual([false, true]);
    expect(server.robotsRequests()).toBe(1);
    const files = readdirSync(join(dir, 'key_value_stores', 'heed-robots'));
    expect(files.some((f) => /^robots-[0-9a-f]{40}\.json$/.test(f))).toBe(true);

    expect(await run(urls)).toEqual([false, true]);
    expect(server.robotsRequests()).toBe(1);
  });

  it('uses keys Crawlee accepts and ignores a foreign value under the key', async () => {
    const values = new Map<string, unknown>();
    const kvs = {
      getValue: async (key: string) => values.get(key) ?? null,
      setValue: async (key: string, value: unknown) => {
        if (value === null) values.delete(key);
        else values.set(key, value);
      },
    };
    const origin = 'https://bücher.example:8443';
    const key = KeyValueStoreStore.keyOf(origin);
    expect(key).toMatch(/^[a-zA-Z0-9!\-_.'()]{1,256}$/);
    const store = new KeyValueStoreStore({ store: kvs });
    values.set(key, { version: 0, something: 'else' });
    expect(await store.get(origin)).toBeUndefined();
    values.set(key, { ...record('https://other.example'), origin: 'https://other.example' });
    expect(await store.get(origin)).toBeUndefined();
    await store.set(origin, record(origin), 60_000);
    expect((await store.get(origin))?.status).toBe('ok');
  });
});

const redisAvailable = has('redis-server', 'test/manager/stores.test.ts, the RedisStore tests');

describe.skipIf(!redisAvailable)('RedisStore (real redis-server)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('two managers in two processes make exactly 1 request', async () => {
    const fleetServer = await startServer((_req, res) => setTimeout(() => res.end(ROBOTS), 300));
    try {
      const urls = [`${fleetServer.origin}/private/1`, `${fleetServer.origin}/open`];
      const script = fileURLToPath(new URL('./fixtures/redis-child.mjs', import.meta.url));
      const children = [0, 1].map(() => spawn(process.execPath, [script, redis.url, ...urls], { stdio: ['pipe', 'pipe', 'inherit'] }));
      const exits = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
      const outputs = children.map((child) => createInterface({ input: child.stdout! })[Symbol.asyncIterator]());
      for (const out of outputs) expect((await out.next()).value).toBe('ready');
      for (const child of children) child.stdin!.write('go\n');
      const results = await Promise.all(outputs.map(async (out) => JSON.parse((await out.next()).value as string)));
      await Promise.all(exits);
      expect(fleetServer.robotsRequests()).toBe(1);
      for (const result of results) {
        expect(result.verdicts).toEqual([
          { allowed: false, reason: 'rules' },
          { allowed: true, reason: 'rules' },
        ]);
      }
      // One process fetched, the other waited for its record.
      expect(results.map((r) => r.stats.total).sort()).toEqual([0, 1]);
    } finally {
      await fleetServer.close();
    }
  });

  it('stores the versioned JSON record in Redis and refetches when it is corrupt', async () => {
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test-corrupt:' });
    const m = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    server.seen.length = 0;
    await m.isAllowed(`${server.origin}/x`);
    const raw = await redisCommand(redis.port, 'GET', `test-corrupt:record:${server.origin}`);
    expect(raw).toContain('"version":1');
    expect(raw).toContain(`"origin":"${server.origin}"`);
    await m.close();

    await redisCommand(redis.port, 'SET', `test-corrupt:record:${server.origin}`, '{"version":1,"origin":');
    const m2 = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    expect(await m2.isAllowed(`${server.origin}/private`)).toBe(false);
    expect(server.robotsRequests()).toBe(2);
    await m2.close();
    await store.close();
  });

  it('works from memory when Redis is down from the start, and says so once', async () => {
    const { lines, log } = recordingLog();
    const store = new RedisStore({ url: `redis://127.0.0.1:${await deadPort()}`, connectTimeoutSecs: 0.3, log });
    const m = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    server.seen.length = 0;
    expect(await m.isAllowed(`${server.origin}/private`)).toBe(false);
    expect(await m.isAllowed(`${server.origin}/open`)).toBe(true);
    expect(server.robotsRequests()).toBe(1);
    expect(store.usingFallback).toBe(true);
    expect(lines.filter((l) => l.level === 'warning')).toHaveLength(1);
    await m.close();
    await store.close();
  });

  it('uses a client you pass (even a lazy one) and leaves it open on close()', async () => {
    const { Redis } = (await import(join(root, 'packages/manager/node_modules/ioredis/built/index.js'))) as typeof import('ioredis');
    const client = new Redis(redis.url, { lazyConnect: true });
    try {
      const store = new RedisStore({ client, keyPrefix: 'test-client:' });
      const m = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
      expect(await m.isAllowed(`${server.origin}/private`)).toBe(false);
      await m.close();
      await store.close();
      expect(client.status).toBe('ready');
      expect(await client.get(`test-client:record:${server.origin}`)).toContain('"status":"ok"');
    } finally {
      client.disconnect();
    }
  });

  it('the fetch lock has one holder and expires', async () => {
    const a = new RedisStore({ url: redis.url, keyPrefix: 'test-lock:' });
    const b = new RedisStore({ url: redis.url, keyPrefix: 'test-lock:' });
    const held = await a.lock('https://a.example', 200);
    expect(held).toBeDefined();
    expect(await b.lock('https://a.example', 200)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const taken = await b.lock('https://a.example', 60_000);
    expect(taken).toBeDefined();
    await held?.release(); // expired and taken over: must not release b's lock
    expect(await a.lock('https://a.example', 60_000)).toBeUndefined();
    await taken?.release();
    expect(await a.lock('https://a.example', 60_000)).toBeDefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('falls back to memory when Redis goes down (logged once) and goes back when it returns', async () => {
    const { lines, log } = recordingLog();
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test-outage:', log });
    const m = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    const one = await startServer((_req, res) => res.end(ROBOTS));
    const two = await startServer((_req, res) => res.end(ROBOTS));
    const three = await startServer((_req, res) => res.end(ROBOTS));
    try {
      expect(await m.isAllowed(`${one.origin}/private`)).toBe(false);
      expect(store.usingFallback).toBe(false);
      // The snapshot of one's robots.txt is written in the background: done before the outage.
      await m.snapshotsWritten();

      await redis.stop();
      expect(await m.isAllowed(`${two.origin}/private`)).toBe(false);
      expect(await m.isAllowed(`${three.origin}/private`)).toBe(false);
      expect(store.usingFallback).toBe(true);
      expect(lines.filter((l) => l.level === 'warning')).toHaveLength(1);
      expect(lines[0]?.message).toMatch(/Redis is unreachable/);
      // During the outage the records live in memory: no refetch.
      expect((await store.get(two.origin))?.status).toBe('ok');

      await redis.restart();
      // ioredis reconnects on its own (retry every <= 2 s); the store resumes on the next command.
      for (let i = 0; i < 100 && store.usingFallback; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await store.get('https://probe.example');
      }
      expect(store.usingFallback).toBe(false);
      expect(lines.some((l) => l.level === 'info' && /reachable again/.test(l.message))).toBe(true);
      const four = await startServer((_req, res) => res.end(ROBOTS));
      expect(await m.isAllowed(`${four.origin}/private`)).toBe(false);
      expect(await redisCommand(redis.port, 'GET', `test-outage:record:${four.origin}`)).toContain('"status":"ok"');
      await four.close();
      expect(one.robotsRequests() + two.robotsRequests() + three.robotsRequests()).toBe(3);
    } finally {
      await m.close();
      await store.close();
      await Promise.all([one.close(), two.close(), three.close()]);
    }
  });
});
