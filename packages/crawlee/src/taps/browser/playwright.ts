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
 * - The user's own routes (`user-routes.ts`): Playwright runs the newest route handler first, so
 *   one registered after Heed's on a crawled page or its context would decide alone. The `route()`
 *   of those instances is wrapped before Heed registers its own: each handler runs behind Heed's
 *   decision, which is made once per request (`decide`), whichever route asks first. A handler
 *   registered before Heed's gets the route once Heed has let it go. Either way its
 *   `route.fetch()`, which Playwright sends from Node where no DevTools session sees the hops,
 *   follows the chain hop by hop, each hop decided.
 * - Signed requests (`signature`): a page's DevTools session then pauses every request of the page,
 *   not only its documents, and lets each go with its Web Bot Auth signature for its own URL (in the
 *   same `Fetch.continueRequest`); a chain Heed follows itself signs each hop it fetches, and a
 *   request no session pauses (a popup's first navigation, a service worker's fetch, any request
 *   without DevTools) is followed that way. A WebSocket handshake, which no session pauses, is
 *   signed through the session's extra headers (`websocket-signing.ts`, Chromium 151+): a crawled
 *   page's, and a popup's (each page gets a WebSocket route of its own as it opens: the context's
 *   is not told which page a socket is of), and a dedicated or service worker's, through a session
 *   of the worker Heed attaches to it through the page's (`page-workers.ts`).
 * - WebSockets (`blockSubresources`, or `signature`): `page.routeWebSocket()` of each crawled page and
 *   `context.routeWebSocket()` for the pages it opens (Playwright 1.48+), which replace the
 *   `WebSocket` of pages and frames; a disallowed one is closed before it connects. Playwright
 *   cannot route a worker's: a dedicated worker's script (its response, paused by the page's
 *   session) and a service worker's (fetched by Heed through the context's route) are begun with
 *   Heed's socket script, which asks through a binding of the worker's session
 *   (`session-websockets.ts`).
 * - Closing a page (`closeOnceAnswered`): the browser's own requests for a page outlive it, so the
 *   page's requests are blocked and Heed's answers sent before it closes.
 */
import { sameUrl } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import {
  pauseRequests,
  targetIdOf,
  type CdpSession,
  type PausedRequest,
  type PausedRequestAction,
  type PausedRequests,
  type WorkerScripts,
} from './cdp-fetch.js';
import {
  allowOtherNavigation,
  allowSubresource,
  allowWebSocket,
  decideNavigation,
  noteRequestSent,
  isMainFrameNavigation,
  type Navigated,
} from './checks.js';
import { followChain, settle, type HopCheck } from './follow-chain.js';
import type { PlaywrightContext, PlaywrightPage, PlaywrightRequest, PlaywrightRoute, WebSocketRoute } from './playwright-shapes.js';
import { takeBack, wrapRouting, type Allowed, type Decided } from './user-routes.js';
import type { ContextInternals } from '../crawler-shape.js';
import { requestSigning } from '../sign-requests.js';
import { webSocketSigningFor, type WebSocketSigning } from './websocket-signing.js';
import { watchWorkers, type ParentSession } from './page-workers.js';
import { answerSockets, MAX_WORKER_SCRIPT_BYTES, prefixWorkerScript, type SocketSession } from './session-websockets.js';

export type { PlaywrightPage } from './playwright-shapes.js';

/** Decides a redirect hop of one page: the hop's URL, the URL that redirected, whether it is the page's main frame. */
type HopDecider = (url: string, from: string | undefined, mainFrame: boolean) => Promise<PausedRequestAction>;

const BLOCK: Decided = { action: 'block' };

/** The guards of one attached crawler, kept per browser context and per page. */
export class PlaywrightGuards {
  /** Pages the crawler opened, with their crawling context: their requests are decided as the crawl's. */
  private readonly crawled = new WeakMap<object, ContextInternals>();
  private readonly contexts = new WeakMap<object, Promise<void>>();
  /** Per page: whether its redirect hops are paused (a DevTools session), once known. */
  private readonly hopGuards = new WeakMap<object, Promise<boolean>>();
  /**
   * Per request: Heed's decision, made once. Heed's page and context routes and every user route
   * handler taken back ask for it; only the first asking decides (and reports a refusal).
   */
  private readonly decisions = new WeakMap<object, Promise<Decided>>();
  /** With `signature`: the handshakes of crawled pages' WebSockets, signed through their DevTools session. */
  private readonly webSocketSigning: WebSocketSigning | undefined;
  /** Worker scripts already warned of as refused (bounded: a crawl of many sites warns of the first ones). */
  private readonly refusedScripts = new Set<string>();

