/**
 * The hooks a Crawlee 4 crawler gets (see `crawler-v4.ts` for the members used):
 * - the request manager, through the same queue wrappers as 3.x (`queue.ts`): the enqueue filter,
 *   the check before the fetch (a disallowed request ends as SKIPPED through Crawlee's skip path),
 *   crawl-delay, and the end of the crawl waiting for sitemaps;
 * - crawl-delay: with a `ThrottlingRequestManager`, each origin's robots.txt delay is handed to its
 *   `setCrawlDelay` (it paces the domain); otherwise Heed's own scheduler paces it, as on 3.x;
 * - the user's request handler, as on 3.x (`basic.ts`): page directives and usage are read right
 *   before it, its `enqueueLinks` calls carry the page (referrer, `nofollow`), `sendRequest` is checked;
 * - the HTTP client of HTTP crawlers (`navigation.ts`): redirect hops and a URL a `preNavigationHook`
 *   rewrote are checked before they are requested; pages go out under the bot's name; the crawl
 *   clock is moved at send and paused for a `Retry-After`;
 * - the navigation of browser crawlers (`browser.ts`): the page guards of 3.x (redirects, script
 *   navigations, popups, sub-resources), the page's user-agent, `Retry-After`;
 * - `run` (public): the manager is claimed again for each run; one summary line at the end.
 *
 * - JSDOM's sub-resources (`blockSubresources`, `jsdom.ts`): each page is noted by its final URL
 *   while it is built and handled.
 */
import { CrawlDelayScheduler } from '../../crawl-delay.js';
import type { RobotsGuard } from '../../guard.js';
import type { Skips } from '../../report/skips.js';
import type { SitemapFeeder } from '../../sitemaps/feeder.js';
import type { AdapterParts } from '../adapter.js';
import { hookUserHandler, wrapRun } from '../basic.js';
import { wrapUserHandler, type ContextInternals, type PublicCrawler } from '../crawler-internals.js';
import type { QueueHooks } from '../queue.js';
import { handleChecked } from '../handle-checked.js';
import { skipRequest } from '../skip-request.js';
import { attachJsdomHooksV4, forgetPage, notePage } from '../jsdom.js';
import { attachBrowserNavigationV4 } from './browser.js';
import { domainThrottling, installView, queueView, type CrawlerV4, type DomainThrottling, type RequestManagerV4 } from './crawler-v4.js';
import { attachNavigationChecks, InFlight } from './navigation.js';

/** The request manager of a Crawlee 4 crawler, seen as a 3.x request queue (for `assertQueueFree`). */
export async function requestQueueOf(crawler: CrawlerV4): Promise<ReturnType<typeof queueView>> {
  return queueView(await crawler.getRequestManager());
}

export async function attachHooksV4(parts: AdapterParts): Promise<void> {
  const { guard, skips, queue, feeder, options } = parts;
  const crawler = parts.crawler as unknown as CrawlerV4;
  const inFlight = new InFlight();
  const claim = (manager: RequestManagerV4) => claimManager(queue, manager, inFlight);
  const manager = await crawler.getRequestManager();
  claim(manager);
  // Crawlee 4 tells a ThrottlingRequestManager of each 429 itself.
  const crawleePaces429 = domainThrottling(manager) !== undefined;
  const target = parts.crawler;
  const jsdom = attachJsdomHooksV4(crawler, guard);
  await attachNavigationChecks(crawler, guard, skips, inFlight, queue.checkedBeforeFetch, {
    userAgent: options.identifyPages ? options.userAgent : undefined,
    crawleePaces429,
    // JSDOM names the page by its final URL (the answer's), the referrer of its sub-resources.
    onAnswer: jsdom ? (request, response) => notePage(answerUrl(response) ?? request.url, guard) : undefined,
  });
  attachBrowserNavigationV4(target, guard, skips, options, queue.checkedBeforeFetch, crawleePaces429);
  if (!jsdom) warnUncovered(crawler, guard);
  hookUserHandler(target, guard, queue);
  hookRequestHandling(target, guard, skips, queue, inFlight, jsdom);
  hookRun(crawler, guard, queue, feeder, claim);
}

