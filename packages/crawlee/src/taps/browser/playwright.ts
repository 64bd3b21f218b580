/**
 * PlaywrightCrawler. Every request a page of the crawler's browser context makes is checked before
 * it goes out:
 *
 * - The crawled page: `page.route()` sees its first requests; script and meta-refresh navigations
 *   of the main frame are checked there.
 * - Redirect hops: Playwright sends them on without showing them to any route (its network manager
 *   continues every request that has a redirect source), so on Chromium a DevTools session of the
 *   page pauses each hop (`cdp-fetch.ts`). Without DevTools (Firefox, WebKit) Heed follows the chain
 *   itself with `route.fetch({ maxRedirects: 0 })`, hop by hop, and fulfils the first request with
 *   the final response: nothing disallowed is requested, but the page's URL stays the first one.
 *   Sub-resources are followed that way there only with `blockSubresources` (else nothing of
 *   theirs is checked anyway).
 * - Popups and `target=_blank` pages, and service workers: one `context.route()` per browser
 *   context (a page route wins over it, so the crawled page is not judged twice). A popup's first
 *   navigation comes before Playwright has a page for it, so its chain is followed hop by hop as
 *   above; its later requests go on only once its own hop guard is in place. A service worker's
 *   fetch is followed hop by hop too: no DevTools session of Playwright reaches a worker. (A
 *   dedicated worker's requests are its page's: `page.route()` sees them.)
 * - Pages under the bot's name (`identifyPages`): a crawled page has its user-agent set
 *   (`identify.ts`); the requests of pages the crawler did not open (popups, `target=_blank` pages,
 *   their sub-resources) go on from the context route with the bot's `user-agent` header
 *   (`route.fallback({ headers })`, or the headers of `route.fetch()` where a chain is followed hop
 *   by hop): no extra round trip. Their redirect hops keep the header the browser sent first.
 * - WebSockets (`blockSubresources`): `page.routeWebSocket()` of each crawled page and
 *   `context.routeWebSocket()` for the pages it opens (Playwright 1.48+), which replace the
 *   `WebSocket` of pages and frames; a disallowed one is closed before it connects.
 *   Playwright cannot route the WebSockets of workers.
 */
import { sameUrl } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import { pauseRequests, targetIdOf, type CdpSession, type PausedRequest, type PausedRequestAction } from './cdp-fetch.js';
import {
  MAX_HOPS,
  REDIRECT_STATUSES,
  allowOtherNavigation,
  allowSubresource,
  decideNavigation,
  noteRequestSent,
  httpUrlOf,
  isMainFrameNavigation,
  resolve,
  type Navigated,
} from './checks.js';
import type { ContextInternals } from '../crawler-shape.js';

/** The parts of Playwright's `Route`, `Request`, `APIResponse`, `Page`, `BrowserContext` and `WebSocketRoute` used here. */
interface PlaywrightRequest {
  url(): string;
  headers(): Record<string, string>;
  isNavigationRequest(): boolean;
  frame(): { page(): PlaywrightPage };
}
interface PlaywrightResponse {
  status(): number;
  headers(): Record<string, string>;
}
interface PlaywrightRoute {
  request(): PlaywrightRequest;
  fetch(options?: { url?: string; maxRedirects?: number; headers?: Record<string, string> }): Promise<PlaywrightResponse>;
  fulfill(options: { response: PlaywrightResponse } | { status: number }): Promise<void>;
  abort(errorCode?: string): Promise<void>;
  fallback(options?: { headers?: Record<string, string> }): Promise<void>;
}
type RouteHandler = (route: PlaywrightRoute, request: PlaywrightRequest) => Promise<void>;
interface WebSocketRoute {
  url(): string;
  connectToServer(): unknown;
  close(options?: { code?: number; reason?: string }): Promise<void>;
}
interface PlaywrightContext {
  route(url: string, handler: RouteHandler): Promise<void>;
  routeWebSocket?(url: RegExp, handler: (ws: WebSocketRoute) => Promise<void>): Promise<void>;
  newCDPSession?(page: PlaywrightPage): Promise<CdpSession>;
}
export interface PlaywrightPage {
  route(url: string, handler: RouteHandler): Promise<void>;
  routeWebSocket?(url: RegExp, handler: (ws: WebSocketRoute) => Promise<void>): Promise<void>;
  mainFrame(): unknown;
  url(): string;
  context(): PlaywrightContext;
  opener(): Promise<PlaywrightPage | null>;
}

