/**
 * Two crawlers, two user-agents, one manager ("Several crawlers, one manager" in packages/crawlee/docs/reference.md). Built
 * with Crawlee's defaults they read one request queue, so one plugin would judge both crawlers'
 * requests for its own user-agent: `attach()` refuses the second plugin with a
 * `SharedRequestQueueError` that says what to do. With a queue each, every crawler obeys its own
 * group and nothing raises a false bypass alarm.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, SharedRequestQueueError, type SkipEvent } from '@heed/crawlee';
import { crawleeCheerio, crawleeCore, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const NEWS = 'MyNewsBot/1.0 (+https://heed.example/news)';
const SHOP = 'MyShopBot/1.0 (+https://heed.example/shop)';

let site: Site;
let a: SiteOrigin;

beforeAll(async () => {
  site = await startSite(1);
  [a] = site.origins as [SiteOrigin];
  a.routes.set('/robots.txt', text('User-agent: MyShopBot\nDisallow: /news\n\nUser-agent: *\nAllow: /\n'));
  a.routes.set('/news/today', page('news', []));
  a.routes.set('/shop/cart', page('shop', []));
});

afterAll(async () => {
  await site?.close();
});

describe('two crawlers with a plugin each', () => {
  it('on one request queue: the second attach() is refused, naming the queue and the fix', async () => {
    const manager = new RobotsManager({ userAgent: NEWS });
    // One configuration: both crawlers open the same default queue, as with Crawlee's global one.
    const config = freshConfig();
    const news = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, config);
    const shop = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, config);
    expect(await news.getRequestQueue()).toBe(await shop.getRequestQueue());
    await RobotsPlugin.attach(news, { userAgent: NEWS, manager, sitemaps: false });
    const second = RobotsPlugin.attach(shop, { userAgent: SHOP, manager, sitemaps: false });
    await expect(second).rejects.toBeInstanceOf(SharedRequestQueueError);
    await expect(second).rejects.toThrow(/request queue "[^"]+" is already read by another crawler .*RequestQueue\.open\('news'\)/);
    await manager.close();
  });

  it('one after the other on one queue: the later crawler takes the queue over, judged under its own user-agent', async () => {
    const manager = new RobotsManager({ userAgent: NEWS });
    const config = freshConfig();
    const handled: string[] = [];
    const skips: Record<string, SkipEvent[]> = { news: [], shop: [] };
    const errors: unknown[] = [];
    const crawl = async (name: 'news' | 'shop', userAgent: string, urls: string[]) => {
      const crawler = new crawleeCheerio.CheerioCrawler(
        { requestHandler: async ({ request }) => void handled.push(`${name} ${request.url}`) },
        config,
      );
      await RobotsPlugin.attach(crawler, { userAgent, manager, sitemaps: false, onSkip: (e) => void skips[name]!.push(e) });
      vi.spyOn(crawler.log, 'error').mockImplementation((message) => void errors.push(message));
      await crawler.run(urls);
      return crawler.getRequestQueue();
    };
    const shopQueue = await crawl('shop', SHOP, [a.url('/news/today'), a.url('/shop/cart')]);
    const newsQueue = await crawl('news', NEWS, [a.url('/news/today')]);
    expect(newsQueue).toBe(shopQueue);
    expect(new Set(handled)).toEqual(new Set([`shop ${a.url('/shop/cart')}`, `news ${a.url('/news/today')}`]));
    expect(skips['shop']?.map((e) => e.url)).toEqual([a.url('/news/today')]);
    expect(skips['news']).toEqual([]);
    expect(errors).toEqual([]);
    await manager.close();
  });

  it("with a queue each (the reference's example): each obeys its own group, no skip crosses over, no bypass alarm", async () => {
    const manager = new RobotsManager({ userAgent: NEWS });
    const config = freshConfig();
    const handled: string[] = [];
    const crawlerFor = async (name: string) =>
      new crawleeCheerio.CheerioCrawler(
        {
          requestQueue: await crawleeCore.RequestQueue.open(name, { config }),
          requestHandler: async ({ request }) => void handled.push(`${name} ${request.url}`),
        },
        config,
      );
    const news = await crawlerFor('news');
    const shop = await crawlerFor('shop');
    const skips: Record<string, SkipEvent[]> = { news: [], shop: [] };
    await RobotsPlugin.attach(news, { userAgent: NEWS, manager, sitemaps: false, onSkip: (e) => void skips['news']!.push(e) });
    await RobotsPlugin.attach(shop, { userAgent: SHOP, manager, sitemaps: false, onSkip: (e) => void skips['shop']!.push(e) });
    const errors = [vi.spyOn(news.log, 'error'), vi.spyOn(shop.log, 'error')];
    const seenBefore = a.hits.length;
    await Promise.all([news.run([a.url('/news/today')]), shop.run([a.url('/news/today'), a.url('/shop/cart')])]);
    expect(new Set(handled)).toEqual(new Set([`news ${a.url('/news/today')}`, `shop ${a.url('/shop/cart')}`]));
    // /news/today once, and not by the shop crawler (whose robots.txt group disallows it).
    const newsHits = a.hits.slice(seenBefore).filter((h) => h.path === '/news/today');
    expect(newsHits).toHaveLength(1);
    expect(skips['news']).toEqual([]);
    expect(skips['shop']?.map((e) => e.url)).toEqual([a.url('/news/today')]);
    for (const error of errors) expect(error).not.toHaveBeenCalled();
    await manager.close();
  });
});
