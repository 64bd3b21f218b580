/**
 * A real CheerioCrawler with `purposes: ['train-ai']` over a local
 * three-origin site that states AI-usage preferences in every way Heed reads (robots.txt
 * Content-Usage and Content-Signal, tdmrep.json, response headers, meta tags incl. noai). What the
 * servers saw and what the handler got is what is asserted; and the same crawl without `purposes`
 * is the crawl of today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageCategory } from '@heed/parser';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type SkipEvent, type UsageReport } from '@heed/crawlee';
import { cheerioCrawler, followEveryLink } from './crawlers.js';
import { crawleeCheerio, freshConfig, page, startSite, type Site, type SiteOrigin } from './site.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';
const TDMREP = '/.well-known/tdmrep.json';

interface Crawl {
  handled: string[];
  skips: SkipEvent[];
  reports: Map<string, UsageReport | undefined>;
  plugin: RobotsPlugin;
  failed: number;
}

let site: Site;
let a: SiteOrigin;
let b: SiteOrigin;
let c: SiteOrigin;

/** The pages of origin A whose response (headers or meta tags) disallows train-ai. */
const RESPONSE_NO = ['/header-cu', '/header-cs', '/header-tdm', '/header-noai', '/meta-noai', '/meta-token-noai', '/meta-tdm'];

beforeAll(async () => {
  site = await startSite(3);
  [a, b, c] = site.origins as [SiteOrigin, SiteOrigin, SiteOrigin];
  a.routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: ['User-agent: *', 'Disallow: /private/', 'Content-Usage: /cu-no/ train-ai=n', 'Content-Usage: /cu-no/yes/ train-ai=y'].join('\n'),
  });
  b.routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: ['User-agent: *', 'Allow: /', 'Content-Signal: search=yes, ai-train=no'].join('\n'),
  });
  c.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  c.routes.set(TDMREP, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      { location: '/tdm-no/*', 'tdm-reservation': 1 },
      { location: '/*', 'tdm-reservation': 0 },
    ]),
  });

  a.routes.set(
    '/',
    page('home', [
      '/cu-no/page',
      '/cu-no/yes/page',
      '/private/x',
      '/ok',
      '/header-search-only',
      '/meta-otherbot-noai',
      ...RESPONSE_NO,
      b.url('/page'),
      c.url('/tdm-no/page'),
      c.url('/fine'),
    ]),
  );
  for (const path of ['/cu-no/page', '/cu-no/yes/page', '/private/x', '/ok']) a.routes.set(path, page(path, []));
  a.routes.set('/header-cu', { headers: { 'content-usage': 'train-ai=n' }, body: page('cu', []).body });
  a.routes.set('/header-cs', { headers: { 'content-signal': 'search=yes, ai-train=no' }, body: page('cs', []).body });
  a.routes.set('/header-tdm', { headers: { 'tdm-reservation': '1' }, body: page('tdm', []).body });
  a.routes.set('/header-noai', { headers: { 'x-robots-tag': 'noai' }, body: page('xrt', []).body });
  a.routes.set('/header-search-only', { headers: { 'content-usage': 'search=n' }, body: page('search-only', []).body });
  a.routes.set('/meta-noai', page('meta', [], '<meta name="robots" content="noai">'));
  a.routes.set('/meta-token-noai', page('meta-token', [], '<meta name="heedbot" content="noai, noimageai">'));
  a.routes.set('/meta-otherbot-noai', page('meta-other', [], '<meta name="otherbot" content="noai">'));
  a.routes.set('/meta-tdm', page('meta-tdm', [], '<meta name="tdm-reservation" content="1">'));
  b.routes.set('/page', page('b', []));
  c.routes.set('/tdm-no/page', page('c-no', []));
  c.routes.set('/fine', page('c-fine', []));
});

afterAll(async () => {
  await site?.close();
});

function resetHits(): void {
  for (const origin of site.origins) origin.hits.length = 0;
}

async function crawl(purposes: readonly UsageCategory[] | undefined): Promise<Crawl> {
  const manager = new RobotsManager({ userAgent: HEEDBOT });
  const result: Crawl = { handled: [], skips: [], reports: new Map(), plugin: undefined as unknown as RobotsPlugin, failed: 0 };
  const crawler = cheerioCrawler({
    maxConcurrency: 4,
    maxRequestRetries: 0,
    requestHandler: followEveryLink((url, ctx) => {
      result.handled.push(url);
      result.reports.set(url, result.plugin.usage(ctx));
    }),
  });
  result.plugin = await RobotsPlugin.attach(crawler, {
    userAgent: HEEDBOT,
    manager,
    logSummary: false,
    ...(purposes === undefined ? {} : { purposes }),
    onSkip: (event) => void result.skips.push(event),
  });
  await crawler.run([a.url('/')]);
  result.failed = crawler.stats.state.requestsFailed;
  await manager.close();
  return result;
}

