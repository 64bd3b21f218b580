/**
 * Pages go out under the bot's name. Heed obeys the robots.txt group of the plugin's `userAgent`;
 * RFC 9309 §2.2.1 asks a crawler to identify with that product token, so the site can tell who
 * fetched its pages and which of its rules applied. Crawlee sends pages under a generated browser
 * header (`Mozilla/5.0 (Macintosh; …) Chrome/…`) unless told otherwise; with `identifyPages`
 * (the default) each page request carries the plugin's `userAgent` instead:
 *
 * - HTTP crawlers (HttpCrawler, CheerioCrawler, JSDOMCrawler): a navigation hook sets the
 *   `user-agent` of got's request options. got-scraping lets an explicit header win over the one it
 *   generates, and Crawlee merges `request.headers` under the hook's, so a `User-Agent` the user put
 *   in `request.headers` or in got's options in an earlier hook is left as it is.
 * - Playwright: on Chromium the page's user-agent override (DevTools `Network.setUserAgentOverride`,
 *   which wins over a fingerprint's); on Firefox and WebKit an extra `user-agent` header, added to
 *   a copy of `request.headers` when the request has some (Crawlee sets them as the page's extra
 *   headers, replacing any before). `navigator.userAgent` may stay a fingerprint's.
 * - Puppeteer: `page.setUserAgent()`, header and `navigator.userAgent` alike.
 * - `context.sendRequest()` in a request handler, every crawler kind: the `user-agent` header (a
 *   plain object of got's options on 3.x, fetch `Headers` on 4.x).
 * - Pages a crawled page opens (popups, `target=_blank` pages): the `user-agent` header, set where
 *   Heed intercepts them (`browser-playwright.ts`, `browser-puppeteer.ts`). JSDOM's sub-resources:
 *   `jsdom.ts`.
 *
 * A `User-Agent` in a browser request's `request.headers` becomes that page's user-agent (Crawlee
 * alone sends it only to the page's sub-resources under a fingerprint). A browser crawler given
 * `launchContext.userAgent` keeps it: that is the user's own choice.
 * Checked against Crawlee 3.13.0 to 3.18.1 (`gotoExtended` setting `request.headers`).
 */
import { heldSessionOf } from './browser/playwright.js';
import { pageOf, type ContextInternals, type NavigationHook } from './crawler-shape.js';

type Headers = Record<string, unknown>;

/** The page of a browser crawler, as far as identifying needs it. */
interface IdentifiablePage {
  /** Playwright. */
  context?(): { newCDPSession?(page: unknown): Promise<{ send(method: string, params: object): Promise<unknown> }> };
  setExtraHTTPHeaders?(headers: Record<string, string>): Promise<void>;
  /** Puppeteer. */
  setUserAgent?(userAgent: string): Promise<void>;
}

/** Whether `headers` name a user-agent already, in any letter case. */
function hasUserAgent(headers: unknown): boolean {
  if (typeof headers !== 'object' || headers === null) return false;
  return Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent');
}

/** The user-agent `headers` name, in any letter case. */
export function userAgentIn(headers: Headers | undefined): string | undefined {
  if (headers === undefined) return undefined;
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'user-agent' && typeof value === 'string') return value;
  return undefined;
}

function requestHeaders(context: ContextInternals): Headers | undefined {
  return (context.request as { headers?: Headers }).headers;
}

/** The navigation hook of an HTTP crawler that sends the page under `userAgent`. */
export function identifyHttpPages(userAgent: string): NavigationHook {
  return (context, gotOptions) => {
    const headers = gotOptions['headers'];
    if (hasUserAgent(requestHeaders(context)) || hasUserAgent(headers)) return;
    // `Object.assign`, not a spread: for every request, mostly unoptimised, where a spread adding a key is slow.
    gotOptions['headers'] = Object.assign({}, headers as Headers | undefined, { 'user-agent': userAgent });
  };
}

