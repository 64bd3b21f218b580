/**
 * HTTP crawlers on Crawlee 4 (HttpCrawler, CheerioCrawler, JSDOMCrawler, …): every request their
 * navigation sends is checked before it leaves. Crawlee 4 navigates in a private step through the
 * crawler's HTTP client (`httpClient`, protected), whose `sendRequest` follows redirects itself,
 * calling the client's `fetch` (Crawlee's documented extension point for HTTP clients) once per hop.
 *
 * - `sendRequest` of the crawler's client is wrapped: a call for a request the crawler is
 *   navigating (it left the request manager and has not reached the handler) runs in a scope that
 *   names that request;
 * - `fetch`, on the client's class and on the classes of Crawlee's own clients (the default client
 *   is made inside a private field, so its class is the only way in; the check applies only inside
 *   the scope, other callers are left as they are): the first hop is the URL sent, checked when it
 *   differs from the one checked before the fetch (a `preNavigationHook` that set `request.url`);
 *   each later hop is a redirect, checked before it is requested and made to wait for its origin's
 *   crawl-delay.
 *
 * - the page goes out under the bot's name (`identifyPages`): a `user-agent` header, unless the
 *   request names one (Crawlee's clients send an explicit header over the one they generate);
 * - politeness: the first hop waits for the origin's crawl-delay counted from the last request
 *   really sent (a pause for a `Retry-After` included) and marks the origin sent; the answer's
 *   `Retry-After` on a `429` or `503` pauses the origin (a `429` is left to a
 *   `ThrottlingRequestManager`, which Crawlee itself tells of it).
 *
 * A disallowed hop ends the request as a skip the way Crawlee ends its own robots.txt skips:
 * SKIPPED, not retried, reported through `onSkippedRequest`, and `ContextPipelineInterruptedError`
 * (public, `@crawlee/core` 4.x) thrown so the crawler marks it handled without counting a failure.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as crawleeCore from '@crawlee/core';
import { sameUrl } from '../../guard/checkpoints.js';
import type { RobotsGuard } from '../../guard/guard.js';
import type { CheckedUrls } from '../../guard/request-notes.js';
import { noteAnswer } from '../../politeness/answer.js';
import type { SkipEvent } from '../../report/skip-events.js';
import type { Skips } from '../../report/skips.js';
import type { RequestInternals } from '../crawler-shape.js';
import { identifyFetchRequest } from '../identify.js';
import { skipRequest } from '../skip-request.js';
import { httpClientOf } from './internals.js';

/** The navigation in progress: the crawler request, the URL checked before its fetch, the hops sent so far. */
interface NavigationScope {
  readonly request: RequestInternals;
  readonly checked: string;
  readonly guard: RobotsGuard;
  readonly skips: Skips;
  readonly sent: WeakSet<object>;
  last: string | undefined;
}

const navigation = new AsyncLocalStorage<NavigationScope>();
const patchedFetch = new WeakSet<object>();
const wrappedClients = new WeakSet<object>();

type Fetch = (this: unknown, input: { url: string }, init?: unknown) => Promise<unknown>;

/** Requests the crawler took from the request manager and is navigating, by URL (read live: a hook may rewrite it). */
export class InFlight {
  private readonly requests = new Set<RequestInternals>();

  add(request: RequestInternals): void {
    // A request whose navigation failed before sending anything never reaches the handler: the set is bounded.
    if (this.requests.size >= MAX_IN_FLIGHT) this.requests.delete(this.requests.values().next().value as RequestInternals);
    this.requests.add(request);
  }

  delete(request: RequestInternals): void {
    this.requests.delete(request);
  }

  /** The navigating request whose URL is `url`, taken out of the set. */
  take(url: string): RequestInternals | undefined {
    for (const request of this.requests) {
      if (!sameUrl(request.url, url)) continue;
      this.requests.delete(request);
      return request;
    }
    return undefined;
  }
}

/** Navigations in progress kept at most (far above any crawler's concurrency). */
const MAX_IN_FLIGHT = 10_000;

/** How a crawler's navigations are sent, beyond the checks. */
export interface NavigationOptions {
  /** The user-agent pages go out under, when `identifyPages` is on. */
  readonly userAgent: string | undefined;
  /** Whether the crawler's request manager paces a `429` itself (a `ThrottlingRequestManager`). */
  readonly crawleePaces429: boolean;
}

/**
 * Installs the checks on the HTTP client of `crawler` (when it has one: browser crawlers navigate
 * in the browser). `checkedBeforeFetch`: the URL each request was checked for when it left the
 * request manager. Returns false when the crawler has no HTTP client to watch.
 */
