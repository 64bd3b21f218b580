/**
 * Origins for the manager memory tests, shared by the CI-scale runs (test/manager/memory-bound.test.ts)
 * and the full-scale ones (test/stress/manager-memory.stress.ts), so that both measure the same
 * bodies: robots.txt files of a real site's shape, a store that makes each origin's record up when
 * asked, a forward proxy on 127.0.0.1 that answers for every host, and heap readings after a
 * collection.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import { RobotsManager, type RobotsStore } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from '../manager/helpers.js';
import { goodRecord } from '../manager/records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export const MiB = 1_048_576;

/** Heap plus buffers after two collections a tick apart (freed buffers are released off-thread). */
export async function settledMemory(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** A store that builds each origin's record when asked and keeps nothing; counts its reads. */
export function madeUpStore(bodyOf: (origin: string) => Buffer): RobotsStore & { reads: Map<string, number> } {
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
export const ownCopy = (base: string) => (origin: string) => Buffer.from(`${base}# ${origin}\n`);

/** Lines produced by `line(i)` after `head`, up to `bytes`. */
export function linesUpTo(head: string, line: (i: number) => string, bytes = 500 * 1024): string {
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
/** A path word of a real site, distinct for each `i`. */
export const word = (i: number) => `${WORDS[i % WORDS.length]}${Math.floor(i / WORDS.length).toString(36)}`;

/** A real site's shape, about 1 KB: groups for several bots, rules with `*` and `$`, a few sitemaps. */
export const typical = [
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

/** 500 KiB of real-looking rules in 30 groups. */
export const realLooking500KiB = linesUpTo('', (i) =>
  i % 400 === 0
    ? `\nUser-agent: ${i % 800 === 0 ? '*' : `bot${i}`}\n`
    : i % 3 === 0
      ? `Disallow: /*/${word(i)}*?q=\n`
      : `Disallow: /${word(i)}/${word(i + 7)}$\n`,
);

/** The robots.txt of host H: `typical`, plus a rule for H alone, so each verdict shows whose rules answered. */
export const robotsOf = (host: string) => `User-agent: *\nDisallow: /only-${host}\n${typical}`;

/** A forward proxy answering every host's robots.txt with {@link robotsOf} (it sees the absolute URL). */
export function forwardProxy(): Promise<TestServer> {
  return startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://invalid');
    res.setHeader('content-type', 'text/plain');
    res.end(url.pathname === '/robots.txt' ? robotsOf(url.hostname) : '');
  });
}

/**
 * Two passes over `origins` in the same order, so the first ones are long evicted from the process
 * cache in the second; the manager's stats after each, and the requests `proxy` received in the second.
 */
export async function twoPasses(manager: RobotsManager, origins: readonly string[], proxy: TestServer) {
  for (const origin of origins) await manager.isAllowed(`${origin}/page`);
  const first = manager.stats();
  const requests = proxy.seen.length;
  for (const [i, origin] of origins.entries()) {
    if (i % 500 === 0) expect(await manager.isAllowed(`${origin}/only-${new URL(origin).hostname}/x`)).toBe(false);
    expect(await manager.isAllowed(`${origin}/page`)).toBe(true);
  }
  return { first, second: manager.stats(), secondPassRequests: proxy.seen.length - requests };
}

/**
 * `origins` origins of `store` checked through one manager bounded at `maxCacheBytes` (its default
 * when absent), an explained verdict for one in ten: the manager, the heap before, what the heap
 * grew by, and the most its cache counted at any point.
 */
export async function fillCache(store: RobotsStore, origins: number, maxCacheBytes?: number) {
  const before = await settledMemory();
  const manager = new RobotsManager({
    userAgent: UA,
    store,
    log: recordingLog().log,
    ...(maxCacheBytes === undefined ? {} : { maxCacheBytes }),
  });
  let peakCounted = 0;
  for (let i = 0; i < origins; i++) {
    const origin = `https://origin-${i}.example`;
    await manager.isAllowed(`${origin}/page`);
    if (i % 10 === 0) (await manager.decide(`${origin}/cart0/tag1`)).explain();
    peakCounted = Math.max(peakCounted, manager.stats().cache.bytes);
  }
  return { manager, before, grown: (await settledMemory()) - before, peakCounted };
}
