/**
 * KeyValueStoreStore honours the retention the manager asks for, with a real Crawlee key-value
 * store persisted to a temporary directory across "runs" (a fresh storage client each): a record
 * past its retention is absent and deleted when read, records nobody reads again are dropped by the
 * sweep, and the sweep lists the store at most once per interval, whatever the number of calls.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyValueStoreStore, RobotsManager, type RobotsRecord } from '@heed/manager';
import { goodRecord } from './records.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const root = fileURLToPath(new URL('../../', import.meta.url));
// @crawlee/core is a dependency of the manager package, not of the test root: load it from there.
const crawleeCore = join(root, 'packages/manager/node_modules/@crawlee/core/index.mjs');
const memoryStorage = join(root, 'packages/manager/node_modules/@crawlee/memory-storage/index.mjs');

function record(origin: string, now = Date.now()): RobotsRecord {
  return goodRecord(origin, ROBOTS, now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end(ROBOTS));
});
afterAll(() => server.close());

/** Calls the store made to the key-value store during one run. */
interface Calls {
  listings: number;
  reads: number;
}

/** One run: a fresh storage client over `dir`, the store, and what it called. `end()` closes it and flushes to disk. */
async function openRun(name = 'heed-robots') {
  const { KeyValueStore, Configuration } = (await import(crawleeCore)) as typeof import('@crawlee/core');
  const { MemoryStorage } = (await import(memoryStorage)) as typeof import('@crawlee/memory-storage');
  const storageClient = new MemoryStorage({ localDataDirectory: dir, persistStorage: true });
  const kvs = await KeyValueStore.open(name, { config: new Configuration(), storageClient });
  const calls: Calls = { listings: 0, reads: 0 };
  const counted = {
    getValue: (key: string) => {
      calls.reads++;
      return kvs.getValue(key);
    },
    setValue: (key: string, value: unknown) => kvs.setValue(key, value),
    forEachKey: (iteratee: Parameters<typeof kvs.forEachKey>[0]) => {
      calls.listings++;
      return kvs.forEachKey(iteratee);
    },
  };
  const store = new KeyValueStoreStore({ store: counted });
  return {
    store,
    kvs,
    calls,
    async end() {
      await store.close();
      await storageClient.teardown();
    },
  };
}

const filesOf = (name = 'heed-robots') => {
  const path = join(dir, 'key_value_stores', name);
  return existsSync(path) ? readdirSync(path).filter((f) => /^robots-[0-9a-f]{40}\.json$/.test(f)) : [];
};

describe('KeyValueStoreStore retention (real Crawlee key-value store, two runs)', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heed-kvs-retention-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a record read past its retention is absent, and deleted from the store', async () => {
    const first = await openRun('read-expiry');
    await first.store.set('https://short.example', record('https://short.example'), 50);
    await first.store.set('https://long.example', record('https://long.example'), 60_000);
    await first.store.set('https://forever.example', record('https://forever.example'), Infinity);
    await first.end();
    expect(filesOf('read-expiry')).toHaveLength(3);
    await sleep(120);

    const second = await openRun('read-expiry');
    expect(await second.store.get('https://short.example')).toBeUndefined();
    expect((await second.store.get('https://long.example'))?.status).toBe('ok');
    expect((await second.store.get('https://forever.example'))?.status).toBe('ok');
    await second.end();
    const left = filesOf('read-expiry');
    expect(left).toHaveLength(2);
    expect(left).not.toContain(`${KeyValueStoreStore.keyOf('https://short.example')}.json`);
  });

  it('the manager fetches again once the record it stored is past its retention', async () => {
    const options = {
      userAgent: UA,
      log: recordingLog().log,
      defaultTtlSecs: 0.05,
      minTtlSecs: 0.05,
      maxTtlSecs: 0.05,
      unreachableAllowAfterSecs: 0.05,
    };
    const urls = [`${server.origin}/private/a`, `${server.origin}/public`];
    server.seen.length = 0;
    for (let runNumber = 0; runNumber < 2; runNumber++) {
      const run = await openRun('manager-runs');
      const manager = new RobotsManager({ ...options, store: run.store });
      expect(await Promise.all(urls.map((url) => manager.isAllowed(url)))).toEqual([false, true]);
      await manager.close();
      await run.end();
      await sleep(150); // past expiry (50 ms) plus the unreachable window (50 ms)
    }
    expect(server.robotsRequests()).toBe(2);
    // A third run reads the expired record as absent: it is replaced, never obeyed.
    const run = await openRun('manager-runs');
    expect(await run.store.get(server.origin)).toBeUndefined();
    await run.end();
  });

  it('the sweep drops expired records nobody reads again, listing the store at most once a day', async () => {
    const first = await openRun('sweep');
    for (let i = 0; i < 200; i++) await first.store.set(`https://gone-${i}.example`, record(`https://gone-${i}.example`), 50);
    await first.store.set('https://kept.example', record('https://kept.example'), 60_000);
    // Many calls, one listing: the sweep on open (the store had never been swept).
    for (let i = 0; i < 100; i++) await first.store.get(`https://kept.example`);
    await first.end();
    expect(first.calls.listings).toBe(1);
    expect(filesOf('sweep')).toHaveLength(201);
    await sleep(120);

    // A second run the same day: no listing, the expired records stay until read or swept.
    const second = await openRun('sweep');
    expect((await second.store.get('https://kept.example'))?.status).toBe('ok');
    await second.end();
    expect(second.calls.listings).toBe(0);
    expect(filesOf('sweep')).toHaveLength(201);

    // A day later (the last sweep's time moved back a day): the next run sweeps.
    const third = await openRun('sweep');
    await third.kvs.setValue('robots-swept', { at: Date.now() - 24 * 60 * 60 * 1000 - 1 });
    expect(await third.store.sweep()).toBe(200);
    await third.end();
    expect(filesOf('sweep')).toEqual([`${KeyValueStoreStore.keyOf('https://kept.example')}.json`]);
  });
});
