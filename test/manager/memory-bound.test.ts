/**
 * The manager's memory is bounded in bytes, not in entries: a 500 KiB robots.txt
 * costs about 250 typical ones, so a bound in entries alone would not bound memory. Measured here
 * against real heap growth: what the cache counts is an upper bound on what it holds; hundreds of
 * 500 KiB origins stay under `maxCacheBytes`; eviction is least recently used; and an origin the
 * cache evicted is parsed again from the store, never fetched again (20,000 origins, two passes).
 *
 * Origins are either made up by a store that builds each record when asked (nothing kept outside
 * the manager, so heap growth is the manager's), or served by one forward proxy on 127.0.0.1 that
 * answers for every host (the manager's `proxyUrl`), so 20,000 origins need no 20,000 servers.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, MemoryStore, RobotsManager, type RobotsStore } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { goodRecord } from './records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1_048_576;
const quiet = recordingLog().log;

/** Heap plus buffers after two collections a tick apart (freed buffers are released off-thread). */
async function settledMemory(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** A store that builds each origin's record when asked and keeps nothing; counts its reads. */
function madeUpStore(bodyOf: (origin: string) => Buffer): RobotsStore & { reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    reads,
    async get(origin) {
      reads.set(origin, (reads.get(origin) ?? 0) + 1);
      return goodRecord(origin, bodyOf(origin));
    },
    async set() {},
    async delete() {},
  };
}

/** Each origin's body is its own copy (a comment naming it at the end), as with real sites. */
const ownCopy = (base: string) => (origin: string) => Buffer.from(`${base}# ${origin}\n`);

/** `lines` produced by `line(i)` after `head`, up to `bytes`. */
function file(head: string, line: (i: number) => string, bytes = 500 * 1024): string {
  const parts = [head];
  let length = head.length;
  for (let i = 0; length < bytes; i++) {
    const next = line(i);
    parts.push(next);
    length += next.length;
  }
  return parts.join('').slice(0, bytes);
}

const WORDS = ['cart', 'search', 'account', 'api', 'tag', 'print', 'share', 'filter', 'sort', 'page', 'admin', 'tmp'];
const word = (i: number) => `${WORDS[i % WORDS.length]}${Math.floor(i / WORDS.length).toString(36)}`;
/** A real site's shape: groups for several bots, rules with `*` and `$`, a few sitemaps. */
const typical = [
  'User-agent: *',
  ...Array.from({ length: 50 }, (_, i) =>
    i % 5 === 0 ? `Allow: /${word(i)}/public$` : i % 3 === 0 ? `Disallow: /*?${word(i)}=` : `Disallow: /${word(i)}/`,
  ),
  '',
  'User-agent: AdsBot-Google',
  'Disallow: /checkout',
  '',
  'Sitemap: https://www.example.com/sitemap.xml',
  '',
].join('\n');
const SHAPES: Record<string, { body: string; origins: number }> = {
  'typical ~1 KB files': { body: typical, origins: 2_000 },
  '500 KiB of real-looking rules in 30 groups': {
    body: file('', (i) =>
      i % 400 === 0
        ? `\nUser-agent: ${i % 800 === 0 ? '*' : `bot${i}`}\n`
        : i % 3 === 0
          ? `Disallow: /*/${word(i)}*?q=\n`
          : `Disallow: /${word(i)}/${word(i + 7)}$\n`,
    ),
    origins: 12,
  },
  '500 KiB of /*a*a*…*b patterns': {
    body: file('User-agent: *\n', (i) => `Disallow: /*${'a*'.repeat(20)}${i.toString(36)}\n`),
    origins: 12,
  },
  '500 KiB of non-ASCII patterns': {
    body: file('User-agent: *\n', (i) => `Disallow: /*${'caf\u00e9*'.repeat(200)}${i.toString(36)}\n`),
    origins: 8,
  },
  '500 KiB of tiny rules': { body: file('User-agent: *\n', (i) => `Disallow:/${i % 10}\n`), origins: 12 },
  '500 KiB of one-rule groups naming the agent': {
    body: file('', (i) => `User-agent: HeedBot\nDisallow: /${i.toString(36)}\n`),
    origins: 8,
  },
};

describe('what the in-process cache counts', () => {
  // Each origin is checked as a crawl would: many allowed checks (its rules switch to their hot
  // form) and one explained verdict (groups and rule objects built). Nothing is evicted.
  it.each(Object.entries(SHAPES))(
    'is an upper bound on the heap it holds: %s',
    async (_name, { body, origins }) => {
      const store = madeUpStore(ownCopy(body));
      const urls = Array.from({ length: origins }, (_, i) => `https://origin-${i}.example`);
      const before = await settledMemory();
      const manager = new RobotsManager({ userAgent: UA, store, log: quiet, maxCacheBytes: 1024 * MiB });
      for (const origin of urls) {
        for (let k = 0; k < 70; k++) await manager.isAllowed(`${origin}/page/${k}?q=${k}`);
        (await manager.decide(`${origin}/cart0/tag1`)).explain();
      }
      const grown = (await settledMemory()) - before;
      const { cache } = manager.stats();
      expect(cache.entries).toBe(origins);
      // The count is honest: never below what the heap really grew by.
      expect(grown).toBeLessThanOrEqual(cache.bytes);
      // ...and not so loose that the bound means nothing (measured: 1.2 to 3.6 times the heap).
      expect(cache.bytes).toBeLessThan(5 * grown);
      await manager.close();
    },
    120_000,
  );
});

