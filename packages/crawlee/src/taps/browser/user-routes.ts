/**
 * The user's own Playwright routes, taken back. A route handler the user registers on a crawled
 * page or its browser context after Heed's runs before Heed's (Playwright runs the newest first),
 * and one that calls `route.continue()` or `route.fulfill()` never hands the request on: Heed
 * would not see it. And `route.fetch()` sends the request from Node, outside the browser, following
 * redirects on its own: no route and no DevTools session sees its hops. So:
 *
 * - {@link wrapRouting}: `route()` of a crawled page, of its browser context and of every page that
 *   context opens from then on (a popup's own routes run before the context's, which decide its
 *   requests; the instances only, not Playwright's prototypes) registers each handler behind
 *   Heed's decision: a request Heed refuses is settled as Heed settles it and never reaches the
 *   handler.
 * - {@link takeBack}: the route a handler receives (the user's registered before or after Heed's)
 *   has its `fetch()` follow the chain hop by hop, each hop decided as the browser's own would be;
 *   a refused hop is never requested: the route is settled as Heed settles it (the page's request
 *   ends as a skip, or the page stays where it is), `fetch()` resolves to the redirect it stopped
 *   at, and the handler's `fulfill()`, `continue()`, `abort()` and `fallback()` do nothing more.
 *   A URL the handler swaps in (`fetch({ url })`, `continue({ url })`, `fallback({ url })`) is
 *   decided first; `fetch()` to one refused rejects. Where Heed follows chains itself (no DevTools
 *   session: Firefox, WebKit), `continue()` does too.
 */
import { sameUrl } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import type { PausedRequestAction, WorkerScripts } from './cdp-fetch.js';
import { fetchChecked, followChain, settle, type HopCheck, type Settling } from './follow-chain.js';
import type { PlaywrightRequest, PlaywrightRoute, Routable, RouteHandler } from './playwright-shapes.js';

/** What Heed decided of one request: refused (`block`, `no-content`), or allowed and how it goes on. */
export type Decided =
  | { readonly action: Exclude<PausedRequestAction, 'continue'> }
  | {
      readonly action: 'continue';
      /** How each of its redirect hops is decided. */
      readonly hop: HopCheck;
      /** Heed follows its chain itself (no DevTools session pauses its hops). */
      readonly follow: boolean;
      /** The headers it goes on with (the bot's user-agent on a page the crawler did not open). */
      readonly headers?: Record<string, string> | undefined;
      /** A service worker's script, rewritten as it is fulfilled where Heed follows its chain. */
      readonly script?: WorkerScripts | undefined;
    };
export type Allowed = Extract<Decided, { action: 'continue' }>;

/**
 * Makes `target.route()` (and `unroute()`, which must find the handler it was given) register each
 * handler behind `decide`: the handler runs only for a request `decide` allows, with the route
 * taken back. Once per instance; returns `target`'s own `route()`, for Heed's route. Wrapped
 * before Heed's route is registered: a handler registered in the meantime (another page's hook, on
 * a shared context) would run before Heed's unchecked.
 */
export function wrapRouting(
  target: Routable,
  guard: RobotsGuard,
  decide: (request: PlaywrightRequest) => Promise<Decided>,
): Routable['route'] {
  const known = wrapped.get(target);
  if (known !== undefined) return known;
  const route = target.route.bind(target);
  wrapped.set(target, route);
  const unroute = target.unroute?.bind(target);
  const behind = new WeakMap<RouteHandler, RouteHandler>();
  target.route = (url, handler, options) => {
    let guarded = behind.get(handler);
    if (guarded === undefined) {
      guarded = async (routed, request) => {
        let decided: Decided;
        try {
          decided = await decide(request);
        } catch {
          // The page closed: nothing left to decide.
          return routed.abort('failed').catch(() => {});
        }
        if (decided.action !== 'continue') return settle(routed, decided.action).catch(() => {});
        takeBack(routed, request, decided, guard);
        return handler(routed, request);
      };
      behind.set(handler, guarded);
    }
    return route(url, guarded, options);
  };
  if (unroute) target.unroute = (url, handler) => unroute(url, handler && (behind.get(handler) ?? handler));
  return route;
}

/** The instances wrapped, with their own `route()`. */
const wrapped = new WeakMap<object, Routable['route']>();
const takenBack = new WeakSet<object>();

/** Replaces `fetch`, `continue`, `fallback`, `fulfill` and `abort` of `route` (this instance), as the module header says. Once per route. */
export function takeBack(route: PlaywrightRoute, request: PlaywrightRequest, decided: Allowed, guard: RobotsGuard): void {
  if (takenBack.has(route)) return;
  takenBack.add(route);
  const own: Settling & Pick<PlaywrightRoute, 'continue' | 'fallback'> = {
    fetch: route.fetch.bind(route),
    fulfill: route.fulfill.bind(route),
    abort: route.abort.bind(route),
    continue: route.continue.bind(route),
    fallback: route.fallback.bind(route),
  };
  let refused = false;
  /** Settles the route once: a handler may fetch again after a refusal, and its hops are decided again. */
  const refuse = async (action: Exclude<PausedRequestAction, 'continue'>): Promise<void> => {
    if (refused) return;
    refused = true;
    await settle(own, action);
  };
  /** Whether a URL the handler swapped in may go; a refused one settles the route. */
  const swapAllowed = async (url: string | undefined): Promise<boolean> => {
    if (url === undefined || sameUrl(url, request.url())) return true;
    const action = await decided.hop(url, request.url());
    if (action === 'continue') return true;
    await refuse(action);
    return false;
  };
  const headersOf = (headers: Record<string, string> | undefined) => headers ?? decided.headers;

  route.fetch = async (options = {}) => {
    if (!(await swapAllowed(options.url))) throw new Error(`${options.url} was not fetched: robots.txt disallows it`);
    const headers = headersOf(options.headers);
    const { url = request.url() } = options;
    return fetchChecked(own, url, { ...options, ...(headers && { headers }) }, decided.hop, guard, refuse, request.headers());
  };
  route.continue = async (options = {}) => {
    if (refused || !(await swapAllowed(options.url))) return;
    const headers = headersOf(options.headers);
    if (decided.follow)
      return followChain(own, options.url ?? request.url(), decided.hop, guard, headers, request.headers(), decided.script);
    return own.continue({ ...options, ...(headers && { headers }) });
  };
  route.fallback = async (options = {}) => {
    if (refused || !(await swapAllowed(options.url))) return;
    return own.fallback(options);
  };
  route.fulfill = async (options) => (refused ? undefined : own.fulfill(options));
  route.abort = async (errorCode) => (refused ? undefined : own.abort(errorCode));
}
