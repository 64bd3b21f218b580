/**
 * Robots meta tag traps in a real crawl, per crawler kind (HttpCrawler reads the raw body,
 * CheerioCrawler its `$`, JSDOMCrawler its `window.document`, PlaywrightCrawler Chromium's DOM): a
 * `nofollow` that a browser or Google would not see (in a comment, a script string, `<template>`,
 * `<noscript>`, the body) leaves the page's links followed; a real one drops them. What the server
 * saw and what the request handler was told are asserted.
 */
import { has } from '../support/requirements.js';
import type { BasicCrawler, CrawlingContext } from '@crawlee/basic';
import type { HttpCrawlingContext } from '@crawlee/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type RobotsCrawlingContext, type RobotsDirectives } from '@heed/crawlee';
import { playwrightCrawler } from './crawlers.js';
import { crawleeCheerio, crawleeHttp, crawleeJsdom, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';
const NOFOLLOW = '<meta name="robots" content="nofollow">';

/** Trap pages: `[name, html around the page's one link]`; the link must be followed. */
const traps: [string, (link: string) => string][] = [
  ['comment', (link) => `<!doctype html><html><head><title>t</title><!-- ${NOFOLLOW} --></head><body>${link}</body></html>`],
  ['script-string', (link) => `<!doctype html><html><head><script>var tag = '${NOFOLLOW}';</script></head><body>${link}</body></html>`],
  ['template', (link) => `<!doctype html><html><head><template>${NOFOLLOW}</template></head><body>${link}</body></html>`],
  ['noscript-head', (link) => `<!doctype html><html><head><noscript>${NOFOLLOW}</noscript></head><body>${link}</body></html>`],
  [
    'noscript-body',
    (link) => `<!doctype html><html><head><title>t</title></head><body><noscript>${NOFOLLOW}</noscript>${link}</body></html>`,
  ],
  ['body', (link) => `<!doctype html><html><head><title>t</title></head><body>${link}<p>x</p>${NOFOLLOW}</body></html>`],
  [
    'head-ended-by-img',
    (link) => `<!doctype html><html><head><title>t</title><img src="/pixel.png">${NOFOLLOW}</head><body>${link}</body></html>`,
  ],
];

/** Pages whose `nofollow` is real: their link must not be followed. */
const honoured: [string, (link: string) => string][] = [
  ['head', (link) => `<!doctype html><html><head><title>t</title>${NOFOLLOW}</head><body>${link}</body></html>`],
  ['implied-head', (link) => `<!doctype html>${NOFOLLOW}<title>t</title><p>${link}</p>`],
  ['between-head-and-body', (link) => `<!doctype html><html><head><title>t</title></head>\n${NOFOLLOW}\n<body>${link}</body></html>`],
];

interface Crawl {
  handled: Set<string>;
  directives: Map<string, RobotsDirectives>;
}

/** What the handler uses of every crawler's context. */
interface Context {
  readonly request: { readonly url: string; readonly loadedUrl?: string | undefined };
  enqueueLinks(options?: { urls?: string[] }): Promise<unknown>;
}
type Handler = (ctx: Context) => Promise<void>;
/** Attaches the plugin to a crawler and gives it back (each crawler class has its own context type). */
type Attach = <Crawling extends CrawlingContext>(crawler: BasicCrawler<Crawling>) => Promise<BasicCrawler<Crawling>>;
type CrawlerFactory = (handler: Handler, attach: Attach) => Promise<{ run(urls: string[]): Promise<unknown> }>;

/** HttpCrawler extracts no links itself: its users parse the body (`parseWithCheerio`) and enqueue what they found. */
const withLinksExtracted = (handler: Handler) => async (ctx: HttpCrawlingContext) => {
  const $ = await ctx.parseWithCheerio();
  const base = ctx.request.loadedUrl ?? ctx.request.url;
  const urls = $('a[href]')
    .map((_i, a) => new URL($(a).attr('href')!, base).href)
    .get();
  await handler({ ...ctx, request: ctx.request, enqueueLinks: async () => ctx.enqueueLinks({ urls }) });
};

const kinds: [string, CrawlerFactory, boolean][] = [
  [
    'HttpCrawler',
    (requestHandler, attach) =>
      attach(new crawleeHttp.HttpCrawler({ maxConcurrency: 4, requestHandler: withLinksExtracted(requestHandler) }, freshConfig())),
    false,
  ],
  [
    'CheerioCrawler',
    (requestHandler, attach) => attach(new crawleeCheerio.CheerioCrawler({ maxConcurrency: 4, requestHandler }, freshConfig())),
    false,
  ],
  [
    'JSDOMCrawler',
    (requestHandler, attach) => attach(new crawleeJsdom.JSDOMCrawler({ maxConcurrency: 4, requestHandler }, freshConfig())),
    false,
  ],
  ['PlaywrightCrawler', (requestHandler, attach) => attach(playwrightCrawler({ maxConcurrency: 2, requestHandler })), true],
];

const chromiumHere = has('chromium', 'test/crawlee/page-signals-crawl.test.ts, the PlaywrightCrawler traps');

describe.each(kinds)('%s with robots meta tag traps', (_kind, makeCrawler, needsChromium) => {
  let site: Site;
  let origin: SiteOrigin;
  const crawl: Crawl = { handled: new Set(), directives: new Map() };

  beforeAll(async () => {
    if (needsChromium && !chromiumHere) return;
    site = await startSite(1);
    origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    const pages = [...traps, ...honoured];
    origin.routes.set(
      '/',
      page(
        'home',
        pages.map(([name]) => `/${name}`),
      ),
    );
    for (const [name, html] of pages) {
      origin.routes.set(`/${name}`, { body: html(`<a href="/from-${name}">next</a>`) });
      origin.routes.set(`/from-${name}`, page(`from ${name}`, []));
    }
    origin.routes.set('/pixel.png', { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(0) });
    const manager = new RobotsManager({ userAgent: HEEDBOT });
    const crawler = await makeCrawler(
      async (ctx) => {
        crawl.handled.add(ctx.request.url);
        // The plugin adds `robotsDirectives` to every crawler's context.
        crawl.directives.set(ctx.request.url, (ctx as Context & RobotsCrawlingContext).robotsDirectives);
        await ctx.enqueueLinks();
      },
      async (crawler) => {
        await RobotsPlugin.attach(crawler, { userAgent: HEEDBOT, manager });
        return crawler;
      },
    );
    await crawler.run([origin.url('/')]);
    await manager.close();
  }, 120_000);

  afterAll(async () => {
    await site?.close();
  });

  it.skipIf(needsChromium && !chromiumHere).each(traps.map(([name]) => name))(
    'a nofollow meta tag in the %s trap is not obeyed: the link is followed',
    (name) => {
      expect(crawl.directives.get(origin.url(`/${name}`))).toMatchObject({ nofollow: false });
      expect(origin.paths()).toContain(`/from-${name}`);
    },
  );

  it.skipIf(needsChromium && !chromiumHere).each(honoured.map(([name]) => name))(
    'a nofollow meta tag in the %s page is obeyed: the link is not followed',
    (name) => {
      expect(crawl.directives.get(origin.url(`/${name}`))).toMatchObject({ nofollow: true, sources: ['meta'] });
      expect(crawl.handled).toContain(origin.url(`/${name}`));
      expect(origin.paths()).not.toContain(`/from-${name}`);
    },
  );
});
