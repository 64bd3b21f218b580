/**
 * Browser crawlers (PlaywrightCrawler, PuppeteerCrawler): from a `preNavigationHook`, before
 * `page.goto()`, every request the browser may make on the crawl's behalf is put behind a check:
 * the crawled page's own requests and each redirect hop, and the requests of pages and workers
 * the crawled page starts (popups, `target=_blank` links, service workers, WebSockets where the
 * browser lets them be routed). `browser-playwright.ts` and `browser-puppeteer.ts` say how.
 *
 * - Navigations of the crawled page's main frame other than its first request (a redirect hop, a
 *   script or meta refresh): a disallowed one during `page.goto()` ends the request as a skip;
 *   afterwards it is answered `204 No Content`, so the browser stays on the page being handled.
 * - Navigations of pages the crawler did not open (popups): checked with `checkRedirects`, reported
 *   at stage `redirect`; the crawled page goes on.
 * - Sub-resources (`blockSubresources`), of any page or worker: requests robots.txt disallows are
 *   refused.
 * - Pages the crawler did not open go out under the bot's name with `identifyPages`, unless the
 *   crawler was launched with a user-agent of its own (`identify.ts` does the crawled pages).
 */
import type { RobotsGuard } from '../../guard/guard.js';
import { pageOf, type ContextInternals, type PublicCrawler } from '../crawler-shape.js';
import { launchUserAgent } from '../identify.js';
import { PlaywrightGuards, type PlaywrightPage } from './playwright.js';
import { PuppeteerGuards, type PuppeteerPage } from './puppeteer.js';

/** What guards a browser crawler's pages, around each `page.goto()` (shared by the 3.x and 4.x taps). */
export interface BrowserPageGuards {
  /** Right before `page.goto()`: the page's requests go behind the checks. */
  readonly beforeGoto: (context: ContextInternals) => Promise<void>;
  /** Right after `page.goto()`: later navigations are the page's own doing. */
  readonly afterGoto: (context: ContextInternals) => void;
}

/**
 * The page guards of `crawler`; `undefined` when they have nothing to do: neither `checkRedirects`
 * nor `blockSubresources` is on, and no crawl clock holds a hop back.
 */
export function browserPageGuards(crawler: PublicCrawler, guard: RobotsGuard): BrowserPageGuards | undefined {
  const { checkRedirects, blockSubresources } = guard.options;
  if (!checkRedirects && !blockSubresources && guard.clock === undefined) return undefined;
  // Requests whose page.goto() has returned: later navigations are the page's own doing.
  const navigated = new WeakSet<object>();
  const { identifyPages, userAgent } = guard.options;
  const otherPagesAgent = identifyPages && launchUserAgent(crawler) === undefined ? userAgent : undefined;
  const playwright = new PlaywrightGuards(guard, navigated, otherPagesAgent);
  const puppeteer = new PuppeteerGuards(guard, navigated, (message) => guard.log.warning(message), otherPagesAgent);
  return {
    afterGoto: (context) => {
      navigated.add(context.request);
    },
    beforeGoto: async (context) => {
      const page = pageOf(context) as Partial<PlaywrightPage & PuppeteerPage> | undefined;
      if (!page) return;
      if (typeof page.route === 'function') await playwright.guardCrawledPage(page as PlaywrightPage, context);
      else if (typeof page.setRequestInterception === 'function') await puppeteer.guardCrawledPage(page as PuppeteerPage, context);
    },
  };
}
