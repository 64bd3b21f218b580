/**
 * What the crawl log says about skips, with no code of the user's: each skipped URL once, with the
 * deciding robots.txt line and where it was met (`logSkips`); a summary that tells URLs never
 * fetched from links not followed; and the manager the plugin creates logging through the
 * crawler's log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RobotsPlugin, type RobotsPluginOptions } from '@heed/crawlee';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const NOFOLLOW = '<meta name="robots" content="nofollow">';

interface Run {
  readonly info: string[];
  readonly debug: string[];
  readonly summary: string;
  readonly crawled: string[];
}

describe('the skip log', () => {
  let site: Site;
  let a: SiteOrigin;

  beforeAll(async () => {
    site = await startSite(1);
    [a] = site.origins as [SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nAllow: /\nDisallow: /private/\n'));
    // /private/x is linked from three pages; /b is linked from a nofollow page and from /.
    a.routes.set('/', page('home', ['/a', '/b', '/nf', '/private/x']));
    a.routes.set('/a', page('a', ['/b', '/private/x']));
    a.routes.set('/b', page('b', ['/a', '/private/x']));
    a.routes.set('/nf', page('nf', ['/b', '/only-from-nf'], NOFOLLOW));
    a.routes.set('/only-from-nf', page('only', []));
  });

  afterAll(async () => {
    await site?.close();
  });

  async function crawl(options: Partial<RobotsPluginOptions>): Promise<Run> {
    const crawled: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        maxConcurrency: 1,
        requestHandler: async ({ request, enqueueLinks }) => {
          crawled.push(request.url);
          await enqueueLinks();
        },
      },
      freshConfig(),
    );
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, ...options });
    const info = vi.spyOn(crawler.log, 'info');
    const debug = vi.spyOn(crawler.log, 'debug');
    await crawler.run([a.url('/')]);
    const summary = plugin.summary();
    await plugin.close();
    const messages = (spy: typeof info) => spy.mock.calls.map(([message]) => message).filter((m) => m.startsWith('RobotsPlugin:'));
    return { info: messages(info), debug: messages(debug), summary, crawled };
  }

  it("'each' logs each skipped URL once at info level, with the deciding line, the stage and the page it came from", async () => {
    const run = await crawl({ logSkips: 'each' });
    const skipped = run.info.filter((m) => m.startsWith('RobotsPlugin: skipped '));
    // Linked from three pages, skipped three times, logged once.
    expect(skipped).toEqual([
      `RobotsPlugin: skipped ${a.url('/private/x')} (robots.txt line 3: Disallow: /private/, stage enqueue, from ${a.url('/')})`,
    ]);
    const notFollowed = run.info.filter((m) => m.startsWith('RobotsPlugin: link not followed '));
    expect(notFollowed.map((m) => m.split(' ')[4])).toEqual([a.url('/b'), a.url('/only-from-nf')]);
    expect(notFollowed[0]).toContain(`from ${a.url('/nf')}`);
    expect(site.origins[0]!.count('/private/x')).toBe(0);
  });

  it('the summary separates URLs never fetched from links not followed, each URL counted once', async () => {
    const run = await crawl({});
    // /b was crawled (linked from /) although /nf did not follow it: it is no URL "skipped".
    expect(run.crawled).toContain(a.url('/b'));
    expect(run.summary).toMatch(/^robots\.txt: 4 allowed; 1 URL never fetched \(rules 1\), 2 links not followed \(nofollow\); /);
  });

  it("by default ('summary') the per-URL lines are at debug level only; false logs none", async () => {
    const byDefault = await crawl({});
    expect(byDefault.info.filter((m) => m.includes(a.url('/private/x')))).toEqual([]);
    expect(byDefault.debug.filter((m) => m.startsWith('RobotsPlugin: skipped '))).toHaveLength(1);
    const none = await crawl({ logSkips: false });
    expect([...none.info, ...none.debug].filter((m) => m.includes(a.url('/private/x')))).toEqual([]);
  });

  it('refuses any other logSkips value, saying which ones it takes', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    await expect(RobotsPlugin.attach(crawler, { userAgent: UA, logSkips: true as unknown as 'each' })).rejects.toThrow(
      /logSkips.*expected 'each', 'summary' or false, got true/,
    );
  });

  it("the manager the plugin creates logs through the crawler's log, one line per event", async () => {
    const run = await crawl({ logSkips: false });
    const fetched = run.debug.filter((m) => m.startsWith('RobotsPlugin: robots.txt fetched'));
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).not.toContain('\n');
  });
});

describe('what a site sent reaches the crawl log escaped', () => {
  let site: Site;
  let a: SiteOrigin;
  /** What a terminal obeys: C0 (tab and newline too: a log line is one line), DEL, C1, bidi overrides. */
  const OBEYED = /[\x00-\x1f\x7f-\x9f\u202e]/;

  beforeAll(async () => {
    site = await startSite(1);
    [a] = site.origins as [SiteOrigin];
    // A window title (OSC … BEL), a clear-screen, a forged log line and a C1 CSI, in Sitemap: lines and a rule.
    a.routes.set(
      '/robots.txt',
      text(
        [
          'User-agent: *',
          'Disallow: /private\x1b[2J',
          `Sitemap: \x1b]0;pwned\x07${a.url('/gone.xml')}\x1b[2J`,
          'Sitemap: \x1b[2J\x1b[1;1Hnot a url\rINFO  CheerioCrawler: All requests finished\x9b2J\u202e',
          `Sitemap: ${a.url('/gone-too.xml')}\x07`,
          '',
        ].join('\n'),
      ),
    );
    a.routes.set('/', page('home', ['/private\x1b[2J/x']));
  });

  afterAll(async () => {
    await site?.close();
  });

  it('every line Heed writes to the crawler log, at every level, escapes the bytes a terminal would obey', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler(
      { maxConcurrency: 1, requestHandler: async ({ enqueueLinks }) => void (await enqueueLinks()) },
      freshConfig(),
    );
    const spies = (['debug', 'info', 'warning', 'error'] as const).map((level) => vi.spyOn(crawler.log, level));
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: {}, logSkips: 'each' });
    await crawler.run([a.url('/')]);
    await plugin.close();
    const lines = spies.flatMap((spy) => spy.mock.calls.map(([message]) => message)).filter((m) => m.startsWith('RobotsPlugin:'));
    // The Sitemap: lines were logged (quoted), and escaped.
    expect(lines.join('\n')).toMatch(/\\x1b\]0;pwned\\x07/);
    expect(lines.filter((line) => OBEYED.test(line))).toEqual([]);
  });
});

