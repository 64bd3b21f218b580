/**
 * Pages go out under the bot's name (`identifyPages`, on by default): the site records the
 * User-Agent of every request, and each crawler kind's page requests carry the plugin's
 * `userAgent`, not Crawlee's generated browser header; a `User-Agent` the user sets on a request
 * wins; with `identifyPages: false` pages go out as Crawlee sends them (a browser's name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin } from '@heed/crawlee';
import { CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS } from '../support/chromium.js';
import { has } from '../support/requirements.js';
import {
  crawleeCheerio,
  crawleeHttp,
  crawleeJsdom,
  crawleePlaywright,
  crawleePuppeteer,
  freshConfig,
  page,
  playwright,
  puppeteer,
  startSite,
  type Site,
} from './site.js';

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
  origin.routes.set('/api-own', { headers: { 'content-type': 'application/json' }, body: '{}' });
});
afterAll(async () => {
  await site?.close();
});

type Options = Record<string, unknown>;
const browserOptions = { headless: true, maxConcurrency: 1 };
const kinds: Record<string, { make: (options: Options) => unknown; browser?: true }> = {
  HttpCrawler: { make: (options) => new crawleeHttp.HttpCrawler(options, freshConfig()) },
  CheerioCrawler: { make: (options) => new crawleeCheerio.CheerioCrawler(options, freshConfig()) },
  JSDOMCrawler: { make: (options) => new crawleeJsdom.JSDOMCrawler(options, freshConfig()) },
  PlaywrightCrawler: {
    browser: true,
    make: (options) =>
      new crawleePlaywright.PlaywrightCrawler(
        { ...options, ...browserOptions, launchContext: { launcher: playwright.chromium, launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS } },
        freshConfig(),
      ),
  },
  PuppeteerCrawler: {
    browser: true,
    make: (options) =>
      new crawleePuppeteer.PuppeteerCrawler(
        {
          ...options,
          ...browserOptions,
          launchContext: { launcher: puppeteer, launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } },
        },
        freshConfig(),
      ),
  },
};

/** The User-Agent the site saw for each page path (robots.txt aside). */
async function crawl(kind: string, pluginOptions: Options, requests: unknown[]): Promise<Map<string, string>> {
  const origin = site.origins[0]!;
  origin.hits.length = 0;
  const crawler = kinds[kind]!.make({ maxRequestRetries: 0, requestHandler: async () => {} }) as Parameters<typeof RobotsPlugin.attach>[0];
  const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false, logSummary: false, ...pluginOptions });
  try {
    await crawler.run(requests as never);
  } finally {
    await plugin.close();
  }
  return new Map(origin.hits.filter((h) => h.path === '/' || h.path === '/mine').map((h) => [h.path, h.userAgent]));
}

describe.each(Object.keys(kinds))('%s', (kind) => {
  const skip = kinds[kind]!.browser === true && !has('chromium', `test/crawlee/identify-pages.test.ts, ${kind}`);
  it.skipIf(skip)(
    "sends pages under the plugin's userAgent, and a request's own User-Agent as given",
    async () => {
      const origin = site.origins[0]!;
      const seen = await crawl(kind, {}, [origin.url('/'), { url: origin.url('/mine'), headers: { 'User-Agent': 'MyOwn/2.0' } }]);
      expect(seen.get('/')).toBe(UA);
      expect(seen.get('/mine')).toBe('MyOwn/2.0');
    },
    60_000,
  );

  // One browser kind is enough to show the option off: a browser crawl is slow.
  it.skipIf(skip || kind === 'PuppeteerCrawler')(
    "leaves pages to Crawlee's browser header with identifyPages: false",
    async () => {
      const seen = await crawl(kind, { identifyPages: false }, [site.origins[0]!.url('/')]);
      expect(seen.get('/')).toMatch(BROWSER);
    },
    60_000,
  );
});

describe('context.sendRequest()', () => {
  async function apiAgents(identifyPages: boolean): Promise<Map<string, string>> {
    const origin = site.origins[0]!;
    origin.hits.length = 0;
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        maxRequestRetries: 0,
        requestHandler: async (ctx) => {
          await ctx.sendRequest({ url: origin.url('/api') });
          await ctx.sendRequest({ url: origin.url('/api-own'), headers: { 'user-agent': 'MyOwn/2.0' } });
        },
      },
      freshConfig(),
    );
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
