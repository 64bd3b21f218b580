/**
 * Web Bot Auth through the plugin: real Crawlee 3 crawlers with `signature` against two recording
 * origins, each request verified afterwards as a site would (Cloudflare's verifier, the public key
 * of the key directory, the Host header as the authority): robots.txt, the sitemap, a
 * `requestsFromUrl` list, pages and their redirect hop to another host, `sendRequest()` and its hop
 * (Crawlee 4's clients are signed too: the contract suite verifies them on its releases).
 * PlaywrightCrawler and PuppeteerCrawler on Chromium: pages, hops, sub-resources, a popup.
 * JSDOMCrawler running scripts: what jsdom's own client sends. A request without a valid signature
 * fails the test.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ed25519Jwk } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { unverified as unverifiedRequests, writeKeyFile } from '../support/verify-signatures.js';
import { has } from '../support/requirements.js';
import { CHROMIUM_ARGS, FULL_CHROMIUM } from '../support/chromium.js';
import { cheerioCrawler, playwrightCrawler, puppeteerCrawler } from './crawlers.js';
import {
  crawleeBasic,
  crawleeJsdom,
  freshConfig,
  page,
  playwright,
  redirect,
  startSite,
  text,
  type Site,
  type SiteOrigin,
} from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const AGENT = 'https://heed.example/.well-known/http-message-signatures-directory';

/** The requests of `origins` whose signature does not verify under `publicJwk`, with why. */
const unverified = (origins: readonly Pick<SiteOrigin, 'hits'>[], publicJwk: Ed25519Jwk) =>
  unverifiedRequests(
    origins.flatMap((origin) => origin.hits),
    publicJwk,
    AGENT,
  );

