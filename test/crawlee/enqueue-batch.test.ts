/**
 * The enqueue path judges a page's links in one go: links of an origin whose robots.txt the manager
 * holds are decided on the spot (`decideCached`), with no `decide()` promise per link; only URLs of
 * origins not yet known wait, and such an origin's robots.txt is fetched once however many of its
 * links a page has. A manager without `decideCached` (a user's own) still gets every URL judged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RobotsManager, type Verdict } from '@heed/manager';
import { RobotsPlugin, type RobotsManagerLike, type SkipEvent } from '@heed/crawlee';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site } from './site.js';

const UA = 'HeedBot/1.0';
const LINKS = 40;
let site: Site | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** A real manager whose `decide()` and `decideCached()` calls are counted. */
function countingManager(): { manager: RobotsManager; calls: { decide: number; decideCached: number } } {
  const manager = new RobotsManager({ userAgent: UA });
  const calls = { decide: 0, decideCached: 0 };
  const decide = manager.decide.bind(manager);
  const decideCached = manager.decideCached.bind(manager);
  manager.decide = (url, productToken) => {
    calls.decide++;
    return decide(url, productToken);
  };
  manager.decideCached = (url, productToken) => {
    calls.decideCached++;
    return decideCached(url, productToken);
  };
  return { manager, calls };
}

/**
 * Crawls from `start` with a CheerioCrawler that enqueues every link; the URLs handled and the skips.
 * `maxRequestsPerCrawl`: the crawler's own limit, if any.
 */
async function crawl(
  start: string,
  manager: RobotsManagerLike,
  maxRequestsPerCrawl?: number,
): Promise<{ handled: string[]; skips: SkipEvent[] }> {
  const handled: string[] = [];
  const skips: SkipEvent[] = [];
  const crawler = new crawleeCheerio.CheerioCrawler(
    {
      maxRequestRetries: 0,
      maxConcurrency: 1,
      ...(maxRequestsPerCrawl !== undefined ? { maxRequestsPerCrawl } : {}),
      requestHandler: async ({ request, enqueueLinks }) => {
        handled.push(request.url);
        await enqueueLinks({ strategy: 'all' });
      },
    },
    freshConfig(),
  );
  await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false, onSkip: (event) => void skips.push(event) });
  await crawler.run([start]);
  return { handled, skips };
}

