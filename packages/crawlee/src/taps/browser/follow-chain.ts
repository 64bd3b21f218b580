/**
 * Redirect chains Heed follows itself, one hop at a time with `route.fetch({ maxRedirects: 0 })`,
 * each hop decided before it is requested: where no DevTools session pauses a browser's hops
 * (Firefox, WebKit, a popup's first navigation, a service worker's fetch), and every
 * `route.fetch()` of a user's route handler, which Playwright sends from Node, outside the browser.
 */
import type { RobotsGuard } from '../../guard/guard.js';
import { BODY_FRAMING, declaredBytes, isScriptResponse, type PausedRequestAction, type WorkerScripts } from './cdp-fetch.js';
import { MAX_HOPS, REDIRECT_STATUSES, noteRequestSent, resolve } from './checks.js';
import type { FetchOptions, PlaywrightResponse, PlaywrightRoute } from './playwright-shapes.js';
import { requestSigning } from '../sign-requests.js';

/** Decides a hop to `target` from `from`, of the request a route is for, as the browser's own hop would be. */
export type HopCheck = (target: string, from: string) => Promise<PausedRequestAction>;

/** What settles a route for good: Playwright's own methods (a route taken back has its own replaced). */
export type Settling = Pick<PlaywrightRoute, 'fetch' | 'fulfill' | 'abort'>;

type Refusal = Exclude<PausedRequestAction, 'continue'>;

/**
 * `route.fetch(options)` from `url` one hop at a time, each hop asked of `hop`: the response it
 * ends at, the redirect that named a refused hop (the route then settled by `refuse`), or the last
 * redirect once `options.maxRedirects` hops were followed (Playwright's default: 20). With
 * `signature`, each hop is signed for its own URL, on `options.headers` or else `requestHeaders`
 * (the intercepted request's own).
 */
export async function fetchChecked(
  own: Settling,
  url: string,
  options: FetchOptions,
  hop: HopCheck,
  guard: RobotsGuard,
  refuse: (action: Refusal) => Promise<void>,
  requestHeaders?: Readonly<Record<string, string>>,
): Promise<PlaywrightResponse> {
  const maxRedirects = options.maxRedirects ?? MAX_HOPS;
  const sign = requestSigning(guard.options);
  let current = url;
  let sent: FetchOptions = options;
  for (let hops = 0; ; hops++) {
    const headers = sign && { ...withoutHost(sent.headers ?? requestHeaders ?? {}), ...sign(current) };
    const response = await own.fetch({ ...sent, url: current, maxRedirects: 0, ...(headers && { headers }) });
    noteRequestSent(current, guard);
    const status = response.status();
    const target = redirectTarget(response, current);
    if (target === undefined || hops >= maxRedirects) return response;
    const action = await hop(target, current);
    if (action !== 'continue') {
      await refuse(action);
      return response;
    }
    current = target;
    // As a browser does: a 303, or a 301/302 of a POST, goes on as a GET without a body.
    if (status === 303 || ((status === 301 || status === 302) && (sent.method ?? 'GET').toUpperCase() === 'POST')) {
      const { postData: _body, ...rest } = sent;
      sent = { ...rest, method: 'GET' };
    }
  }
}

/**
 * Fetches `url` for the browser one hop at a time, asks `hop` about each redirect target, and
 * fulfils the request with the final response; a target `hop` refuses is never requested (the
 * route is settled as `hop` says), and a chain longer than a browser follows fails.
 * `headers` replace the request's own (`requestHeaders`, which signed hops go on from) on every hop.
 * With `script`, a final 2xx JavaScript response is fulfilled rewritten (a service worker's script).
 */
export async function followChain(
  own: Settling,
  url: string,
  hop: HopCheck,
  guard: RobotsGuard,
  headers?: Record<string, string>,
  requestHeaders?: Readonly<Record<string, string>>,
  script?: WorkerScripts,
): Promise<void> {
  let refused = false;
  const refuse = (action: Refusal) => {
    refused = true;
    return settle(own, action);
  };
  const response = await fetchChecked(own, url, { ...(headers && { headers }) }, hop, guard, refuse, requestHeaders);
  if (refused) return;
  if (isRedirect(response)) return own.abort('failed');
  if (script !== undefined && isScriptResponse(response.status(), headerOf(response))) return fulfilRewritten(own, url, response, script);
  return own.fulfill({ response });
}

/** A header of `response` by its lower-case name (Playwright's are lower-cased). */
const headerOf =
  (response: PlaywrightResponse) =>
  (name: string): string | undefined =>
    response.headers()[name];

/**
 * Fulfils with `response`'s body rewritten, refused past `script.maxBytes` decoded. The body
 * Playwright hands back is decoded: it goes on without the length and coding it came with.
 */
async function fulfilRewritten(own: Settling, url: string, response: PlaywrightResponse, script: WorkerScripts): Promise<void> {
  const declared = declaredBytes(headerOf(response));
  const body = declared > script.maxBytes ? declared : await response.body();
  if (typeof body === 'number' || body.length > script.maxBytes) {
    script.refused(url, typeof body === 'number' ? body : body.length);
    return own.abort('blockedbyclient');
  }
  const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !BODY_FRAMING.test(name)));
  return own.fulfill({ response, headers, body: script.rewrite(body) });
}

/** `headers` without those naming the request's own host and length: a hop to another host must not carry them. */
function withoutHost(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(host|content-length|:.*)$/i.test(name)));
}

/** Ends a refused request: answered `204 No Content` (the page stays where it is) or failed as blocked by the client. */
export function settle(route: Pick<Settling, 'fulfill' | 'abort'>, action: Refusal): Promise<void> {
  return action === 'no-content' ? route.fulfill({ status: 204 }) : route.abort('blockedbyclient');
}

/** Where `response` to a request of `url` redirects, if it does. */
function redirectTarget(response: PlaywrightResponse, url: string): string | undefined {
  const location = response.headers()['location'];
  return REDIRECT_STATUSES.has(response.status()) && location ? resolve(location, url) : undefined;
}

function isRedirect(response: PlaywrightResponse): boolean {
  return REDIRECT_STATUSES.has(response.status()) && response.headers()['location'] !== undefined;
}
