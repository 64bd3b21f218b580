/**
 * A crawler with `proxyConfiguration` and nothing else told to Heed: robots.txt, the sitemap and
 * every page go through the crawler's proxy (a forward proxy on 127.0.0.1 that adds a `Via`
 * header, which the site records for every request it sees), and the site sees nothing directly.
 * A proxy that refuses or answers 502 / 407 fetches nothing: robots.txt is unreachable, the pages
 * are skipped with reason `unreachable`, never allowed as a 4xx would be.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin, UnsupportedProxyError, type CrawlRecord, type SkipEvent } from '@heed/crawlee';
import { startForwardProxy, VIA, type ForwardProxy } from '../support/forward-proxy.js';
import { CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS } from '../support/chromium.js';
import { has } from '../support/requirements.js';
import {
  crawleeCheerio,
  crawleeCore,
  crawleeHttp,
  crawleePlaywright,
  freshConfig,
  page,
  playwright,
  startSite,
  type RouteResponse,
  type Site,
} from './site.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';

let site: Site;
let proxy: ForwardProxy;
/** The `Via` header of every request the site answered, by path. */
const via: { path: string; via: string | undefined }[] = [];

function recorded(response: RouteResponse) {
  return (req: IncomingMessage): RouteResponse => {
    via.push({ path: req.url ?? '', via: req.headers['via'] });
    return response;
  };
}

beforeAll(async () => {
  site = await startSite(1);
  proxy = await startForwardProxy();
  const origin = site.origins[0]!;
  const routes: [string, RouteResponse][] = [
    [
      '/robots.txt',
      {
        headers: { 'content-type': 'text/plain' },
        body: `User-agent: *\nDisallow: /private\nSitemap: ${origin.url('/sitemap.xml')}\n`,
      },
    ],
    [
      '/sitemap.xml',
      {
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin.url('/from-sitemap')}</loc></url></urlset>`,
      },
    ],
    ['/', page('home', ['/a', '/private/x'])],
    ['/a', page('a', [])],
    ['/from-sitemap', page('from sitemap', [])],
  ];
  for (const [path, response] of routes) origin.routes.set(path, recorded(response));
});
afterAll(async () => {
  await site?.close();
  await proxy?.close();
});
afterEach(() => {
  site.origins[0]!.hits.length = 0;
  via.length = 0;
  proxy.seen.length = 0;
  proxy.mode = 'forward';
});

const kinds = {
  HttpCrawler: (options: Record<string, unknown>) => new crawleeHttp.HttpCrawler(options, freshConfig()),
  CheerioCrawler: (options: Record<string, unknown>) => new crawleeCheerio.CheerioCrawler(options, freshConfig()),
  PlaywrightCrawler: (options: Record<string, unknown>) =>
    new crawleePlaywright.PlaywrightCrawler(
      {
        ...options,
        headless: true,
        launchContext: {
          launcher: playwright.chromium,
          // Chromium sends loopback addresses past any proxy unless told not to.
          launchOptions: { ...PLAYWRIGHT_LAUNCH_OPTIONS, args: [...CHROMIUM_ARGS, '--proxy-bypass-list=<-loopback>'] },
        },
      },
      freshConfig(),
    ),
};

async function crawl(kind: keyof typeof kinds, proxyUrl: string, configuration?: object, records: CrawlRecord[] = []) {
  const handled: string[] = [];
  const skips: SkipEvent[] = [];
  const crawler = kinds[kind]({
    proxyConfiguration: configuration ?? new crawleeCore.ProxyConfiguration({ proxyUrls: [proxyUrl] }),
    maxRequestRetries: 0,
    requestHandler: async (ctx: { request: { url: string }; enqueueLinks: (o: object) => Promise<unknown> }) => {
      handled.push(new URL(ctx.request.url).pathname);
      if (kind !== 'HttpCrawler') await ctx.enqueueLinks({ strategy: 'all' });
    },
  });
  const plugin = await RobotsPlugin.attach(crawler as never, {
    userAgent: UA,
    logSummary: false,
    onSkip: (event) => void skips.push(event),
    records: { onRecord: (record) => void records.push(record) },
  });
  try {
    // HttpCrawler has no HTML to follow links in: /a is given.
    await crawler.run([site.origins[0]!.url('/'), site.origins[0]!.url('/a')]);
    await plugin.sitemapsDone();
    // Sitemap URLs enqueued after the run ended: crawl them too.
    await crawler.run();
  } finally {
    await plugin.close();
  }
  return { handled: handled.sort(), skips };
}

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])('%s with proxyConfiguration', (kind) => {
  it.skipIf(kind === 'PlaywrightCrawler' && !has('chromium', 'test/crawlee/proxy-crawl.test.ts, PlaywrightCrawler'))(
    'fetches robots.txt, the sitemap and every page through the proxy; the site sees nothing directly',
    async () => {
      const { handled } = await crawl(kind, proxy.url);
      const origin = site.origins[0]!;
      expect(handled).toEqual(['/', '/a', '/from-sitemap']);
      expect(via.map((v) => v.path).sort()).toEqual(['/', '/a', '/from-sitemap', '/robots.txt', '/sitemap.xml']);
      expect(via.filter((v) => v.via !== VIA)).toEqual([]);
      // Nothing reached the site but through the proxy (a browser's favicon request included).
      expect(origin.hits.filter((hit) => hit.path !== '/favicon.ico').length).toBe(via.length);
      expect(proxy.seen.filter((r) => r.target === origin.url('/favicon.ico')).length).toBe(origin.count('/favicon.ico'));
      // The site's requests (a browser sends its own background requests through the proxy too).
      const proxied = proxy.seen
        .filter((r) => r.target.startsWith(origin.origin))
        .map((r) => new URL(r.target).pathname)
        .filter((path) => path !== '/favicon.ico')
        .sort();
      expect(proxied).toEqual(['/', '/a', '/from-sitemap', '/robots.txt', '/sitemap.xml']);
    },
    60_000,
  );

  it.skipIf(kind === 'PlaywrightCrawler' && !has('chromium', 'test/crawlee/proxy-crawl.test.ts, PlaywrightCrawler'))(
    "records name the proxy each page left through and Crawlee's session, never the proxy's password",
    async () => {
      const secret = 'pr0xy-Pa55';
      const { host } = new URL(proxy.url);
      const records: CrawlRecord[] = [];
      const { handled } = await crawl(kind, `http://crawler:${secret}@${host}`, undefined, records);
      expect(handled).toEqual(['/', '/a', '/from-sitemap']);
      const pages = records.filter((record) => record.stage === 'before-fetch');
      expect(pages.map((record) => new URL(record.url).pathname).sort()).toEqual(['/', '/a', '/from-sitemap']);
      for (const record of pages) {
        expect(record.proxy?.url).toBe(`http://${host}/`);
        expect(record.proxy?.session).toMatch(/^session_/);
      }
      expect(JSON.stringify(records)).not.toContain(secret);
    },
    60_000,
  );
});

