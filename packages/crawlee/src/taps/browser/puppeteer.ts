/**
 * PuppeteerCrawler. Every request of the crawler's browser is checked before it goes out, by one
 * DevTools session of the browser target that pauses every request of the browser (`cdp-fetch.ts`):
 *
 * - The crawled page: each navigation of its main frame (redirect hops, script and meta-refresh
 *   navigations; its first request was checked before it left the queue), and its sub-resources.
 * - Everything else the browser requests (popups, `target=_blank` pages, service and shared
 *   workers, frames of those): Puppeteer intercepts only the pages it is asked to, and a popup
 *   sends its first request before a `popup` listener could turn interception on.
 * - Why not Puppeteer's own request interception: a user's `request` listener that calls
 *   `request.continue()` settles a request before Heed's asynchronous check could (legacy mode at
 *   once; cooperative mode once the listeners' synchronous parts have run), and Crawlee's
 *   `addInterceptRequestHandler` does the same. A DevTools session of its own is no listener of
 *   that interception: the browser sends a request only once every session that paused it lets it
 *   go, so the user's interception works as before and cannot let anything past Heed. Only where
 *   the browser target cannot be reached (a remote endpoint that refuses it) does Heed fall back to
 *   Puppeteer's interception of each crawled page, which a user's interception can then pre-empt.
 * - Pages under the bot's name (`identifyPages`): a crawled page has its user-agent set
 *   (`identify.ts`); the requests of pages the crawler did not open (popups, `target=_blank`
 *   pages) are sent on from that browser session with the bot's `User-Agent` header, in the
 *   `Fetch.continueRequest` that lets them go. That session pauses their sub-resources only with
 *   `blockSubresources`: without it they keep the browser's user-agent.
 * - Signed requests (`signature`): the session then pauses every request, sub-resources too, and
 *   lets each go with its Web Bot Auth signature for its own URL, in the same `Fetch.continueRequest`.
 * - WebSockets (`blockSubresources`, or `signature`): DevTools offers no point where a handshake can
 *   be paused or refused (`Fetch` does not see it) and Puppeteer has no WebSocket routing, so the
 *   `WebSocket` of every page (crawled, popup) and worker asks Heed before it connects: replaced
 *   through the session Puppeteer attaches to each new target (`puppeteer-target-websockets.ts`;
 *   a service worker's asks through a session of Heed's that stays attached, `holdServiceWorkers`),
 *   or for a page opened before Heed watched its browser, through `evaluateOnNewDocument()`
 *   (`puppeteer-websockets.ts`). Each handshake is signed through a DevTools session of Heed's on
 *   the page or worker.
 */
import { sameUrl } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import { pauseRequests, targetIdOf, type CdpSession, type PausedRequest } from './cdp-fetch.js';
import {
  allowOtherNavigation,
  allowSubresource,
  allowWebSocket,
  decideNavigation,
  isMainFrameNavigation,
  noteRequestSent,
  type Navigated,
} from './checks.js';
import { guardPageWebSockets, type SocketPage } from './puppeteer-websockets.js';
import { TargetSockets, type AttachedSession, type SessionSource } from './puppeteer-target-websockets.js';
import { webSocketSigningFor, type WebSocketSigning } from './websocket-signing.js';
import type { ContextInternals } from '../crawler-shape.js';
import { requestSigning } from '../sign-requests.js';

/** The parts of Puppeteer's `HTTPRequest`, `Page`, `Browser` and `Target` used here. */
interface PuppeteerRequest {
  url(): string;
  isNavigationRequest(): boolean;
  frame(): unknown;
  redirectChain(): { url(): string }[];
  abort(errorCode?: string): Promise<void>;
  continue(overrides?: { headers?: Record<string, string> }): Promise<void>;
  headers(): Record<string, string>;
  respond(response: { status: number; body: string }): Promise<void>;
  isInterceptResolutionHandled?(): boolean;
}
interface PuppeteerBrowser {
  target(): { createCDPSession(): Promise<BrowserSession> };
}
/** A session of the browser target: the sessions it attaches (flattened) are announced on it. */
type BrowserSession = CdpSession & { on(event: 'sessionattached', listener: (session: CdpSession) => void): unknown };
export interface PuppeteerPage {
  setRequestInterception(value: boolean): Promise<void>;
  on(event: 'request', handler: (request: PuppeteerRequest) => void): unknown;
  once(event: 'close', handler: () => void): unknown;
  mainFrame(): unknown;
  browser(): PuppeteerBrowser;
  target(): { createCDPSession(): Promise<DetachableSession> };
  /** Puppeteer 19.7+; older releases have `target().createCDPSession()` only. */
  createCDPSession?(): Promise<DetachableSession>;
  exposeFunction?: SocketPage['exposeFunction'];
  evaluateOnNewDocument?: SocketPage['evaluateOnNewDocument'];
}
type DetachableSession = CdpSession & { detach(): Promise<void>; connection?(): SessionSource | undefined };

