/**
 * Every hop counts for the crawl-delay, whatever `checkRedirects` says: `checkRedirects: false`
 * turns off the robots.txt check of redirect hops, never the wait for their origin's delay. One
 * site with `Crawl-delay: 0.5`, a page that redirects twice within the origin; a real CheerioCrawler,
 * PlaywrightCrawler and PuppeteerCrawler with the check on and off: the site must see its requests
 * (page, hops) at least the delay apart, as it recorded them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { has } from '../support/requirements.js';
import { browserCrawler, cheerioCrawler } from './crawlers.js';
import { page, redirect, startSite, text, type Site } from './site.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const DELAY_MS = 500;
/** Timers may fire a little early and the site's clock is read after the request is parsed. */
const SLACK_MS = 60;

type Kind = 'cheerio' | 'playwright' | 'puppeteer';

let site: Site;
/** The longest hold of the event loop the crawls share, which a late stamp shortens a gap by (event-loop-holds.ts). */
let loop: ReturnType<typeof watchEventLoop>;

beforeAll(async () => {
  site = await startSite(6);
  loop = watchEventLoop();
});
afterAll(async () => {
  loop?.stop();
  await site?.close();
});

function crawlerOf(kind: Kind, handled: string[]) {
  const requestHandler = async ({ request }: { request: { loadedUrl?: string; url: string } }) =>
    void handled.push(request.loadedUrl ?? request.url);
  const common = { maxRequestRetries: 0, requestHandler } as const;
  return kind === 'cheerio' ? cheerioCrawler(common) : browserCrawler(kind, common);
}

const cases: { kind: Kind; checkRedirects: boolean }[] = [];
for (const kind of ['cheerio', 'playwright', 'puppeteer'] as const)
  for (const checkRedirects of [true, false]) cases.push({ kind, checkRedirects });

// Each case on its own origin with its own manager: they run side by side.
describe.concurrent("a redirect hop waits for its origin's crawl-delay", () => {
  cases.forEach(({ kind, checkRedirects }, index) => {
    const browser = kind !== 'cheerio';
    it.skipIf(browser && !has('chromium', `test/crawlee/hop-delay.test.ts, ${kind}`))(
      `${kind}, checkRedirects: ${checkRedirects}`,
      async () => {
        const origin = site.origins[index]!;
        origin.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`));
        origin.routes.set('/start', redirect('/hop'));
        origin.routes.set('/hop', redirect('/end'));
        origin.routes.set('/end', page('end', []));
        const handled: string[] = [];
        const crawler = crawlerOf(kind, handled);
        const manager = new RobotsManager({ userAgent: UA });
        try {
          await RobotsPlugin.attach(crawler, { userAgent: UA, manager, checkRedirects, sitemaps: false, logSummary: false });
          await crawler.run([origin.url('/start')]);
        } finally {
          await manager.close();
        }
        expect(handled).toEqual([origin.url('/end')]);
        const pages = origin.hits.filter((hit) => hit.path !== '/robots.txt' && hit.path !== '/favicon.ico');
        expect(pages.map((hit) => hit.path)).toEqual(['/start', '/hop', '/end']);
        const slack = SLACK_MS + loop.longestMs();
        for (let i = 1; i < pages.length; i++) expect(pages[i]!.at - pages[i - 1]!.at).toBeGreaterThanOrEqual(DELAY_MS - slack);
      },
      60_000,
    );
  });
});
