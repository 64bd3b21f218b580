/**
 * Requests that leave after the queue's check, each checked at the moment it goes out: JSDOM's
 * sub-resources (stylesheets, frames, scripts), a URL rewritten by a `preNavigationHook`
 * (`request.url`, `gotOptions.url`, a got `beforeRequest` hook) and `context.sendRequest()` (its URL,
 * a redirect it follows). Real crawlers against a loopback origin that records every request: the
 * server never sees a disallowed path, allowed ones still come through.
 */
import type { BasicCrawler, CrawlingContext } from '@crawlee/basic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsDisallowedError, RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { cheerioCrawler, playwrightCrawler } from './crawlers.js';
import { crawleeBasic, crawleeJsdom, freshConfig, page, redirect, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

let site: Site;
let a: SiteOrigin;
let manager: RobotsManager;

beforeAll(async () => {
  site = await startSite(1);
  [a] = site.origins as [SiteOrigin];
  a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
  a.routes.set(
    '/jsdom',
    page(
      'jsdom',
      [],
      '<link rel="stylesheet" href="/private/style.css"><link rel="stylesheet" href="/ok/style.css">' +
        '<script src="/private/script.js"></script><script src="/ok/script.js"></script>',
      '<iframe src="/private/frame"></iframe><iframe src="/ok/frame"></iframe>',
    ),
  );
  for (const path of ['/ok/style.css', '/private/style.css']) a.routes.set(path, { headers: { 'content-type': 'text/css' }, body: 'h1{}' });
  for (const path of ['/ok/script.js', '/private/script.js'])
    a.routes.set(path, { headers: { 'content-type': 'text/javascript' }, body: '1;' });
  for (const path of ['/ok/frame', '/private/frame']) a.routes.set(path, page(path, []));
  for (const path of [
    '/rewrite-me',
    '/rewrite-ok',
    '/got-url-me',
    '/hook-me',
    '/ok/rewritten',
    '/api-page',
    '/ok/api',
    '/browser-rewrite-me',
    '/browser-rewrite-ok',
    '/ok/browser-rewritten',
  ]) {
    a.routes.set(path, page(path, []));
  }
  a.routes.set('/private/api', text('secret'));
  a.routes.set('/to-private', redirect('/private/via-redirect'));
  manager = new RobotsManager({ userAgent: UA });
});

afterAll(async () => {
  await manager?.close();
  await site?.close();
});

/** The paths under /private the server saw. */
const privateHits = () => a.paths().filter((p) => p.startsWith('/private'));

describe('JSDOMCrawler sub-resources, blockSubresources: true', () => {
  it.each([
    {
      runScripts: true,
      loaded: ['/ok/style.css', '/ok/script.js', '/ok/frame'],
      blocked: ['/private/style.css', '/private/script.js', '/private/frame'],
    },
    { runScripts: false, loaded: ['/ok/style.css', '/ok/frame'], blocked: ['/private/style.css', '/private/frame'] },
  ])('runScripts: $runScripts — loads allowed resources and never requests disallowed ones', async ({ runScripts, loaded, blocked }) => {
    const skips: SkipEvent[] = [];
    const handled: string[] = [];
    const before = Object.fromEntries(loaded.map((path) => [path, a.count(path)]));
    const crawler = new crawleeJsdom.JSDOMCrawler(
      {
        runScripts,
        hideInternalConsole: true,
        requestHandler: async ({ request, window }) => {
          handled.push(request.url);
          // Without runScripts Crawlee does not wait for the page's resources: wait here, so the
          // allowed ones are seen to arrive (and a disallowed one would have had its chance).
          if (window.document.readyState !== 'complete') {
            await new Promise((resolve) => {
              window.addEventListener('load', resolve);
              setTimeout(resolve, 5_000);
            });
          }
        },
      },
      freshConfig(),
    );
    await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      manager,
      blockSubresources: true,
      sitemaps: false,
      onSkip: (e) => void skips.push(e),
    });
    await crawler.run([a.url('/jsdom')]);
    expect(privateHits()).toEqual([]);
    for (const path of loaded) expect(a.count(path), path).toBe((before[path] ?? 0) + 1);
    expect(handled).toEqual([a.url('/jsdom')]);
    expect(new Set(skips.map((e) => `${e.stage} ${e.url} ${e.referrer}`))).toEqual(
      new Set(blocked.map((p) => `subresource ${a.url(p)} ${a.url('/jsdom')}`)),
    );
    expect(skips[0]?.message).toMatch(/Disallow: \/private/);
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });
});

