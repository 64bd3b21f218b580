/**
 * Hooks every Crawlee crawler gets:
 * - the request queue (public methods, see `queue.ts`): the enqueue filter, the check before the
 *   fetch, crawl-delay, and the end of the crawl waiting for sitemaps;
 * - the user's request handler (see `crawler-internals.ts`): page directives are read right before
 *   it, and its `context.enqueueLinks` runs in a scope that tells the queue which page the links
 *   come from (referrer, `nofollow`, the call's own `onSkippedRequest`);
 * - `_runRequestHandler` (see `crawler-internals.ts`): a request stopped mid-navigation (a
 *   disallowed redirect or rewrite) ends as a skip, not as a failure; the backstop: a request that
 *   reached the handler without passing the queue's check before the fetch is checked here; and
 *   `context.sendRequest` is replaced by one that checks its URLs (see `send-request.ts`);
 * - the navigation hooks: after the user's, a `request.url` changed since the queue's check is
 *   checked again (see `outgoing.ts`);
 * - `run` (public): the queue of a later run is wrapped too; one summary line at the end.
 */
import { UsageReport } from '@heed/manager';
import { safeOrigin, type PageInfo, type RobotsGuard } from '../guard.js';
import type { Skips } from '../report/skips.js';
import type { SitemapFeeder } from '../sitemaps/feeder.js';
import { readPageInfo } from './page-info.js';
import {
  crawlerKind,
  navigationHooks,
  wrapRequestHandling,
  wrapUserHandler,
  type ContextInternals,
  type Handler,
  type PublicCrawler,
} from './crawler-internals.js';
import { checkRewrite } from './outgoing.js';
import type { EnqueueScope, QueueHooks } from './queue.js';
import { handleChecked } from './handle-checked.js';
import { skipRequest } from './skip-request.js';

export async function attachBasicHooks(
  crawler: PublicCrawler,
  guard: RobotsGuard,
  skips: Skips,
  queue: QueueHooks,
  feeder: SitemapFeeder | undefined,
): Promise<void> {
  queue.wrap(await crawler.getRequestQueue());
  hookRequestHandling(crawler, guard, skips, queue);
  hookUserHandler(crawler, guard, queue);
  hookRun(crawler, guard, queue, feeder);
  hookAddRequests(crawler, queue);
}

function hookRequestHandling(crawler: PublicCrawler, guard: RobotsGuard, skips: Skips, queue: QueueHooks): void {
  // A navigation stopped by a hook that could not throw (a browser request handler aborting a
  // script navigation during page.goto()) ends here, before any user hook sees the page.
  navigationHooks(crawler)?.post.unshift((context: ContextInternals) => {
    if (guard.isBlocked(context.request)) throw new NavigationBlockedError(context.request.url);
  });
  // After every user hook (the plugin's hooks are added once the crawler has its own): a hook that
  // set request.url sends the navigation (got's request, the browser's page.goto) to a URL the
  // queue never checked; it is checked here, and a disallowed one ends as a skip.
  navigationHooks(crawler)?.pre.push((context: ContextInternals) => {
    const checked = queue.checkedBeforeFetch.get(context.request);
    return checked === undefined ? undefined : checkRewrite(guard, context.request, checked, context.request.url);
  });
  // Crawl-delay counts from when a fetch really starts: got's last `beforeRequest` hook for HTTP
  // crawlers (see `politeness/attach.ts`), the last pre-navigation hook for browsers, else the
  // handler's start (BasicCrawler fetches in the handler).
  const kind = crawlerKind(crawler);
  const started = (context: ContextInternals) => guard.beforeSend(context.request.url);
  if (kind === 'browser') navigationHooks(crawler)?.pre.push(started);
  let warnedBypass = false;
  const checkThenHandle = async (context: ContextInternals, next: (context: ContextInternals) => Promise<void>): Promise<void> => {
    const { request } = context;
    if (!queue.checkedBeforeFetch.has(request)) {
      // The queue's check before the fetch was not reached (the crawler reads from a queue the
      // plugin has not wrapped, or a release fetches another way): check here, before navigation.
      if (!warnedBypass) {
        warnedBypass = true;
        crawler.log.error(
          `RobotsPlugin: ${request.url} reached the request handler without passing Heed's check in the request queue's ` +
            'fetchNextRequest(); it is checked here instead, before navigation (crawl-delay cannot be applied to such requests). Logged once.',
        );
      }
      // Wrap the queue the crawler reads now, so the next requests are checked where they should be.
      await crawler.getRequestQueue().then(
        (q) => queue.wrap(q),
        () => undefined,
      );
      const skip = await guard.skipFor(request.url, 'before-fetch');
      if (skip !== undefined) {
        await skipRequest(request, skip, skips);
        return;
      }
      queue.checkedBeforeFetch.set(request, request.url);
    }
    // BasicCrawler fetches in the handler: its crawl-delay counts from here.
    if (kind === 'basic') await started(context);
    await handleChecked(context, guard, skips, next);
  };
  // A request the queue checked, of a crawler that fetches before the handler (nearly every page):
  // handed on with `handleChecked`'s own promise, without another async function around it.
  wrapRequestHandling(crawler, (context, next) =>
    kind !== 'basic' && queue.checkedBeforeFetch.has(context.request)
      ? handleChecked(context, guard, skips, next)
      : checkThenHandle(context, next),
  );
}

