/**
 * Pages go out under the bot's name (`identifyPages`, on by default): the site records the
 * User-Agent of every request, and each crawler kind's page requests carry the plugin's
 * `userAgent`, not Crawlee's generated browser header; a `User-Agent` the user sets on a request
 * wins; with `identifyPages: false` pages go out as Crawlee sends them (a browser's name). The
 * pages a crawled page opens (popups, `target=_blank` links) and a JSDOM page's sub-resources go out
 * under the bot's name too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { cheerioCrawler, playwrightCrawler, puppeteerCrawler } from './crawlers.js';
import { crawleeHttp, crawleeJsdom, freshConfig, page, redirect, startSite, type Site } from './site.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const BROWSER = /^Mozilla\/5\.0 /;

let site: Site;
beforeAll(async () => {
  site = await startSite(1);
  const origin = site.origins[0]!;
  origin.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' });
  origin.routes.set('/', page('home', []));
  origin.routes.set('/mine', page('mine', []));
  origin.routes.set('/api', { headers: { 'content-type': 'application/json' }, body: '{}' });
  // Popups (one loading a stylesheet, one redirected) and a target=_blank link.
  origin.routes.set(
    '/opens',
    page(
      'opens',
      [],
      '',
      `<a id="go" target="_blank" href="/blank-page">go</a>` +
        `<script>window.open('/popup'); window.open('/popup-hop'); document.getElementById('go').click();</script>`,
    ),
  );
  origin.routes.set('/popup', page('popup', [], '<link rel="stylesheet" href="/popup.css">'));
  origin.routes.set('/popup-hop', redirect('/popup-after-hop'));
  origin.routes.set('/popup-after-hop', page('after hop', []));
  origin.routes.set('/popup.css', { headers: { 'content-type': 'text/css' }, body: 'h1 { color: red }' });
  origin.routes.set('/blank-page', page('blank page', []));
  origin.routes.set('/styled', page('styled', [], '<link rel="stylesheet" href="/styled.css">'));
  origin.routes.set('/styled-own', page('styled own', [], '<link rel="stylesheet" href="/styled-own.css">'));
  origin.routes.set('/styled.css', { headers: { 'content-type': 'text/css' }, body: 'h1 { color: red }' });
  origin.routes.set('/styled-own.css', { headers: { 'content-type': 'text/css' }, body: 'h1 { color: red }' });
  origin.routes.set('/api-own', { headers: { 'content-type': 'application/json' }, body: '{}' });
});
afterAll(async () => {
  await site?.close();
});

type Options = Record<string, unknown>;
/** Crawlee's fingerprints stay on (its default), so pages have its generated browser header unless the plugin names them. */
const browserOptions = { headless: true, maxConcurrency: 1, browserPoolOptions: { useFingerprints: true } };
const kinds: Record<string, { make: (options: Options) => unknown; browser?: true }> = {
  HttpCrawler: { make: (options) => new crawleeHttp.HttpCrawler(options, freshConfig()) },
  CheerioCrawler: { make: (options) => cheerioCrawler(options) },
  JSDOMCrawler: { make: (options) => new crawleeJsdom.JSDOMCrawler(options, freshConfig()) },
  PlaywrightCrawler: { browser: true, make: (options) => playwrightCrawler({ ...options, ...browserOptions }) },
  PuppeteerCrawler: { browser: true, make: (options) => puppeteerCrawler({ ...options, ...browserOptions }) },
};

/**
 * The User-Agent the site saw for each page path (robots.txt aside); a page whose path is in
 * `awaited` is handled until the paths listed for it were requested (what a popup loads; 10 s at most).
 */
async function crawl(
  kind: string,
  pluginOptions: Options,
  requests: unknown[],
  awaited: Readonly<Record<string, readonly string[]>> = {},
): Promise<Map<string, string>> {
  const origin = site.origins[0]!;
  origin.hits.length = 0;
  const requestHandler = async ({ request }: { request: { url: string } }) => {
    const wanted = awaited[new URL(request.url).pathname] ?? [];
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !wanted.every((path) => origin.hits.some((h) => h.path === path)))
      await new Promise((r) => setTimeout(r, 50));
  };
  const crawler = kinds[kind]!.make({ maxRequestRetries: 0, requestHandler }) as Parameters<typeof RobotsPlugin.attach>[0];
  const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, logSummary: false, ...pluginOptions });
  try {
    await crawler.run(requests as never);
  } finally {
    await plugin.close();
  }
  return new Map(origin.hits.filter((h) => h.path !== '/robots.txt').map((h) => [h.path, h.userAgent]));
}

/** What `/opens` opens: popups (one loading a stylesheet, one redirected) and a `target=_blank` page. */
const OPENED = ['/popup', '/popup.css', '/popup-hop', '/popup-after-hop', '/blank-page'];

/**
 * A browser kind crawls once per setting of `identifyPages`, with its plain pages and the page that
 * opens others together (a browser's launch is most of a crawl's cost); the tests read what the
 * site saw. Tests of a file run one after another, so no two crawls share the site at once.
 */