  /**
   * @param userAgent what the requests of pages the crawler did not open go out under; `undefined`
   *   leaves them to the browser.
   */
  constructor(
    private readonly guard: RobotsGuard,
    private readonly navigated: Navigated,
    private readonly userAgent?: string,
  ) {
    this.webSocketSigning = webSocketSigningFor(guard.options);
  }

  /** Everything a crawled page needs before `page.goto()`. */
  async guardCrawledPage(page: PlaywrightPage, context: ContextInternals): Promise<void> {
    this.crawled.set(page, context);
    await this.guardContext(page.context());
    await this.guardHops(
      page,
      async (url, from, mainFrame) => {
        if (mainFrame) return decideNavigation(url, from ?? context.request.url, context, this.guard, this.navigated);
        return (await allowSubresource(url, this.guard, context.request.url)) ? 'continue' : 'block';
      },
      (url) => sameUrl(url, context.request.url) && !this.navigated.has(context.request),
      this.workerGuard(() => context.request.url),
    );
    // The crawled page's own WebSocket route as well as its context's: a page the browser opened
    // before the context's route was installed (the pages a crawl opens together at its start)
    // does not always get the context's.
    if (this.routesWebSockets && typeof page.routeWebSocket === 'function') {
      await page.routeWebSocket(/.*/, (ws) => this.decideWebSocket(ws, context.request.url, page));
    }
    // Route handlers the user adds from now on run before Heed's: each is put behind Heed's decision.
    const route = wrapRouting(page, this.guard, (request) => this.decide(request));
    await route('**/*', (routed, request) => this.handle(routed, request));
  }

  /**
   * Heed's own route (of a crawled page, and of each browser context): a refused request is settled
   * here; an allowed one goes on to the routes registered before Heed's (taken back: their
   * `route.fetch()` follows hops Heed decides), or Heed follows its chain itself where no DevTools
   * session pauses its hops.
   */
  private async handle(route: PlaywrightRoute, request: PlaywrightRequest): Promise<void> {
    try {
      const decided = await this.decide(request);
      if (decided.action !== 'continue') return await settle(route, decided.action);
      const { headers } = decided;
      if (decided.follow)
        return await followChain(route, request.url(), decided.hop, this.guard, headers, request.headers(), decided.script);
      takeBack(route, request, decided, this.guard);
      return await route.fallback(headers && { headers });
    } catch {
      // The page closed or the route was already handled: nothing left to decide.
      await route.abort('failed').catch(() => {});
    }
  }

  /** Heed's decision on `request`, made once whichever route asks first. */
  private decide(request: PlaywrightRequest): Promise<Decided> {
    let decided = this.decisions.get(request);
    if (decided === undefined) {
      decided = this.decideOnce(request);
      this.decisions.set(request, decided);
    }
    return decided;
  }

  private async decideOnce(request: PlaywrightRequest): Promise<Decided> {
    const url = request.url();
    const page = pageOf(request);
    const context = page && this.crawled.get(page);
    if (page && context) return this.decideCrawled(request, url, page, context);
    if (!/^https?:/i.test(url)) return { action: 'continue', hop: this.asSubresource, follow: false };
    return this.decideOther(request, url, page);
  }

