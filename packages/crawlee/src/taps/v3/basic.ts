/**
 * What every Crawlee 3 crawler gets, whatever its kind:
 * - the request queue (public methods, `request-queue.ts`): the enqueue and before-fetch doors,
 *   crawl-delay slots, and the end of the crawl waiting for sitemaps; the queue of a later run,
 *   and of `crawler.addRequests()`, is wrapped too;
 * - `_runRequestHandler` (protected): a request stopped mid-navigation ends as a skip, not a failure;
 *   the backstop: a request that reached the handler without the before-fetch door goes through the
 *   unchecked-request door here (see `handle-checked.ts` for the rest);
 * - the navigation hooks, after the user's: a `request.url` changed since the queue's check goes
 *   through the rewrite door; a navigation a browser hook stopped ends before any user hook sees it;
 *   a browser's page claims its send on the crawl clock last of all, a `BasicCrawler`'s (which
 *   fetches in its handler) when the handler starts;
 * - the user's request handler and `run` (`user-handler.ts`); AdaptivePlaywrightCrawler's, called
 *   by both its renderings, with its links' `nofollow` judged as they are collected, and a page
 *   stopped on purpose in its HTTP-only rendering not rendered again in the browser.
 */
import { uncheckedMessage } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import type { SitemapFeeder } from '../../sitemaps/feeder.js';
import { kindOf, pageOf, type ContextInternals, type PublicCrawler } from '../crawler-shape.js';
import { handleChecked } from '../handle-checked.js';
import { gotHops } from '../send-request.js';
import type { QueueHooks } from '../request-queue.js';
import { skipRequest } from '../skip-request.js';
import { payPerCrawl } from '../pay-per-crawl.js';
import { NavigationStopped, stopNavigation } from '../stop-navigation.js';
import { hookUserHandler, wrapRun } from '../user-handler.js';
import { navigationHooks, propagateStops, wrapRequestHandling } from './internals.js';
import { collectsLinks, wrapUserHandler } from '../shared-members.js';

export async function attachBasicHooks(
  crawler: PublicCrawler,
  guard: RobotsGuard,
  queue: QueueHooks,
  feeder: SitemapFeeder | undefined,
): Promise<void> {
  queue.wrap(await crawler.getRequestQueue());
  const collects = collectsLinks(crawler);
  hookNavigation(crawler, guard, queue, collects);
  hookRequestHandling(crawler, guard, queue);
  hookUserHandler((wrap) => wrapUserHandler(crawler, wrap), guard.log, guard, queue, collects);
  if (collects) propagateStops(crawler, (error) => error instanceof NavigationStopped);
  // A crawler run a second time may open a new default queue; wrap whichever it reads now.
  wrapRun(crawler, guard, queue, feeder, async () => queue.wrap(await crawler.getRequestQueue()));
  hookAddRequests(crawler, queue);
}

function hookNavigation(crawler: PublicCrawler, guard: RobotsGuard, queue: QueueHooks, collects: boolean): void {
  const hooks = navigationHooks(crawler);
  if (hooks === undefined) return;
  const { checkpoints, notes, clock } = guard;
  // AdaptivePlaywrightCrawler's browser rendering: the page and its answer, for the handler's context
  // of releases that hand it neither (3.13), whose robots meta tags and X-Robots-Tag would go unread.
  if (collects)
    hooks.post.push((context: ContextInternals) => {
      notes.of(context.request).rendered = { page: pageOf(context), response: context.response };
    });
  // A page answered 402 Payment Required: a skip with its price, before Crawlee reads the status (an
  // HTTP crawler fails a page whose body it cannot parse, and retries it). Unshifted before the hook
  // below, which then runs first: a navigation already stopped ends as that stop.
  hooks.post.unshift((context: ContextInternals) => {
    const skip = payPerCrawl(context.response, context.request, guard);
    if (skip !== undefined) stopNavigation(notes, context.request, skip);
  });
  // A navigation stopped by a hook that could not throw (a browser request handler aborting a
  // script navigation during page.goto()) ends here, before any user hook sees the page.
  hooks.post.unshift((context: ContextInternals) => {
    const blocked = notes.peek(context.request)?.blocked;
    if (blocked !== undefined) throw new NavigationStopped(blocked);
  });
  // After every user hook (the plugin's hooks are added once the crawler has its own): a hook that
  // set request.url sends the navigation (got's request, the browser's page.goto) to a URL the
  // queue never checked.
  hooks.pre.push((context: ContextInternals) => {
    const { request } = context;
    const checked = queue.checkedBeforeFetch.get(request);
    const checking = checked === undefined ? undefined : checkpoints.rewrite(checked, request.url);
    // The page leaves after the last pre-navigation hook, through the proxy Crawlee picked for it.
    if (checking === undefined) return checkpoints.pageLeaves(request, context['proxyInfo']);
    return checking.then((skip) => {
      if (skip !== undefined) stopNavigation(notes, request, skip);
      else checkpoints.pageLeaves(request, context['proxyInfo']);
    });
  });
  // A browser's page leaves with page.goto(), right after the last pre-navigation hook: its send is
  // claimed there (HTTP crawlers claim theirs in got's last hook, see `http.ts`).
  if (clock !== undefined && kindOf(crawler) === 'browser')
    hooks.pre.push((context: ContextInternals) => clock.beforeSend(context.request.url));
}

