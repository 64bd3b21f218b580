/**
 * Store faults: Redis dying under a running crawl, records a store should never have (corrupt, or
 * written by another record version), and a crawler process killed with SIGKILL and started again
 * over the same persisted key-value store. What counts is what the servers saw: no disallowed page,
 * and no robots.txt fetched again while a fresh copy was kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyValueStoreStore, MemoryStore, RedisStore, RobotsManager, type RobotsRecord, type RobotsStore } from '@heed/manager';
import { RECORD_VERSION } from '../../packages/manager/src/record.js';
import { RobotsPlugin } from '@heed/crawlee';
import { recordingLog, startServer } from '../manager/helpers.js';
import { has } from '../support/requirements.js';
import { redisCommand, startRedis, type RedisServer } from '../manager/redis-helpers.js';
import { crawleeCheerio, crawleeCore, freshConfig, page, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const DAY = 86_400_000;

const redisAvailable = has('redis-server', 'test/faults/store-faults.test.ts, the Redis cases');

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const robotsHits = (origin: SiteOrigin) => origin.count('/robots.txt');
const privateHits = (site: Site) => site.allUrls().filter((url) => new URL(url).pathname.startsWith('/private'));

describe.skipIf(!redisAvailable)('Redis stopped mid-crawl', () => {
  let redis: RedisServer;
  let site: Site;
  beforeAll(async () => {
    redis = await startRedis();
    site = await startSite(6);
  });
  afterAll(async () => {
    await redis?.stop();
    await site?.close();
  });

  it('falls back to memory, logs once, keeps crawling, and shares through Redis again once it is back', async () => {
    const origins = site.origins;
    origins.forEach((origin, k) => {
      origin.routes.set('/robots.txt', text(ROBOTS));
      const next = origins[k + 1];
      origin.routes.set('/', page(`origin ${k}`, [origin.url('/private/secret'), ...(next ? [next.url('/')] : [])]));
    });
    const prefix = 'faults-midcrawl:';
    const { lines, log } = recordingLog();
    const store = new RedisStore({ url: redis.url, keyPrefix: prefix, log });
    const manager = new RobotsManager({ userAgent: UA, store, log: recordingLog().log });
    const handled: string[] = [];
    // One page at a time, so "mid-crawl" is a fixed point: origin k's robots.txt is fetched when
    // origin k-1's page enqueues its link. Redis dies before origin 2's fetch and is back before 4's.
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        maxConcurrency: 1,
        maxRequestRetries: 0,
        requestHandler: async ({
          request,
          enqueueLinks,
        }: {
          request: { url: string };
          enqueueLinks: (options: object) => Promise<unknown>;
        }) => {
          handled.push(request.url);
          if (request.url === origins[1]?.url('/')) await redis.stop();
          if (request.url === origins[3]?.url('/')) {
            await redis.restart();
            // ioredis reconnects on its own (retry every <= 2 s); the store notices on its next command.
            await until(async () => {
              await store.get('http://probe.invalid');
              return !store.usingFallback;
            }, 'the RedisStore to use Redis again');
          }
          await enqueueLinks({ strategy: 'all' });
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, logSummary: false });
    try {
      await crawler.run([origins[0]!.url('/')]);

      // It kept crawling: every page, none failed, no disallowed page, one robots.txt fetch per origin.
      expect(handled).toEqual(origins.map((o) => o.url('/')));
      expect(crawler.stats.state.requestsFailed).toBe(0);
      expect(privateHits(site)).toEqual([]);
      expect(origins.map(robotsHits)).toEqual([1, 1, 1, 1, 1, 1]);
      // The outage was reported once (not once per command or origin), and so was the recovery.
      expect(lines.filter((l) => l.level === 'warning').map((l) => l.message)).toEqual([expect.stringMatching(/Redis is unreachable/)]);
      // The store's lines: on a busy machine the manager may also say it waits on a slow robots.txt.
      expect(lines.filter((l) => l.level === 'info' && /Redis/.test(l.message)).map((l) => l.message)).toEqual([
        expect.stringMatching(/reachable again/),
      ]);

      // Sharing resumed: origins fetched after the recovery are in Redis, and another manager (another
      // crawler, another process) reads them from there instead of fetching.
      for (const origin of origins.slice(4)) {
        expect(await redisCommand(redis.port, 'GET', `${prefix}record:${origin.origin}`)).toContain('"status":"ok"');
      }
      const otherStore = new RedisStore({ url: redis.url, keyPrefix: prefix, log: recordingLog().log });
      const other = new RobotsManager({ userAgent: UA, store: otherStore, log: recordingLog().log });
      expect(await other.isAllowed(origins[4]!.url('/private/secret'))).toBe(false);
      expect(await other.isAllowed(origins[5]!.url('/'))).toBe(true);
      expect(origins.map(robotsHits)).toEqual([1, 1, 1, 1, 1, 1]);
      await other.close();
      await otherStore.close();
    } finally {
      await manager.close();
      await store.close();
    }
  }, 60_000);
});

/** Records a store should never hand back: each must be ignored and the robots.txt fetched again. */
function faults(origin: string): [string, unknown][] {
  const now = Date.now();
  // Fresh and readable but for its version: if it were used, "Disallow: /" would block /public.
  const foreign = {
    version: RECORD_VERSION + 1,
    origin,
    status: 'ok',
    fetchedAt: now,
    expiresAt: now + DAY,
    body: Buffer.from('User-agent: *\nDisallow: /\n').toString('base64'),
  };
  return [
    ['a record of another version', foreign],
    ['a record of another origin', { ...foreign, version: RECORD_VERSION, origin: 'http://other.example' }],
    ['a record with a body that is not text', { ...foreign, version: RECORD_VERSION, body: 12_345 }],
    ['truncated JSON', JSON.stringify(foreign).slice(0, 40)],
    ['not JSON at all', 'robots: yes please'],
  ];
}