/** Decides a redirect hop of one page: the hop's URL, the URL that redirected, whether it is the page's main frame. */
type HopDecider = (url: string, from: string | undefined, mainFrame: boolean) => Promise<PausedRequestAction>;

/** The guards of one attached crawler, kept per browser context and per page. */
export class PlaywrightGuards {
  /** Pages the crawler opened: their own `page.route()` decides. */
  private readonly crawled = new WeakSet<object>();
  private readonly contexts = new WeakMap<object, Promise<void>>();
  /** Per page: whether its redirect hops are paused (a DevTools session), once known. */
  private readonly hopGuards = new WeakMap<object, Promise<boolean>>();

  /**
   * @param userAgent what the requests of pages the crawler did not open go out under; `undefined`
   *   leaves them to the browser.
   */
  constructor(
    private readonly guard: RobotsGuard,
    private readonly navigated: Navigated,
    private readonly userAgent?: string,
  ) {}

  /** Everything a crawled page needs before `page.goto()`. */
  async guardCrawledPage(page: PlaywrightPage, context: ContextInternals): Promise<void> {
    this.crawled.add(page);
    await this.guardContext(page.context());
    const { blockSubresources } = this.guard.options;
    const hopsPaused = await this.guardHops(
      page,
      async (url, from, mainFrame) => {
        if (mainFrame) return decideNavigation(url, from ?? context.request.url, context, this.guard, this.navigated);
        return (await allowSubresource(url, this.guard, context.request.url)) ? 'continue' : 'block';
      },
      (url) => sameUrl(url, context.request.url) && !this.navigated.has(context.request),
    );
    // The crawled page's own WebSocket route as well as its context's: a page the browser opened
    // before the context's route was installed (the pages a crawl opens together at its start)
    // does not always get the context's.
    if (blockSubresources && typeof page.routeWebSocket === 'function') {
      await page.routeWebSocket(/.*/, (ws) => this.decideWebSocket(ws, context.request.url));
    }
    await page.route('**/*', async (route, request) => {
      try {
        const url = request.url();
        if (isMainFrameNavigation(request, page)) {
          const first = sameUrl(url, context.request.url);
          if (first && !this.navigated.has(context.request)) noteRequestSent(url, this.guard);
          // The first request was checked before it was taken from the queue; any other main-frame
          // navigation (a script or meta refresh moving on) goes through the redirect checkpoint
          // here (checked with `checkRedirects`, held for its crawl-delay always).
          if (!first) {
            const from = context.request.loadedUrl ?? context.request.url;
            const decision = await decideNavigation(url, from, context, this.guard, this.navigated);
            if (decision !== 'continue') return await settle(route, decision);
          }
          if (hopsPaused) return await route.fallback();
          return await fetchHopByHop(
            route,
            url,
            (target, hopFrom) => decideNavigation(target, hopFrom, context, this.guard, this.navigated),
            this.guard,
          );
        }
        if (!blockSubresources) return await route.fallback();
        if (!(await allowSubresource(url, this.guard, context.request.url))) return await route.abort('blockedbyclient');
        if (hopsPaused) return await route.fallback();
        return await this.followSubresource(route, url);
      } catch {
        // The page closed or the route was already handled: nothing left to decide.
        await route.abort('failed').catch(() => {});
      }
    });
  }

  /** A sub-resource's request, its redirect chain followed hop by hop, each hop checked as a sub-resource. */
  private followSubresource(route: PlaywrightRoute, url: string, headers?: Record<string, string>): Promise<void> {
    return fetchHopByHop(
      route,
      url,
      async (target, from) => ((await allowSubresource(target, this.guard, from)) ? 'continue' : 'block'),
      this.guard,
      headers,
    );
  }

  /** A popup's navigation, its redirect chain followed hop by hop, each hop checked as a navigation. */
  private followOtherNavigation(route: PlaywrightRoute, url: string, headers?: Record<string, string>): Promise<void> {
    return fetchHopByHop(
      route,
      url,
      async (target, from) => ((await allowOtherNavigation(target, this.guard, from)) ? 'continue' : 'block'),
      this.guard,
      headers,
    );
  }