function hookRequestHandling(crawler: PublicCrawler, guard: RobotsGuard, queue: QueueHooks): void {
  const { checkpoints, clock } = guard;
  const basic = kindOf(crawler) === 'basic';
  let warnedBypass = false;
  const checkThenHandle = async (context: ContextInternals, next: (context: ContextInternals) => Promise<void>): Promise<void> => {
    const { request } = context;
    if (!queue.checkedBeforeFetch.has(request)) {
      if (!warnedBypass) {
        warnedBypass = true;
        guard.log.error(uncheckedMessage(request.url, 'before its fetch'));
      }
      // Wrap the queue the crawler reads now, so the next requests are checked where they should be.
      await crawler.getRequestQueue().then(
        (q) => queue.wrap(q),
        () => undefined,
      );
      const skip = await checkpoints.unchecked(request.url, request);
      if (skip !== undefined) return skipRequest(request, skip, guard.skips);
      queue.checkedBeforeFetch.set(request, request.url);
    }
    // BasicCrawler fetches in the handler: its crawl-delay counts from here, and its page leaves.
    if (basic) {
      await clock?.beforeSend(request.url);
      checkpoints.pageLeaves(request, context['proxyInfo']);
    }
    await handleChecked(context, guard, next, gotHops, forgetStatisticsJob);
  };
  // A request the queue checked, of a crawler that fetches before the handler (nearly every page):
  // handed on with `handleChecked`'s own promise, without another async function around it.
  wrapRequestHandling(crawler, (context, next) =>
    !basic && queue.checkedBeforeFetch.has(context.request)
      ? handleChecked(context, guard, next, gotHops, forgetStatisticsJob)
      : checkThenHandle(context, next),
  );
}

function hookAddRequests(crawler: PublicCrawler, queue: QueueHooks): void {
  // A second run() drops the default queue and opens a new one before adding its start URLs:
  // the new queue is wrapped before anything is added to it.
  const original = crawler.addRequests.bind(crawler);
  crawler.addRequests = async (requests: unknown, options?: unknown) => {
    queue.wrap(await crawler.getRequestQueue());
    return original(requests, options);
  };
}

/**
 * Takes a request Heed ended as a skip mid-handling (a refused redirect, a `402`) out of Crawlee 3's
 * statistics: its job started before the fetch, and ending without an error would count it as
 * succeeded ("8 succeeded" beside Heed's 7 allowed). Crawlee's own robots.txt skips happen before the
 * job starts and are counted nowhere; so are these now. (Crawlee 4 ends such a request as skipped.)
 */
function forgetStatisticsJob(context: ContextInternals): void {
  const { request } = context;
  const stats = (context['crawler'] as { stats?: { requestsInProgress?: unknown } } | undefined)?.stats;
  const jobs = stats?.requestsInProgress;
  const { id, uniqueKey } = request as { id?: string; uniqueKey?: string };
  // Crawlee's own key for the job: `request.id || request.uniqueKey`.
  if (jobs instanceof Map) jobs.delete(id || uniqueKey);
}
