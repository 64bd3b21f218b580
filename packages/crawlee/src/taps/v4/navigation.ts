/**
 * HTTP crawlers on Crawlee 4 (HttpCrawler, CheerioCrawler, JSDOMCrawler, …, and FileDownload):
 * every request their navigation sends passes its door before it leaves. Crawlee 4 navigates in a
 * public pipeline step of the crawler, `makeHttpRequest(context)` (FileDownload's
 * `initiateDownload(context)`), through its HTTP client (`httpClient`, protected), whose
 * `sendRequest` follows redirects itself, calling the client's `fetch` (Crawlee's documented
 * extension point for HTTP clients) once per hop.
 *
 * - that step (on the crawler object) runs in a scope that names the request being navigated, and
 *   reads the answer;
 * - each request of the navigation passes its door before it leaves (`client-fetch.ts`): the first
 *   hop is the URL sent, checked when it differs from the one checked before the fetch (a
 *   `preNavigationHook` that set `request.url`); each later hop is a redirect, checked before it is
 *   requested and made to wait for its origin's crawl-delay.
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
import type { RobotsGuard } from '../../guard/guard.js';
import type { CheckedUrls } from '../../guard/request-notes.js';
import { noteAnswer } from '../../politeness/answer.js';
import { payPerCrawl } from '../pay-per-crawl.js';
import { signFetchRequest } from '../sign-requests.js';
import type { SkipEvent } from '../../report/skip-events.js';
import type { Skips } from '../../report/skips.js';
import type { ContextInternals, RequestInternals } from '../crawler-shape.js';
import { identifyFetchRequest } from '../identify.js';
import { skipRequest } from '../skip-request.js';
import { watchClientFetches, withinClientScope } from './client-fetch.js';
import { httpClientOf, type HttpClientLike } from './internals.js';

/** The navigation in progress: the crawler request, the URL checked before its fetch, the hops sent so far. */
interface NavigationScope {
  readonly request: RequestInternals;
  readonly checked: string;
  readonly guard: RobotsGuard;
  /** The proxy Crawlee picked for the page (its `ProxyInfo`), if any. */
  readonly proxyInfo: unknown;
  /** The user-agent the page goes out under, until it is set on the page's first request. */
  userAgent: string | undefined;
  last: string | undefined;
}

/** The navigation in progress, for the client's `sendRequest` (see {@link identifyNavigations}). */
const navigation = new AsyncLocalStorage<NavigationScope>();
const wrappedClients = new WeakSet<object>();
type MakeHttpRequest = (context: ContextInternals) => Promise<{ response?: unknown } | undefined>;

/** The pipeline steps that send a page's request, by crawler: HTTP crawlers', FileDownload's (both public, 4.0.0-rc.0 and master). */
const NAVIGATION_STEPS = ['makeHttpRequest', 'initiateDownload'] as const;
type NavigationStep = (typeof NAVIGATION_STEPS)[number];

/** How a crawler's navigations are sent, beyond the checks. */
export interface NavigationOptions {
  /** The user-agent pages go out under, when `identifyPages` is on. */
  readonly userAgent: string | undefined;
  /** Whether the crawler's request manager paces a `429` itself (a `ThrottlingRequestManager`). */
  readonly crawleePaces429: boolean;
}

/**
 * Installs the checks on the navigation of `crawler`, when it navigates over HTTP (an
 * `HttpCrawler` or a `FileDownload`: browser crawlers navigate in the browser).
 * `checkedBeforeFetch`: the URL each request was checked for when it left the request manager.
 * Returns false when the crawler has no HTTP navigation to watch.
 */
export async function attachNavigationChecks(
  crawler: object,
  guard: RobotsGuard,
  checkedBeforeFetch: CheckedUrls,
  sending: NavigationOptions,
): Promise<boolean> {
  const c = crawler as Partial<Record<NavigationStep, MakeHttpRequest>>;
  const step = NAVIGATION_STEPS.find((name) => typeof c[name] === 'function');
  const client = httpClientOf(crawler);
  if (step === undefined || client === undefined) return false;
  await watchClientFetches(client);
  identifyNavigations(client);
  const navigate = c[step]!.bind(crawler);
  c[step] = (context) => {
    const { request } = context;
    const checked = checkedBeforeFetch.get(request) ?? request.url;
    const scope: NavigationScope = {
      request,
      checked,
      guard,
      proxyInfo: context['proxyInfo'],
      userAgent: sending.userAgent,
      last: undefined,
    };
    const { signature: signer, maxCrawlPrice } = guard.options;
    const check = (url: string) => checkHop(scope, url);
    const hops =
      signer === undefined
        ? { check }
        : { check, sign: (sent: { url: string; headers?: unknown }) => signFetchRequest(sent, signer, maxCrawlPrice) };
    return navigation.run(scope, async () => {
      const result = await withinClientScope(hops, () => navigate(context));
      await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, result?.response, request, sending.crawleePaces429);
      await skipIfPaymentAsked(result?.response, request, guard);
      return result;
    });
  };
  return true;
}

/**
 * The page's first request goes out under the bot's name: the client's `sendRequest` (public), on
 * the client object, sets the `user-agent` of a navigation's request unless it names one (from
 * `request.headers` or a navigation hook); the client copies it to every hop.
 */
function identifyNavigations(client: HttpClientLike): void {
  if (wrappedClients.has(client)) return;
  wrappedClients.add(client);
  const send = client.sendRequest.bind(client);
  client.sendRequest = (initialRequest, options) => {
    const scope = navigation.getStore();
    if (scope?.userAgent !== undefined) {
      identifyFetchRequest(initialRequest, scope.userAgent);
      scope.userAgent = undefined;
    }
    return send(initialRequest, options);
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
    checkpoints.pageLeaves(scope.request, scope.proxyInfo);
    return;
  }
  const skip = await checkpoints.redirectHop(url, from);
  if (skip !== undefined) await interrupt(scope, skip, `redirect from ${from} to ${url} not followed: robots.txt disallows it`);
}

async function interrupt(scope: NavigationScope, skip: SkipEvent, why: string): Promise<never> {
  return interruptAsSkip(scope.request, skip, scope.guard.skips, why);
}

/**
 * Ends a request being navigated as a skip, as Crawlee ends its own robots.txt skips: SKIPPED, not
 * retried, reported, and `ContextPipelineInterruptedError` thrown so it is not counted as failed.
 */
/** Ends the request as a `payment-required` skip when its answer was `402 Payment Required` (see `pay-per-crawl.ts`). */
export async function skipIfPaymentAsked(response: unknown, request: RequestInternals, guard: RobotsGuard): Promise<void> {
  const skip = payPerCrawl(response, request, guard);
  if (skip !== undefined) await interruptAsSkip(request, skip, guard.skips, `${skip.url} ${skip.message}`);
}

export async function interruptAsSkip(request: RequestInternals, skip: SkipEvent, skips: Skips, why: string): Promise<never> {
  await skipRequest(request, skip, skips);
  const Interrupted = (crawleeCore as unknown as Record<string, unknown>)['ContextPipelineInterruptedError'] as
    (new (message: string) => Error) | undefined;
  throw Interrupted ? new Interrupted(why) : new Error(why);
}