describe('links of a page, judged in one go', () => {
  it('makes no decide() call per link of an origin already known, and skips what robots.txt disallows', async () => {
    site = await startSite(1);
    const [a] = site.origins as [Site['origins'][number]];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /p/7\n'));
    const links = Array.from({ length: LINKS }, (_, i) => `/p/${i + 1}`);
    a.routes.set('/', page('home', links));
    for (const link of links) a.routes.set(link, page(link, []));
    const { manager, calls } = countingManager();
    try {
      const { handled, skips } = await crawl(a.url('/'), manager);
      expect(handled).toHaveLength(LINKS);
      expect(a.count('/p/7')).toBe(0);
      expect(a.count('/robots.txt')).toBe(1);
      expect(skips).toMatchObject([{ url: a.url('/p/7'), reason: 'rules', stage: 'enqueue', line: 2, referrer: a.url('/') }]);
      // The start URL waits for robots.txt, and each page fetched is checked once more right before
      // its fetch: nothing per link. (Judging each link with decide() made it 2 per page and 1 per link.)
      expect(calls.decide).toBeLessThanOrEqual(handled.length + 1);
      expect(calls.decideCached).toBeGreaterThanOrEqual(LINKS);
    } finally {
      await manager.close();
    }
  });

  it("fetches an unknown origin's robots.txt once for all of a page's links to it", async () => {
    site = await startSite(2);
    const [a, b] = site.origins as [Site['origins'][number], Site['origins'][number]];
    a.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    const links = Array.from({ length: 10 }, (_, i) => b.url(`/b/${i}`));
    a.routes.set('/', page('home', [...links, b.url('/private/x')]));
    for (const link of links) b.routes.set(new URL(link).pathname, page(link, []));
    const { manager, calls } = countingManager();
    try {
      const { handled, skips } = await crawl(a.url('/'), manager);
      expect(b.count('/robots.txt')).toBe(1);
      expect(b.count('/private/x')).toBe(0);
      expect(handled.sort()).toEqual([a.url('/'), ...links].sort());
      expect(skips).toMatchObject([{ url: b.url('/private/x'), reason: 'rules', stage: 'enqueue' }]);
      expect(calls.decide).toBeLessThanOrEqual(handled.length + 2);
    } finally {
      await manager.close();
    }
  });

  it('judges every link through decide() with a manager that has no decideCached', async () => {
    site = await startSite(2);
    const [a, b] = site.origins as [Site['origins'][number], Site['origins'][number]];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /p/3\n'));
    b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /\n'));
    const links = ['/p/1', '/p/2', '/p/3', b.url('/b')];
    a.routes.set('/', page('home', links));
    for (const link of ['/p/1', '/p/2']) a.routes.set(link, page(link, []));
    const real = new RobotsManager({ userAgent: UA });
    let decided = 0;
    const manager: RobotsManagerLike = {
      decide: (url, productToken): Promise<Verdict> => (decided++, real.decide(url, productToken)),
      sitemaps: (url) => real.sitemaps(url),
      crawlDelay: (url, productToken) => real.crawlDelay(url, productToken),
      prefetch: (urls) => real.prefetch(urls),
      close: () => real.close(),
    };
    try {
      const { handled, skips } = await crawl(a.url('/'), manager);
      expect(handled.sort()).toEqual([a.url('/'), a.url('/p/1'), a.url('/p/2')].sort());
      expect(skips.map((s) => s.url).sort()).toEqual([a.url('/p/3'), b.url('/b')].sort());
      expect(a.count('/p/3') + b.count('/b')).toBe(0);
      // The start URL and each link on their way in, each page again before its fetch.
      expect(decided).toBe(1 + links.length + handled.length);
    } finally {
      await real.close();
    }
  });

  it("does not judge the links of pages past the crawler's maxRequestsPerCrawl: the queue takes none of them", async () => {
    site = await startSite(1);
    const [a] = site.origins as [Site['origins'][number]];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /p/7\n'));
    // Each page links LINKS pages; the crawl stops at 3 pages, its queue full after the first.
    const links = Array.from({ length: LINKS }, (_, i) => `/p/${i + 1}`);
    a.routes.set('/', page('home', links));
    for (const link of links) a.routes.set(link, page(link, links));
    const { manager, calls } = countingManager();
    try {
      const { handled, skips } = await crawl(a.url('/'), manager, 3);
      expect(handled).toHaveLength(3);
      expect(a.count('/p/7')).toBe(0);
      // The home page's links are judged (the queue has room for 2 of them); the links of the two
      // pages after it are not: no budget is left, and the queue reports them over its limit itself.
      expect(skips.map((s) => s.url)).toEqual([a.url('/p/7')]);
      expect(calls.decideCached + calls.decide).toBeLessThan(2 * LINKS);
    } finally {
      await manager.close();
    }
  });

  it('enters no AsyncLocalStorage of its own on Crawlee 3 (each one in use costs every promise of the process)', async () => {
    site = await startSite(1);
    const [a] = site.origins as [Site['origins'][number]];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /p/3\n'));
    const links = ['/p/1', '/p/2', '/p/3'];
    a.routes.set('/', page('home', links));
    for (const link of links) a.routes.set(link, page(link, []));
    const entered: string[] = [];
    // Who called run() or enterWith(): the first frame past this test and the spy.
    const note = () => {
      const caller = (new Error().stack ?? '')
        .split('\n')
        .slice(1)
        .find((line) => !/enqueue-batch\.test|tinyspy|@vitest/.test(line));
      if (caller !== undefined && /packages[\\/](crawlee|manager)[\\/]/.test(caller)) entered.push(caller);
    };
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run').mockImplementation(function (this: AsyncLocalStorage<unknown>, ...args) {
      note();
      return run.getMockImplementation() === undefined ? undefined : Reflect.apply(originalRun, this, args);
    });
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith').mockImplementation(function (
      this: AsyncLocalStorage<unknown>,
      store: unknown,
    ) {
      note();
      Reflect.apply(originalEnterWith, this, [store]);
    });
    const manager = new RobotsManager({ userAgent: UA });
    try {
      const { handled, skips } = await crawl(a.url('/'), manager);
      expect(handled.sort()).toEqual([a.url('/'), a.url('/p/1'), a.url('/p/2')].sort());
      // The page scope still reaches the skip: its referrer.
      expect(skips).toMatchObject([{ url: a.url('/p/3'), reason: 'rules', stage: 'enqueue', referrer: a.url('/') }]);
      expect(entered).toEqual([]);
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
      await manager.close();
    }
  });
});

const originalRun = AsyncLocalStorage.prototype.run;
const originalEnterWith = AsyncLocalStorage.prototype.enterWith;