describe('the byte bound', () => {
  it('300 origins of 500 KiB robots.txt stay under maxCacheBytes (unbounded: ~700 MB)', async () => {
    const body = SHAPES['500 KiB of real-looking rules in 30 groups']!.body;
    const store = madeUpStore(ownCopy(body));
    const maxCacheBytes = 64 * MiB; // the default
    const before = await settledMemory();
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet });
    let peakCounted = 0;
    for (let i = 0; i < 300; i++) {
      const origin = `https://origin-${i}.example`;
      // Fully grown entries are measured above; here a check each, and an explained verdict for some.
      await manager.isAllowed(`${origin}/page`);
      if (i % 10 === 0) (await manager.decide(`${origin}/cart0/tag1`)).explain();
      peakCounted = Math.max(peakCounted, manager.stats().cache.bytes);
    }
    const grown = (await settledMemory()) - before;
    const { cache } = manager.stats();
    expect(cache.maxBytes).toBe(maxCacheBytes);
    expect(peakCounted).toBeLessThanOrEqual(maxCacheBytes);
    expect(cache.entries).toBeGreaterThan(0);
    expect(cache.entries).toBeLessThan(300);
    // What stays is within the bound; without it, 300 such origins hold ~2.3 MB each.
    expect(grown).toBeLessThan(maxCacheBytes * 1.25);
    await manager.close();
    expect(await settledMemory()).toBeLessThan(before + 16 * MiB);
  }, 120_000);

  it('evicts the least recently used origin first', async () => {
    // ~60 KB bodies are counted ~300 KB each: three fit in 1 MiB, the fourth evicts one.
    const store = madeUpStore(ownCopy(`User-agent: *\nDisallow: /private\n#${'x'.repeat(60_000)}\n`));
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
    const body = SHAPES['500 KiB of real-looking rules in 30 groups']!.body;
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

  it('holds 20,000 typical records at its default bound', async () => {
    const store = new MemoryStore();
    const bodyOf = ownCopy(typical);
    for (let i = 0; i < 20_000; i++) {
      const origin = `https://origin-${i}.example`;
      await store.set(origin, goodRecord(origin, bodyOf(origin)), 60_000);
    }
    expect(store.size).toBe(20_000);
    expect(store.bytes).toBeLessThan(store.maxBytes);
    await store.close();
  });
});

describe('an origin evicted from the process cache', () => {
  let proxy: TestServer;
  /** The robots.txt of host H: `typical`, plus a rule for H alone, so each verdict shows whose rules answered. */
  const robotsOf = (host: string) => `User-agent: *\nDisallow: /only-${host}\n${typical}`;
  beforeAll(async () => {
    // A forward proxy answering for every host (it sees the absolute URL).
    proxy = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://invalid');
      res.setHeader('content-type', 'text/plain');
      res.end(url.pathname === '/robots.txt' ? robotsOf(url.hostname) : '');
    });
  });
  afterAll(() => proxy?.close());

  /** Two passes over `origins` in the same order, so the first ones are long evicted from the process cache in the second. */
  async function twoPasses(manager: RobotsManager, origins: readonly string[]) {
    for (const origin of origins) await manager.isAllowed(`${origin}/page`);
    const first = manager.stats();
    const requests = proxy.seen.length;
    for (const [i, origin] of origins.entries()) {
      if (i % 500 === 0) expect(await manager.isAllowed(`${origin}/only-${new URL(origin).hostname}/x`)).toBe(false);
      expect(await manager.isAllowed(`${origin}/page`)).toBe(true);
    }
    return { first, second: manager.stats(), secondPassRequests: proxy.seen.length - requests };
  }

  it('is parsed again from the store the manager fetched it into, not fetched again', async () => {
    // The default store (a MemoryStore the manager makes), a cache of 500 entries for 2,000 origins.
    const origins = Array.from({ length: 2_000 }, (_, i) => `http://site-${i}.test`);
    const manager = new RobotsManager({ userAgent: UA, log: quiet, proxyUrl: proxy.origin, maxConcurrency: 50, cacheSize: 500 });
    const { first, second, secondPassRequests } = await twoPasses(manager, origins);
    expect(first.fetches.ok).toBe(2_000);
    expect(first.cache.entries).toBe(500);
    expect(secondPassRequests).toBe(0);
    expect(second.fetches.total).toBe(2_000);
    expect(second.cache.storeHits - first.cache.storeHits).toBeGreaterThanOrEqual(1_500);
    await manager.close();
  }, 120_000);

  it('20,000 typical origins with the default bounds: the second pass fetches nothing', async () => {
    // As a crawl of 20,000 sites leaves them: every record in the (default-sized) MemoryStore.
    const store = new MemoryStore();
    const origins = Array.from({ length: 20_000 }, (_, i) => `http://site-${i}.test`);
    for (const origin of origins) await store.set(origin, goodRecord(origin, Buffer.from(robotsOf(new URL(origin).hostname))), 86_400_000);
    const manager = new RobotsManager({ userAgent: UA, log: quiet, proxyUrl: proxy.origin, store });
    const { first, second, secondPassRequests } = await twoPasses(manager, origins);
    expect(first.fetches.total).toBe(0);
    expect(first.cache.entries).toBeLessThan(20_000);
    expect(secondPassRequests).toBe(0);
    expect(second.fetches.total).toBe(0);
    expect(second.cache.storeHits - first.cache.storeHits).toBe(20_000);
    expect(store.size).toBe(20_000);
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
