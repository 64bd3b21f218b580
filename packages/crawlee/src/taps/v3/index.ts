/**
 * The Crawlee 3.13+ tap: Crawlee's own robots.txt check turned off; the request queue, the request
 * handling and `run` of every crawler (`basic.ts`); got's hooks of HTTP crawlers (`http.ts`), of
 * FileDownload's streamed downloads (`stream-download.ts`) and JSDOM's sub-resources (`../jsdom.ts`); the page guards of browser crawlers (`../browser/`); pages
 * under the bot's name; the answer's `Retry-After` and send time read before Crawlee handles it.
 */
import { noteAnswer } from '../../politeness/answer.js';
import { CrawlDelayScheduler } from '../../politeness/scheduler.js';
import type { RobotsGuard } from '../../guard/guard.js';
import { kindOf, type ContextInternals, type PublicCrawler } from '../crawler-shape.js';
import { browserPageGuards } from '../browser/page-guards.js';
import { identifyBrowserPages, identifyHttpPages, launchUserAgent } from '../identify.js';
import { attachJsdomHooks } from '../jsdom.js';
import type { MajorTap, Tap } from '../tap.js';
import { attachBasicHooks } from './basic.js';
import { attachHttpHooks } from './http.js';
import { attachStreamDownloads, streamsDownloads } from './stream-download.js';
import { missingMember, navigationHooks, turnOffCrawleeRobotsCheck, wrapRequestHandling } from './internals.js';
import { crawleeSkipNotifier, pendingRequestCount } from '../shared-members.js';

const attachV3: Tap = async ({ crawler, guard, queue, feeder }) => {
  turnOffCrawleeRobotsCheck(crawler);
  const kind = kindOf(crawler);
  if (kind === 'http' || kind === 'jsdom') {
    attachHttpHooks(crawler, guard);
    attachJsdomHooks(crawler, guard, (around) => wrapRequestHandling(crawler, around));
  }
  if (streamsDownloads(crawler) && !attachStreamDownloads(crawler, guard))
    crawler.log.warning(
      "RobotsPlugin: this FileDownload's HTTP client has no stream() to watch; the redirects of its streamed downloads are not checked.",
    );
  if (kind === 'browser') attachBrowserGuards(crawler, guard);
  await attachBasicHooks(crawler, guard, queue, feeder);
  // After the hook that claims a browser page's send: the browser's user-agent takes a round trip
  // to the browser, which belongs with the page's own sending (whose true start the browser's
  // interception reports), not between the claim and its start.
  if (guard.options.identifyPages) attachPageIdentity(crawler, guard.options.userAgent);
  attachAnswerReading(crawler, guard);
};

/** The page guards of a browser crawler around each `page.goto()` (see `../browser/page-guards.ts`). */
function attachBrowserGuards(crawler: PublicCrawler, guard: RobotsGuard): void {
  const hooks = navigationHooks(crawler);
  const steps = hooks && browserPageGuards(crawler, guard);
  if (!hooks || !steps) return;
  hooks.post.unshift(steps.afterGoto);
  hooks.pre.push(steps.beforeGoto);
}

/**
 * Sends `crawler`'s pages under `userAgent` (see `identify.ts`); after the hooks the crawler was
 * built with, so a user's hook that sets a user-agent is seen first.
 */
function attachPageIdentity(crawler: PublicCrawler, userAgent: string): void {
  const hooks = navigationHooks(crawler);
  if (hooks === undefined) return;
  const kind = kindOf(crawler);
  if (kind === 'http' || kind === 'jsdom') hooks.pre.push(identifyHttpPages(userAgent));
  else if (kind === 'browser' && launchUserAgent(crawler) === undefined) hooks.pre.push(identifyBrowserPages(userAgent));
}

/** The answer of each page, read first of the post-navigation hooks (`politeness/answer.ts`). */
function attachAnswerReading(crawler: PublicCrawler, guard: RobotsGuard): void {
  const { clock } = guard;
  const maxPauseMs = guard.options.maxCrawlDelaySecs * 1000;
  if (clock === undefined) return;
  navigationHooks(crawler)?.post.unshift((context: ContextInternals) => noteAnswer(clock, maxPauseMs, context.response, context.request));
}

export const crawleeV3: MajorTap = {
  major: 3,
  missingMember,
  refuses: () => undefined,
  requestQueue: (crawler) => crawler.getRequestQueue(),
  asyncScopes: false,
  crawlDelays: async (_crawler, maxDelaySecs) => new CrawlDelayScheduler(maxDelaySecs * 1000),
  skipNotifier: crawleeSkipNotifier,
  pendingCount: pendingRequestCount,
  attach: attachV3,
};