/** Keeps a page whose response disallows a declared purpose from the handler (its skip is kept by `guard.block()`). Never reaches the user. */
class UsageDisallowedError extends Error {
  override readonly name = 'UsageDisallowedError';
  constructor(url: string) {
    super(`${url} is not handed to the request handler: its usage preferences disallow a declared purpose.`);
  }
}

/** Stops a navigation robots.txt disallowed (its skip is kept by `guard.block()`). Never reaches the user. */
class NavigationBlockedError extends Error {
  override readonly name = 'NavigationBlockedError';
  constructor(url: string) {
    super(`Navigation of ${url} stopped: it led to a URL robots.txt disallows.`);
  }
}

export function hookUserHandler(crawler: PublicCrawler, guard: RobotsGuard, queue: QueueHooks): void {
  const readsPages = guard.options.metaRobots || guard.options.honorRelNofollow || guard.readsUsage;
  const failed = (context: ContextInternals, error: unknown) => {
    crawler.log.debug(`RobotsPlugin: could not read the robots directives of ${context.request.url}: ${String(error)}`);
  };
  const note = (context: ContextInternals, info: PageInfo) => {
    guard.notePage(context.request, info);
    context['robotsDirectives'] = info.directives;
  };
  /** Reads what the page says (best effort: a page that cannot be read is handled as without it); a promise only when reading needs one. */
  const readPage = (context: ContextInternals): Promise<void> | undefined => {
    try {
      const read = readPageInfo(context, guard.options);
      if (read instanceof Promise) {
        return read.then((info) => note(context, info)).catch((error: unknown) => failed(context, error));
      }
      note(context, read);
    } catch (error) {
      failed(context, error);
    }
    return undefined;
  };
  /** Hands the page to the user's handler, its `enqueueLinks` judging the links as this page's. */
  const handOver = (handler: Handler, context: ContextInternals): Promise<unknown> => {
    const { request } = context;
    const enqueueLinks = context.enqueueLinks;
    if (typeof enqueueLinks === 'function') {
      context.enqueueLinks = (options?: Record<string, unknown>) => {
        const userOnSkipped = options?.['onSkippedRequest'] as ((o: { url: string; reason: string }) => unknown) | undefined;
        // Fields set one by one rather than spread in: this runs once a page, mostly unoptimised.
        const scope: { -readonly [K in keyof EnqueueScope]: EnqueueScope[K] } = { referrer: request.loadedUrl ?? request.url };
        const page = guard.pageOf(request);
        if (page) scope.page = page;
        if (userOnSkipped) scope.alsoNotify = async (url: string) => void (await userOnSkipped({ url, reason: 'robotsTxt' }));
        return queue.enqueueFrom(scope, options, enqueueLinks);
      };
    }
    // Always a promise, as from an async function: a handler that throws rejects.
    try {
      return Promise.resolve(handler(context));
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  };
  // A page read without waiting (a Cheerio page) and no usage check: handed on without an async
  // function around the user's handler, which a crawl would pay for on every page.
  wrapUserHandler(crawler, (handler) => (context: ContextInternals) => {
    const reading = readsPages ? readPage(context) : undefined;
    if (reading === undefined && !guard.readsUsage) return handOver(handler, context);
    return (async () => {
      await reading;
      if (guard.readsUsage) await checkPageUsage(context, guard);
      return handOver(handler, context);
    })();
  });
}

/**
 * The page's usage verdict (its URL's robots.txt and tdmrep.json, then its headers and meta tags),
 * kept for `robots.usage(context)`; a page that disallows a declared purpose is stopped here.
 */
async function checkPageUsage(context: ContextInternals, guard: RobotsGuard): Promise<void> {
  const { request } = context;
  const pageUrl = request.loadedUrl ?? request.url;
  const evidence = guard.pageOf(request)?.usageEvidence ?? [];
  const base = await guard.usageReport(pageUrl);
  const report = base === undefined ? (evidence.length > 0 ? new UsageReport(pageUrl, evidence) : undefined) : base.with(evidence);
  if (report !== undefined) guard.noteUsage(request, report);
  const skip = guard.skipOf(report, pageUrl, 'response', safeOrigin(pageUrl));
  if (skip === undefined) return;
  guard.block(request, skip);
  throw new UsageDisallowedError(pageUrl);
}

function hookRun(crawler: PublicCrawler, guard: RobotsGuard, queue: QueueHooks, feeder: SitemapFeeder | undefined): void {
  // A crawler run a second time may open a new default queue; wrap whichever it reads now.
  wrapRun(crawler, guard, queue, feeder, async () => queue.wrap(await crawler.getRequestQueue()));
}

/**
 * Wraps `crawler.run()` on either major: `beforeRun` takes hold of the queue the run reads, which is
 * busy while it runs; at the end, sitemaps still being read are stopped and the summary is logged.
 */
export function wrapRun(
  crawler: Pick<PublicCrawler, 'run' | 'log'>,
  guard: RobotsGuard,
  queue: QueueHooks,
  feeder: SitemapFeeder | undefined,
  beforeRun: () => Promise<void>,
): void {
  const original = crawler.run.bind(crawler);
  crawler.run = async (requests?: unknown, options?: unknown) => {
    await beforeRun();
    queue.busy = true;
    try {
      return await original(requests, options);
    } finally {
      // Done reading its queue: a crawler built later on the same queue may claim it.
      queue.busy = false;
      // Ended with sitemaps still being read (maxRequestsPerCrawl, stop()): nothing will crawl them.
      feeder?.stopRunning();
      if (guard.options.logSummary) crawler.log.info(guard.stats.summary());
    }
  };
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
