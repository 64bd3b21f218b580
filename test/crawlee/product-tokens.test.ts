/**
 * Several product tokens: a real CheerioCrawler with `productToken:
 * ['mybot-news', 'mybot']` over a local two-origin site. On an origin whose robots.txt has groups
 * for both tokens and for `*`, the rules (and Content-Usage lines) of both named groups apply
 * together and the `*` group is ignored; on an origin naming neither token, `*` applies. Meta tags
 * and X-Robots-Tag naming either token apply, `noai` included; a tag for another bot does not.
 * What the servers saw, what the handler got and the skip events are what is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type RobotsDirectives, type SkipEvent } from '@heed/crawlee';
import { cheerioCrawler, followEveryLink } from './crawlers.js';
import { page, startSite, type Site, type SiteOrigin } from './site.js';

const USER_AGENT = 'mybot-news/1.0 (+https://mybot.example/bot; mybot)';
const TOKENS = ['mybot-news', 'mybot'] as const;

let site: Site;
let a: SiteOrigin;
let b: SiteOrigin;

interface Crawl {
  handled: string[];
  directives: Map<string, RobotsDirectives>;
  skips: SkipEvent[];
}

beforeAll(async () => {
  site = await startSite(2);
  [a, b] = site.origins as [SiteOrigin, SiteOrigin];
  a.routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: [
      'User-agent: mybot-news',
      'Disallow: /news-private/',
      'Content-Usage: /news-ai/ train-ai=n',
      '',
      'User-agent: mybot',
      'Disallow: /bot-private/',
      '',
      'User-agent: *',
      'Disallow: /star-private/',
      'Content-Usage: /star-ai/ train-ai=n',
    ].join('\n'),
  });
  b.routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: ['User-agent: otherbot', 'Disallow: /other-private/', '', 'User-agent: *', 'Disallow: /star-private/'].join('\n'),
  });
  a.routes.set(
    '/',
    page('home', [
      '/news-private/x',
      '/bot-private/x',
      '/star-private/x',
      '/news-ai/x',
      '/star-ai/x',
      '/meta-news',
      '/meta-bot',
      '/meta-other',
      '/header-news',
      '/meta-news-noai',
      '/meta-other-noai',
      b.url('/'),
    ]),
  );
  for (const path of [
    '/news-private/x',
    '/bot-private/x',
    '/star-private/x',
    '/news-ai/x',
    '/star-ai/x',
    '/from-meta-news',
    '/from-meta-other',
    '/from-header-news',
  ]) {
    a.routes.set(path, page(path, []));
  }
  a.routes.set('/meta-news', page('meta-news', ['/from-meta-news'], '<meta name="mybot-news" content="nofollow">'));
  a.routes.set('/meta-bot', page('meta-bot', [], '<meta name="MyBot" content="noindex">'));
  a.routes.set('/meta-other', page('meta-other', ['/from-meta-other'], '<meta name="otherbot" content="nofollow, noindex">'));
  a.routes.set('/header-news', {
    headers: { 'x-robots-tag': 'mybot-news: nofollow' },
    body: page('header-news', ['/from-header-news']).body,
  });
  a.routes.set('/meta-news-noai', page('meta-news-noai', [], '<meta name="mybot-news" content="noai">'));
  a.routes.set('/meta-other-noai', page('meta-other-noai', [], '<meta name="otherbot" content="noai">'));
  b.routes.set('/', page('b-home', ['/other-private/x', '/star-private/x']));
  b.routes.set('/other-private/x', page('b-other', []));
  b.routes.set('/star-private/x', page('b-star', []));
});

afterAll(async () => {
  await site?.close();
});

async function crawl(): Promise<Crawl> {
  const manager = new RobotsManager({ userAgent: USER_AGENT, productToken: [...TOKENS] });
  const result: Crawl = { handled: [], directives: new Map(), skips: [] };
  const crawler = cheerioCrawler({
    maxConcurrency: 4,
    maxRequestRetries: 0,
    requestHandler: followEveryLink((url, ctx) => {
      result.handled.push(url);
      result.directives.set(url, plugin.directives(ctx));
    }),
  });
  const plugin = await RobotsPlugin.attach(crawler, {
    userAgent: USER_AGENT,
    productToken: [...TOKENS],
    manager,
    purposes: ['train-ai'],
    sitemaps: false,
    logSummary: false,
    onSkip: (event) => void result.skips.push(event),
  });
  await crawler.run([a.url('/')]);
  await manager.close();
  return result;
}

describe("CheerioCrawler with productToken ['mybot-news', 'mybot']", () => {
  let run: Crawl;
  let hits: string[];
  const skipOf = (url: string) => run.skips.find((skip) => skip.url === url);
  beforeAll(async () => {
    run = await crawl();
    hits = site.allUrls();
  });

  it("applies the rules of both tokens' groups together and ignores the * group", () => {
    expect(hits).not.toContain(a.url('/news-private/x'));
    expect(hits).not.toContain(a.url('/bot-private/x'));
    expect(run.handled).toContain(a.url('/star-private/x'));
    expect(skipOf(a.url('/news-private/x'))).toMatchObject({ reason: 'rules', line: 2, productToken: TOKENS });
    expect(skipOf(a.url('/bot-private/x'))).toMatchObject({ reason: 'rules', line: 6 });
    expect(skipOf(a.url('/bot-private/x'))?.message).toBe(
      `disallowed for mybot-news, mybot by "Disallow: /bot-private/" at ${a.origin}/robots.txt line 6`,
    );
  });

  it("applies the Content-Usage lines of the tokens' groups, not those of *", () => {
    expect(hits).not.toContain(a.url('/news-ai/x'));
    expect(skipOf(a.url('/news-ai/x'))).toMatchObject({ reason: 'usage', usage: { purpose: 'train-ai', evidence: { line: 3 } } });
    expect(skipOf(a.url('/news-ai/x'))?.message).toContain('train-ai is disallowed for mybot-news, mybot by');
    expect(run.handled).toContain(a.url('/star-ai/x'));
  });

  it('applies the * group on an origin that names neither token', () => {
    expect(hits).not.toContain(b.url('/star-private/x'));
    expect(skipOf(b.url('/star-private/x'))).toMatchObject({ reason: 'rules', line: 5 });
    expect(run.handled).toContain(b.url('/other-private/x'));
  });

  it('reads the meta tags and X-Robots-Tag of either token, and not of another bot', () => {
    expect(hits).not.toContain(a.url('/from-meta-news'));
    expect(skipOf(a.url('/from-meta-news'))).toMatchObject({ reason: 'nofollow', referrer: a.url('/meta-news') });
    expect(hits).not.toContain(a.url('/from-header-news'));
    expect(run.directives.get(a.url('/meta-bot'))).toMatchObject({ noindex: true, nofollow: false, sources: ['meta'] });
    expect(run.handled).toContain(a.url('/from-meta-other'));
    expect(run.directives.get(a.url('/meta-other'))).toMatchObject({ noindex: false, nofollow: false });
  });

  it('honours noai addressed to either token', () => {
    expect(hits).toContain(a.url('/meta-news-noai'));
    expect(run.handled).not.toContain(a.url('/meta-news-noai'));
    expect(skipOf(a.url('/meta-news-noai'))).toMatchObject({ reason: 'usage', stage: 'response', usage: { evidence: { signal: 'noai' } } });
    expect(skipOf(a.url('/meta-news-noai'))?.message).toContain('robots, mybot-news or mybot');
    expect(run.handled).toContain(a.url('/meta-other-noai'));
  });

  it('fetched each robots.txt once', () => {
    expect(a.count('/robots.txt')).toBe(1);
    expect(b.count('/robots.txt')).toBe(1);
  });
});
