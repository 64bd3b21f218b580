/**
 * The Crawlee 4 tap (see `internals.ts` for the members used):
 * - Crawlee's own robots.txt check turned off;
 * - the request manager, through the same queue wrappers as 3.x (`../request-queue.ts`): the enqueue
 *   and before-fetch doors (a disallowed request ends as SKIPPED through Crawlee's skip path),
 *   crawl-delay, and the end of the crawl waiting for sitemaps;
 * - the HTTP client of HTTP crawlers (`navigation.ts`): redirect hops and a URL a `preNavigationHook`
 *   rewrote pass their doors before they are requested; pages go out under the bot's name; the
 *   crawl clock is claimed at send and paused for a `Retry-After`;
 * - the navigation of browser crawlers (`browser.ts`): the page guards of 3.x (redirects, script
 *   navigations, popups, sub-resources), the page's user-agent, `Retry-After`;
 * - JSDOM's sub-resources (`blockSubresources`, `../jsdom.ts`): judged in a scope around the step
 *   that builds each page;
 * - `context.sendRequest()` of every kind: each request its HTTP client sends (`client-fetch.ts`);
 * - the user's request handler (`../user-handler.ts`, `../handle-checked.ts`), and `run`: the manager
 *   is claimed again for each run; one summary line at the end.
 */
import { uncheckedMessage } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import { kindOf, type ContextInternals, type PublicCrawler } from '../crawler-shape.js';
import { handleChecked } from '../handle-checked.js';
import { attachJsdomHooksV4 } from '../jsdom.js';
import type { QueueHooks } from '../request-queue.js';
import { skipRequest } from '../skip-request.js';
import type { MajorTap, Tap } from '../tap.js';
import { hookUserHandler, wrapRun } from '../user-handler.js';
import { pendingRequestCount, wrapUserHandler } from '../shared-members.js';
import { CrawlDelayScheduler } from '../../politeness/scheduler.js';
import { ThrottledCrawlDelays } from '../../politeness/throttled-scheduler.js';
import { attachBrowserNavigationV4 } from './browser.js';
import { clientFetchHops, watchClientFetches } from './client-fetch.js';
import {
  domainThrottling,
  crawleeSkipNotifierV4,
  httpClientOf,
  installView,
  missingMemberV4,
  queueView,
  turnOffCrawleeRobotsCheckV4,
  type CrawlerV4,
  type RequestManagerV4,
} from './internals.js';
import { attachNavigationChecks } from './navigation.js';

const attachV4: Tap = async ({ crawler: target, guard, queue, feeder }) => {
  turnOffCrawleeRobotsCheckV4(target);
  const { options } = guard;
  const crawler = target as unknown as CrawlerV4;
  const claim = (manager: RequestManagerV4) => claimManager(queue, manager);
  const manager = await crawler.getRequestManager();
  claim(manager);
  // Crawlee 4 tells a ThrottlingRequestManager of each 429 itself.
  const crawleePaces429 = domainThrottling(manager) !== undefined;
  const jsdom = attachJsdomHooksV4(crawler, guard);
  if (!jsdom && options.blockSubresources && kindOf(crawler) === 'jsdom')
    guard.log.warning(
      "RobotsPlugin: this JSDOMCrawler's jsdom could not be found beside @crawlee/jsdom; its sub-resources (blockSubresources) are not checked.",
    );
  await attachNavigationChecks(crawler, guard, queue.checkedBeforeFetch, {
    userAgent: options.identifyPages ? options.userAgent : undefined,
    crawleePaces429,
  });
  attachBrowserNavigationV4(target, guard, queue.checkedBeforeFetch, crawleePaces429);
  // Every kind's `context.sendRequest()` goes through the crawler's HTTP client.
  if (options.checkSendRequest) await watchClientFetches(httpClientOf(target));
  hookUserHandler((wrap) => wrapUserHandler(target, wrap), guard.log, guard, queue);
  hookRequestHandling(target, guard, queue);
  wrapRun(crawler, guard, queue, feeder, async () => claim(await crawler.getRequestManager()));
};

/** Claims the manager for `queue`'s plugin and makes its methods go through the queue wrappers. */
function claimManager(queue: QueueHooks, manager: RequestManagerV4): void {
  queue.wrap(queueView(manager));
  installView(manager);
}

/**
 * Around the user's handler, outside the page reading of `hookUserHandler`: the handling of a
 * checked request (`../handle-checked.ts`); a request that reached the handler without passing the
 * request manager's check (a crawler that reads from elsewhere) goes through the unchecked-request
 * door here, after its fetch (4.x fetches in a private step), and is not handed on when refused.
 */
function hookRequestHandling(crawler: PublicCrawler, guard: RobotsGuard, queue: QueueHooks): void {
  let warnedBypass = false;
  wrapUserHandler(crawler, (handler) => async (context: ContextInternals) => {
    const { request } = context;
    if (!queue.checkedBeforeFetch.has(request)) {
      if (!warnedBypass) {
        warnedBypass = true;
        guard.log.error(uncheckedMessage(request.url, 'after its fetch'));
      }
      const skip = await guard.checkpoints.unchecked(request.url, request);
      if (skip !== undefined) return skipRequest(request, skip, guard.skips);
      queue.checkedBeforeFetch.set(request, request.url);
    }
    // BasicCrawler's page leaves from its handler (the other kinds' left with their navigation).
    guard.checkpoints.pageLeaves(request, context['proxyInfo']);
    await handleChecked(context, guard, handler, clientFetchHops);
  });
}

/**
 * Crawlee 4's AdaptivePlaywrightCrawler renders each page in a CheerioCrawler and a PlaywrightCrawler
 * it makes and keeps to itself (native private fields): no extension point reaches their navigation,
 * so redirects, rewrites and sub-resources would go unchecked. Refused rather than half guarded.
 */
const ADAPTIVE_REFUSED =
  "RobotsPlugin.attach() cannot guard Crawlee 4's AdaptivePlaywrightCrawler: it renders each page in inner crawlers of its " +
  'own that no extension point reaches, so redirects, rewritten URLs and page resources would go unchecked. Use ' +
  "PlaywrightCrawler or CheerioCrawler (or Crawlee 3.13+'s AdaptivePlaywrightCrawler, which Heed guards).";

export const crawleeV4: MajorTap = {
  major: 4,
  missingMember: missingMemberV4,
  refuses: (crawler) => (kindOf(crawler) === 'adaptive' ? ADAPTIVE_REFUSED : undefined),
  // The request manager, seen as a 3.x request queue.
  requestQueue: async (crawler) => queueView(await (crawler as unknown as CrawlerV4).getRequestManager()),
  asyncScopes: true,
  // With a `ThrottlingRequestManager` (its `requestManager` option, or `sameDomainDelaySecs`), the
  // manager paces each domain: delays go to it.
  crawlDelays: async (crawler, maxDelaySecs) => {
    const throttling = domainThrottling(await (crawler as unknown as CrawlerV4).getRequestManager());
    return throttling ? new ThrottledCrawlDelays(maxDelaySecs, throttling) : new CrawlDelayScheduler(maxDelaySecs * 1000);
  },
  skipNotifier: crawleeSkipNotifierV4,
  pendingCount: pendingRequestCount,
  attach: attachV4,
};
