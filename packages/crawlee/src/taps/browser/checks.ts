/**
 * What both browser taps do with a checkpoint's answer: a navigation of the crawled page (a redirect
 * hop, a script or meta refresh), a sub-resource, and a request of a page the crawler did not open
 * (a popup, a `target=_blank` link) or of a worker. The decisions, and the crawl-delay wait of an
 * allowed hop, are the checkpoints'; here each answer becomes what the browser is told.
 */
import type { RobotsGuard } from '../../guard/guard.js';
import type { ContextInternals } from '../crawler-shape.js';
import type { PausedRequestAction } from './cdp-fetch.js';

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** At most this many hops are followed where Heed follows a chain itself (as Chromium stops at 20). */
export const MAX_HOPS = 20;

/** Requests whose `page.goto()` has returned: later navigations of their page are the page's own doing. */
export type Navigated = WeakSet<object>;

/**
 * A main-frame navigation of the crawled page to `url` (not its first request): an allowed one
 * goes on once its origin's crawl-delay slot is due; a refused one during `page.goto()` ends the
 * Crawlee request as a skip (`block`), afterwards the page stays where it is (`no-content`) and
 * the skip is reported.
 */
export async function decideNavigation(
  url: string,
  from: string,
  context: ContextInternals,
  guard: RobotsGuard,
  navigated: Navigated,
): Promise<PausedRequestAction> {
  const skip = await guard.checkpoints.redirectHop(url, from);
  if (skip === undefined) return 'continue';
  if (!navigated.has(context.request)) {
    // The first refusal ends the request as its skip. Another one before `page.goto()` is seen to
    // return (a script navigating again while Crawlee's hooks run, on a slow machine) is reported
    // on its own: a request ends as one skip, and every refused navigation is a skip to report.
    if (guard.notes.isBlocked(context.request)) await guard.skips.report(skip);
    else guard.notes.block(context.request, skip);
    return 'block';
  }
  await guard.skips.report(skip);
  return 'no-content';
}

/** A sub-resource (script, image, XHR, frame, worker fetch, WebSocket): whether it may go; a refused one is reported (as `reportAs`). */
export async function allowSubresource(url: string, guard: RobotsGuard, referrer: string | undefined, reportAs = url): Promise<boolean> {
  const skip = await guard.checkpoints.subresource(url, referrer);
  if (skip === undefined) return true;
  await guard.skips.report({ ...skip, url: reportAs });
  return false;
}

/**
 * Whether a WebSocket to `url` (`ws:`/`wss:`) may connect: checked as a sub-resource of its
 * `http(s)` URL with `blockSubresources` (a refusal reported under the socket's own URL), else
 * allowed (a socket is then routed only to be signed).
 */
export async function allowWebSocket(url: string, guard: RobotsGuard, referrer: string | undefined): Promise<boolean> {
  return !guard.options.blockSubresources || (await allowSubresource(httpUrlOf(url), guard, referrer, url));
}

/**
 * The navigation of a page the crawler did not open (a popup, a `target=_blank` link), each hop
 * included: whether it may go (once its crawl-delay slot is due). It is no Crawlee request: a
 * refused one is reported and never requested, and the crawled page goes on.
 */
export async function allowOtherNavigation(url: string, guard: RobotsGuard, referrer: string | undefined): Promise<boolean> {
  const skip = await guard.checkpoints.otherPage(url, referrer);
  if (skip === undefined) return true;
  await guard.skips.report(skip);
  return false;
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
  void guard.clock?.confirmSent(url, Date.now());
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
