/**
 * The Crawlee 4 adapter's view of a crawler: the members Heed uses on 4.x, each feature-detected.
 * Crawlee 4 made most `BasicCrawler` members native private fields (navigation hooks, the request
 * handling step, the robots.txt setting), so Heed plugs in where 4.x is designed to be extended:
 *
 * - the request manager (`getRequestManager()`, public): the one source of every request the crawler
 *   fetches and the one sink of every request added (start URLs, `crawler.addRequests`,
 *   `context.addRequests`, `enqueueLinks`, which all end in `addRequestsBatched`);
 * - `ThrottlingRequestManager` (detected by shape, as Crawlee itself does): robots.txt crawl-delays
 *   are handed to its `setCrawlDelay` instead of Heed's own scheduler;
 * - Crawlee's skip path, which calls the user's `onSkippedRequest`: `handleSkippedRequest` (protected
 *   on 4.0.0-rc.0, a native `#private` method after it), else `addRequests` (public) with a
 *   `transformRequestFunction` that skips (see {@link crawleeSkipNotifierV4});
 * - `getRobotsTxtFileForUrl` (protected): Crawlee's own robots.txt check asks it for the file; Heed
 *   answers "none", which turns that check off;
 * - `requestHandler` (protected, as on 3.x): the user's handler, where page directives are read;
 * - `httpClient` (protected): the client HTTP crawlers navigate with (see `navigation.ts`).
 *
 * Checked against 4.0.0-rc.0 (tag `v4.0.0-rc.0` of apify/crawlee) and its `master` at 69a824b (where
 * `BasicCrawler`'s TypeScript-private members became native `#private` fields).
 */
import type { LogInternals, PublicCrawler, RequestInternals, RequestQueueLike } from '../crawler-shape.js';
import { crawleeSkipNotifier } from '../shared-members.js';

/** The public methods of a Crawlee 4 request manager (`IRequestManager`) Heed wraps or calls. */
export interface RequestManagerV4 {
  readonly name?: string | undefined;
  readonly id?: string;
  addRequest(request: unknown, options?: unknown): Promise<unknown>;
  /** `RequestQueue` has it; other managers add through `addRequestsBatched` only. */
  addRequests?(requests: unknown, options?: unknown): Promise<unknown>;
  addRequestsBatched(requests: unknown, options?: unknown): Promise<unknown>;
  fetchNextRequest(): Promise<RequestInternals | null | undefined>;
  markRequestAsHandled(request: RequestInternals): Promise<unknown>;
  reclaimRequest(request: RequestInternals, options?: { forefront?: boolean }): Promise<unknown>;
  isFinished(): Promise<boolean>;
  getPendingCount?(): Promise<number>;
}

/** `ThrottlingRequestManager`'s per-domain pacing, as Crawlee's `supportsDomainThrottling()` detects it. */
export interface DomainThrottling {
  /** Records a robots.txt crawl-delay for the URL's domain; false when the manager does not pace that domain. */
  setCrawlDelay(url: string, delaySeconds: number): boolean;
  recordDomainDelay(url: string, retryAfterMs?: number | null): boolean;
  assertNoStalledDomains(): Promise<void>;
}

/** A Crawlee 4 crawler, as far as Heed uses it. */
export interface CrawlerV4 {
  log: LogInternals;
  getRequestManager(): Promise<RequestManagerV4>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
  run(requests?: unknown, options?: unknown): Promise<unknown>;
}

/** Whether `crawler` is a Crawlee 4 crawler: 4.x replaced `getRequestQueue()`'s queue by a request manager. */
export function isCrawlerV4(crawler: object): boolean {
  return typeof (crawler as Partial<CrawlerV4>).getRequestManager === 'function';
}

/** The name of the first member a Crawlee 4 crawler lacks that Heed cannot work without, or `undefined`. */
export function missingMemberV4(crawler: object): string | undefined {
  const record = crawler as Record<string, unknown>;
  const missing = (['getRequestManager', 'addRequests', 'run'] as const).find((name) => typeof record[name] !== 'function');
  if (missing) return `${missing}()`;
  return typeof record['log'] === 'object' && record['log'] !== null ? undefined : 'log';
}

/** Whether `manager` paces domains itself (a `ThrottlingRequestManager`): the shape Crawlee checks. */
export function domainThrottling(manager: object): DomainThrottling | undefined {
  const m = manager as Partial<DomainThrottling>;
  return typeof m.setCrawlDelay === 'function' &&
    typeof m.recordDomainDelay === 'function' &&
    typeof m.assertNoStalledDomains === 'function'
    ? (m as DomainThrottling)
    : undefined;
}

/**
 * The request manager as the queue wrappers of `queue.ts` see a 3.x request queue. The view calls
 * the manager's own methods as they were before {@link installView}; one view per manager, so two
 * plugins attached to crawlers sharing a manager see the same queue (and the second is refused).
 */