describe('signature: every request of a Crawlee 3 crawl is signed for the host it goes to', () => {
  let site: Site;
  let a: SiteOrigin;
  let b: SiteOrigin;
  let dir: string;
  let key: string;
  let publicJwk: Ed25519Jwk;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'heed-signature-crawl-'));
    ({ file: key, publicJwk } = writeKeyFile(dir));
    site = await startSite(2);
    [a, b] = site.origins as [SiteOrigin, SiteOrigin];
    a.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /private\nSitemap: ${a.url('/sitemap.xml')}\n`));
    a.routes.set('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${a.url('/from-sitemap')}</loc></url></urlset>`,
    });
    a.routes.set('/list.txt', text(`${a.url('/listed')}\n`));
    a.routes.set('/', page('home', ['/a', '/hop', '/private/x']));
    for (const path of ['/a', '/from-sitemap', '/listed']) a.routes.set(path, page(path, []));
    a.routes.set('/hop', redirect(b.url('/landing')));
    b.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    b.routes.set('/landing', page('landing', []));
    b.routes.set('/api', redirect('/api2'));
    b.routes.set('/api2', text('{}'));
  });

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reset = () => {
    for (const origin of [a, b]) origin.hits.length = 0;
  };

  it('CheerioCrawler: robots.txt, sitemap, URL list, pages, a redirect to another host, sendRequest and its hop', async () => {
    reset();
    const handled: string[] = [];
    const crawler = cheerioCrawler({
      maxRequestRetries: 0,
      requestHandler: async (ctx) => {
        handled.push(new URL(ctx.request.loadedUrl ?? ctx.request.url).pathname);
        if (ctx.request.url === a.url('/')) {
          await ctx.enqueueLinks({ strategy: 'all' });
          await ctx.sendRequest({ url: b.url('/api') });
        }
      },
    });
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, signature: { key, signatureAgent: AGENT } });
    await crawler.run([a.url('/'), { requestsFromUrl: a.url('/list.txt') }]);
    await plugin.close();
    expect(handled.sort()).toEqual(['/', '/a', '/from-sitemap', '/landing', '/listed']);
    const paths = [...a.hits, ...b.hits].map((hit) => hit.path);
    expect(paths).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap.xml', '/list.txt', '/hop', '/landing', '/api', '/api2']));
    expect(paths).not.toContain('/private/x');
    expect(await unverified([a, b], publicJwk)).toEqual([]);
  });

  it("JSDOMCrawler (without runScripts): its pages and a page's redirect hop", async () => {
    reset();
    const crawler = new crawleeJsdom.JSDOMCrawler({ maxRequestRetries: 0, requestHandler: async () => {} }, freshConfig());
    await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false, signature: { key, signatureAgent: AGENT } });
    await crawler.run([a.url('/a'), a.url('/hop')]);
    expect([...a.hits, ...b.hits].map((hit) => hit.path).sort()).toEqual(['/a', '/hop', '/landing', '/robots.txt', '/robots.txt']);
    expect(await unverified([a, b], publicJwk)).toEqual([]);
  });

  it('BasicCrawler: what its handler sends with sendRequest, and each hop', async () => {
    reset();
    const crawler = new crawleeBasic.BasicCrawler(
      {
        maxRequestRetries: 0,
        requestHandler: async (ctx) => {
          await ctx.sendRequest();
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false, signature: { key, signatureAgent: AGENT } });
    await crawler.run([a.url('/hop'), b.url('/api')]);
    expect([...a.hits, ...b.hits].map((hit) => hit.path).sort()).toEqual([
      '/api',
      '/api2',
      '/hop',
      '/landing',
      '/robots.txt',
      '/robots.txt',
    ]);
    expect(await unverified([a, b], publicJwk)).toEqual([]);
  });

  it('maxCrawlPrice: offered with each signed page; a charge is counted, a higher price is a payment-required skip', async () => {
    reset();
    const charging = (price: string) => (req: { headers: Record<string, string | string[] | undefined> }) =>
      req.headers['crawler-max-price'] === 'USD 0.02'
        ? { headers: { 'crawler-charged': price }, body: '<p>paid</p>' }
        : { status: 402, headers: { 'crawler-price': price }, body: '' };
    a.routes.set('/charged', charging('USD 0.01'));
    a.routes.set('/too-dear', { status: 402, headers: { 'crawler-price': 'USD 0.05' }, body: '' });
    const handled: string[] = [];
    const crawler = cheerioCrawler({
      maxRequestRetries: 1,
      requestHandler: async (ctx) => void handled.push(new URL(ctx.request.url).pathname),
    });
    const plugin = await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      logSummary: false,
      sitemaps: false,
      signature: { key, signatureAgent: AGENT },
      maxCrawlPrice: 'USD 0.02',
    });
    await crawler.run([a.url('/charged'), a.url('/too-dear')]);
    await plugin.close();
    expect(handled).toEqual(['/charged']);
    expect(a.hits.filter((hit) => hit.path !== '/robots.txt').map((hit) => hit.headers['crawler-max-price'])).toEqual([
      'USD 0.02',
      'USD 0.02',
    ]);
    expect(a.hits.find((hit) => hit.path === '/robots.txt')?.headers['crawler-max-price']).toBeUndefined();
    expect(plugin.stats).toMatchObject({ pagesCharged: 1, skippedByReason: { 'payment-required': 1 } });
    expect(plugin.summary()).toContain('1 page not paid for (402 Payment Required; crawler-price USD 0.05)');
    expect(plugin.summary()).toContain('1 page charged (crawler-charged USD 0.01)');
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });

  it.each([
    [{ maxCrawlPrice: 'USD 0.02' }, /maxCrawlPrice.*needs signature/],
    [{ maxCrawlPrice: '0.02', signature: 'sign' }, /maxCrawlPrice.*expected a currency code and an amount, e.g. "USD 0.01"/],
  ] as const)('%j: attach() refuses, saying what to do', async (options, message) => {
    const given = 'signature' in options ? { ...options, signature: { key, signatureAgent: AGENT } } : options;
    const crawler = cheerioCrawler({ requestHandler: async () => {} });
    await expect(RobotsPlugin.attach(crawler, { userAgent: UA, ...given })).rejects.toThrow(message);
  });

  it('without signature, no request carries one (what the checks above would catch)', async () => {
    reset();
    const crawler = cheerioCrawler({ maxRequestRetries: 0, requestHandler: async () => {} });
    await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false });
    await crawler.run([a.url('/a')]);
    expect(await unverified([a], publicJwk)).toEqual(['/robots.txt: no Signature-Agent', '/a: no Signature-Agent']);
  });

  describe.each([
    ['PlaywrightCrawler', playwrightCrawler],
    ['PuppeteerCrawler', puppeteerCrawler],
  ] as const)('%s on Chromium', (_name, make) => {
    it.skipIf(!has('chromium', `test/crawlee/signature-crawl.test.ts, ${_name}`))(
      "the browser signs its pages, a page redirected to another host, images and scripts, a popup and a WebSocket, and keeps the request's own headers",
      async () => {
        reset();
        a.routes.set(
          '/browsing',
          page(
            'browsing',
            ['/hop'],
            '',
            `<img src="/image.png"><script src="${b.url('/script.js')}"></script><script>window.open('/popup')</script>` +
              // An image loaded once a WebSocket was signed: the page's headers are still the request's own.
              `<script>const s = new WebSocket('${a.url('/socket').replace(/^http/, 'ws')}'); let done = false; ` +
              `s.onopen = s.onerror = s.onclose = () => { if (done) return; done = true; new Image().src = '/after-socket.png'; };</script>`,
          ),
        );
        a.routes.set('/after-socket.png', { headers: { 'content-type': 'image/png' }, body: '' });
        a.routes.set('/image.png', { headers: { 'content-type': 'image/png' }, body: '' });
        a.routes.set('/popup', page('popup', []));
        b.routes.set('/script.js', { headers: { 'content-type': 'text/javascript' }, body: 'void 0;' });
        const crawler = make({
          maxRequestRetries: 0,
          maxConcurrency: 1,
          requestHandler: async (ctx) => {
            if (ctx.request.url !== a.url('/browsing')) return;
            // The popup's own request comes while the page is open.
            for (let i = 0; i < 100 && (a.count('/popup') === 0 || a.count('/after-socket.png') === 0); i++)
              await new Promise((resolve) => setTimeout(resolve, 50));
            if (ctx.request.url === a.url('/browsing')) await ctx.enqueueLinks({ strategy: 'all' });
          },
        });
        await RobotsPlugin.attach(crawler, {
          userAgent: UA,
          logSummary: false,
          sitemaps: false,
          signature: { key, signatureAgent: AGENT },
        });
        // One page at a time, the socket's after the first: a page the browser opens once Heed watches it.
        await crawler.run([a.url('/a'), { url: a.url('/browsing'), headers: { 'x-heed-test': 'kept' } }]);
        const paths = [...a.hits, ...b.hits].map((hit) => hit.path);
        expect(paths).toEqual(
          expect.arrayContaining(['/browsing', '/image.png', '/script.js', '/popup', '/hop', '/landing', '/socket', '/after-socket.png']),
        );
        expect(a.hits.find((hit) => hit.path === '/after-socket.png')?.headers['x-heed-test']).toBe('kept');
        expect(await unverified([a, b], publicJwk)).toEqual([]);
      },
      60_000,
    );
  });

  // The full browser (the headless shell asks for no favicon) asks for a page's favicon right as
  // it loads; pages that answer 402 are skips, closed at once, while that request may be paused.
  it.skipIf(!has('chromium', 'test/crawlee/signature-crawl.test.ts, the full browser') || !existsSync(FULL_CHROMIUM))(
    'PlaywrightCrawler on the full Chromium: what the browser fetches on its own for a page that closes at once (its favicon) goes signed, or not at all',
    async () => {
      reset();
      const paths = Array.from({ length: 6 }, (_, i) => `/paid-${i}`);
      for (const path of paths) a.routes.set(path, { status: 402, headers: { 'crawler-price': 'USD 0.01' }, body: '<p>pay</p>' });
      const crawler = playwrightCrawler({
        maxRequestRetries: 0,
        maxConcurrency: 2,
        launchContext: { launcher: playwright.chromium, launchOptions: { executablePath: FULL_CHROMIUM, args: CHROMIUM_ARGS } },
        requestHandler: async () => {},
      });
      await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false, signature: { key, signatureAgent: AGENT } });
      await crawler.run(paths.map((path) => a.url(path)));
      expect(a.hits.map((hit) => hit.path)).toEqual(expect.arrayContaining(paths));
      expect(await unverified([a], publicJwk)).toEqual([]);
    },
    60_000,
  );

  it("JSDOMCrawler with runScripts: what jsdom's own client sends (stylesheet, frame, script, XHR and its hop to another host)", async () => {
    reset();
    a.routes.set(
      '/scripted',
      page(
        'scripted',
        [],
        '',
        `<link rel="stylesheet" href="${b.url('/style.css')}"><iframe src="/frame"></iframe><script src="${b.url('/script.js')}"></script>` +
          `<script>const r = new XMLHttpRequest(); r.open('GET', '/xhr'); r.send();</script>`,
      ),
    );
    a.routes.set('/frame', page('frame', []));
    a.routes.set('/xhr', redirect(b.url('/api2')));
    b.routes.set('/style.css', { headers: { 'content-type': 'text/css' }, body: 'p {}' });
    b.routes.set('/script.js', { headers: { 'content-type': 'text/javascript' }, body: 'void 0;' });
    const crawler = new crawleeJsdom.JSDOMCrawler(
      {
        runScripts: true,
        maxRequestRetries: 0,
        // The XHR's answer comes while the page is open.
        requestHandler: async () => {
          for (let i = 0; i < 100 && b.count('/api2') === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false, signature: { key, signatureAgent: AGENT } });
    await crawler.run([a.url('/scripted')]);
    const paths = [...a.hits, ...b.hits].map((hit) => hit.path);
    expect(paths).toEqual(expect.arrayContaining(['/scripted', '/frame', '/style.css', '/script.js', '/xhr', '/api2']));
    expect(await unverified([a, b], publicJwk)).toEqual([]);
  });
});
