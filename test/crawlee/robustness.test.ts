/**
 * Trouble never turns into a crawled disallowed URL, a crash or a failed request: a manager that
 * throws, an onSkip callback that throws, a closed manager.
 */
import { describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type RobotsManagerLike, type SkipEvent } from '@heed/crawlee';
import { crawleeBasic, crawleeHttp, freshConfig, page, startSite, text, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0';

/** A manager allowing everything except origins containing "broken", where decide() throws. */
function flakyManager(): RobotsManagerLike {
  const real = new RobotsManager({ userAgent: UA });
  return {
    decide: async (url, productToken) => {
      if (url.includes('broken')) throw new Error('store on fire');
      return {
        allowed: true,
        url,
        origin: new URL(url).origin,
        productToken: productToken ?? 'HeedBot',
        reason: 'unavailable',
        line: 0,
        record: { status: 'unavailable', httpStatus: 404, fetchedAt: 0, ageMs: 0 },
        explain: () => undefined,
        rule: () => undefined,
      };
    },
    sitemaps: async () => {
      throw new Error('no sitemaps today');
    },
    crawlDelay: async () => {
      throw new Error('no delay today');
    },
    prefetch: async () => {
      throw new Error('no prefetch today');
    },
    close: () => real.close(),
  };
}

describe('RobotsPlugin under trouble', () => {
  it('skips URLs whose verdict could not be had, survives throwing callbacks, fails nothing', async () => {
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeBasic.BasicCrawler({ requestHandler: async ({ request }) => void handled.push(request.url) }, freshConfig());
    await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      manager: flakyManager(),
      onSkip: (event) => {
        skips.push(event);
        throw new Error('callback bug');
      },
    });
    await crawler.run(['http://ok.invalid/a', 'http://broken.invalid/b']);
    expect(handled).toEqual(['http://ok.invalid/a']);
    expect(skips).toMatchObject([{ url: 'http://broken.invalid/b', reason: 'check-failed' }]);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it('reports a manager that throws as check-failed, not unreachable, and fetches nothing of that URL', async () => {
    const site = await startSite(2);
    const [healthy, failing] = site.origins as [SiteOrigin, SiteOrigin];
    healthy.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    healthy.routes.set('/page', page('healthy', []));
    failing.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    failing.routes.set('/page', page('must not be fetched', []));
    const real = new RobotsManager({ userAgent: UA });
    // A manager whose store fails for one origin: decide() rejects instead of answering.
    const manager: RobotsManagerLike = {
      decide: async (url, productToken) => {
        if (url.startsWith(failing.origin)) throw new Error('store read failed: connection reset');
        return real.decide(url, productToken);
      },
      sitemaps: (url) => real.sitemaps(url),
      crawlDelay: (url, productToken) => real.crawlDelay(url, productToken),
      prefetch: async () => {},
      close: () => real.close(),
    };
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeHttp.HttpCrawler(
      { requestHandler: async ({ request }) => void handled.push(request.url), maxRequestRetries: 0 },
      freshConfig(),
    );
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, onSkip: (event) => void skips.push(event) });
    try {
      await crawler.run([healthy.url('/page'), failing.url('/page')]);
    } finally {
      await robots.close();
      await real.close();
      await site.close();
    }
    expect(handled).toEqual([healthy.url('/page')]);
    // Fails closed: the failing origin saw no request at all, its robots.txt included.
    expect(failing.hits).toEqual([]);
    expect(skips).toMatchObject([{ url: failing.url('/page'), reason: 'check-failed', error: 'store read failed: connection reset' }]);
    expect(skips[0]?.message).toContain(`Heed could not check ${failing.url('/page')} (store read failed: connection reset)`);
    expect(robots.stats.skippedByReason['check-failed']).toBeGreaterThanOrEqual(1);
    expect(robots.stats.skippedByReason.unreachable).toBe(0);
    expect(robots.stats.robotsByStatus).toEqual({ '200': 1 });
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it('skips everything once the shared manager is closed', async () => {
    const manager = new RobotsManager({ userAgent: UA });
    await manager.close();
    const handled: string[] = [];
    const crawler = new crawleeBasic.BasicCrawler({ requestHandler: async ({ request }) => void handled.push(request.url) }, freshConfig());
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, manager });
    await crawler.run(['http://127.0.0.1:1/a']);
    expect(handled).toEqual([]);
    expect(robots.stats.skipped).toBe(1);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });
});