/** How far up from a target's session its crawled page is looked for (frames and workers within each other). */
const MAX_TARGET_DEPTH = 5;

/** The guards of one attached crawler, kept per browser. */
export class PuppeteerGuards {
  /** The crawled pages by target id (their main frame's id in DevTools events), with their crawling context. */
  private readonly crawled = new Map<string, ContextInternals>();
  private readonly browsers = new WeakMap<object, Promise<boolean>>();
  /** Per browser connection: the guard of its new pages' and workers' WebSockets. */
  private readonly targetSockets = new WeakMap<object, TargetSockets>();
  /** With `signature`: the handshakes of crawled pages' WebSockets, signed through a DevTools session of the page. */
  private readonly webSocketSigning: WebSocketSigning | undefined;

  /**
   * @param userAgent what the requests of pages the crawler did not open go out under; `undefined`
   *   leaves them to the browser.
   */
  constructor(
    private readonly guard: RobotsGuard,
    private readonly navigated: Navigated,
    private readonly warn: (message: string) => void,
    private readonly userAgent?: string,
  ) {
    this.webSocketSigning = webSocketSigningFor(guard.options);
  }

  /** Everything a crawled page needs before `page.goto()`. */
  async guardCrawledPage(page: PuppeteerPage, context: ContextInternals): Promise<void> {
    const session = await (page.createCDPSession?.() ?? page.target().createCDPSession());
    const targetId = await targetIdOf(session);
    const sockets = this.routesWebSockets ? this.targetSocketsOf(session) : undefined;
    await session.detach().catch(() => {});
    this.crawled.set(targetId, context);
    page.once('close', () => {
      this.crawled.delete(targetId);
      sockets?.forget(targetId);
    });
    if (!(await this.guardBrowser(page.browser()))) await this.interceptPage(page, context);
    // A page opened before the connection's targets were watched (the first pages of a browser) is guarded here.
    if (this.routesWebSockets && sockets?.has(targetId) !== true) await this.guardWebSockets(page, context);
  }

  /** Whether WebSockets are replaced: to check them (`blockSubresources`), or to sign their handshakes. */
  private get routesWebSockets(): boolean {
    return this.guard.options.blockSubresources || this.webSocketSigning !== undefined;
  }

  /** The page's WebSockets behind Heed's check (`blockSubresources`), their handshakes signed (`signature`). */
  private async guardWebSockets(page: PuppeteerPage, context: ContextInternals): Promise<void> {
    if (typeof page.exposeFunction !== 'function' || typeof page.evaluateOnNewDocument !== 'function') return;
    const allow = (url: string) => allowWebSocket(url, this.guard, context.request.url);
    await guardPageWebSockets(page as SocketPage, allow, this.webSocketSigning);
  }

  /**
   * The WebSockets of every page and worker the browser starts from now on (popups, the crawled
   * pages' workers), checked and signed as a crawled page's are: one guard per connection. A
   * socket of a crawled page, of its frames or of its workers is checked as a sub-resource of that
   * page.
   */
  private targetSocketsOf(session: DetachableSession): TargetSockets | undefined {
    const connection = session.connection?.();
    if (connection === undefined) return undefined;
    let sockets = this.targetSockets.get(connection);
    if (sockets === undefined) {
      const created: TargetSockets = new TargetSockets(
        connection,
        async (url, target) => allowWebSocket(url, this.guard, (await this.ownerOf(target, created))?.request.url),
        this.webSocketSigning,
      );
      this.targetSockets.set(connection, created);
      sockets = created;
    }
    return sockets;
  }