interface StoreUnderTest {
  readonly store: RobotsStore;
  /** Puts `value` where the store keeps the record of `origin`, as another writer could have. */
  plant(origin: string, value: unknown): Promise<void>;
  close(): Promise<void>;
}

const stores: [string, () => Promise<StoreUnderTest>][] = [
  [
    'MemoryStore',
    async () => {
      const store = new MemoryStore();
      return { store, plant: (origin, value) => store.set(origin, value as RobotsRecord, DAY), close: () => store.close() };
    },
  ],
  [
    'KeyValueStoreStore',
    async () => {
      const kvs = await crawleeCore.KeyValueStore.open(`heed-faults-${Math.random().toString(36).slice(2)}`, { config: freshConfig() });
      return {
        store: new KeyValueStoreStore({ store: kvs }),
        plant: (origin, value) =>
          kvs.setValue(KeyValueStoreStore.keyOf(origin), value, typeof value === 'string' ? { contentType: 'text/plain' } : undefined),
        close: () => kvs.drop(),
      };
    },
  ],
];

describe('a corrupt or foreign record in a store is ignored and refetched', () => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (!redisAvailable) return;
    redis = await startRedis();
    const server = redis;
    stores.push([
      'RedisStore',
      async () => {
        const prefix = `faults-corrupt-${Math.random().toString(36).slice(2)}:`;
        const store = new RedisStore({ url: server.url, keyPrefix: prefix, log: recordingLog().log });
        return {
          store,
          plant: async (origin, value) =>
            void (await redisCommand(
              server.port,
              'SET',
              `${prefix}record:${origin}`,
              typeof value === 'string' ? value : JSON.stringify(value),
            )),
          close: () => store.close(),
        };
      },
    ]);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('in every store, for every kind of bad record', async () => {
    expect(stores.map(([name]) => name)).toEqual(['MemoryStore', 'KeyValueStoreStore', ...(redisAvailable ? ['RedisStore'] : [])]);
    for (const [storeName, make] of stores) {
      for (const [faultName, value] of faults('http://placeholder')) {
        const server = await startServer((_req, res) => res.end(ROBOTS));
        const subject = await make();
        const manager = new RobotsManager({ userAgent: UA, store: subject.store, log: recordingLog().log });
        const planted =
          typeof value === 'object' && value !== null
            ? { ...value, ...('origin' in value && value.origin === 'http://placeholder' ? { origin: server.origin } : {}) }
            : value;
        try {
          await subject.plant(server.origin, planted);
          const where = `${storeName}, ${faultName}`;
          expect(await manager.decide(`${server.origin}/public`), where).toMatchObject({ allowed: true, reason: 'rules' });
          expect(await manager.isAllowed(`${server.origin}/private/x`), where).toBe(false);
          expect(server.robotsRequests(), where).toBe(1);
          // The refetched record replaced the bad one.
          expect(await subject.store.get(server.origin), where).toMatchObject({
            version: RECORD_VERSION,
            origin: server.origin,
            status: 'ok',
          });
        } finally {
          await manager.close();
          await subject.close();
          await server.close();
        }
      }
    }
  }, 60_000);
});