describe("CheerioCrawler with purposes: ['train-ai']", () => {
  let run: Crawl;
  let hits: string[];
  beforeAll(async () => {
    resetHits();
    run = await crawl(['train-ai']);
    hits = site.allUrls();
  });

  it('never requests a URL whose robots.txt (Content-Usage, Content-Signal) or tdmrep.json says no', () => {
    expect(hits).not.toContain(a.url('/cu-no/page'));
    expect(hits).not.toContain(b.url('/page'));
    expect(hits).not.toContain(c.url('/tdm-no/page'));
    expect(hits).not.toContain(a.url('/private/x'));
    // The longer Content-Usage path says yes; tdmrep.json's second rule says not reserved.
    expect(run.handled).toContain(a.url('/cu-no/yes/page'));
    expect(run.handled).toContain(c.url('/fine'));
    expect(c.count(TDMREP)).toBe(1);
  });

  it('explains each skip at enqueue with its signal and line', () => {
    const at = (url: string) => run.skips.find((s) => s.url === url);
    expect(at(a.url('/cu-no/page'))).toMatchObject({
      reason: 'usage',
      stage: 'enqueue',
      line: 3,
      referrer: a.url('/'),
      usage: { purpose: 'train-ai', evidence: { signal: 'content-usage', source: 'robots.txt', line: 3, value: '/cu-no/ train-ai=n' } },
    });
    expect(at(b.url('/page'))).toMatchObject({
      reason: 'usage',
      stage: 'enqueue',
      usage: { evidence: { signal: 'content-signal', line: 3, where: b.url('/robots.txt') } },
    });
    expect(at(c.url('/tdm-no/page'))).toMatchObject({
      reason: 'usage',
      stage: 'enqueue',
      usage: { evidence: { signal: 'tdmrep', source: 'tdmrep.json', line: 0, where: c.url(TDMREP) } },
    });
    expect(at(c.url('/tdm-no/page'))?.message).toContain('train-ai is disallowed for HeedBot by tdm-reservation 1 for "/tdm-no/*"');
  });

  it('never hands the handler a page whose headers or meta tags say no, each reported as a skip at stage response', () => {
    const expected: Record<string, string> = {
      '/header-cu': 'content-usage',
      '/header-cs': 'content-signal',
      '/header-tdm': 'tdm-reservation',
      '/header-noai': 'noai',
      '/meta-noai': 'noai',
      '/meta-token-noai': 'noai',
      '/meta-tdm': 'tdm-reservation',
    };
    for (const [path, signal] of Object.entries(expected)) {
      expect(hits, path).toContain(a.url(path));
      expect(run.handled, path).not.toContain(a.url(path));
      const skip = run.skips.find((s) => s.url === a.url(path));
      expect(skip, path).toMatchObject({ reason: 'usage', stage: 'response', usage: { purpose: 'train-ai', evidence: { signal } } });
    }
    expect(run.skips.find((s) => s.url === a.url('/meta-noai'))?.usage?.evidence?.source).toBe('meta');
    expect(run.skips.find((s) => s.url === a.url('/header-noai'))?.usage?.evidence?.source).toBe('header');
    // Stopped pages are skips, not failures, and are not retried.
    expect(run.failed).toBe(0);
    expect(RESPONSE_NO.every((path) => a.count(path) === 1)).toBe(true);
  });

  it('hands over pages that say nothing against the purpose, with their usage verdict', () => {
    expect(new Set(run.handled)).toEqual(
      new Set([
        a.url('/'),
        a.url('/cu-no/yes/page'),
        a.url('/ok'),
        a.url('/header-search-only'),
        a.url('/meta-otherbot-noai'),
        c.url('/fine'),
      ]),
    );
    const yes = run.reports.get(a.url('/cu-no/yes/page'));
    expect(yes?.preference('train-ai')).toBe('allow');
    expect(yes?.decision('train-ai')).toMatchObject({ signal: 'content-usage', line: 4 });
    const searchOnly = run.reports.get(a.url('/header-search-only'));
    expect(searchOnly?.preference('search')).toBe('disallow');
    expect(searchOnly?.decision('search')).toMatchObject({ source: 'header', signal: 'content-usage' });
    expect(run.reports.get(c.url('/fine'))?.decision('train-ai')).toMatchObject({ source: 'tdmrep.json', preference: 'allow' });
  });

  it('counts usage skips by reason, stage and signal', () => {
    const stats = run.plugin.stats;
    expect(stats.skippedByReason.usage).toBe(3 + RESPONSE_NO.length);
    expect(stats.skippedByStage.response).toBe(RESPONSE_NO.length);
    expect(stats.usageSkipsBySignal).toEqual({ 'content-usage': 2, 'content-signal': 2, tdmrep: 1, 'tdm-reservation': 2, noai: 3 });
    expect(run.plugin.summary()).toContain('usage 10');
  });
});