  /** A request of a page the crawler opened. */
  private async decideCrawled(request: PlaywrightRequest, url: string, page: PlaywrightPage, context: ContextInternals): Promise<Decided> {
    // Not yet known (a request before `guardCrawledPage()` is done): Heed follows its chain itself.
    const hopsPaused = await (this.hopGuards.get(page) ?? false);
    const signing = this.guard.options.signature !== undefined;
    if (isMainFrameNavigation(request, page)) {
      const navigate: HopCheck = (target, from) => decideNavigation(target, from, context, this.guard, this.navigated);
      const first = sameUrl(url, context.request.url);
      if (first && !this.navigated.has(context.request)) noteRequestSent(url, this.guard);
      // The first request was checked before it was taken from the queue; any other main-frame
      // navigation (a script or meta refresh moving on) goes through the redirect checkpoint here
      // (checked with `checkRedirects`, held for its crawl-delay always).
      if (!first) {
        const action = await navigate(url, context.request.loadedUrl ?? context.request.url);
        if (action !== 'continue') return { action };
      }
      return { action: 'continue', hop: navigate, follow: !hopsPaused };
    }
    // Without a session, a request to be signed is fetched by Heed, signing each hop.
    if (!this.guard.options.blockSubresources) return { action: 'continue', hop: this.asSubresource, follow: !hopsPaused && signing };
    if (!(await allowSubresource(url, this.guard, context.request.url))) return BLOCK;
    return { action: 'continue', hop: this.asSubresource, follow: !hopsPaused };
  }

  /** A request no crawled page made: a popup's, a `target=_blank` page's, a service worker's. */
  private async decideOther(request: PlaywrightRequest, url: string, page: PlaywrightPage | undefined): Promise<Decided> {
    const { checkRedirects, blockSubresources, signature } = this.guard.options;
    // A chain no DevTools session pauses is followed by Heed where its hops must be checked, or signed.
    const followNavigation = checkRedirects || signature !== undefined;
    const followSubresource = blockSubresources || signature !== undefined;
    const headers = this.identified(request);
    const navigation = (follow: boolean): Allowed => ({ action: 'continue', hop: this.asOtherNavigation, follow, headers });
    if (!page && request.isNavigationRequest()) {
      // A new page's first navigation (a popup): Playwright has no frame for it yet, so no
      // DevTools session either; its chain is followed hop by hop.
      if (!(await allowOtherNavigation(url, this.guard, request.headers()['referer']))) return BLOCK;
      return navigation(followNavigation);
    }
    if (!page) {
      // A service worker: its fetch is followed hop by hop, each hop checked. Its own script (the
      // browser's request for it) is begun with the socket script, which asks through the session
      // of the worker that a crawled page's session attaches to it.
      if (!(await allowSubresource(url, this.guard, undefined))) return BLOCK;
      const script = this.routesWebSockets && isServiceWorkerScript(request) ? this.workerScripts : undefined;
      return { action: 'continue', hop: this.asSubresource, follow: followSubresource, script };
    }
    // A page the crawler did not open: a popup, a target=_blank link.
    const hopsPaused = await this.guardOtherPage(page);
    if (isMainFrameNavigation(request, page)) {
      const opener = await page.opener().catch(() => null);
      if (!(await allowOtherNavigation(url, this.guard, opener?.url()))) return BLOCK;
      return navigation(!hopsPaused && followNavigation);
    }
    if (!(await allowSubresource(url, this.guard, page.url()))) return BLOCK;
    return { action: 'continue', hop: this.asSubresource, follow: !hopsPaused && followSubresource, headers };
  }

  /** The DevTools session of a page the crawler did not open: its hops checked as a popup's. */
  private guardOtherPage(page: PlaywrightPage): Promise<boolean> {
    return this.guardHops(
      page,
      async (hop, from, mainFrame) => {
        const allowed = mainFrame ? await allowOtherNavigation(hop, this.guard, from) : await allowSubresource(hop, this.guard, page.url());
        return allowed ? 'continue' : 'block';
      },
      undefined,
      this.workerGuard(() => page.url()),
    );
  }

  /**
   * What answers the WebSockets of a page's workers (their scripts start with the socket script):
   * checked as sub-resources of the page whose URL `referrer` gives (`blockSubresources`), signed
   * through the worker's session (`signature`); `undefined` when neither is on.
   */
  private workerGuard(referrer: () => string): ((worker: SocketSession) => void) | undefined {
    if (!this.routesWebSockets) return undefined;
    const signing = this.webSocketSigning;
    const allow = (url: string) => allowWebSocket(url, this.guard, referrer());
    return (worker) => answerSockets(worker, allow, signing && { signing, session: () => Promise.resolve(worker) });
  }

  /**
   * With `signature`: guards `page` as a page the crawler did not open when another page opened it.
   * Its DevTools session then signs what the browser sends for it on its own (its favicon), and the
   * handshakes of its WebSockets.
   */
  private async guardIfOpened(page: PlaywrightPage): Promise<void> {
    if (this.guard.options.signature === undefined) return;
    const opener = await page.opener().catch(() => null);
    if (opener !== null && !this.crawled.has(page)) await this.guardOtherPage(page).catch(() => false);
  }