describe('kill -9 of a crawler process, and a restart over the same key-value store', () => {
  let site: Site;
  let work: string;
  const children = new Set<ChildProcess>();
  beforeAll(async () => {
    // The crawler process runs the built packages (built once by test/support/global-setup.ts).
    site = await startSite(5);
    work = mkdtempSync(join(tmpdir(), 'heed-faults-kill-'));
  }, 120_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  function startCrawler(startUrls: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./crawler-process.mjs', import.meta.url)), join(work, 'storage'), ...startUrls],
      {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        children.delete(child);
        resolve(code);
      }),
    );
    return { child, output: () => output, exited };
  }

  it('fetches no robots.txt that is still fresh; only the one cut off by the kill is fetched again', async () => {
    // Four origins with a robots.txt each; the last one's page links to a fifth origin whose
    // robots.txt hangs during the first run, so the crawler is busy when it is killed.
    const [a0, a1, a2, a3, hanging] = site.origins as [SiteOrigin, SiteOrigin, SiteOrigin, SiteOrigin, SiteOrigin];
    const fresh = [a0, a1, a2, a3];
    for (const origin of fresh) {
      origin.routes.set('/robots.txt', text(ROBOTS));
      origin.routes.set('/', page(origin.origin, [origin.url('/private/secret'), origin.url('/about')]));
      origin.routes.set('/about', page('about', []));
    }
    a3.routes.set('/', page('a3', [a3.url('/private/secret'), a3.url('/about'), hanging.url('/page')]));
    hanging.routes.set('/robots.txt', () => new Promise(() => {}));
    hanging.routes.set('/page', page('hanging origin', [hanging.url('/private/secret')]));
    const startUrls = fresh.map((o) => o.url('/'));
    const recordFile = (origin: SiteOrigin) =>
      join(work, 'storage', 'key_value_stores', 'heed-robots', `${KeyValueStoreStore.keyOf(origin.origin)}.json`);
    const persisted = (origin: SiteOrigin) => {
      if (!existsSync(recordFile(origin))) return false;
      try {
        // Stored as { retainUntil, record } (KeyValueStoreStore's retention).
        const stored = JSON.parse(readFileSync(recordFile(origin), 'utf8')) as { record?: { status?: string } };
        return stored.record?.status === 'ok';
      } catch {
        return false; // being written
      }
    };

    const first = startCrawler(startUrls);
    await until(
      () => fresh.every((o) => robotsHits(o) === 1 && o.count('/') === 1 && persisted(o)) && robotsHits(hanging) === 1,
      `the first run to fetch and persist 4 robots.txt and hang on the fifth (output: ${first.output().slice(-500)})`,
      40_000,
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed, not finished

    hanging.routes.set('/robots.txt', text(ROBOTS));
    const second = startCrawler(startUrls);
    const code = await Promise.race([second.exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000))]);
    expect(code, second.output().slice(-2_000)).toBe(0);
    expect(second.output()).toContain('"done":true,"failed":0');

    // The four fresh robots.txt were read from the store, not fetched again; the cut-off one was.
    expect(fresh.map(robotsHits)).toEqual([1, 1, 1, 1]);
    expect(robotsHits(hanging)).toBe(2);
    // The second run did crawl: each start page again, and the fifth origin's page now.
    expect(fresh.map((o) => o.count('/'))).toEqual([2, 2, 2, 2]);
    expect(hanging.count('/page')).toBe(1);
    expect(privateHits(site)).toEqual([]);
  }, 120_000);
});
