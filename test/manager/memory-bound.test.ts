/**
 * The manager's memory is bounded in bytes, not in entries: a 500 KiB robots.txt
 * costs about 250 typical ones, so a bound in entries alone would not bound memory. Measured here
 * against real heap growth: what the cache counts is an upper bound on what it holds; dozens of
 * 500 KiB origins stay under `maxCacheBytes`; eviction is least recently used; and an origin the
 * cache evicted is parsed again from the store, never fetched again (2,000 origins, two passes,
 * the fetches of the second counted). The same at full scale (300 origins at the default bound,
 * 20,000 origins with the default bounds) is in test/stress/manager-memory.stress.ts.
 *
 * Origins are either made up by a store that builds each record when asked (nothing kept outside
 * the manager, so heap growth is the manager's), or served by one forward proxy on 127.0.0.1 that
 * answers for every host (the manager's `proxyUrl`), so 2,000 origins need no 2,000 servers.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, MemoryStore, RobotsManager } from '@heed/manager';
import { recordingLog, UA, type TestServer } from './helpers.js';
import { goodRecord } from './records.js';
import {
  forwardProxy,
  linesUpTo,
  madeUpStore,
  MiB,
  ownCopy,
  realLooking500KiB,
  settledMemory,
  twoPasses,
  typical,
  fillCache,
} from '../support/manager-origins.js';

const quiet = recordingLog().log;

const SHAPES: Record<string, { body: string; origins: number }> = {
  'typical ~1 KB files': { body: typical, origins: 500 },
  '500 KiB of real-looking rules in 30 groups': { body: realLooking500KiB, origins: 12 },
  '500 KiB of /*a*a*…*b patterns': {
    body: linesUpTo('User-agent: *\n', (i) => `Disallow: /*${'a*'.repeat(20)}${i.toString(36)}\n`),
    origins: 12,
  },
  '500 KiB of non-ASCII patterns': {
    body: linesUpTo('User-agent: *\n', (i) => `Disallow: /*${'caf\u00e9*'.repeat(200)}${i.toString(36)}\n`),
    origins: 8,
  },
  '500 KiB of tiny rules': { body: linesUpTo('User-agent: *\n', (i) => `Disallow:/${i % 10}\n`), origins: 12 },
  '500 KiB of one-rule groups naming the agent': {
    body: linesUpTo('', (i) => `User-agent: HeedBot\nDisallow: /${i.toString(36)}\n`),
    origins: 8,
  },
};

interface Held {
  /** What letting the manager go freed, after a full collection. */
  readonly grown: number;
  /** What its cache counted. */
  readonly bytes: number;
  readonly entries: number;
}

/**
 * A manager filled with `origins` origins serving `body`, each checked as a crawl would (many
 * allowed checks, whose rules switch to their hot form, and one explained verdict: groups and rule
 * objects built; nothing evicted); what its cache counted and what letting it go frees, both read
 * after a full collection (read so, not as growth from before it was made: what an earlier test
 * file left for the collector may be let go while the cache fills).
 */
async function heldByFilledManager(body: string, origins: number): Promise<Held> {
  const store = madeUpStore(ownCopy(body));
  const urls = Array.from({ length: origins }, (_, i) => `https://origin-${i}.example`);
  let manager: RobotsManager | undefined = new RobotsManager({ userAgent: UA, store, log: quiet, maxCacheBytes: 1024 * MiB });
  for (const origin of urls) {
    for (let k = 0; k < 70; k++) await manager.isAllowed(`${origin}/page/${k}?q=${k}`);
    (await manager.decide(`${origin}/cart0/tag1`)).explain();
  }
  const held = await settledMemory();
  const { cache } = manager.stats();
  await manager.close();
  manager = undefined;
  return { grown: held - (await settledMemory()), bytes: cache.bytes, entries: cache.entries };
}