describe('the proxy session', () => {
  it("asks the crawler's proxyConfiguration with one session per site for Heed's own fetches", async () => {
    const sessions: string[] = [];
    const configuration = new crawleeCore.ProxyConfiguration({
      newUrlFunction: (sessionId) => {
        sessions.push(String(sessionId));
        return proxy.url;
      },
    });
    await crawl('CheerioCrawler', proxy.url, configuration);
    const { port } = new URL(site.origins[0]!.origin);
    const heed = sessions.filter((id) => id.startsWith('heed_'));
    // robots.txt and the sitemap, each fetched once, under the site's session.
    expect(heed).toEqual([`heed_127.0.0.1_${port}`, `heed_127.0.0.1_${port}`]);
    expect(via.filter((v) => v.via !== VIA)).toEqual([]);
  }, 60_000);
});

describe('a failing proxy', () => {
  it.each(['bad-gateway', 'auth-required', 'refused'] as const)(
    'a proxy that answers %s: nothing is fetched, the page is skipped as unreachable',
    async (mode) => {
      let proxyUrl = proxy.url;
      if (mode === 'refused') {
        const gone = await startForwardProxy();
        proxyUrl = gone.url;
        await gone.close();
      } else proxy.mode = mode;
      const { handled, skips } = await crawl('CheerioCrawler', proxyUrl);
      expect(handled).toEqual([]);
      expect(skips.map((s) => [new URL(s.url).pathname, s.reason])).toEqual([
        ['/', 'unreachable'],
        ['/a', 'unreachable'],
      ]);
      expect(site.origins[0]!.hits).toEqual([]);
    },
    60_000,
  );
});

describe('a proxy Heed cannot fetch through', () => {
  const SECRET = 's3cret-Pa55';

  it.each([
    ['proxyUrls', { proxyUrls: [`socks5://user:${SECRET}@127.0.0.1:1080`] }],
    ['tieredProxyUrls', { tieredProxyUrls: [[`http://127.0.0.1:9`], [`socks5h://user:${SECRET}@127.0.0.1:1080`]] }],
  ])('a SOCKS proxy in %s: attach() refuses it, naming the scheme and not the password', async (_field, options) => {
    const crawler = new crawleeCheerio.CheerioCrawler(
      { proxyConfiguration: new crawleeCore.ProxyConfiguration(options), requestHandler: async () => {} },
      freshConfig(),
    );
    const attached = RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, logSummary: false });
    await expect(attached).rejects.toBeInstanceOf(UnsupportedProxyError);
    await expect(attached).rejects.toThrow(/socks5h?:\/\/ proxy/);
    await expect(attached.catch(String)).resolves.not.toContain(SECRET);
  });
});