export function queueView(manager: RequestManagerV4): RequestQueueLike {
  let view = views.get(manager);
  if (view !== undefined) return view;
  const original = {
    addRequest: manager.addRequest.bind(manager),
    addRequests: (manager.addRequests ?? manager.addRequestsBatched).bind(manager),
    addRequestsBatched: manager.addRequestsBatched.bind(manager),
    fetchNextRequest: manager.fetchNextRequest.bind(manager),
    markRequestAsHandled: manager.markRequestAsHandled.bind(manager),
    reclaimRequest: manager.reclaimRequest.bind(manager),
    isFinished: manager.isFinished.bind(manager),
  };
  view = {
    get name() {
      return manager.name;
    },
    ...(manager.id !== undefined ? { id: manager.id } : {}),
    addRequest: original.addRequest,
    addRequests: original.addRequests,
    addRequestsBatched: original.addRequestsBatched,
    fetchNextRequest: original.fetchNextRequest,
    markRequestHandled: original.markRequestAsHandled,
    reclaimRequest: original.reclaimRequest,
    isFinished: original.isFinished,
  };
  views.set(manager, view);
  return view;
}

const views = new WeakMap<RequestManagerV4, RequestQueueLike>();
const installed = new WeakSet<RequestManagerV4>();

/**
 * Makes the manager's public methods go through its view (once per manager), so what the wrappers
 * installed on the view decide is what the crawler gets: every add is filtered, every request
 * taken is checked before its fetch, and the crawl does not end while the view says it is not done.
 */
export function installView(manager: RequestManagerV4): void {
  if (installed.has(manager)) return;
  installed.add(manager);
  const view = queueView(manager);
  manager.addRequest = (request, options) => view.addRequest(request, options);
  if (typeof manager.addRequests === 'function') manager.addRequests = (requests, options) => view.addRequests(requests, options);
  manager.addRequestsBatched = (requests, options) => view.addRequestsBatched(requests, options);
  manager.fetchNextRequest = () => view.fetchNextRequest();
  manager.isFinished = () => view.isFinished();
}

/** Protected members of a Crawlee 4 crawler, each optional: what a build lacks is `undefined`. */
interface ProtectedMembersV4 {
  getRobotsTxtFileForUrl?(url: string): Promise<unknown>;
}

/**
 * Turns Crawlee's own `respectRobotsTxtFile` checks off: with the option on, Crawlee asks
 * `getRobotsTxtFileForUrl` (protected) for each URL's file before it enqueues and before it
 * fetches; without a file it allows the URL. Heed answers "no file", so one parser decides and
 * robots.txt is fetched once; Crawlee asks only when the option is on, so the first ask is when
 * Heed says it replaced the check.
 */
export function turnOffCrawleeRobotsCheckV4(crawler: PublicCrawler | CrawlerV4): void {
  const c = crawler as ProtectedMembersV4;
  if (typeof c.getRobotsTxtFileForUrl !== 'function') return;
  let told = false;
  c.getRobotsTxtFileForUrl = () => {
    if (!told) {
      told = true;
      crawler.log.info("RobotsPlugin: replacing the crawler's respectRobotsTxtFile checks with Heed's.");
    }
    return Promise.resolve(undefined);
  };
}

/** `sendRequest` of an HTTP client (`BaseHttpClient` of `@crawlee/http-client`), the one public method Heed wraps. */
export interface HttpClientLike {
  sendRequest(initialRequest: { url: string }, options?: unknown): Promise<unknown>;
}

/** The HTTP client of `crawler` (`httpClient`, protected: the `httpClient` option or Crawlee's default), when it has one. */
export function httpClientOf(crawler: object): HttpClientLike | undefined {
  const client = (crawler as { httpClient?: unknown }).httpClient;
  if (typeof client !== 'object' || client === null) return undefined;
  return typeof (client as Partial<HttpClientLike>).sendRequest === 'function' ? (client as HttpClientLike) : undefined;
}

/**
 * Crawlee's skip path on 4.x, which logs and calls the crawler's `onSkippedRequest` (as
 * `{ url, reason: 'robotsTxt' }`), or `undefined` when the crawler has neither way in:
 * - `handleSkippedRequest` (protected on 4.0.0-rc.0, as on 3.13.8+);
 * - after rc.0 it is a native `#private` method, and `addRequests` (public) is the one way into it:
 *   a request its `transformRequestFunction` answers `'skip'` for is reported to it with the reason
 *   the request options' `skippedReason` names. The URL is handed to that call alone and added to
 *   nothing. Crawlee then logs a robots.txt reason as it logs its own `respectRobotsTxtFile` skips.
 */
export function crawleeSkipNotifierV4(crawler: PublicCrawler | CrawlerV4): ((url: string) => Promise<void>) | undefined {
  const viaProtected = crawleeSkipNotifier(crawler as PublicCrawler);
  if (viaProtected !== undefined) return viaProtected;
  if (typeof crawler.addRequests !== 'function') return undefined;
  const options = { transformRequestFunction: skipAsRobotsTxt, waitForAllRequestsToBeAdded: true };
  return async (url) => {
    await crawler.addRequests([url], options);
  };
}

/** A `transformRequestFunction` that skips every request, as robots.txt skips. */
function skipAsRobotsTxt(requestOptions: { skippedReason?: string }): 'skip' {
  requestOptions.skippedReason = 'robotsTxt';
  return 'skip';
}
