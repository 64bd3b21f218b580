/**
 * Hooks every Crawlee crawler gets (they live in `BasicCrawler`):
 * - `getRobotsTxtFileForUrl`: the one method Crawlee's three built-in robots checks go through
 *   (`addRequests`, `enqueueLinks` and the check right before a request is handled). It answers with
 *   the manager's verdict, so Crawlee's own skip path (request marked SKIPPED, `onSkippedRequest`
 *   called with `robotsTxt`, nothing counted as failed) runs for Heed's decisions.
 * - `addRequests` (start URLs, `crawler.addRequests`, `context.addRequests`) and
 *   `enqueueLinksWithCrawlDepth` (every crawler's `context.enqueueLinks`): batches are filtered with
 *   their origins fetched in parallel, links of other origins checked against their own robots.txt,
 *   and `nofollow` pages' links kept out.
 * - `_runRequestHandler`: a request stopped mid-navigation (disallowed redirect) ends as a skip, not
 *   as a failure; page directives are read before the user's handler runs.
 * - `delayRequest`: crawl-delay per origin, by putting a request back into the queue.
 * - `_defaultIsFinishedFunction`: the crawl does not end while sitemaps are still being enqueued.
 * - `run`: one summary line at the end.
 */
import { RequestState } from '@crawlee/core';
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../skips.js';
import { readPageInfo } from './page-info.js';
import type { ContextInternals, CrawlerInternals, Handler, RequestInternals, RequestSourceInternals } from './crawler-internals.js';

export function attachBasicHooks(crawler: CrawlerInternals, guard: RobotsGuard): void {
  hookRobotsCheck(crawler, guard);
  hookAddRequests(crawler, guard);
  hookEnqueueLinks(crawler, guard);
  hookRequestHandling(crawler, guard);
  if (guard.crawlDelays) hookCrawlDelay(crawler, guard);
  if (guard.feeder) hookFinish(crawler, guard);
  hookRun(crawler, guard);
}

function hookRobotsCheck(crawler: CrawlerInternals, guard: RobotsGuard): void {
  if (crawler.respectRobotsTxtFile) {
    crawler.log.info('RobotsPlugin: replacing the crawler\'s respectRobotsTxtFile checks with Heed\'s.');
  }
  // Turns Crawlee's checks on; the user-agent is informative only: our adapter decides.
  crawler.respectRobotsTxtFile = { userAgent: guard.options.productToken };
  crawler.getRobotsTxtFileForUrl = async (url: string) => {
    const verdict = await guard.verdict(url);
    return {
      // Crawlee calls this with `url` itself (before a request is handled, in addRequests) or with
      // the page's links (enqueueLinks). Links are checked, against their own origins, by the
      // enqueue filter that runs right after; here only the URL we have a verdict for is decided.
      isAllowed(candidate: string): boolean {
        if (candidate !== url || verdict.allowed) return true;
        void guard.reporter.report(skipFromVerdict(verdict, 'before-fetch'), true);
        return false;
      },
      getSitemaps: () => [] as string[],
    };
  };
}

function hookAddRequests(crawler: CrawlerInternals, guard: RobotsGuard): void {
  const original = crawler.addRequests.bind(crawler);
  crawler.addRequests = (requests: unknown, options?: unknown) => {
    if (!isIterableLike(requests)) return original(requests, options);
    return original(guard.filter(requests, { stage: 'enqueue' }), options);
  };
}

