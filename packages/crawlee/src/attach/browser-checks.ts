/**
 * The decisions both browser adapters share: a navigation of the crawled page (a redirect hop, a
 * script or meta refresh), a sub-resource, and a request of a page the crawler did not open (a
 * popup, a `target=_blank` link) or of a worker.
 */
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../report/skip-events.js';
import type { PausedRequestAction } from './cdp-fetch.js';
import type { ContextInternals } from './crawler-internals.js';

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** At most this many hops are followed where Heed follows a chain itself (as Chromium stops at 20). */
export const MAX_HOPS = 20;

/** Requests whose `page.goto()` has returned: later navigations of their page are the page's own doing. */
export type Navigated = WeakSet<object>;

/**
 * A main-frame navigation of the crawled page to `url` (not its first request): during
 * `page.goto()` a disallowed one ends the Crawlee request as a skip (`block`); afterwards the page
 * stays where it is (`no-content`) and the skip is reported. An allowed one waits for its origin's
 * crawl-delay: a hop is a request to that origin like any page (the first request had its slot
 * from the queue).
 */
export async function decideNavigation(
  url: string,
  from: string,
  context: ContextInternals,
  guard: RobotsGuard,
  navigated: Navigated,
): Promise<PausedRequestAction> {
  if (!guard.options.checkRedirects) return continueAfterCrawlDelay(url, guard);
  const verdict = await guard.verdict(url, 'redirect');
  if (verdict.allowed) return continueAfterCrawlDelay(url, guard);
  const skip = skipFromVerdict(verdict, 'redirect', from);
  if (!navigated.has(context.request)) {
    guard.block(context.request, skip);
    return 'block';
  }
  await guard.skips.report(skip);
  return 'no-content';
}

/** A sub-resource (script, image, XHR, frame, worker fetch, WebSocket): checked with `blockSubresources`. */
export async function allowSubresource(url: string, guard: RobotsGuard, referrer: string | undefined, reportAs = url): Promise<boolean> {
  if (!guard.options.blockSubresources || !/^https?:/i.test(url)) return true;
  const verdict = await guard.verdict(url, 'subresource');
  if (verdict.allowed) return true;
  await guard.skips.report({ ...skipFromVerdict(verdict, 'subresource', referrer), url: reportAs });
  return false;
}

/**
 * The navigation of a page the crawler did not open (a popup, a `target=_blank` link), each hop
 * included: checked with `checkRedirects`, like a script navigation of the crawled page, and held
 * for its origin's crawl-delay. It is no Crawlee request: a disallowed one is reported and never
 * requested, and the crawled page goes on.
 */
export async function allowOtherNavigation(url: string, guard: RobotsGuard, referrer: string | undefined): Promise<boolean> {
  if (!/^https?:/i.test(url)) return true;
  if (guard.options.checkRedirects) {
    const verdict = await guard.verdict(url, 'redirect');
    if (!verdict.allowed) {
      await guard.skips.report(skipFromVerdict(verdict, 'redirect', referrer));
      return false;
    }
  }
  await continueAfterCrawlDelay(url, guard);
  return true;
}

/** Resolves to `continue` once `url`'s origin is due (its crawl-delay since the last request to it). */
async function continueAfterCrawlDelay(url: string, guard: RobotsGuard): Promise<'continue'> {
  await guard.awaitCrawlDelay(url);
  return 'continue';
}

/**
 * A request to `url` went out by now, later than its crawl-delay claim: a request the browser has
 * taken from its interception (the crawled page's first request, whose pre-navigation hook claimed
 * its slot a second or more earlier on a browser still starting; a hop or a popup let go after its
 * delay, a round trip to the browser before it leaves), or a hop Heed fetched itself once its
 * answer is in. Later requests of its origin count their delay from here.
 */
export function noteRequestSent(url: string, guard: RobotsGuard): void {
  // Also for every process sharing the store (never rejects; not awaited: the request is leaving).
  void guard.confirmSent(url, Date.now());
}

/** The http(s) URL whose robots.txt governs a WebSocket URL (RFC 6455: ws is http's, wss https's). */
export function httpUrlOf(url: string): string {
  return url.replace(/^ws(s?):/i, 'http$1:');
}

export function isMainFrameNavigation(
  request: { isNavigationRequest(): boolean; frame(): unknown },
  page: { mainFrame(): unknown },
): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    // Service-worker requests have no frame.
    return false;
  }
}

export function resolve(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}