describe('what the in-process cache counts', () => {
  it.each(Object.entries(SHAPES))(
    'is an upper bound on the heap it holds: %s',
    async (_name, { body, origins }) => {
      // Two fills: test files share their worker, and what an earlier file left behind may be let
      // go (or kept) while one is read, which moves that reading only. The count must bound the
      // lesser reading from above, and the greater must be within 2.5 times of it.
      const trials = [await heldByFilledManager(body, origins), await heldByFilledManager(body, origins)];
      const [first] = trials as [Held, Held];
      for (const trial of trials) expect(trial.entries).toBe(origins);
      const grown = trials.map((trial) => trial.grown);
      // The count is honest: never below what the heap really grew by.
      expect(Math.min(...grown), `heap freed: ${grown.join(', ')} bytes`).toBeLessThanOrEqual(first.bytes);
      // ...and close to it (measured: 1.3 to 1.8 times the heap; the parser counts what its structures are made of).
      expect(first.bytes).toBeLessThan(2.5 * Math.max(...grown));
    },
    120_000,
  );
});

describe('the byte bound', () => {
  it('40 origins of 500 KiB robots.txt stay under maxCacheBytes (unbounded: ~90 MB), and close() gives it back', async () => {
    const body = realLooking500KiB;
    const store = madeUpStore(ownCopy(body));
    // Three such origins fit (about 8 MiB counted each); the default bound, with 300 origins, is
    // test/stress/manager-memory.stress.ts.
    const maxCacheBytes = 32 * MiB;
    const { manager, before, grown, peakCounted } = await fillCache(store, 40, maxCacheBytes);
    const { cache } = manager.stats();
    expect(cache.maxBytes).toBe(maxCacheBytes);
    expect(peakCounted).toBeLessThanOrEqual(maxCacheBytes);
    expect(cache.entries).toBeGreaterThan(0);
    expect(cache.entries).toBeLessThan(40);
    // What stays is within the bound; without it, 40 such origins hold ~2.3 MB each.
    expect(grown).toBeLessThan(maxCacheBytes * 1.25);
    await manager.close();
    // Closed, the manager holds nothing: at most a quarter of what it held stays (noise, measured ~10%).
    expect((await settledMemory()) - before).toBeLessThan(grown / 4);
  }, 120_000);

  it('evicts the least recently used origin first', async () => {
    // 250 KB bodies are counted ~335 KB each (their base64 records; the comment is not parsed into
    // anything): three fit in 1 MiB, the fourth evicts one.
    const store = madeUpStore(ownCopy(`User-agent: *\nDisallow: /private\n#${'x'.repeat(250_000)}\n`));
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, maxCacheBytes: MiB });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => `https://${name}.example`) as [string, string, string, string];
    for (const origin of [a, b, c]) await manager.isAllowed(`${origin}/`);
    expect(manager.stats().cache.entries).toBe(3);
    await manager.isAllowed(`${a}/again`); // a is used again, so b is now the least recently used
    await manager.isAllowed(`${d}/`);
    expect(
      manager
        .stats()
        .origins.map((o) => o.origin)
        .sort(),
    ).toEqual([a, c, d]);
    expect(manager.stats().cache.bytes).toBeLessThanOrEqual(MiB);
    // b comes back from the store (a second read), a never left (one read).
    expect(await manager.isAllowed(`${b}/private/x`)).toBe(false);
    expect(store.reads.get(b)).toBe(2);
    expect(store.reads.get(a)).toBe(1);
    await manager.close();
  });

  it('a file counted above the whole bound answers, but is not kept', async () => {
    const store = madeUpStore(ownCopy(SHAPES['500 KiB of tiny rules']!.body));
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, maxCacheBytes: MiB });
    expect(await manager.isAllowed('https://huge.example/1')).toBe(false);
    expect(await manager.isAllowed('https://huge.example/a')).toBe(true);
    expect(manager.stats().cache.entries).toBe(0);
    expect(manager.stats().fetches.total).toBe(0);
    await manager.close();
  });
});