  /** A hop of a sub-resource's chain, checked as a sub-resource. */
  private readonly asSubresource: HopCheck = async (target, from) =>
    (await allowSubresource(target, this.guard, from)) ? 'continue' : 'block';

  /** A hop of a popup's navigation, checked as a navigation of a page the crawler did not open. */
  private readonly asOtherNavigation: HopCheck = async (target, from) =>
    (await allowOtherNavigation(target, this.guard, from)) ? 'continue' : 'block';

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
    // The user's context routes from now on (a popup's requests reach only those) run before Heed's:
    // each is put behind Heed's decision.
    const route = wrapRouting(browserContext, this.guard, (request) => this.decide(request));
    // And every page's from its start: a popup's own routes (`page.on('popup')`) would run before
    // the context's, which is all that decides a popup's requests.
    browserContext.on?.('page', (page) => {
      void wrapRouting(page, this.guard, (request) => this.decide(request));
      // Signing: a popup whose own requests all went by the context's route (its document followed
      // by Heed) still sends the browser's own (its favicon): its session signs them, from its start.
      // A page with an opener is such a page; the crawler's own pages have none (they get theirs in
      // `guardCrawledPage`).
      const opened = this.guardIfOpened(page);
      // Its WebSockets get a route of the page's own, which wins over the context's (that one is not
      // told which page a socket is of, so it cannot sign), installed at once: before the page's
      // first document could run a script.
      if (this.routesWebSockets && typeof page.routeWebSocket === 'function') {
        void page
          .routeWebSocket(/.*/, async (ws) => {
            const crawled = this.crawled.get(page);
            await opened;
            await this.decideWebSocket(ws, crawled?.request.url ?? page.url(), page);
          })
          .catch(() => {});
      }
    });
    // A page route wins over it: a crawled page's requests reach it already decided.
    await route('**/*', (routed, request) => this.handle(routed, request));
    if (this.guard.options.blockSubresources && typeof browserContext.routeWebSocket === 'function') {
      await browserContext.routeWebSocket(/.*/, (ws) => this.decideWebSocket(ws, undefined));
    }
  }

  /** Whether crawled pages route their WebSockets: to check them (`blockSubresources`), or to sign their handshakes. */
  private get routesWebSockets(): boolean {
    return this.guard.options.blockSubresources || this.webSocketSigning !== undefined;
  }

  /**
   * A WebSocket of a page or frame: connected once its http(s) URL passes the sub-resource
   * checkpoint (with `blockSubresources`), else closed before it connects. A crawled page's socket
   * is connected with its handshake signed (`signature`) where Heed holds the page's DevTools session.
   */
  private async decideWebSocket(ws: WebSocketRoute, referrer: string | undefined, page?: PlaywrightPage): Promise<void> {
    const url = ws.url();
    if (!(await allowWebSocket(url, this.guard, referrer))) {
      await ws.close({ code: 1008, reason: 'robots.txt disallows this URL' });
      return;
    }
    const session = page && this.webSocketSigning && (await this.hopGuards.get(page)) ? heldSessionOf(page) : undefined;
    if (session === undefined || this.webSocketSigning === undefined) ws.connectToServer();
    else await this.webSocketSigning.connect(session, url, () => ws.connectToServer());
  }

  /**
   * Pauses the redirect hops of `page` through a DevTools session (Chromium) and lets `decide`
   * settle each; other requests go on untouched (a route decides them). Resolves false where the
   * browser has no DevTools: the caller then follows chains itself. Once per page: a later call
   * reads whether the first one could.
   */
  private guardHops(
    page: PlaywrightPage,
    decide: HopDecider,
    isFirstRequest: (url: string) => boolean = () => false,
    workers?: (worker: SocketSession) => void,
  ): Promise<boolean> {
    let done = this.hopGuards.get(page);
    if (!done) {
      const sent = (url: string) => noteRequestSent(url, this.guard);
      done = pauseHops(page, this.guard.options, decide, isFirstRequest, sent, workers, this.workerScripts);
      this.hopGuards.set(page, done);
    }
    return done;
  }

  /** How workers' scripts are begun with the socket script. */
  private readonly workerScripts: WorkerScripts = {
    rewrite: prefixWorkerScript,
    maxBytes: MAX_WORKER_SCRIPT_BYTES,
    refused: (url, bytes) => this.warnRefusedScript(url, bytes),
  };

  private readonly warnRefusedScript = (url: string, bytes: number): void => {
    if (this.refusedScripts.has(url) || this.refusedScripts.size >= 1000) return;
    this.refusedScripts.add(url);
    this.guard.log.warning(
      `Refused the worker script ${url}: it is longer than ${MAX_WORKER_SCRIPT_BYTES / 2 ** 20} MiB once decoded (${bytes} bytes seen), ` +
        "the most Heed reads to put its WebSocket check before the worker's first line; unchecked, the worker's sockets could reach URLs robots.txt disallows.",
    );
  };
}