  /** The headers a request of a page the crawler did not open goes on with: its own, under `userAgent`. */
  private identified(request: PlaywrightRequest): Record<string, string> | undefined {
    if (this.userAgent === undefined) return undefined;
    const headers = Object.fromEntries(Object.entries(request.headers()).filter(([name]) => name.toLowerCase() !== 'user-agent'));
    return { ...headers, 'user-agent': this.userAgent };
  }

  /** One `context.route()` (and `routeWebSocket()`) per browser context, for what no page route sees. */
  private guardContext(browserContext: PlaywrightContext): Promise<void> {
    let done = this.contexts.get(browserContext);
    if (!done) {
      done = this.installContextRoutes(browserContext);
      this.contexts.set(browserContext, done);
    }
    return done;
  }

  private async installContextRoutes(browserContext: PlaywrightContext): Promise<void> {
    await browserContext.route('**/*', async (route, request) => {
      try {
        const url = request.url();
        const page = pageOf(request);
        if ((page && this.crawled.has(page)) || !/^https?:/i.test(url)) return await route.fallback();
        if (!page && request.isNavigationRequest()) {
          // A new page's first navigation (a popup): Playwright has no frame for it yet, so no
          // DevTools session either; its chain is followed hop by hop here.
          const referrer = request.headers()['referer'];
          if (!(await allowOtherNavigation(url, this.guard, referrer))) return await route.abort('blockedbyclient');
          const headers = this.identified(request);
          if (!this.guard.options.checkRedirects) return await route.fallback(headers && { headers });
          return await this.followOtherNavigation(route, url, headers);
        }
        if (!page) {
          // A service worker: its fetch is followed hop by hop, each hop checked.
          if (!(await allowSubresource(url, this.guard, undefined))) return await route.abort('blockedbyclient');
          if (!this.guard.options.blockSubresources) return await route.fallback();
          return await this.followSubresource(route, url);
        }
        // A page the crawler did not open: a popup, a target=_blank link.
        const hopsPaused = await this.guardHops(page, async (hop, from, mainFrame) => {
          const allowed = mainFrame
            ? await allowOtherNavigation(hop, this.guard, from)
            : await allowSubresource(hop, this.guard, page.url());
          return allowed ? 'continue' : 'block';
        });
        const headers = this.identified(request);
        if (isMainFrameNavigation(request, page)) {
          const opener = await page.opener().catch(() => null);
          if (!(await allowOtherNavigation(url, this.guard, opener?.url()))) return await route.abort('blockedbyclient');
          if (hopsPaused || !this.guard.options.checkRedirects) return await route.fallback(headers && { headers });
          return await this.followOtherNavigation(route, url, headers);
        }
        if (!(await allowSubresource(url, this.guard, page.url()))) return await route.abort('blockedbyclient');
        if (hopsPaused || !this.guard.options.blockSubresources) return await route.fallback(headers && { headers });
        return await this.followSubresource(route, url, headers);
      } catch {
        await route.abort('failed').catch(() => {});
      }
    });
    if (this.guard.options.blockSubresources && typeof browserContext.routeWebSocket === 'function') {
      await browserContext.routeWebSocket(/.*/, (ws) => this.decideWebSocket(ws, undefined));
    }
  }

  /** A WebSocket of a page or frame: connected once its http(s) URL passes the sub-resource checkpoint, else closed before it connects. */
  private async decideWebSocket(ws: WebSocketRoute, referrer: string | undefined): Promise<void> {
    const url = ws.url();
    if (await allowSubresource(httpUrlOf(url), this.guard, referrer, url)) ws.connectToServer();
    else await ws.close({ code: 1008, reason: 'robots.txt disallows this URL' });
  }