describe('a page that answers 402 Payment Required', () => {
  let site: Site;
  let a: SiteOrigin;

  beforeAll(async () => {
    site = await startSite(1);
    [a] = site.origins as [SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    a.routes.set('/', page('home', ['/pay', '/also-pay', '/free']));
    a.routes.set('/free', page('free', []));
    for (const path of ['/pay', '/also-pay'])
      a.routes.set(path, { status: 402, headers: { 'content-type': 'text/html', 'crawler-price': 'USD 0.05' }, body: '<p>pay</p>' });
  });

  afterAll(async () => {
    await site?.close();
  });

  it('is a skip with its price, in the log and the summary; never handled, retried or failed', async () => {
    const crawled: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        maxRequestRetries: 2,
        requestHandler: async ({ request, enqueueLinks }) => {
          crawled.push(new URL(request.url).pathname);
          await enqueueLinks();
        },
      },
      freshConfig(),
    );
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, logSkips: 'each' });
    const info = vi.spyOn(crawler.log, 'info');
    await crawler.run([a.url('/')]);
    await plugin.close();
    expect(crawled.sort()).toEqual(['/', '/free']);
    expect(a.count('/pay')).toBe(1);
    // Neither failed nor succeeded as Crawlee counts: skipped, as Crawlee's own robots.txt skips are.
    expect(crawler.stats.state).toMatchObject({ requestsFailed: 0, requestsFinished: 2 });
    expect(plugin.stats.skippedByReason['payment-required']).toBe(2);
    expect(plugin.summary()).toContain('2 pages not paid for (402 Payment Required; crawler-price USD 0.05)');
    const lines = info.mock.calls.map(([message]) => message).filter((m) => m.startsWith('RobotsPlugin: skipped'));
    const line =
      /^RobotsPlugin: skipped http:\S+\/(also-)?pay \(answered 402 Payment Required \(crawler-price: USD 0\.05\).*, stage response\)$/;
    expect(lines).toEqual([expect.stringMatching(line), expect.stringMatching(line)]);
  });
});