describe('MemoryStore', () => {
  it('counts an upper bound on the heap its records hold, and stays under maxBytes', async () => {
    const body = realLooking500KiB;
    const bodyOf = ownCopy(body);
    const before = await settledMemory();
    const store = new MemoryStore({ maxBytes: 16 * MiB });
    for (let i = 0; i < 40; i++) {
      const origin = `https://origin-${i}.example`;
      await store.set(origin, goodRecord(origin, bodyOf(origin)), 60_000);
    }
    const grown = (await settledMemory()) - before;
    expect(store.bytes).toBeLessThanOrEqual(16 * MiB);
    expect(store.size).toBeLessThan(40);
    // Records are counted for their bytes (base64 body and fields); the store's own structures are
    // a fixed cost on top (a few KB), allowed for here.
    expect(grown).toBeLessThanOrEqual(store.bytes + 256 * 1024);
    // The most recent records are the ones kept.
    expect(await store.get('https://origin-39.example')).toBeDefined();
    expect(await store.get('https://origin-0.example')).toBeUndefined();
    await store.close();
  });

  it('holds 20,000 typical records at its default bound: 2,000 of them take under a tenth of it', async () => {
    // Counted in bytes: every typical record costs about the same, so a tenth of the records in a
    // tenth of the bound is the bound holding them all (the 20,000 themselves: test/stress/manager-memory.stress.ts).
    const store = new MemoryStore();
    const bodyOf = ownCopy(typical);
    for (let i = 0; i < 2_000; i++) {
      const origin = `https://origin-${i}.example`;
      await store.set(origin, goodRecord(origin, bodyOf(origin)), 60_000);
    }
    expect(store.size).toBe(2_000);
    expect(store.bytes).toBeLessThan(store.maxBytes / 10);
    await store.close();
  });
});

describe('a broad crawl at the default bounds', () => {
  it('holds 3,000 origins of real robots.txt files in the default maxCacheBytes: a second pass over them reads nothing again', async () => {
    // The repository's sample of real files (0.1 to 8 KB), each origin its own copy. Counted at
    // about 40 KB each, only about 1,600 such origins fitted, and past them every check of a pass
    // over all origins parsed its file again from the store.
    const dir = new URL('../fixtures/real-robots-sample/', import.meta.url);
    const files = readdirSync(dir).map((name) => readFileSync(new URL(name, dir), 'utf8'));
    const store = madeUpStore((origin) => Buffer.from(`${files[Number(/\d+/.exec(origin)?.[0]) % files.length]}\n# ${origin}\n`));
    const origins = Array.from({ length: 3_000 }, (_, i) => `https://origin-${i}.example`);
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, cacheSize: 10_000 });
    for (const pass of [1, 2]) {
      for (const origin of origins) {
        await manager.isAllowed(`${origin}/page/${pass}`);
        (await manager.decide(`${origin}/private/${pass}`)).rule();
      }
    }
    const { cache } = manager.stats();
    expect(cache.entries).toBe(3_000);
    expect(cache.bytes).toBeLessThanOrEqual(64 * MiB);
    expect([...store.reads.values()].filter((reads) => reads > 1)).toEqual([]);
    await manager.close();
  }, 120_000);
});