  /**
   * Pauses the redirect hops of `page` through a DevTools session (Chromium) and lets `decide`
   * settle each; other requests go on untouched (a route decides them). Resolves false where the
   * browser has no DevTools: the caller then follows chains itself.
   */
  private guardHops(page: PlaywrightPage, decide: HopDecider, isFirstRequest: (url: string) => boolean = () => false): Promise<boolean> {
    let done = this.hopGuards.get(page);
    if (!done) {
      done = pauseHops(page, this.guard.options.blockSubresources, decide, isFirstRequest, (url) => noteRequestSent(url, this.guard));
      this.hopGuards.set(page, done);
    }
    return done;
  }
}

/** The DevTools session Heed holds on a crawled page, so other steps (the page's user-agent) need no second one. */
const pageSessions = new WeakMap<object, CdpSession>();

/** The DevTools session Heed already holds on `page`, if any (Chromium, with `checkRedirects` or `blockSubresources`). */
export function heldSessionOf(page: object): CdpSession | undefined {
  return pageSessions.get(page);
}

async function pauseHops(
  page: PlaywrightPage,
  blockSubresources: boolean,
  decide: HopDecider,
  isFirstRequest: (url: string) => boolean,
  sent: (url: string) => void,
): Promise<boolean> {
  const browserContext = page.context();
  if (typeof browserContext.newCDPSession !== 'function') return false;
  let session: CdpSession;
  try {
    session = await browserContext.newCDPSession(page);
  } catch {
    // Not Chromium.
    return false;
  }
  pageSessions.set(page, session);
  const mainFrameId = await targetIdOf(session);
  // The URL of each document request, so a hop names the URL that redirected to it.
  const documents = new Map<string, string>();
  /**
   * Main-frame requests whose origin's clock moves to when the browser takes them here: hops
   * `decide` let go after their crawl-delay, and the crawled page's first request (its slot was
   * claimed before `page.goto()`; Playwright's own route may let it go before this session does).
   * Another navigation is its route's to note: noted here first, its route's claim would wait a
   * second delay.
   */
  const paced = new WeakSet<PausedRequest>();
  await pauseRequests(
    session,
    !blockSubresources,
    async (paused) => {
      const { url } = paused.request;
      const mainFrame = paused.resourceType === 'Document' && paused.frameId === mainFrameId;
      const from = paused.redirectedRequestId === undefined ? undefined : documents.get(paused.redirectedRequestId);
      if (paused.redirectedRequestId !== undefined) documents.delete(paused.redirectedRequestId);
      if (paused.resourceType === 'Document') documents.set(paused.requestId, url);
      if (paused.redirectedRequestId === undefined && mainFrame && isFirstRequest(url)) paced.add(paused);
      if (paused.redirectedRequestId === undefined || !/^https?:/i.test(url)) return 'continue';
      const decision = await decide(url, from, mainFrame);
      if (decision === 'continue' && mainFrame) paced.add(paused);
      return decision;
    },
    (paused) => {
      if (paced.has(paused)) sent(paused.request.url);
    },
  );
  return true;
}

/**
 * Fetches `url` for the browser one hop at a time, asks `decide` about each redirect target, and
 * fulfils the request with the final response; a target `decide` refuses is never requested.
 * `headers` replace the request's own on every hop.
 */
async function fetchHopByHop(
  route: PlaywrightRoute,
  url: string,
  decide: (target: string, from: string) => Promise<PausedRequestAction>,
  guard: RobotsGuard,
  headers?: Record<string, string>,
): Promise<void> {
  let current = url;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const response = await route.fetch({ url: current, maxRedirects: 0, ...(headers && { headers }) });
    noteRequestSent(current, guard);
    const location = response.headers()['location'];
    const target = REDIRECT_STATUSES.has(response.status()) && location ? resolve(location, current) : undefined;
    if (target === undefined) return route.fulfill({ response });
    const decision = await decide(target, current);
    if (decision !== 'continue') return settle(route, decision);
    current = target;
  }
  await route.abort('failed');
}

function settle(route: PlaywrightRoute, decision: Exclude<PausedRequestAction, 'continue'>): Promise<void> {
  return decision === 'no-content' ? route.fulfill({ status: 204 }) : route.abort('blockedbyclient');
}

/**
 * The page a request belongs to; `undefined` for a service worker's request, which has no frame,
 * and for a popup's first navigation, whose frame Playwright has not created yet.
 */
function pageOf(request: PlaywrightRequest): PlaywrightPage | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}