describe('the same crawl without purposes', () => {
  it('behaves as today: every allowed page handled, no tdmrep.json requested, no usage verdict', async () => {
    resetHits();
    const run = await crawl(undefined);
    const all = site.allUrls();
    expect(all.some((url) => url.endsWith(TDMREP))).toBe(false);
    expect(all).not.toContain(a.url('/private/x'));
    const pages = ['/', '/cu-no/page', '/cu-no/yes/page', '/ok', '/header-search-only', '/meta-otherbot-noai', ...RESPONSE_NO]
      .map((p) => a.url(p))
      .concat([b.url('/page'), c.url('/tdm-no/page'), c.url('/fine')]);
    expect(new Set(run.handled)).toEqual(new Set(pages));
    expect(run.skips.map((s) => s.reason)).toEqual(['rules']);
    expect(run.plugin.stats.skippedByReason.usage).toBe(0);
    expect([...run.reports.values()].every((r) => r === undefined)).toBe(true);
  });
});

describe('one usage evaluation per URL', () => {
  it('works out a crawled URL once for its enqueue check, its check before the fetch and its response', async () => {
    resetHits();
    const manager = new RobotsManager({ userAgent: HEEDBOT });
    const asked = new Map<string, number>();
    const usage = manager.usage.bind(manager);
    manager.usage = (url, query) => {
      asked.set(url, (asked.get(url) ?? 0) + 1);
      return usage(url, query);
    };
    const handled: string[] = [];
    const crawler = cheerioCrawler({
      maxRequestRetries: 0,
      requestHandler: followEveryLink((_url, ctx) => void handled.push(ctx.request.url)),
    });
    await RobotsPlugin.attach(crawler, { userAgent: HEEDBOT, manager, logSummary: false, purposes: ['train-ai'] });
    await crawler.run([a.url('/')]);
    await manager.close();
    // Pages handled, and pages stopped at their response (headers, meta tags): each went through all three checks.
    expect(handled).toContain(c.url('/fine'));
    const fetched = site.allUrls().filter((url) => !url.endsWith('/robots.txt') && !url.endsWith(TDMREP));
    expect(fetched.length).toBeGreaterThan(8);
    expect(Object.fromEntries(fetched.map((url) => [url, asked.get(url)]))).toEqual(Object.fromEntries(fetched.map((url) => [url, 1])));
    // Skipped at enqueue: asked once too.
    expect(asked.get(c.url('/tdm-no/page'))).toBe(1);
  });
});

describe('the check before the fetch', () => {
  it('skips a queued request a declared purpose may not use, even one queued before attach()', async () => {
    resetHits();
    const manager = new RobotsManager({ userAgent: HEEDBOT });
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async (ctx) => void handled.push(ctx.request.url) }, freshConfig());
    // Queued straight into the queue, before the plugin is there: only the check before the fetch sees it.
    const queue = await crawler.getRequestQueue();
    await queue.addRequests([{ url: b.url('/page') }, { url: c.url('/tdm-no/page') }, { url: c.url('/fine') }]);
    await RobotsPlugin.attach(crawler, {
      userAgent: HEEDBOT,
      manager,
      logSummary: false,
      purposes: ['train-ai'],
      onSkip: (e) => void skips.push(e),
    });
    await crawler.run();
    await manager.close();
    expect(b.paths()).not.toContain('/page');
    expect(c.paths()).not.toContain('/tdm-no/page');
    expect(handled).toEqual([c.url('/fine')]);
    expect(skips.map((s) => [s.url, s.reason, s.stage, s.usage?.evidence?.signal])).toEqual(
      expect.arrayContaining([
        [b.url('/page'), 'usage', 'before-fetch', 'content-signal'],
        [c.url('/tdm-no/page'), 'usage', 'before-fetch', 'tdmrep'],
      ]),
    );
  });
});

describe("unknownUsage: 'disallow'", () => {
  it('fetches URLs nobody stated anything about, and hands the handler only pages that say yes', async () => {
    resetHits();
    const manager = new RobotsManager({ userAgent: HEEDBOT });
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async (ctx) => void handled.push(ctx.request.url) }, freshConfig());
    await RobotsPlugin.attach(crawler, {
      userAgent: HEEDBOT,
      manager,
      logSummary: false,
      purposes: ['train-ai'],
      unknownUsage: 'disallow',
      onSkip: (e) => void skips.push(e),
    });
    // /ok: nothing stated anywhere; /cu-no/yes/page: robots.txt says y; c /fine: tdmrep.json says not reserved.
    await crawler.run([a.url('/ok'), a.url('/cu-no/yes/page'), c.url('/fine'), a.url('/cu-no/page')]);
    await manager.close();
    expect(a.paths()).toContain('/ok');
    expect(a.paths()).not.toContain('/cu-no/page');
    expect(new Set(handled)).toEqual(new Set([a.url('/cu-no/yes/page'), c.url('/fine')]));
    expect(skips.find((s) => s.url === a.url('/ok'))).toMatchObject({ reason: 'usage', stage: 'response', usage: { purpose: 'train-ai' } });
    expect(skips.find((s) => s.url === a.url('/ok'))?.usage?.evidence).toBeUndefined();
    expect(skips.find((s) => s.url === a.url('/cu-no/page'))).toMatchObject({ reason: 'usage', stage: 'enqueue' });
  });
});