/** The final URL of a fetch `Response` (Crawlee 4's `ResponseWithUrl`), when it names one. */
function answerUrl(response: unknown): string | undefined {
  const url = (response as { url?: unknown } | null)?.url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** Says, once per attach, which checks of the 3.x adapter this crawler does not get on 4.x (see the header). */
function warnUncovered(crawler: CrawlerV4, guard: RobotsGuard): void {
  const classes: string[] = [];
  for (let proto: unknown = Object.getPrototypeOf(crawler); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    classes.push(String((proto as { constructor?: { name?: unknown } }).constructor?.name));
  }
  if (guard.options.blockSubresources && classes.includes('JSDOMCrawler')) {
    crawler.log.warning(
      "RobotsPlugin: on Crawlee 4, JSDOM's sub-resources (blockSubresources) are not checked yet; Crawlee 3.13+ checks them.",
    );
  }
}

const noted = new WeakSet<object>();

/**
 * Claims the manager for `queue`'s plugin and makes its methods go through the queue wrappers;
 * requests it lets go are noted as navigating (see `navigation.ts`).
 */
function claimManager(queue: QueueHooks, manager: RequestManagerV4, inFlight: InFlight): void {
  const view = queueView(manager);
  queue.wrap(view);
  installView(manager);
  if (noted.has(view)) return;
  noted.add(view);
  const checked = view.fetchNextRequest.bind(view);
  view.fetchNextRequest = async () => {
    const request = await checked();
    if (request) inFlight.add(request);
    return request;
  };
}

/**
 * Heed's crawl-delay scheduler for a crawler whose request manager paces domains itself
 * (`ThrottlingRequestManager`): a delay the manager takes for the origin is its to enforce (Heed
 * then holds nothing back); a delay it declines (a domain it does not throttle) Heed enforces.
 */
export class ThrottledCrawlDelays extends CrawlDelayScheduler {
  constructor(
    private readonly maxDelaySecs: number,
    private readonly throttling: DomainThrottling,
  ) {
    super(maxDelaySecs * 1000);
  }

  override setDelay(origin: string, seconds: number | undefined, now = Date.now()): void {
    const positive = seconds !== undefined && Number.isFinite(seconds) && seconds > 0;
    if (positive && this.throttling.setCrawlDelay(origin, Math.min(seconds, this.maxDelaySecs))) super.setDelay(origin, 0, now);
    else super.setDelay(origin, seconds, now);
  }
}

/**
 * Around the user's handler, outside the page reading of `hookUserHandler`: counts the request
 * allowed, checks `sendRequest`, and ends as a skip a page stopped on purpose (its usage
 * preferences disallow a declared purpose). A request that reached the handler without passing the
 * request manager's check (a crawler that reads from elsewhere) is checked here and not handed on.
 */
function hookRequestHandling(
  crawler: PublicCrawler,
  guard: RobotsGuard,
  skips: Skips,
  queue: QueueHooks,
  inFlight: InFlight,
  jsdomPages: boolean,
): void {
  let warnedBypass = false;
  wrapUserHandler(crawler, (handler) => async (context: ContextInternals) => {
    const { request } = context;
    // Navigated (a crawler without an HTTP client, or one that sent nothing): no longer navigating.
    inFlight.delete(request);
    if (!queue.checkedBeforeFetch.has(request)) {
      if (!warnedBypass) {
        warnedBypass = true;
        crawler.log.error(
          `RobotsPlugin: ${request.url} reached the request handler without passing Heed's check in the request manager's ` +
            'fetchNextRequest(); it is checked here instead, after its fetch. Logged once.',
        );
      }
      const skip = await guard.skipFor(request.url, 'before-fetch');
      if (skip !== undefined) {
        await skipRequest(request, skip, skips);
        return;
      }
      queue.checkedBeforeFetch.set(request, request.url);
    }
    try {
      await handleChecked(context, guard, skips, handler);
    } finally {
      if (jsdomPages) forgetPage(request.loadedUrl ?? request.url);
    }
  });
}

function hookRun(
  crawler: CrawlerV4,
  guard: RobotsGuard,
  queue: QueueHooks,
  feeder: SitemapFeeder | undefined,
  claim: (manager: RequestManagerV4) => void,
): void {
  wrapRun(crawler, guard, queue, feeder, async () => claim(await crawler.getRequestManager()));
}