describe('URLs rewritten before the fetch (CheerioCrawler)', () => {
  it('checks request.url, gotOptions.url and a got beforeRequest hook at the fetch; a disallowed rewrite ends as a skip', async () => {
    const skips: SkipEvent[] = [];
    const handled: string[] = [];
    const rewrites: Record<string, (request: { url: string }, gotOptions: Record<string, unknown>) => void> = {
      '/rewrite-me': (request) => void (request.url = a.url('/private/rewritten')),
      '/rewrite-ok': (request) => void (request.url = a.url('/ok/rewritten')),
      '/got-url-me': (_request, gotOptions) => void (gotOptions['url'] = a.url('/private/got-url')),
      '/hook-me': (_request, gotOptions) =>
        void (gotOptions['hooks'] = {
          beforeRequest: [(options: { url: URL }) => void (options.url = new URL('/private/hooked', options.url))],
        }),
    };
    const crawler = cheerioCrawler({
      maxRequestRetries: 0,
      preNavigationHooks: [
        ({ request }, gotOptions) => rewrites[new URL(request.url).pathname]?.(request, gotOptions as Record<string, unknown>),
      ],
      requestHandler: async ({ request }) => void handled.push(request.url),
    });
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, onSkip: (e) => void skips.push(e) });
    await crawler.run(Object.keys(rewrites).map((p) => a.url(p)));
    expect(privateHits()).toEqual([]);
    expect(handled).toEqual([a.url('/ok/rewritten')]);
    expect(a.count('/ok/rewritten')).toBe(1);
    expect(new Set(skips.map((e) => `${e.stage} ${e.url}`))).toEqual(
      new Set(['/private/rewritten', '/private/got-url', '/private/hooked'].map((p) => `before-fetch ${a.url(p)}`)),
    );
    for (const skip of skips) expect(skip).toMatchObject({ reason: 'rules', line: 2, rule: { pattern: '/private' } });
    expect(crawler.stats.state.requestsFailed).toBe(0);
  });
});

describe.skipIf(!has('chromium', 'test/crawlee/outgoing.test.ts, PlaywrightCrawler'))(
  'URLs rewritten before the navigation (PlaywrightCrawler)',
  () => {
    it('checks a request.url a preNavigationHook set before page.goto; a disallowed one ends as a skip', async () => {
      const skips: SkipEvent[] = [];
      const handled: string[] = [];
      const targets: Record<string, string> = {
        '/browser-rewrite-me': '/private/browser-rewritten',
        '/browser-rewrite-ok': '/ok/browser-rewritten',
      };
      const crawler = playwrightCrawler({
        maxRequestRetries: 0,
        preNavigationHooks: [
          ({ request }) => {
            const target = targets[new URL(request.url).pathname];
            if (target !== undefined) request.url = a.url(target);
          },
        ],
        requestHandler: async ({ request }) => void handled.push(request.url),
      });
      await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, onSkip: (e) => void skips.push(e) });
      await crawler.run(Object.keys(targets).map((p) => a.url(p)));
      expect(privateHits()).toEqual([]);
      expect(handled).toEqual([a.url('/ok/browser-rewritten')]);
      expect(skips.map((e) => `${e.stage} ${e.url} ${e.line}`)).toEqual([`before-fetch ${a.url('/private/browser-rewritten')} 2`]);
      expect(crawler.stats.state.requestsFailed).toBe(0);
    }, 60_000);
  },
);

describe('context.sendRequest()', () => {
  /** What each sendRequest call of the handler ended as: the body, or the error's class and message. */
  async function sendAll(kind: 'basic' | 'cheerio', extra: Record<string, unknown> = {}) {
    const outcomes: Record<string, string> = {};
    const skips: SkipEvent[] = [];
    const requestHandler = async ({ sendRequest }: { sendRequest: (o?: Record<string, unknown>) => Promise<{ body: unknown }> }) => {
      for (const path of ['/ok/api', '/private/api', '/to-private']) {
        try {
          outcomes[path] = String((await sendRequest({ url: a.url(path) })).body).slice(0, 20);
        } catch (error) {
          outcomes[path] = error instanceof RobotsDisallowedError ? `RobotsDisallowedError: ${error.message}` : `other: ${String(error)}`;
        }
      }
    };
    // Generic: each crawler class has its own context type.
    const attached = async <Context extends CrawlingContext>(crawler: BasicCrawler<Context>) => {
      await RobotsPlugin.attach(crawler, { userAgent: UA, manager, sitemaps: false, onSkip: (e) => void skips.push(e), ...extra });
      return crawler;
    };
    const crawler =
      kind === 'basic'
        ? await attached(new crawleeBasic.BasicCrawler({ maxRequestRetries: 0, requestHandler }, freshConfig()))
        : await attached(cheerioCrawler({ maxRequestRetries: 0, requestHandler }));
    await crawler.run([a.url('/api-page')]);
    return { outcomes, skips, failed: crawler.stats.state.requestsFailed };
  }

  it.each(['basic', 'cheerio'] as const)(
    '%s: a disallowed URL or redirect target rejects with RobotsDisallowedError, nothing sent',
    async (kind) => {
      const before = a.count('/to-private');
      const { outcomes, skips, failed } = await sendAll(kind);
      expect(privateHits()).toEqual([]);
      expect(a.count('/to-private')).toBe(before + 1);
      expect(outcomes['/ok/api']).toMatch(/^<!doctype html>/);
      expect(outcomes['/private/api']).toBe(
        `RobotsDisallowedError: sendRequest() did not request ${a.url('/private/api')}: disallowed for HeedBot by "Disallow: /private" at ${a.origin}/robots.txt line 2. ` +
          'To send requests robots.txt does not govern (an API you call on purpose), attach with checkSendRequest: false.',
      );
      expect(outcomes['/to-private']).toContain(`RobotsDisallowedError: sendRequest() did not request ${a.url('/private/via-redirect')}`);
      expect(skips.map((e) => `${e.stage} ${e.url}`)).toEqual([
        `send-request ${a.url('/private/api')}`,
        `send-request ${a.url('/private/via-redirect')}`,
      ]);
      // The page itself was handled.
      expect(failed).toBe(0);
    },
  );

  it('checkSendRequest: false sends what the handler asks for', async () => {
    const { outcomes } = await sendAll('basic', { checkSendRequest: false });
    expect(outcomes['/private/api']).toBe('secret');
    expect(a.count('/private/api')).toBe(1);
  });
});