/** The navigation hook of a browser crawler that sends the page under `userAgent`. */
export function identifyBrowserPages(userAgent: string): NavigationHook {
  return async (context) => {
    const page = pageOf(context) as IdentifiablePage | undefined;
    if (page === undefined) return;
    const headers = requestHeaders(context);
    // A request's own User-Agent is sent as given: as the page's user-agent too, since a browser's
    // navigation obeys its user-agent override, not an extra header.
    const own = userAgentIn(headers);
    const name = own ?? userAgent;
    if (typeof page.setUserAgent === 'function') {
      await page.setUserAgent(name);
      return;
    }
    // Playwright on Chromium: the page's user-agent override (an extra `user-agent` header reaches
    // its sub-resources but not the navigation, under a fingerprint's).
    // One DevTools session per page: Heed's own when it holds one (a second session attached to the
    // page slows each of its requests).
    const session = heldSessionOf(page) ?? (await page.context?.().newCDPSession?.(page));
    if (session !== undefined) {
      await session.send('Network.setUserAgentOverride', { userAgent: name });
      return;
    }
    if (own !== undefined || typeof page.setExtraHTTPHeaders !== 'function') return;
    // Other browsers: an extra header. Crawlee sets a request's own headers as the page's extra
    // headers, replacing these: such a request gets it in a copy of its headers.
    if (headers !== undefined && Object.keys(headers).length > 0) {
      (context.request as { headers?: Headers }).headers = { ...headers, 'user-agent': userAgent };
    } else await page.setExtraHTTPHeaders({ 'user-agent': userAgent });
  };
}

/** The `userAgent` a browser crawler was launched with (`launchContext.userAgent`), if any. */
export function launchUserAgent(crawler: object): string | undefined {
  const launchContext = (crawler as { launchContext?: { userAgent?: unknown } }).launchContext;
  return typeof launchContext?.userAgent === 'string' ? launchContext.userAgent : undefined;
}

/**
 * A fetch `Request` a Crawlee 4 HTTP client is about to send, under `userAgent` unless it names a
 * user-agent already (from `request.headers` or a navigation hook).
 */
export function identifyFetchRequest(request: unknown, userAgent: string): void {
  const headers = (request as { headers?: { has?: unknown; set?: unknown } } | null)?.headers;
  if (typeof headers?.has !== 'function' || typeof headers.set !== 'function') return;
  const h = headers as { has(name: string): boolean; set(name: string, value: string): void };
  if (!h.has('user-agent')) h.set('user-agent', userAgent);
}

type SendRequest = (options?: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;

/**
 * `context.sendRequest()` under `userAgent` too, unless its call or the page's request names a
 * user-agent: an API call of the crawl is the bot's request as much as the page is. Crawlee's own
 * `sendRequest` sends `request.headers` when the call gives no `headers`, hence the fallback.
 * Crawlee 4 (its `Request` has `intoFetchAPIRequest()`, which its `sendRequest` builds on) takes
 * fetch `Headers` there and merges them with `headers.forEach()` over the page request's own: a
 * plain object would make every call throw a `TypeError`. The call's further arguments (Crawlee 4's
 * options: `timeoutMillis`, `signal`) are passed on as given.
 */
export function identifySendRequest(context: ContextInternals, userAgent: string): void {
  const original = context['sendRequest'];
  if (typeof original !== 'function') return;
  const send = original as SendRequest;
  if (typeof (context.request as { intoFetchAPIRequest?: unknown }).intoFetchAPIRequest === 'function') {
    context['sendRequest'] = (options: Record<string, unknown> = {}, ...rest: unknown[]) =>
      send(withFetchUserAgent(options, requestHeaders(context), userAgent), ...rest);
    return;
  }
  context['sendRequest'] = (options: Record<string, unknown> = {}, ...rest: unknown[]) => {
    const headers = (options['headers'] ?? requestHeaders(context)) as Headers | undefined;
    if (hasUserAgent(headers)) return send(options, ...rest);
    return send({ ...options, headers: { ...headers, 'user-agent': userAgent } }, ...rest);
  };
}

/**
 * A Crawlee 4 `sendRequest()` call's options with `userAgent` in fetch `Headers`, unless the call's
 * headers or the page request's (which Crawlee sends under the call's) name a user-agent.
 */
function withFetchUserAgent(
  options: Record<string, unknown>,
  pageHeaders: Headers | undefined,
  userAgent: string,
): Record<string, unknown> {
  if (hasUserAgent(pageHeaders)) return options;
  let headers: globalThis.Headers;
  try {
    // The call's own: `Headers`, a record or entries, as fetch takes them.
    headers = new globalThis.Headers(options['headers'] as ConstructorParameters<typeof globalThis.Headers>[0]);
  } catch {
    // Not headers fetch can read: left for Crawlee to answer as it would without the plugin.
    return options;
  }
  if (headers.has('user-agent')) return options;
  headers.set('user-agent', userAgent);
  return { ...options, headers };
}