const browserCrawls = new Map<string, Promise<Map<string, string>>>();
function browserCrawl(kind: string, identifyPages: boolean): Promise<Map<string, string>> {
  const key = `${kind} ${identifyPages}`;
  let crawled = browserCrawls.get(key);
  if (crawled === undefined) {
    const origin = site.origins[0]!;
    const requests = [origin.url('/'), { url: origin.url('/mine'), headers: { 'User-Agent': 'MyOwn/2.0' } }, origin.url('/opens')];
    crawled = crawl(kind, identifyPages ? {} : { identifyPages: false }, requests, { '/opens': OPENED });
    browserCrawls.set(key, crawled);
  }
  return crawled;
}

describe.each(Object.keys(kinds))('%s', (kind) => {
  const skip = kinds[kind]!.browser === true && !has('chromium', `test/crawlee/identify-pages.test.ts, ${kind}`);
  it.skipIf(skip)(
    "sends pages under the plugin's userAgent, and a request's own User-Agent as given",
    async () => {
      const origin = site.origins[0]!;
      const seen = kinds[kind]!.browser
        ? await browserCrawl(kind, true)
        : await crawl(kind, {}, [origin.url('/'), { url: origin.url('/mine'), headers: { 'User-Agent': 'MyOwn/2.0' } }]);
      expect(seen.get('/')).toBe(UA);
      expect(seen.get('/mine')).toBe('MyOwn/2.0');
    },
    60_000,
  );

  it.skipIf(skip)(
    "leaves pages to Crawlee's browser header with identifyPages: false",
    async () => {
      const seen = kinds[kind]!.browser
        ? await browserCrawl(kind, false)
        : await crawl(kind, { identifyPages: false }, [site.origins[0]!.url('/')]);
      expect(seen.get('/')).toMatch(BROWSER);
    },
    60_000,
  );
});

describe.each(['PlaywrightCrawler', 'PuppeteerCrawler'])('%s: pages a crawled page opens', (kind) => {
  const skip = !has('chromium', `test/crawlee/identify-pages.test.ts, ${kind} popups`);
  it.skipIf(skip)(
    "sends popups and target=_blank pages under the plugin's userAgent: their redirect hops and sub-resources too",
    async () => {
      const seen = await browserCrawl(kind, true);
      for (const path of OPENED) expect([path, seen.get(path)]).toEqual([path, UA]);
    },
    60_000,
  );

  it.skipIf(skip)(
    "leaves them to the browser's user-agent with identifyPages: false",
    async () => {
      const seen = await browserCrawl(kind, false);
      for (const path of OPENED) expect([path, seen.get(path)]).toEqual([path, expect.stringMatching(BROWSER)]);
    },
    60_000,
  );
});

describe('JSDOMCrawler: sub-resources', () => {
  const awaited = ['/styled.css', '/styled-own.css'];
  const crawlStyled = (options: Options) => {
    const origin = site.origins[0]!;
    return crawl(
      'JSDOMCrawler',
      options,
      [origin.url('/styled'), { url: origin.url('/styled-own'), headers: { 'User-Agent': 'MyOwn/2.0' } }],
      { '/styled': awaited, '/styled-own': awaited },
    );
  };

  it("loads a page's stylesheet under the plugin's userAgent, a page's own User-Agent as given", async () => {
    const seen = await crawlStyled({});
    expect(seen.get('/styled.css')).toBe(UA);
    expect(seen.get('/styled-own.css')).toBe('MyOwn/2.0');
  }, 60_000);

  it('does so with blockSubresources: false too', async () => {
    const seen = await crawlStyled({ blockSubresources: false });
    expect(seen.get('/styled.css')).toBe(UA);
  }, 60_000);

  it("leaves them to Crawlee's browser user-agent with identifyPages: false", async () => {
    const seen = await crawlStyled({ identifyPages: false });
    expect(seen.get('/styled.css')).toMatch(BROWSER);
  }, 60_000);
});

describe('context.sendRequest()', () => {
  async function apiAgents(identifyPages: boolean): Promise<Map<string, string>> {
    const origin = site.origins[0]!;
    origin.hits.length = 0;
    const crawler = cheerioCrawler({
      maxRequestRetries: 0,
      requestHandler: async (ctx) => {
        await ctx.sendRequest({ url: origin.url('/api') });
        await ctx.sendRequest({ url: origin.url('/api-own'), headers: { 'user-agent': 'MyOwn/2.0' } });
      },
    });
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, logSummary: false, identifyPages });
    try {
      await crawler.run([origin.url('/')]);
    } finally {
      await plugin.close();
    }
    return new Map(origin.hits.filter((h) => h.path.startsWith('/api')).map((h) => [h.path, h.userAgent]));
  }

  it("sends the handler's API calls under the plugin's userAgent, a call's own User-Agent as given", async () => {
    const seen = await apiAgents(true);
    expect(seen.get('/api')).toBe(UA);
    expect(seen.get('/api-own')).toBe('MyOwn/2.0');
  }, 60_000);

  it("leaves them to Crawlee's browser header with identifyPages: false", async () => {
    const seen = await apiAgents(false);
    expect(seen.get('/api')).toMatch(BROWSER);
  }, 60_000);
});