  /** The crawled page a target's session is of, or was found under (a frame or worker of it, a worker of those), if any. */
  private async ownerOf(session: AttachedSession, sockets: TargetSockets): Promise<ContextInternals | undefined> {
    let current = session;
    for (let depth = 0; depth < MAX_TARGET_DEPTH; depth++) {
      const owner = this.crawled.get(await sockets.targetIdOf(current));
      if (owner !== undefined) return owner;
      // The top session is its own parent.
      const parent = current.parentSession?.();
      if (parent === undefined || parent === current) return undefined;
      current = parent;
    }
    return undefined;
  }

  /** The fallback without a browser session: Puppeteer's interception of the crawled page decides its requests. */
  private async interceptPage(page: PuppeteerPage, context: ContextInternals): Promise<void> {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      void (async () => {
        if (request.isInterceptResolutionHandled?.()) return;
        const url = request.url();
        if (isMainFrameNavigation(request, page)) {
          const chain = request.redirectChain();
          const isFirstHop = chain.length === 0 && sameUrl(url, context.request.url);
          // Requests spaced by the crawl-delay: the page's first (its slot came from the queue) and
          // each other navigation (it waited for its slot in `decideNavigation`, checked or not).
          let paced = isFirstHop && !this.navigated.has(context.request);
          if (!isFirstHop) {
            const from = chain.at(-1)?.url() ?? context.request.loadedUrl ?? context.request.url;
            const decision = await decideNavigation(url, from, context, this.guard, this.navigated);
            if (decision === 'no-content') return await request.respond({ status: 204, body: '' });
            if (decision === 'block') return await request.abort('blockedbyclient');
            paced = true;
          }
          await request.continue(this.signed(request));
          // Once the browser has taken it: the request leaves a round trip after it was let go.
          if (paced) noteRequestSent(url, this.guard);
          return;
        }
        await ((await allowSubresource(url, this.guard, context.request.url))
          ? request.continue(this.signed(request))
          : request.abort('blockedbyclient'));
      })().catch(() => {});
    });
  }

  /** The overrides a request of Puppeteer's interception goes on with: its headers and its signature, with `signature`; else none. */
  private signed(request: PuppeteerRequest): { headers: Record<string, string> } | undefined {
    const sign = requestSigning(this.guard.options);
    return sign === undefined ? undefined : { headers: { ...request.headers(), ...sign(request.url()) } };
  }

  /** One DevTools session per browser, pausing every request of the browser; false when the browser target cannot be reached. */
  private guardBrowser(browser: PuppeteerBrowser): Promise<boolean> {
    let done = this.browsers.get(browser);
    if (!done) {
      done = this.pauseBrowser(browser).then(
        () => true,
        (error: unknown) => {
          // A browser reached without its browser target (a remote endpoint that refuses it): the
          // crawled pages' own interception still decides their requests.
          this.warn(
            `RobotsPlugin: no DevTools session of the browser (${error instanceof Error ? error.message : String(error)}); ` +
              "requests of popups and workers the crawled pages start are not checked in this browser, and a request interception of the user's own can let a crawled page's navigations past Heed's",
          );
          return false;
        },
      );
      this.browsers.set(browser, done);
    }
    return done;
  }

  private async pauseBrowser(browser: PuppeteerBrowser): Promise<void> {
    const session = await browser.target().createCDPSession();
    // The URL of each document request, so a hop names the URL that redirected to it.
    const documents = new Map<string, string>();
    /**
     * Navigations whose origin's clock moves to when the browser takes them here: popups and a
     * crawled page's later navigations (they waited for their crawl-delay here), and a crawled
     * page's first request (its slot was claimed before `page.goto()`).
     */
    const paced = new WeakSet<PausedRequest>();
    const continued = (paused: PausedRequest) => {
      if (paced.has(paused)) noteRequestSent(paused.request.url, this.guard);
    };
    /** Requests of pages the crawler did not open, sent on under `this.userAgent`. */
    const identified = new WeakSet<PausedRequest>();
    const otherPages = new OtherPages(session, (targetId) => this.crawled.has(targetId));
    const userAgent = this.userAgent;
    const sign = requestSigning(this.guard.options);
    await pauseRequests(
      session,
      // Sub-resources are paused to be checked, or to be signed.
      !this.guard.options.blockSubresources && sign === undefined,
      async (paused) => {
        const { url } = paused.request;
        const owner = paused.frameId === undefined ? undefined : this.crawled.get(paused.frameId);
        const from = paused.redirectedRequestId === undefined ? undefined : documents.get(paused.redirectedRequestId);
        if (paused.redirectedRequestId !== undefined) documents.delete(paused.redirectedRequestId);
        if (!/^https?:/i.test(url)) return 'continue';
        if (paused.resourceType === 'Document') {
          // A crawled page's navigation: its first request was checked before it left the queue;
          // any other (a redirect hop, a script or meta refresh) ends the Crawlee request as a skip
          // during `page.goto()`, and later leaves the page where it is.
          if (owner) {
            documents.set(paused.requestId, url);
            const first = paused.redirectedRequestId === undefined && sameUrl(url, owner.request.url) && !this.navigated.has(owner.request);
            if (!first) {
              const decision = await decideNavigation(
                url,
                from ?? owner.request.loadedUrl ?? owner.request.url,
                owner,
                this.guard,
                this.navigated,
              );
              if (decision !== 'continue') return decision;
            }
            paced.add(paused);
            return 'continue';
          }
          const opener = paused.frameId === undefined ? undefined : await openerOfPage(session, paused.frameId);
          if (opener !== undefined) {
            documents.set(paused.requestId, url);
            if (!(await allowOtherNavigation(url, this.guard, from ?? (opener || undefined)))) return 'block';
            paced.add(paused);
            if (userAgent !== undefined) identified.add(paused);
            return 'continue';
          }
        }
        if (!(await allowSubresource(url, this.guard, owner?.request.url))) return 'block';
        if (userAgent !== undefined && owner === undefined && paused.frameId !== undefined && (await otherPages.has(paused.frameId))) {
          identified.add(paused);
        }
        return 'continue';
      },
      continued,
      (paused) => {
        const identify = identified.has(paused) && userAgent !== undefined ? { 'User-Agent': userAgent } : undefined;
        if (sign === undefined) return identify;
        return { ...identify, ...sign(paused.request.url) };
      },
    );
    if (this.routesWebSockets) await holdServiceWorkers(session);
  }
}

