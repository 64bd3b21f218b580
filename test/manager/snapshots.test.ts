/**
 * robots.txt snapshots: every body the manager accepts kept once by its hash, with bounded
 * sightings, by each of the three stores and by a snapshot directory, and the id each verdict
 * carries naming bytes that can be read back.
 */
import { mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KeyValueStoreStore,
  MemoryStore,
  RedisStore,
  RobotsManager,
  SnapshotDirectory,
  SnapshotFileError,
  snapshotIdOf,
  type SnapshotStore,
  type RobotsStore,
} from '@heed/manager';
import { addSighting, EMPTY_SIGHTINGS, MAX_SIGHTINGS, type SnapshotSighting } from '../../packages/manager/src/snapshots/snapshot.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { has } from '../support/requirements.js';
import { startRedis, type RedisServer } from './redis-helpers.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const root = fileURLToPath(new URL('../../', import.meta.url));

const sighting = (i: number): SnapshotSighting => ({ origin: `https://o${i}.example`, fetchedAt: i, httpStatus: 200, outcome: 'rules' });

describe('sighting logs', () => {
  it('keep the first and the latest sightings and count the ones between', () => {
    let log = EMPTY_SIGHTINGS;
    for (let i = 0; i < 100; i++) log = addSighting(log, sighting(i));
    expect(log.first.map((s) => s.fetchedAt)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(log.latest.map((s) => s.fetchedAt)).toEqual([92, 93, 94, 95, 96, 97, 98, 99]);
    expect(log.dropped).toBe(100 - 2 * MAX_SIGHTINGS);
  });

  it('add a record read twice once', () => {
    const once = addSighting(EMPTY_SIGHTINGS, sighting(1));
    expect(addSighting(once, sighting(1))).toBe(once);
  });
});

/** Three origins: two serving the same robots.txt, one answering 404. */
let twinA: TestServer;
let twinB: TestServer;
let gone: TestServer;
beforeAll(async () => {
  twinA = await startServer((_req, res) => res.end(ROBOTS));
  twinB = await startServer((_req, res) => res.end(ROBOTS));
  gone = await startServer((_req, res) => {
    res.statusCode = 404;
    res.end('not here');
  });
});
afterAll(async () => {
  await Promise.all([twinA.close(), twinB.close(), gone.close()]);
});

/** Two managers on `store` (as two crawlers, or two workers of a fleet) judge the three origins. */
async function judgeThree(store: RobotsStore, sink?: SnapshotStore) {
  const first = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
  const second = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
  if (sink) first.keepSnapshotsIn(sink);
  const a = await first.decide(`${twinA.origin}/private/x`);
  const b = await second.decide(`${twinB.origin}/page`);
  const c = await first.decide(`${gone.origin}/page`);
  await Promise.all([first.snapshotsWritten(), second.snapshotsWritten()]);
  await Promise.all([first.close(), second.close()]);
  return { a, b, c };
}

async function expectKept(snapshots: SnapshotStore, verdicts: Awaited<ReturnType<typeof judgeThree>>, origins: 'both' | 'first') {
  const { a, b, c } = verdicts;
  expect(a.snapshot).toBe(snapshotIdOf(Buffer.from(ROBOTS)));
  // One body, two origins: one snapshot.
  expect(b.snapshot).toBe(a.snapshot);
  expect(c.snapshot).toBe(snapshotIdOf(new Uint8Array(0)));
  const rules = await snapshots.getSnapshot(a.snapshot!);
  expect(Buffer.from(rules!.body).toString()).toBe(ROBOTS);
  const seen = rules!.sightings.first.map((s) => [s.origin, s.outcome, s.httpStatus]);
  expect(seen).toContainEqual([twinA.origin, 'rules', 200]);
  if (origins === 'both') expect(seen).toContainEqual([twinB.origin, 'rules', 200]);
  const empty = await snapshots.getSnapshot(c.snapshot!);
  expect(empty!.body.byteLength).toBe(0);
  expect(empty!.sightings.first.map((s) => [s.origin, s.outcome, s.httpStatus])).toContainEqual([gone.origin, 'unavailable', 404]);
}

describe('snapshots in the stores', () => {
  it('MemoryStore, with its option snapshots', async () => {
    const store = new MemoryStore({ snapshots: true });
    await expectKept(store as MemoryStore & SnapshotStore, await judgeThree(store), 'both');
  });

  it('MemoryStore keeps none by default: a process that keeps no records spends no memory on them', async () => {
    const store = new MemoryStore();
    const verdicts = await judgeThree(store);
    expect(verdicts.a.snapshot).toMatch(/^sha256:/);
    expect(store.getSnapshot).toBeUndefined();
    expect(store.keepSnapshot).toBeUndefined();
  });

  it('KeyValueStoreStore', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-kvs-snapshots-'));
    try {
      const { Configuration } = (await import(
        join(root, 'packages/manager/node_modules/@crawlee/core/index.mjs')
      )) as typeof import('@crawlee/core');
      const { MemoryStorage } = (await import(
        join(root, 'packages/manager/node_modules/@crawlee/memory-storage/index.mjs')
      )) as typeof import('@crawlee/memory-storage');
      const storageClient = new MemoryStorage({ localDataDirectory: dir, persistStorage: true });
      const store = new KeyValueStoreStore({ name: 'heed-robots', openOptions: { config: new Configuration(), storageClient } });
      await expectKept(store, await judgeThree(store), 'both');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('KeyValueStoreStore keeps every sighting of writes that overlap (two crawlers of a process on one store)', async () => {
    // A store whose reads answer a turn later, as a disk or the platform's API do.
    const values = new Map<string, unknown>();
    const kvs = {
      getValue: async (key: string) => {
        await new Promise((resolve) => setImmediate(resolve));
        return values.get(key) ?? null;
      },
      setValue: async (key: string, value: unknown) => {
        await new Promise((resolve) => setImmediate(resolve));
        values.set(key, value);
      },
    };
    const one = new KeyValueStoreStore({ store: kvs });
    const two = new KeyValueStoreStore({ store: kvs });
    const id = snapshotIdOf(Buffer.from(ROBOTS));
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => (i % 2 === 0 ? one : two).keepSnapshot(id, Buffer.from(ROBOTS), sighting(i))));
    expect((await one.getSnapshot(id))?.sightings.first.map((s) => s.fetchedAt).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  const redisAvailable = has('redis-server', 'test/manager/snapshots.test.ts, the RedisStore snapshots');
  describe.skipIf(!redisAvailable)('RedisStore (real redis-server)', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('keeps one snapshot for the fleet, each manager adding its sightings', async () => {
      const store = new RedisStore({ url: redis.url, keyPrefix: 'snapshots:' });
      await expectKept(store, await judgeThree(store), 'both');
      // A second store on the same Redis (another machine) reads the same snapshot.
      const other = new RedisStore({ url: redis.url, keyPrefix: 'snapshots:' });
      expect((await other.getSnapshot(snapshotIdOf(Buffer.from(ROBOTS))))?.sightings.first).toHaveLength(2);
      await Promise.all([store.close(), other.close()]);
    });
  });
});

describe('SnapshotDirectory', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heed-snapshot-dir-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds every snapshot a manager accepted, written atomically, before the verdict is given', async () => {
    const path = join(dir, 'crawl');
    const verdicts = await judgeThree(new MemoryStore(), new SnapshotDirectory(path));
    await expectKept(new SnapshotDirectory(path), verdicts, 'first');
    expect(readdirSync(path).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(path)).toHaveLength(4);
  });

  it('writes the snapshots the manager already held when it is added', async () => {
    const manager = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    const verdict = await manager.decide(`${twinA.origin}/page`);
    const late = new SnapshotDirectory(join(dir, 'late'));
    manager.keepSnapshotsIn(late);
    await manager.close();
    expect((await late.getSnapshot(verdict.snapshot!))?.sightings.first).toHaveLength(1);
  });

  it('reads hostile files without trusting them: a garbage sightings file is no sightings, a huge body file an error', async () => {
    const path = join(dir, 'hostile');
    const snapshots = new SnapshotDirectory(path);
    const id = snapshotIdOf(Buffer.from(ROBOTS));
    snapshots.keepSnapshotSync(id, Buffer.from(ROBOTS), sighting(1));
    const hex = id.slice('sha256:'.length);
    writeFileSync(join(path, `${hex}.sightings.json`), '{"first":[{"origin":1}],"latest":"\u001b[2J","dropped":-1}');
    expect((await new SnapshotDirectory(path).getSnapshot(id))?.sightings).toEqual(EMPTY_SIGHTINGS);
    const big = snapshotIdOf(Buffer.from('big'));
    // A sparse file: 64 MiB and a byte, without writing them.
    const bigFile = join(path, `${big.slice('sha256:'.length)}.txt`);
    writeFileSync(bigFile, '');
    truncateSync(bigFile, 64 * 1024 * 1024 + 1);
    await expect(snapshots.getSnapshot(big)).rejects.toThrow(SnapshotFileError);
    await expect(snapshots.getSnapshot('../../etc/passwd')).rejects.toThrow(/not a snapshot id/);
  });
});
