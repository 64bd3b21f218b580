/** RobotsManager against a real server: single flight, caching, expiry, fallback, API surface. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidOptionsError,
  InvalidUrlError,
  ManagerClosedError,
  MemoryStore,
  RobotsManager,
  type RobotsManagerOptions,
  type RobotsRecord,
  type RobotsStore,
} from '@heed/manager';
import { RECORD_VERSION } from '../../packages/manager/src/record.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { bodyOf } from './records.js';
import { madeUpStore } from '../support/manager-origins.js';

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private',
  'Crawl-delay: 2',
  '',
  'User-agent: OtherBot',
  'Disallow: /',
  'Crawl-delay: 7',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  'Sitemap: https://example.com/news.xml',
].join('\n');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.seen.length = 0;
  server.handle((_req, res) => res.end(ROBOTS));
});

/** Timeouts far past any answer here: a slow machine must not turn a test's fetch into "unreachable"; timeout tests set their own. */
function create(extra: Partial<RobotsManagerOptions> = {}) {
  return new RobotsManager({ userAgent: UA, log: recordingLog().log, timeoutSecs: 30, ...extra });
}

describe('single flight', () => {
  it('500 concurrent checks of a new origin make exactly 1 request', async () => {
    server.handle((_req, res) => setTimeout(() => res.end(ROBOTS), 100));
    const m = create();
    const urls = Array.from({ length: 500 }, (_, i) => `${server.origin}/${i % 2 === 0 ? 'private' : 'page'}/${i}`);
    const results = await Promise.all(urls.map((url) => m.isAllowed(url)));
    expect(server.robotsRequests()).toBe(1);
    expect(results.filter((allowed) => !allowed)).toHaveLength(250);
    expect(m.stats().fetches.total).toBe(1);
    await m.close();
  });

  it('two managers sharing one MemoryStore make 1 request', async () => {
    server.handle((_req, res) => setTimeout(() => res.end(ROBOTS), 100));
    const store = new MemoryStore();
    const a = create({ store });
    const b = create({ store });
    await Promise.all([a.isAllowed(`${server.origin}/x`), b.isAllowed(`${server.origin}/y`), a.decide(`${server.origin}/z`)]);
    expect(server.robotsRequests()).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('crawlers with different product tokens share one fetch and get their own verdicts', async () => {
    const m = create();
    const [mine, other, full] = await Promise.all([
      m.isAllowed(`${server.origin}/page`),
      m.isAllowed(`${server.origin}/page`, 'OtherBot'),
      m.decide(`${server.origin}/page`, 'OtherBot'),
    ]);
    expect([mine, other, full.allowed]).toEqual([true, false, false]);
    expect(full.productToken).toBe('OtherBot');
    expect(server.robotsRequests()).toBe(1);
    await m.close();
  });
});

describe('caching', () => {
  it('answers from cache until the TTL, then fetches again', async () => {
    let now = Date.UTC(2026, 0, 1);
    const m = create({ now: () => now });
    await m.isAllowed(`${server.origin}/a`);
    now += 23 * 3_600_000;
    await m.isAllowed(`${server.origin}/b`);
    expect(server.robotsRequests()).toBe(1);
    now += 2 * 3_600_000;
    await m.isAllowed(`${server.origin}/c`);
    expect(server.robotsRequests()).toBe(2);
    const stats = m.stats();
    expect(stats.cache.hits).toBe(1);
    expect(stats.cache.misses).toBe(2);
    await m.close();
  });

  it('honours Cache-Control max-age within the bounds', async () => {
    server.handle((_req, res) => {
      res.setHeader('cache-control', 'max-age=600');
      res.end(ROBOTS);
    });
    let now = Date.UTC(2026, 0, 1);
    const m = create({ now: () => now, minTtlSecs: 60 });
    const record = await m.get(server.origin);
    expect(record.expiresAt - record.fetchedAt).toBe(600_000);
    now += 601_000;
    await m.isAllowed(`${server.origin}/x`);
    expect(server.robotsRequests()).toBe(2);
    await m.close();
  });

  it('a fresh record in the store is used without fetching, a corrupt one is refetched', async () => {
    const store = new MemoryStore();
    const m1 = create({ store });
    await m1.isAllowed(`${server.origin}/x`);
    await m1.close();
    const m2 = create({ store });
    expect(await m2.isAllowed(`${server.origin}/private`)).toBe(false);
    expect(server.robotsRequests()).toBe(1);
    expect(m2.stats().cache.storeHits).toBe(1);
    await m2.close();

    const foreign: RobotsStore = {
      get: async () => JSON.parse('{"version":999,"origin":"x"}') as RobotsRecord,
      set: async () => {},
      delete: async () => {},
    };
    const m3 = create({ store: foreign });
    expect(await m3.isAllowed(`${server.origin}/private`)).toBe(false);
    expect(server.robotsRequests()).toBe(2);
    await m3.close();
  });
});

describe('unreachable origins', () => {
  it('retries after Retry-After, not before, and keeps the error cached meanwhile', async () => {
    server.handle((_req, res) => {
      res.statusCode = 503;
      res.setHeader('retry-after', '120');
      res.end();
    });
    let now = Date.UTC(2026, 0, 1);
    const m = create({ now: () => now });
    expect(await m.decide(`${server.origin}/x`)).toMatchObject({ allowed: false, reason: 'unreachable' });
    now += 60_000;
    expect(await m.isAllowed(`${server.origin}/x`)).toBe(false);
    expect(server.robotsRequests()).toBe(1);
    now += 61_000;
    server.handle((_req, res) => res.end(ROBOTS));
    expect(await m.decide(`${server.origin}/x`)).toMatchObject({ allowed: true, reason: 'rules' });
    expect(server.robotsRequests()).toBe(2);
    await m.close();
  });

  it('does not hold checks for the retry of a robots.txt that never answers', async () => {
    const open: import('node:http').ServerResponse[] = [];
    server.handle((_req, res) => void open.push(res)); // never answers
    let now = Date.UTC(2026, 0, 1);
    const m = create({ now: () => now, timeoutSecs: 3 });
    expect(await m.decide(`${server.origin}/x`)).toMatchObject({ allowed: false, reason: 'unreachable' });
    now += 2 * 60_000; // past the retry interval
    // The retry goes out, but the check is answered from the unreachable record while it hangs.
    const verdict = await m.decide(`${server.origin}/y`);
    expect(verdict).toMatchObject({ allowed: false, reason: 'unreachable' });
    expect(server.robotsRequests()).toBe(2);
    expect(m.stats().inFlight).toBe(1);
    // Every check during the retry makes no further request.
    expect(await m.isAllowed(`${server.origin}/z`)).toBe(false);
    expect(server.robotsRequests()).toBe(2);
    await m.close();
    for (const res of open) res.destroy();
  });

  it('uses the last good copy when the origin starts failing (stale-copy)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const m = create({ now: () => now });
    expect(await m.isAllowed(`${server.origin}/private`)).toBe(false);
    now += 25 * 3_600_000;
    server.handle((req) => req.socket.destroy());
    const stale = await m.decide(`${server.origin}/private`);
    expect(stale).toMatchObject({ allowed: false, reason: 'stale-copy', line: 2, record: { status: 'unreachable' } });
    expect(await m.decide(`${server.origin}/public`)).toMatchObject({ allowed: true, reason: 'stale-copy' });
    expect(await m.sitemaps(`${server.origin}/`)).toHaveLength(2);
    await m.close();
  });

  it('allows all after unreachableAllowAfterSecs with no good copy', async () => {
    server.handle((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    let now = Date.UTC(2026, 0, 1);
    // Retries at least every 10 minutes: failures spread across the 3 hours (never a quarter apart).
    const m = create({ now: () => now, unreachableAllowAfterSecs: 3 * 3_600, retryMaxSecs: 600 });
    expect(await m.decide(`${server.origin}/x`)).toMatchObject({ allowed: false, reason: 'unreachable' });
    for (let i = 0; i < 6; i++) {
      now += 1_800_000;
      await m.isAllowed(`${server.origin}/x`);
    }
    expect(await m.decide(`${server.origin}/x`)).toMatchObject({ allowed: true, reason: 'long-unreachable' });
    await m.close();
  });
  it('a stored unreachable record from a clock 31 days behind plus one fresh 503 still disallows', async () => {
    server.handle((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const behind = Date.UTC(2026, 0, 1);
    const now = behind + 31 * 24 * 3_600_000;
    for (const run of [{}, { failedAt: [behind] }]) {
      // As a version without failure runs (no failedAt) and as this one stored it.
      const store = new MemoryStore();
      const stored: RobotsRecord = {
        version: RECORD_VERSION,
        origin: server.origin,
        status: 'unreachable',
        httpStatus: 503,
        fetchedAt: behind,
        expiresAt: behind + 60_000,
        problem: { code: 'http-503', message: 'robots.txt answered HTTP 503' },
        failures: 1,
        unreachableSince: behind,
        ...run,
      };
      await store.set(server.origin, stored, Infinity);
      const m = create({ store, now: () => now });
      expect(await m.decide(`${server.origin}/private`)).toMatchObject({ allowed: false, reason: 'unreachable' });
      expect(await m.get(server.origin)).toMatchObject({ status: 'unreachable', failures: 2, failedAt: [now] });
      await m.close();
    }
  });
});

describe('API', () => {
  it('get() returns the record with the raw body and metadata', async () => {
    const m = create();
    const record = await m.get(`${server.origin}/some/page?q=1`);
    expect(record).toMatchObject({ version: RECORD_VERSION, origin: server.origin, status: 'ok', httpStatus: 200 });
    expect(bodyOf(record).toString()).toBe(ROBOTS);
    await expect(m.get('not a url')).rejects.toBeInstanceOf(InvalidUrlError);
    await m.close();
  });

  it('sitemaps() and crawlDelay() per user-agent', async () => {
    const m = create();
    expect(await m.sitemaps(`${server.origin}/x`)).toEqual(['https://example.com/sitemap.xml', 'https://example.com/news.xml']);
    expect(await m.crawlDelay(`${server.origin}/x`)).toBe(2);
    expect(await m.crawlDelay(`${server.origin}/x`, 'OtherBot')).toBe(7);
    expect(await m.sitemaps('nonsense')).toEqual([]);
    expect(await m.crawlDelay('nonsense')).toBeUndefined();
    await m.close();
  });

  it('prefetch() loads every origin once, in parallel', async () => {
    const second = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /\n'));
    try {
      const m = create();
      await m.prefetch([`${server.origin}/a`, `${server.origin}/b`, `${second.origin}/c`, 'not a url']);
      expect(server.robotsRequests()).toBe(1);
      expect(second.robotsRequests()).toBe(1);
      expect(await m.isAllowed(`${second.origin}/x`)).toBe(false);
      expect(
        m
          .stats()
          .origins.map((o) => o.origin)
          .sort(),
      ).toEqual([server.origin, second.origin].sort());
      await m.close();
    } finally {
      await second.close();
    }
  });

  it('invalid URLs are not allowed and never throw', async () => {
    const m = create();
    for (const url of ['', 'not a url', 'ftp://example.com/x', '/relative', 'http://', null as unknown as string]) {
      expect(await m.isAllowed(url)).toBe(false);
      expect(await m.decide(url)).toMatchObject({ allowed: false, reason: 'invalid-url', origin: '' });
    }
    expect(server.seen).toHaveLength(0);
    await m.close();
  });

  it('stats() lists every origin held, least recently used first, stale ones too', async () => {
    // Records that go stale in the process cache a moment after they are read.
    const store = madeUpStore(() => Buffer.from('User-agent: *\nDisallow: /private\n'));
    const shortLived: typeof store = {
      ...store,
      async get(origin) {
        const record = await store.get(origin);
        return record === undefined ? undefined : { ...record, expiresAt: Date.now() + 300 };
      },
    };
    const m = new RobotsManager({ userAgent: UA, store: shortLived, log: recordingLog().log });
    await m.isAllowed('https://a.example/x');
    await m.isAllowed('https://b.example/x');
    await m.isAllowed('https://a.example/y');
    // Past the records' life and the cache's clock resolution (250 ms).
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(m.decideCached('https://a.example/z')).toBeUndefined();
    expect(m.stats().origins.map((o) => o.origin)).toEqual(['https://b.example', 'https://a.example']);
    await m.close();
  });

  it('stats() counts fetches by outcome and status class and lists origins', async () => {
    const bad = await startServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    try {
      const m = create();
      await m.isAllowed(`${server.origin}/x`);
      await m.isAllowed(`${bad.origin}/x`);
      await m.isAllowed(`${bad.origin}/y`);
      const stats = m.stats();
      expect(stats.fetches).toMatchObject({ total: 2, ok: 1, unavailable: 1, unreachable: 0 });
      expect(stats.fetches.byStatusClass).toMatchObject({ '2xx': 1, '4xx': 1, '5xx': 0, network: 0 });
      expect(stats.cache).toMatchObject({ hits: 1, misses: 2, entries: 2 });
      const summary = stats.origins.find((o) => o.origin === bad.origin);
      expect(summary).toMatchObject({
        status: 'unavailable',
        httpStatus: 404,
        policy: 'allow-all',
        reason: 'unavailable',
        problem: 'http-404',
      });
      expect(typeof summary?.fetchedAt).toBe('number');
      await m.close();
    } finally {
      await bad.close();
    }
  });

  it('close() aborts fetches in flight and later calls reject', async () => {
    server.handle(() => {}); // never answers
    const m = create({ timeoutSecs: 60 });
    const pending = m.isAllowed(`${server.origin}/x`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await m.close();
    await expect(pending).rejects.toBeInstanceOf(ManagerClosedError);
    await expect(m.isAllowed(`${server.origin}/x`)).rejects.toBeInstanceOf(ManagerClosedError);
  });
});

describe('close names the method called', () => {
  it.each([
    ['get', (m: RobotsManager, url: string) => m.get(url)],
    ['crawlDelay', (m: RobotsManager, url: string) => m.crawlDelay(url)],
    ['sitemaps', (m: RobotsManager, url: string) => m.sitemaps(url)],
    ['decide', (m: RobotsManager, url: string) => m.decide(url)],
  ])('a %s() waiting on a fetch when close() comes rejects naming that method', async (method, call) => {
    server.handle(() => {}); // never answers
    const m = create({ timeoutSecs: 60 });
    const pending = Promise.resolve(call(m, `${server.origin}/x`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await m.close();
    const error: unknown = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ManagerClosedError);
    expect((error as Error).message).toContain(`RobotsManager.${method}() was called after close()`);
  });
});

describe('close with fetches queued', () => {
  it('rejects every waiting check with ManagerClosedError and resolves', async () => {
    const servers = await Promise.all([0, 1, 2, 3].map(() => startServer(() => {}))); // never answer
    try {
      const m = create({ maxConcurrency: 1, timeoutSecs: 60 });
      const pending = servers.map((s) => m.isAllowed(`${s.origin}/x`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(m.stats().queued).toBe(3);
      await m.close();
      const results = await Promise.allSettled(pending);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ManagerClosedError);
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

describe('options', () => {
  const bad: [Record<string, unknown>, string][] = [
    [{}, 'userAgent'],
    [{ userAgent: '' }, 'userAgent'],
    [{ userAgent: '/1.0' }, 'userAgent'],
    [{ userAgent: 'Bot/1.0\r\nX-Evil: 1' }, 'userAgent'],
    [{ userAgent: UA, maxConcurrency: 0 }, 'maxConcurrency'],
    [{ userAgent: UA, maxConcurrency: 1.5 }, 'maxConcurrency'],
    [{ userAgent: UA, timeoutSecs: -1 }, 'timeoutSecs'],
    [{ userAgent: UA, timeoutSecs: '30s' }, 'timeoutSecs'],
    [{ userAgent: UA, maxBytes: Number.NaN }, 'maxBytes'],
    [{ userAgent: UA, proxyUrl: 'socks5://proxy:1080' }, 'proxyUrl'],
    [{ userAgent: UA, minTtlSecs: 10 * 86_400 }, 'minTtlSecs'],
    [{ userAgent: UA, retryBaseSecs: 7_200 }, 'retryBaseSecs'],
    [{ userAgent: UA, store: {} }, 'store'],
    [{ userAgent: UA, log: console }, 'log'],
    [{ userAgent: UA, userAgnet: 'typo' }, 'userAgnet'],
  ];
  for (const [options, option] of bad) {
    it(`rejects ${JSON.stringify(options).slice(0, 60)} naming "${option}"`, () => {
      let error: unknown;
      try {
        new RobotsManager(options as unknown as RobotsManagerOptions);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect((error as InvalidOptionsError).option).toBe(option);
      expect((error as Error).message).toContain(option);
    });
  }

  it('derives the product token from the user-agent header', () => {
    expect(new RobotsManager({ userAgent: UA }).productToken).toBe('HeedBot');
  });
});
