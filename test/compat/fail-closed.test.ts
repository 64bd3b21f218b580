/**
 * Fail closed, loudly: when a hook the protection rests on is not reached (a Crawlee release that
 * adds links another way, a queue the plugin did not wrap), the URL is still blocked at the next
 * stage and the crawler's log says, once, which hook was bypassed. Each test removes a hook from a
 * real CheerioCrawler after attach() and asserts what the server saw.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, UnsupportedCrawleeVersionError, type SkipEvent } from '@heed/crawlee';
import { isSupportedRelease } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

/** The queue's own methods, as Crawlee defines them: deleting the plugin's wrapper restores them. */
type Wrapped = Record<'addRequest' | 'addRequests' | 'addRequestsBatched' | 'fetchNextRequest', unknown>;

describe('a hook the protection rests on is removed', () => {
  let site: Site;
  let a: SiteOrigin;
  let b: SiteOrigin;

  beforeAll(async () => {
    site = await startSite(2);
    [a, b] = site.origins as [SiteOrigin, SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    a.routes.set('/', page('A', ['/ok', '/private/linked', b.url('/'), b.url('/blocked/cross')]));
    a.routes.set('/ok', page('ok', ['/private/from-ok']));
    b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /blocked\n'));
    b.routes.set('/', page('B', ['/blocked/linked']));
  });
  afterAll(async () => {
    await site?.close();
  });

  /**
   * A crawl with the plugin's wrappers `remove`d from the queue. Pages add their links with
   * `enqueueLinks`, or, with `addLinksDirectly`, with `context.addRequests` (a path that reaches the
   * queue's own methods only, as a release adding links another way would).
   */
  async function crawl(remove: (keyof Wrapped)[], addLinksDirectly = remove.length > 0) {
    for (const origin of [a, b]) origin.hits.length = 0;
    const manager = new RobotsManager({ userAgent: UA });
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        requestHandler: async (ctx) => {
          handled.push(ctx.request.url);
          if (!addLinksDirectly) return void (await ctx.enqueueLinks({ strategy: 'all' }));
          const base = ctx.request.loadedUrl ?? ctx.request.url;
          const links = ctx
            .$('a[href]')
            .map((_, element) => new URL(ctx.$(element).attr('href') ?? '', base).href)
            .get();
          await ctx.addRequests(links);
        },
      },
      freshConfig(),
    );
    const errors: string[] = [];
    const error = crawler.log.error.bind(crawler.log);
    crawler.log.error = (message: string, data?: Record<string, unknown>) => {
      errors.push(message);
      error(message, data);
    };
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, crawlDelay: false, onSkip: (e) => void skips.push(e) });
    const queue = (await crawler.getRequestQueue()) as unknown as Wrapped;
    for (const name of remove) {
      expect(Object.hasOwn(queue, name), `the plugin wraps the queue's ${name}`).toBe(true);
      delete queue[name];
    }
    await crawler.run([a.url('/'), a.url('/private/start')]);
    await manager.close();
    return { handled, skips, errors, failed: crawler.stats.state.requestsFailed };
  }

  function expectNothingDisallowed() {
    expect(a.paths().filter((p) => p.startsWith('/private'))).toEqual([]);
    expect(b.paths().filter((p) => p.startsWith('/blocked'))).toEqual([]);
  }

  it('all hooks in place: links are stopped as they are enqueued, nothing logged as bypassed', async () => {
    const run = await crawl([]);
    expectNothingDisallowed();
    expect(new Set(run.skips.map((s) => s.stage))).toEqual(new Set(['enqueue']));
    expect(run.errors.filter((e) => e.includes('RobotsPlugin'))).toEqual([]);
    expect(new Set(run.handled)).toEqual(new Set([a.url('/'), a.url('/ok'), b.url('/')]));
  });

  it('without the enqueue filter (links added past it): still blocked before the fetch, and the bypass is logged', async () => {
    const run = await crawl(['addRequest', 'addRequests', 'addRequestsBatched']);
    expectNothingDisallowed();
    expect(run.skips.map((s) => s.stage)).toContain('before-fetch');
    expect(
      run.skips
        .filter((s) => s.stage === 'before-fetch')
        .map((s) => s.url)
        .sort(),
    ).toEqual(
      [
        a.url('/private/start'),
        a.url('/private/linked'),
        a.url('/private/from-ok'),
        b.url('/blocked/cross'),
        b.url('/blocked/linked'),
      ].sort(),
    );
    expect(run.errors.filter((e) => e.includes("without passing Heed's enqueue check"))).toHaveLength(1);
    expect(run.failed).toBe(0);
  });

  it('without the enqueue filter and the check in fetchNextRequest: still blocked before navigation, and logged', async () => {
    const run = await crawl(['addRequest', 'addRequests', 'addRequestsBatched', 'fetchNextRequest']);
    expectNothingDisallowed();
    expect(run.skips.filter((s) => s.stage === 'before-fetch')).toHaveLength(5);
    expect(run.errors.filter((e) => e.includes('fetchNextRequest()'))).toHaveLength(1);
    expect(new Set(run.handled)).toEqual(new Set([a.url('/'), a.url('/ok'), b.url('/')]));
  });
});

describe('an unsupported crawler', () => {
  it('names the Crawlee release found and the range supported', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    // A crawler without the member every supported release has, as an older or newer release would be.
    Object.defineProperty(crawler, '_runRequestHandler', { value: undefined });
    const error = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedCrawleeVersionError);
    const { version } = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url))('@crawlee/core/package.json') as {
      version: string;
    };
    expect((error as UnsupportedCrawleeVersionError).found).toBe(version);
    expect((error as Error).message).toContain(`found Crawlee ${version}`);
    expect((error as Error).message).toContain('>=3.13.0 <4.0.0 || >=4.0.0-rc.0 <5.0.0');
  });
});

describe('the supported range', () => {
  it.each([
    ['3.13.0', true],
    ['3.13.8', true],
    ['3.18.1', true],
    ['3.99.0-beta.1', true],
    ['3.12.9', false],
    ['3.8.2', false],
    ['4.0.0-rc.0', true],
    ['4.0.0-rc.3', true],
    ['4.0.0', true],
    ['4.2.1', true],
    ['4.0.0-beta.12', false],
    ['4.0.0-alpha.1', false],
    ['5.0.0', false],
    ['2.3.2', false],
    ['not a version', false],
  ])('Crawlee %s supported: %s', (version, supported) => {
    expect(isSupportedRelease(version)).toBe(supported);
  });
});