/**
 * Attaches `session` to every service worker the browser starts from now on, each held until
 * Heed's commands are on the wire: the connection announces the new session to the guard of its
 * targets' WebSockets (`puppeteer-target-websockets.ts`) before this listener lets the worker go.
 * Puppeteer lets go of its own session of a service worker as it starts; this one stays, so the
 * worker's sockets have a session to ask through and to be signed on. A browser without the
 * command leaves them unguarded.
 */
async function holdServiceWorkers(session: BrowserSession): Promise<void> {
  session.on('sessionattached', (worker) => void worker.send('Runtime.runIfWaitingForDebugger').catch(() => {}));
  await session
    .send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: 'service_worker' }, { exclude: true }],
    })
    .catch(() => {});
}

/**
 * Which frames are the main frames of pages the crawler did not open, asked of the browser once per
 * frame. Forgotten wholesale past a bound: a long crawl opens frames without end, and asking again
 * costs one round trip.
 */
class OtherPages {
  private static readonly MAX_FRAMES = 1_000;
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(
    private readonly session: CdpSession,
    private readonly isCrawled: (targetId: string) => boolean,
  ) {}

  has(frameId: string): Promise<boolean> {
    if (this.isCrawled(frameId)) return Promise.resolve(false);
    let known = this.known.get(frameId);
    if (known === undefined) {
      if (this.known.size >= OtherPages.MAX_FRAMES) this.known.clear();
      known = targetInfo(this.session, frameId).then((info) => info?.type === 'page' && !this.isCrawled(frameId));
      this.known.set(frameId, known);
    }
    return known;
  }
}

/**
 * When `frameId` is the main frame of a page (its target id), the URL of the page that opened it
 * (`''` when none or unknown); `undefined` when it is a frame inside a page.
 */
async function openerOfPage(session: CdpSession, frameId: string): Promise<string | undefined> {
  const info = await targetInfo(session, frameId);
  if (info?.type !== 'page') return undefined;
  return (info.openerId === undefined ? undefined : (await targetInfo(session, info.openerId))?.url) ?? '';
}

async function targetInfo(session: CdpSession, targetId: string): Promise<{ type: string; url: string; openerId?: string } | undefined> {
  try {
    const { targetInfo: info } = (await session.send('Target.getTargetInfo', { targetId })) as {
      targetInfo: { type: string; url: string; openerId?: string };
    };
    return info;
  } catch {
    // Not a target: a frame inside a page.
    return undefined;
  }
}
