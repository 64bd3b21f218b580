/**
 * Trouble never turns into a crawled disallowed URL, a crash or a failed request: a manager that
 * throws, an onSkip callback that throws, a closed manager.
 */
import { describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type RobotsManagerLike, type SkipEvent } from '@heed/crawlee';
import { crawleeBasic, freshConfig } from './site.js';

const UA = 'HeedBot/1.0';

/** A manager allowing everything except origins containing "broken", where check() throws. */
function flakyManager(): RobotsManagerLike {
  const real = new RobotsManager({ userAgent: UA });
  return {
    check: async (url, productToken) => {
      if (url.includes('broken')) throw new Error('store on fire');
      return {
        allowed: true,
        url,
        origin: new URL(url).origin,
        productToken: productToken ?? 'HeedBot',
        reason: 'unavailable',
        line: 0,
        record: { status: 'unavailable', httpStatus: 404, fetchedAt: 0, ageMs: 0 },
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
    expect(skips).toMatchObject([{ url: 'http://broken.invalid/b', reason: 'unreachable' }]);
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