/** The DevTools session Heed holds on a crawled page, so other steps (the page's user-agent) need no second one. */
const pageSessions = new WeakMap<object, CdpSession>();

/** The DevTools session Heed already holds on `page`, if any (Chromium, with `checkRedirects` or `blockSubresources`). */
export function heldSessionOf(page: object): CdpSession | undefined {
  return pageSessions.get(page);
}

async function pauseHops(
  page: PlaywrightPage,
  options: Pick<RobotsGuard['options'], 'blockSubresources' | 'signature' | 'maxCrawlPrice'>,
  decide: HopDecider,
  isFirstRequest: (url: string) => boolean,
  sent: (url: string) => void,
  workers: ((worker: SocketSession) => void) | undefined,
  scripts: WorkerScripts,
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
  // A browser that cannot watch a page's workers leaves their scripts as they are.
  const watching =
    workers !== undefined &&
    (await watchWorkers(session as ParentSession, workers).then(
      () => true,
      () => false,
    ));
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
  const sign = requestSigning(options);
  const paused = await pauseRequests(
    session,
    // Sub-resources are paused to be checked, or to be signed.
    !options.blockSubresources && sign === undefined,
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
    sign && ((paused) => sign(paused.request.url)),
    watching ? scripts : undefined,
  );
  closeOnceAnswered(page, session, paused);
  return true;
}

/** How long a page's `close()` waits for Heed's answers to what its session paused. */
const CLOSE_WAIT_MS = 5_000;
/** A URL pattern (no wildcard) that no request's URL matches. */
const NO_URL = 'heed-closing:none';

/**
 * Makes `page.close()` shut the page's requests first: what the browser fetches on its own for a
 * page (its favicon, which the browser asks for as the page stops loading, closing included)
 * outlives the page, and a request still paused when the page's session ends is let go as the
 * browser made it, unsigned and unchecked. So the page's session blocks every request from then on
 * (`Network.setBlockedURLs`, which the browser applies with no round trip, its own requests for the
 * page included) and stops pausing new ones, so a request made as the page closes is blocked at
 * once; then it answers what it had paused (waiting at most {@link CLOSE_WAIT_MS}, but not for the
 * page's navigations, which end with it) and fails what is still undecided. A close that may be
 * cancelled (`runBeforeUnload`) only waits for the answers.
 */
function closeOnceAnswered(page: PlaywrightPage, session: CdpSession, paused: PausedRequests): void {
  const close = page.close.bind(page);
  page.close = async (options) => {
    const closing = options?.['runBeforeUnload'] !== true;
    if (closing) {
      // The blocked URLs apply only with the domain on.
      await session.send('Network.enable').catch(() => {});
      await session.send('Network.setBlockedURLs', { urls: ['*'] }).catch(() => {});
      // No new pause from here on (a pattern no URL matches): a request made now meets the blocked
      // URLs at once, and those already paused stay paused for Heed's answers. (`Fetch.disable`
      // would let them go as they were made.)
      await session.send('Fetch.enable', { patterns: [{ urlPattern: NO_URL }] }).catch(() => {});
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([paused.settled(), waited]);
    clearTimeout(timer);
    if (closing) await paused.refuseOpen();
    return close(options);
  };
}

/** The browser's request for a service worker's script (the Service Workers standard's `Service-Worker: script`). */
function isServiceWorkerScript(request: PlaywrightRequest): boolean {
  return request.headers()['service-worker'] === 'script';
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
