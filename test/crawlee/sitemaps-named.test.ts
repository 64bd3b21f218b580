/**
 * Sitemaps the user names (`robots.addSitemaps()`), Heed's checked way to what Crawlee's
 * `SitemapRequestList` does unchecked: a crawl started from a sitemap index alone (`run()` with no
 * start URL) reads the index, the nested sitemap robots.txt allows and the URLs it lists, and never
 * fetches a disallowed sitemap file or URL. Bad arguments fail at the call, saying what to pass.
 * (Every crawler kind on every release: the contract suite's `named-sitemap` door.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin } from '@heed/crawlee';
import { SITEMAP_OPTIONS } from '../../packages/crawlee/src/options.js';
import { MAX_NAMED_WAITING, SitemapFeeder } from '../../packages/crawlee/src/sitemaps/feeder.js';
import { PluginStats } from '../../packages/crawlee/src/report/stats.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const xml = (body: string) => text(`<?xml version="1.0" encoding="UTF-8"?>${body}`, 200, { 'content-type': 'application/xml' });
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

let site: Site;
let a: SiteOrigin;

beforeAll(async () => {
  site = await startSite(1);
  [a] = site.origins as [SiteOrigin];
  a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
  a.routes.set(
    '/sitemap_index.xml',
    xml(
      `<sitemapindex ${NS}>${['/private/hidden.xml', '/pages.xml'].map((p) => `<sitemap><loc>${a.url(p)}</loc></sitemap>`).join('')}</sitemapindex>`,
    ),
  );
  a.routes.set('/private/hidden.xml', xml(`<urlset ${NS}><url><loc>${a.url('/from-hidden')}</loc></url></urlset>`));
  a.routes.set(
    '/pages.xml',
    xml(`<urlset ${NS}>${['/one', '/private/two'].map((p) => `<url><loc>${a.url(p)}</loc></url>`).join('')}</urlset>`),
  );
  for (const path of ['/one', '/private/two', '/from-hidden']) a.routes.set(path, page(path, []));
});

afterAll(async () => {
  await site.close();
});

describe('robots.addSitemaps()', () => {
  it('crawls from a sitemap index alone: allowed files and URLs read, disallowed ones never fetched', async () => {
    const handled: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      { maxRequestRetries: 0, requestHandler: async ({ request }) => void handled.push(new URL(request.url).pathname) },
      freshConfig(),
    );
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, logSkips: false, logSummary: false });
    robots.addSitemaps([a.url('/sitemap_index.xml')]);
    await crawler.run();
    await robots.close();

    expect(handled).toEqual(['/one']);
    expect(a.count('/sitemap_index.xml')).toBe(1);
    expect(a.count('/pages.xml')).toBe(1);
    expect(a.count('/private/hidden.xml') + a.count('/private/two') + a.count('/from-hidden')).toBe(0);
    expect(robots.stats.sitemapsSkipped).toBe(1);
    // The files are fetched under the bot's name, not a browser's.
    expect(a.hits.filter((hit) => hit.path.endsWith('.xml')).map((hit) => hit.userAgent)).toEqual([UA, UA]);
  });

  it('fails at the call on what it cannot read, naming it', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, logSkips: false, logSummary: false });
    expect(() => robots.addSitemaps(['/sitemap.xml'])).toThrow(/urls\[0\] is "\/sitemap.xml", not an absolute http\(s\) URL/);
    expect(() => robots.addSitemaps([a.url('/x.xml'), 'ftp://example.com/s.xml'])).toThrow(/urls\[1\]/);
    expect(() => robots.addSitemaps('https://example.com/s.xml' as unknown as string[])).toThrow(/expected an array of sitemap URLs/);
    await robots.close();

    const off = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    const quiet = await RobotsPlugin.attach(off, { userAgent: UA, sitemaps: false, logSkips: false, logSummary: false });
    expect(() => quiet.addSitemaps([a.url('/sitemap_index.xml')])).toThrow(/reads no sitemaps \(sitemaps: false\)/);
    await quiet.close();
    expect(a.count('/x.xml')).toBe(0);
  });
});

describe('many named sitemaps', () => {
  /** A feeder whose every sitemap file waits at the robots.txt gate until released (then is refused: no fetch). */
  function heldFeeder(maxConcurrency: number) {
    const asked: string[] = [];
    const releases: (() => void)[] = [];
    const feeder = new SitemapFeeder(SITEMAP_OPTIONS.resolve({ maxConcurrency }), {
      manager: {} as RobotsManagerLike,
      userAgent: 'HeedBot/1.0',
      stats: new PluginStats(),
      enqueue: async (urls) => urls.length,
      pending: () => 0,
      warn: () => {},
      admit: (url) =>
        new Promise((resolve) => {
          asked.push(url);
          releases.push(() => resolve('held back by the test'));
        }),
    });
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    return { feeder, asked, releases, settle };
  }

  it('reads maxConcurrency of them at once, the others in turn, in order; the crawl waits until all are read', async () => {
    const { feeder, asked, releases, settle } = heldFeeder(2);
    const urls = Array.from({ length: 7 }, (_, i) => `https://a.example/s${i}.xml`);
    for (const url of urls) expect(feeder.sitemapNamed(url)).toBe(true);
    // Named again while it waits or is read: once.
    feeder.sitemapNamed(urls[0]!);
    await settle();
    expect(asked).toEqual(urls.slice(0, 2));
    for (let done = 0; done < urls.length; done++) {
      expect(feeder.idle()).toBe(false);
      releases[done]!();
      await settle();
      expect(asked.length).toBe(Math.min(urls.length, done + 3));
    }
    expect(asked).toEqual(urls);
    expect(feeder.idle()).toBe(true);
  });

  it(`holds ${MAX_NAMED_WAITING.toLocaleString('en-US')} waiting at most; past it, says so`, async () => {
    const { feeder, asked, settle } = heldFeeder(1);
    for (let i = 0; i <= MAX_NAMED_WAITING; i++) expect(feeder.sitemapNamed(`https://a.example/s${i}.xml`)).toBe(true);
    expect(feeder.sitemapNamed('https://a.example/one-too-many.xml')).toBe(false);
    await settle();
    expect(asked).toEqual(['https://a.example/s0.xml']);
    feeder.close();
  });
});
