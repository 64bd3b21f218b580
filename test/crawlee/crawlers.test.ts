/**
 * The plugin on the other crawler kinds: BasicCrawler (no fetching of its own: start URLs and
 * added requests are filtered, the before-fetch check skips) and HttpCrawler (redirects checked in
 * got, crawl-delay honoured per origin without holding back the others).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import {
  crawleeBasic,
  crawleeCore,
  crawleeHttp,
  freshConfig,
  page,
  redirect,
  startSite,
  text,
  type Site,
  type SiteOrigin,
} from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

describe('BasicCrawler and HttpCrawler with RobotsPlugin', () => {
  let site: Site;
  let a: SiteOrigin;
  let b: SiteOrigin;
  let manager: RobotsManager;

  beforeAll(async () => {
    site = await startSite(2);
    [a, b] = site.origins as [SiteOrigin, SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /no\nCrawl-delay: 0.4\n'));
    b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /no\n'));
    for (const o of [a, b]) {
      for (let i = 0; i < 4; i++) o.routes.set(`/p${i}`, page(`p${i}`, []));
      o.routes.set('/to-no', redirect('/no/target', 301));
      o.routes.set('/to-other-no', redirect(`${o === a ? b.origin : a.origin}/no/cross`, 307));
      o.routes.set('/to-p0', redirect('/p0'));
    }
    manager = new RobotsManager({ userAgent: UA });
  });

  afterAll(async () => {
    await manager?.close();
    await site?.close();
  });

  it('BasicCrawler: disallowed start URLs and added requests never reach the handler', async () => {
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeBasic.BasicCrawler(
      {
        requestHandler: async ({ request, addRequests }) => {
          handled.push(request.url);
          if (request.url === a.url('/p0')) await addRequests([a.url('/p1'), a.url('/no/added'), b.url('/no/added')]);
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, crawlDelay: false, onSkip: (e) => void skips.push(e) });
    const info = vi.spyOn(crawler.log, 'info');
    await crawler.run([a.url('/p0'), a.url('/no/start'), 'not a url at all but a string']);
    // One summary line at the end of the run.
    const summaries = info.mock.calls.map(([message]) => message).filter((m) => m.startsWith('robots.txt:'));
    expect(summaries).toEqual([
      'robots.txt: 2 allowed; 4 URLs never fetched (rules 3, invalid-url 1); robots.txt of 2 origins: 200×2; 0 sitemap URLs enqueued from 0 sitemaps',
    ]);
    expect(new Set(handled)).toEqual(new Set([a.url('/p0'), a.url('/p1')]));
    expect(new Set(skips.map((s) => `${s.reason} ${s.url}`))).toEqual(
      new Set([
        `rules ${a.url('/no/added')}`,
        `rules ${a.url('/no/start')}`,
        `rules ${b.url('/no/added')}`,
        'invalid-url not a url at all but a string',
      ]),
    );
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it('one line: without a manager the plugin makes its own, sends the full user-agent and closes it', async () => {
    const handled: string[] = [];
    const perCallSkips: string[] = [];
    const crawler = new crawleeHttp.HttpCrawler(
      {
        requestHandler: async ({ request, enqueueLinks }) => {
          handled.push(request.url);
          if (request.url === b.url('/p3')) {
            await enqueueLinks({ urls: [b.url('/p2'), b.url('/no/linked')], onSkippedRequest: ({ url }) => void perCallSkips.push(url) });
          }
        },
      },
      freshConfig(),
    );
    const before = b.count('/robots.txt');
    const robots = await RobotsPlugin.attach(crawler, { userAgent: 'OneLineBot/3.0 (+https://one.example)' });
    await crawler.run([b.url('/p3'), b.url('/no/start')]);
    expect(new Set(handled)).toEqual(new Set([b.url('/p3'), b.url('/p2')]));
    expect(b.count('/robots.txt')).toBe(before + 1);
    expect(b.hits.filter((h) => h.path === '/robots.txt').at(-1)?.userAgent).toBe('OneLineBot/3.0 (+https://one.example)');
    // enqueueLinks' own onSkippedRequest hears of the links it lost too.
    expect(perCallSkips).toEqual([b.url('/no/linked')]);
    await robots.close();
    await expect(robots.manager.decide(b.url('/'))).rejects.toThrow(/close/);
  });

  it('HttpCrawler: requests that reach the queue another way (RequestList, the queue itself) are checked as they enter it', async () => {
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawleeSkips: { url: string; reason: string }[] = [];
    const requestList = await crawleeCore.RequestList.open(null, [b.url('/p1'), b.url('/no/from-list')]);
    const crawler = new crawleeHttp.HttpCrawler(
      {
        requestList,
        onSkippedRequest: (skip) => void crawleeSkips.push(skip),
        requestHandler: async ({ request }) => void handled.push(request.url),
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, crawlDelay: false, onSkip: (e) => void skips.push(e) });
    // Straight into the queue, past crawler.addRequests (a shared or older queue does the same).
    const queue = await crawler.getRequestQueue();
    await queue.addRequests([{ url: b.url('/p2') }, { url: b.url('/no/from-queue') }]);
    await crawler.run();
    expect(new Set(handled)).toEqual(new Set([b.url('/p1'), b.url('/p2')]));
    expect(b.paths().filter((p) => p.startsWith('/no'))).toEqual([]);
    expect(skips.map((e) => [e.url, e.stage, e.reason]).sort()).toEqual([
      // The plugin wraps the queue's own methods: a RequestList transfer and a direct addRequests
      // are stopped on their way in.
      [b.url('/no/from-list'), 'enqueue', 'rules'],
      [b.url('/no/from-queue'), 'enqueue', 'rules'],
    ]);
    expect(crawleeSkips.map((x) => x.reason)).toEqual(['robotsTxt', 'robotsTxt']);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it('HttpCrawler: follows allowed redirects, never requests a disallowed target', async () => {
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeHttp.HttpCrawler(
      { requestHandler: async ({ request }) => void handled.push(request.loadedUrl ?? request.url) },
      freshConfig(),
    );
    const robots = await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      manager,
      sitemaps: false,
      crawlDelay: false,
      onSkip: (e) => void skips.push(e),
    });
    await crawler.run([b.url('/to-no'), b.url('/to-other-no'), b.url('/to-p0')]);
    expect(handled).toEqual([b.url('/p0')]);
    expect(b.paths().filter((p) => p.startsWith('/no'))).toEqual([]);
    expect(a.paths().filter((p) => p.startsWith('/no'))).toEqual([]);
    expect(skips.map((s) => [s.url, s.stage, s.referrer])).toEqual(
      expect.arrayContaining([
        [b.url('/no/target'), 'redirect', b.url('/to-no')],
        [a.url('/no/cross'), 'redirect', b.url('/to-other-no')],
      ]),
    );
    expect(robots.stats.skippedByStage.redirect).toBe(2);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it('HttpCrawler: Crawl-delay spaces fetches of its origin and holds back no other origin', async () => {
    const start = Date.now();
    const crawler = new crawleeHttp.HttpCrawler({ maxConcurrency: 4, requestHandler: async () => {} }, freshConfig());
    const robots = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false });
    const pages = ['/p0', '/p1', '/p2', '/p3'];
    await crawler.run([...pages.map((p) => a.url(p)), ...pages.map((p) => b.url(p))]);
    const times = (o: SiteOrigin) => o.hits.filter((h) => h.at >= start && pages.includes(h.path)).map((h) => h.at);
    const aTimes = times(a);
    const bTimes = times(b);
    expect(aTimes).toHaveLength(4);
    expect(bTimes).toHaveLength(4);
    // Crawl-delay 0.4 s; the site's stamps can come late by tens of milliseconds in this busy process.
    for (let i = 1; i < aTimes.length; i++) expect(aTimes[i]! - aTimes[i - 1]!).toBeGreaterThanOrEqual(300);
    // B has no crawl-delay: all its pages were fetched before A's second page was due.
    expect(Math.max(...bTimes)).toBeLessThan(aTimes[1]!);
    expect(robots.stats.crawlDelayDeferrals).toBeGreaterThan(0);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });
});

describe('Crawl-delay keys', () => {
  let site: Site;
  let manager: RobotsManager;
  afterAll(async () => {
    await manager?.close();
    await site?.close();
  });

  it('are one origin however its URLs are spelt (`HTTP://` and `http://`): the delay learnt from one spelling spaces the other', async () => {
    site = await startSite(1);
    const [a] = site.origins as [SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nCrawl-delay: 0.4\n'));
    const pages = ['/p0', '/p1', '/p2', '/p3'];
    for (const p of pages) a.routes.set(p, page(p, []));
    manager = new RobotsManager({ userAgent: UA });
    const start = Date.now();
    const crawler = new crawleeHttp.HttpCrawler({ maxConcurrency: 4, requestHandler: async () => {} }, freshConfig());
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false });
    const shouted = a.origin.replace(/^http:/, 'HTTP:');
    await crawler.run([`${a.origin}/p0`, `${shouted}/p1`, `${a.origin}/p2`, `${shouted}/p3`]);
    const times = a.hits
      .filter((h) => h.at >= start && pages.includes(h.path))
      .map((h) => h.at)
      .sort((x, y) => x - y);
    expect(times).toHaveLength(4);
    // Stamped by the site in this busy process, a request can look up to tens of milliseconds late,
    // and the gap before it that much shorter; as two origins, the spellings would go out together.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(300);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });
});

describe('a batch of start URLs on many origins', () => {
  let site: Site;
  afterAll(async () => {
    await site?.close();
  });

  it('fetches their robots.txt in parallel, once per origin', async () => {
    site = await startSite(6);
    let inFlight = 0;
    let maxInFlight = 0;
    // Each robots.txt answers only once all six are asked for, or after 2 s: one by one, the crawl
    // would take 12 s and see at most one request in flight.
    const waiting: (() => void)[] = [];
    for (const o of site.origins) {
      o.routes.set('/robots.txt', async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === site.origins.length) waiting.splice(0).forEach((r) => r());
          setTimeout(resolve, 2_000);
        });
        inFlight--;
        return text('User-agent: *\nDisallow: /no\n');
      });
      o.routes.set('/', page('home', []));
    }
    const manager = new RobotsManager({ userAgent: UA });
    const handled: string[] = [];
    const crawler = new crawleeBasic.BasicCrawler({ requestHandler: async ({ request }) => void handled.push(request.url) }, freshConfig());
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false });
    await crawler.run(site.origins.flatMap((o) => [o.url('/'), o.url('/no/x')]));
    await manager.close();
    expect(maxInFlight).toBe(site.origins.length);
    expect(site.origins.map((o) => o.count('/robots.txt'))).toEqual(site.origins.map(() => 1));
    expect(new Set(handled)).toEqual(new Set(site.origins.map((o) => o.url('/'))));
  });
});