describe('what a typical origin costs', () => {
  it('a robots.txt of a few hundred bytes, checked as a crawl does, is counted at under 4 KB', async () => {
    // The sample's files under 1 KB (79 to 768 B; the median real file is about 570 B). What stays
    // whatever the file is the record, the directive table and the rules compiled for the agent; a
    // candidate index with per-byte bounds and the byte-class masks of the shared search, made for
    // every compiled agent, counted 5.4 KB an origin.
    const dir = new URL('../fixtures/real-robots-sample/', import.meta.url);
    const files = readdirSync(dir)
      .map((name) => readFileSync(new URL(name, dir), 'utf8'))
      .filter((body) => body.length > 0 && body.length < 1000);
    expect(files.length).toBeGreaterThan(5);
    const store = madeUpStore((origin) => Buffer.from(`${files[Number(/\d+/.exec(origin)?.[0]) % files.length]}\n# ${origin}\n`));
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet });
    for (let i = 0; i < 1_000; i++) {
      await manager.isAllowed(`https://origin-${i}.example/page/1`);
      (await manager.decide(`https://origin-${i}.example/private/1`)).rule();
    }
    const { cache } = manager.stats();
    expect(cache.entries).toBe(1_000);
    expect(cache.bytes / cache.entries).toBeLessThan(4_000);
    await manager.close();
  });
});

describe('an origin kept in the process cache', () => {
  it('does not keep the URL it was first asked about (20 origins first asked with 100 KB URLs)', () => {
    const script = fileURLToPath(new URL('./fixtures/origin-key-memory.mjs', import.meta.url));
    const run = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const { short, long } = JSON.parse(run.stdout) as { short: number; long: number };
    // An origin cut out of its URL and kept as a key would hold the whole URL: 2 MB for the 20.
    expect(long - short).toBeLessThan(500_000);
  });
});

describe('an origin evicted from the process cache', () => {
  let proxy: TestServer;
  beforeAll(async () => {
    proxy = await forwardProxy();
  });
  afterAll(() => proxy?.close());

  it('is parsed again from the store the manager fetched it into, not fetched again', async () => {
    // The default store (a MemoryStore the manager makes), a cache of 100 entries for 400 origins
    // (test:stress runs 20,000 through the default bounds).
    const origins = Array.from({ length: 400 }, (_, i) => `http://site-${i}.test`);
    const manager = new RobotsManager({ userAgent: UA, log: quiet, proxyUrl: proxy.origin, maxConcurrency: 50, cacheSize: 100 });
    const { first, second, secondPassRequests } = await twoPasses(manager, origins, proxy);
    expect(first.fetches.ok).toBe(400);
    expect(first.cache.entries).toBe(100);
    expect(secondPassRequests).toBe(0);
    expect(second.fetches.total).toBe(400);
    expect(second.cache.storeHits - first.cache.storeHits).toBeGreaterThanOrEqual(300);
    await manager.close();
  }, 120_000);
});

describe('the byte bounds as options', () => {
  const bad: unknown[] = [0, 1_000, MiB - 1, MiB + 0.5, Infinity, Number.NaN, '64MB', -MiB, 2 ** 53];
  it.each(bad)('maxCacheBytes and MemoryStore maxBytes reject %s, naming the option', (value) => {
    const error = (make: () => unknown) => {
      try {
        make();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const fromManager = error(() => new RobotsManager({ userAgent: UA, maxCacheBytes: value as number }));
    expect(fromManager).toBeInstanceOf(InvalidOptionsError);
    expect((fromManager as InvalidOptionsError).option).toBe('maxCacheBytes');
    expect((fromManager as Error).message).toMatch(/whole number of bytes from 1,048,576 to [\d,]+ \(1 MiB to this process's heap limit\)/);
    const fromStore = error(() => new MemoryStore({ maxBytes: value as number }));
    expect(fromStore).toBeInstanceOf(InvalidOptionsError);
    expect((fromStore as InvalidOptionsError).option).toBe('maxBytes');
  });

  it('accepts 1 MiB and up, and documents the defaults in stats() and on the store', async () => {
    const manager = new RobotsManager({ userAgent: UA, log: quiet });
    expect(manager.stats().cache.maxBytes).toBe(64 * MiB);
    expect(new MemoryStore().maxBytes).toBe(128 * MiB);
    expect(new RobotsManager({ userAgent: UA, maxCacheBytes: MiB }).stats().cache.maxBytes).toBe(MiB);
    await manager.close();
  });
});