function hookEnqueueLinks(crawler: CrawlerInternals, guard: RobotsGuard): void {
  const original = crawler.enqueueLinksWithCrawlDepth.bind(crawler);
  crawler.enqueueLinksWithCrawlDepth = (options, request, requestQueue) => {
    const queue = (options['requestQueue'] ?? requestQueue) as { addRequestsBatched: (r: unknown, o?: unknown) => Promise<unknown> };
    const userOnSkipped = options['onSkippedRequest'] as ((o: { url: string; reason: string }) => unknown) | undefined;
    const referrer = request.loadedUrl ?? request.url;
    const page = guard.pages.get(request);
    const filtering = new Proxy(queue, {
      get(target, property) {
        if (property === 'addRequestsBatched') {
          return (requests: unknown, batchOptions?: unknown) =>
            target.addRequestsBatched(
              isIterableLike(requests)
                ? guard.filter(requests, {
                    stage: 'enqueue',
                    referrer,
                    ...(page ? { page } : {}),
                    ...(userOnSkipped ? { alsoNotify: async (url: string) => void (await userOnSkipped({ url, reason: 'robotsTxt' })) } : {}),
                  })
                : requests,
              batchOptions,
            );
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return original({ ...options, requestQueue: filtering }, request, requestQueue);
  };
}

function hookRequestHandling(crawler: CrawlerInternals, guard: RobotsGuard): void {
  // A navigation stopped by a hook that could not throw (a browser request handler aborting a
  // script navigation during page.goto()) ends here, before any user hook sees the page.
  crawler.postNavigationHooks?.unshift((context: ContextInternals) => {
    if (guard.blocked.has(context.request)) throw new NavigationBlockedError(context.request.url);
  });
  const original = crawler._runRequestHandler.bind(crawler);
  crawler._runRequestHandler = async (context: ContextInternals) => {
    guard.stats.allowed++;
    try {
      await original(context);
      // The page loaded, then tried to navigate somewhere disallowed (a script or meta refresh):
      // that navigation was stopped; report it, the page itself was handled.
      const later = guard.blocked.get(context.request);
      if (later) {
        guard.blocked.delete(context.request);
        await guard.reporter.report(later);
      }
    } catch (error) {
      const blocked = guard.blocked.get(context.request);
      if (!blocked) throw error;
      // Stopped on purpose (a disallowed redirect): end the request the way Crawlee ends its own
      // skips, so it is neither retried nor counted as failed.
      guard.blocked.delete(context.request);
      guard.stats.allowed--;
      context.request.noRetry = true;
      context.request.state = RequestState.SKIPPED;
      await guard.reporter.report(blocked);
    } finally {
      guard.pages.delete(context.request);
    }
  };

  if (!guard.options.metaRobots && !guard.options.honourRelNofollow) return;
  // Page directives are read right before the user's handler, where the body (HTTP crawlers) or
  // the live page (browser crawlers) is at hand.
  const key = typeof crawler.userProvidedRequestHandler === 'function' ? 'userProvidedRequestHandler' : 'requestHandler';
  const handler = crawler[key];
  if (typeof handler !== 'function') return;
  const wrapped: Handler = async (context: ContextInternals) => {
    try {
      const info = await readPageInfo(context, guard.options);
      guard.pages.set(context.request, info);
      context['robotsDirectives'] = info.directives;
    } catch (error) {
      // Reading directives is best effort: a page that cannot be read is handled as without them.
      crawler.log.debug(`RobotsPlugin: could not read the robots directives of ${context.request.url}: ${String(error)}`);
    }
    return handler(context);
  };
  // Router-aware features (userData schemas) read `getSchema` off the handler.
  if (handler.getSchema !== undefined) wrapped.getSchema = handler.getSchema;
  crawler[key] = wrapped;
}

/** Stops a navigation robots.txt disallowed (its reason is in `guard.blocked`). Never reaches the user. */
class NavigationBlockedError extends Error {
  override readonly name = 'NavigationBlockedError';
  constructor(url: string) {
    super(`Navigation of ${url} stopped: it led to a URL robots.txt disallows.`);
  }
}

function hookCrawlDelay(crawler: CrawlerInternals, guard: RobotsGuard): void {
  const scheduler = guard.crawlDelays!;
  const original = crawler.delayRequest.bind(crawler);
  crawler.delayRequest = (request: RequestInternals, source: RequestSourceInternals) => {
    if (original(request, source)) return true;
    if (!request) return false;
    const origin = originOf(request.url);
    if (!origin) return false;
    const wait = scheduler.acquire(origin, request.id ?? request.uniqueKey, Date.now());
    if (wait <= 0) return false;
    guard.stats.crawlDelayDeferrals++;
    // The same dance as Crawlee's own sameDomainDelaySecs: free the slot, reclaim after the wait.
    source.inProgress?.delete(request.id ?? '');
    setTimeout(() => {
      source.inProgress?.add(request.id ?? '');
      source.reclaimRequest(request, { forefront: request.userData?.__crawlee?.forefront ?? false }).catch((error: unknown) => {
        crawler.log.warning(`RobotsPlugin: could not put ${request.url} back after its crawl-delay: ${String(error)}`);
      });
    }, wait);
    return true;
  };
}

function hookFinish(crawler: CrawlerInternals, guard: RobotsGuard): void {
  const feeder = guard.feeder!;
  const original = crawler._defaultIsFinishedFunction.bind(crawler);
  crawler._defaultIsFinishedFunction = async () => (await original()) && feeder.idle();
}

function hookRun(crawler: CrawlerInternals, guard: RobotsGuard): void {
  const original = crawler.run.bind(crawler);
  crawler.run = async (requests?: unknown, options?: unknown) => {
    try {
      return await original(requests, options);
    } finally {
      // Ended with sitemaps still being read (maxRequestsPerCrawl, stop()): nothing will crawl them.
      guard.feeder?.stopRunning();
      if (guard.options.logSummary) crawler.log.info(guard.stats.summary());
    }
  };
}

function isIterableLike(value: unknown): value is Iterable<string | { url?: unknown }> | AsyncIterable<string | { url?: unknown }> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  );
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