export async function attachNavigationChecks(
  crawler: object,
  guard: RobotsGuard,
  inFlight: InFlight,
  checkedBeforeFetch: CheckedUrls,
  sending: NavigationOptions,
): Promise<boolean> {
  const client = httpClientOf(crawler);
  if (client === undefined) return false;
  patchFetchOf(client);
  for (const loaded of await crawleeClientClasses()) patchFetchOf(loaded.prototype);
  if (wrappedClients.has(client)) return true;
  wrappedClients.add(client);
  const c = client;
  const original = c.sendRequest.bind(c);
  c.sendRequest = (initialRequest, options) => {
    const request = initialRequest && typeof initialRequest.url === 'string' ? inFlight.take(initialRequest.url) : undefined;
    if (request === undefined) return original(initialRequest, options);
    const checked = checkedBeforeFetch.get(request) ?? request.url;
    if (sending.userAgent !== undefined) identifyFetchRequest(initialRequest, sending.userAgent);
    return navigation.run({ request, checked, guard, skips: guard.skips, sent: new WeakSet(), last: undefined }, async () => {
      const response = await original(initialRequest, options);
      await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, response, request, sending.crawleePaces429);
      return response;
    });
  };
  return true;
}

/** The classes of Crawlee 4's own HTTP clients that are installed (the default `ImpitHttpClient`, the fallback `FetchHttpClient`). */
async function crawleeClientClasses(): Promise<{ prototype: object }[]> {
  const found: { prototype: object }[] = [];
  for (const [specifier, name] of [
    ['@crawlee/impit-client', 'ImpitHttpClient'],
    ['@crawlee/http-client', 'FetchHttpClient'],
  ] as const) {
    try {
      const module = (await import(specifier)) as Record<string, unknown>;
      const loaded = module[name] as { prototype?: unknown } | undefined;
      if (typeof loaded === 'function' && typeof loaded.prototype === 'object' && loaded.prototype !== null) found.push(loaded);
    } catch {
      // Not installed: that client is not the crawler's.
    }
  }
  return found;
}

/** Wraps `fetch` where `target`'s prototype chain defines it (once per defining object). */
function patchFetchOf(target: object): void {
  let owner: object | null = target;
  while (owner !== null && !Object.prototype.hasOwnProperty.call(owner, 'fetch')) owner = Object.getPrototypeOf(owner) as object | null;
  if (owner === null || patchedFetch.has(owner)) return;
  const original = (owner as { fetch?: unknown }).fetch;
  if (typeof original !== 'function') return;
  patchedFetch.add(owner);
  const fetch = original as Fetch;
  (owner as { fetch: Fetch }).fetch = async function (this: unknown, input, init) {
    const scope = navigation.getStore();
    if (scope !== undefined && typeof input === 'object' && input !== null && !scope.sent.has(input)) {
      scope.sent.add(input);
      await checkHop(scope, input.url);
    }
    return fetch.call(this, input, init);
  };
}

/** Checks one request of a navigation: the first is the URL sent (a rewrite when not the one checked), the others redirects. */
async function checkHop(scope: NavigationScope, url: string): Promise<void> {
  const { checkpoints, clock } = scope.guard;
  const from = scope.last;
  scope.last = url;
  if (from === undefined) {
    const skip = await checkpoints.rewrite(scope.checked, url);
    if (skip !== undefined) await interrupt(scope, skip, `${scope.checked} was rewritten to ${url}, which robots.txt disallows`);
    // The last step before the page leaves: its crawl-delay counts from the last request really sent.
    await clock?.beforeSend(url);
    return;
  }
  const skip = await checkpoints.redirectHop(url, from);
  if (skip !== undefined) await interrupt(scope, skip, `redirect from ${from} to ${url} not followed: robots.txt disallows it`);
}

async function interrupt(scope: NavigationScope, skip: SkipEvent, why: string): Promise<never> {
  return interruptAsSkip(scope.request, skip, scope.skips, why);
}

/**
 * Ends a request being navigated as a skip, as Crawlee ends its own robots.txt skips: SKIPPED, not
 * retried, reported, and `ContextPipelineInterruptedError` thrown so it is not counted as failed.
 */
export async function interruptAsSkip(request: RequestInternals, skip: SkipEvent, skips: Skips, why: string): Promise<never> {
  await skipRequest(request, skip, skips);
  const Interrupted = (crawleeCore as unknown as Record<string, unknown>)['ContextPipelineInterruptedError'] as
    (new (message: string) => Error) | undefined;
  throw Interrupted ? new Interrupted(why) : new Error(why);
}
