/**
 * Around the user's request handler, on every major: what the page says is read right before the
 * handler (meta robots, `X-Robots-Tag`, `rel="nofollow"`, usage signals), its `enqueueLinks` runs in
 * a scope that tells the queue which page the links come from (referrer, `nofollow`, the call's own
 * `onSkippedRequest`), and with `purposes` a page whose usage preferences disallow a declared
 * purpose is kept from the handler (the response checkpoint). And around `crawler.run()`: the
 * queue of each run is claimed, and one summary line is logged at the end.
 */
import { UsageReport } from '@heed/manager';
import type { RobotsGuard } from '../guard/guard.js';
import type { PageInfo } from '../guard/request-notes.js';
import type { SitemapFeeder } from '../sitemaps/feeder.js';
import { pageOf, type ContextInternals, type Handler, type LogInternals, type PublicCrawler } from './crawler-shape.js';
import { readPageInfo } from './page-info.js';
import { payPerCrawl } from './pay-per-crawl.js';
import type { EnqueueScope, QueueHooks } from './request-queue.js';
import { stopNavigation } from './stop-navigation.js';

/** How a major wraps the user's handler (`shared-members.ts`'s `wrapUserHandler`, bound to the crawler). */
export type WrapUserHandler = (wrap: (handler: Handler) => Handler) => boolean;

/**
 * `collects`: the crawler's `enqueueLinks` collects the links into the page's result instead of
 * adding them (see `collectsLinks`): their `nofollow` is judged as they are collected, robots.txt
 * when the crawler adds them to the queue.
 */
export function hookUserHandler(
  wrapUserHandler: WrapUserHandler,
  log: LogInternals,
  guard: RobotsGuard,
  queue: QueueHooks,
  collects = false,
): void {
  const readsUsage = guard.usage.active;
  const readsPages = guard.options.metaRobots || guard.options.honorRelNofollow || readsUsage;
  const failed = (context: ContextInternals, error: unknown) => {
    log.debug(`RobotsPlugin: could not read the robots directives of ${context.request.url}: ${String(error)}`);
  };
  const note = (context: ContextInternals, info: PageInfo) => {
    guard.notes.of(context.request).page = info;
    context['robotsDirectives'] = info.directives;
  };
  /** Reads what the page says (best effort: a page that cannot be read is handled as without it); a promise only when reading needs one. */
  const readPage = (context: ContextInternals): Promise<void> | undefined => {
    try {
      const read = readPageInfo(context, guard.options);
      if (read instanceof Promise) {
        return read.then((info) => note(context, info)).catch((error: unknown) => failed(context, error));
      }
      note(context, read);
    } catch (error) {
      failed(context, error);
    }
    return undefined;
  };
  /** Hands the page to the user's handler, its `enqueueLinks` judging the links as this page's. */
  const handOver = (handler: Handler, context: ContextInternals): Promise<unknown> => {
    const { request } = context;
    const enqueueLinks = context.enqueueLinks;
    if (typeof enqueueLinks === 'function' && collects) {
      context.enqueueLinks = (options?: Record<string, unknown>) => collectFollowed(guard, request, options, enqueueLinks);
    } else if (typeof enqueueLinks === 'function') {
      context.enqueueLinks = (options?: Record<string, unknown>) => {
        const userOnSkipped = options?.['onSkippedRequest'] as ((o: { url: string; reason: string }) => unknown) | undefined;
        // Fields set one by one rather than spread in: this runs once a page, mostly unoptimised.
        const scope: { -readonly [K in keyof EnqueueScope]: EnqueueScope[K] } = { referrer: request.loadedUrl ?? request.url };
        const page = guard.notes.pageOf(request);
        if (page) scope.page = page;
        if (userOnSkipped) scope.alsoNotify = async (url: string) => void (await userOnSkipped({ url, reason: 'robotsTxt' }));
        return queue.enqueueFrom(scope, options, enqueueLinks);
      };
    }
    // Always a promise, as from an async function: a handler that throws rejects.
    try {
      return Promise.resolve(handler(context));
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  };
  // A page read without waiting (a Cheerio page) and no usage check: handed on without an async
  // function around the user's handler, which a crawl would pay for on every page.
  wrapUserHandler((handler) => (context: ContextInternals) => {
    // AdaptivePlaywrightCrawler's HTTP-only rendering hands its answer straight to the handler, past
    // the navigation hooks that stop a 402 elsewhere: stopped here, the stop is passed on
    // (`propagateStops`) rather than the page fetched again in the browser.
    if (collects) {
      const skip = payPerCrawl(context.response, context.request, guard);
      if (skip !== undefined) {
        try {
          stopNavigation(guard.notes, context.request, skip);
        } catch (stop) {
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          return Promise.reject(stop);
        }
      }
    }
    const reading = readsPages ? readPage(collects ? withRenderedPage(context, guard) : context) : undefined;
    if (reading === undefined && !readsUsage) return handOver(handler, context);
    return (async () => {
      await reading;
      if (readsUsage) await checkPageUsage(context, guard);
      return handOver(handler, context);
    })();
  });
}

type Transform = (request: { url: string }) => unknown;

/**
 * An AdaptivePlaywrightCrawler handler's context as read for the page's robots meta tags and
 * headers: where the release's browser rendering hands the handler no page and no answer (3.13),
 * the ones its navigation noted (`rendered`) stand in.
 */
function withRenderedPage(context: ContextInternals, guard: RobotsGuard): ContextInternals {
  const rendered = guard.notes.peek(context.request)?.rendered;
  if (rendered === undefined || pageOf(context) !== undefined || context.response !== undefined) return context;
  return Object.create(context, { page: { value: rendered.page }, response: { value: rendered.response } }) as ContextInternals;
}

/**
 * A page's `enqueueLinks` whose links are collected before the queue: a link the page does not let
 * be followed (`nofollow`) is left out by a `transformRequestFunction` run before the call's own,
 * and reported, with the call's own `onSkippedRequest` told too.
 */
async function collectFollowed(
  guard: RobotsGuard,
  request: ContextInternals['request'],
  options: Record<string, unknown> | undefined,
  enqueueLinks: (options?: Record<string, unknown>) => unknown,
): Promise<unknown> {
  const page = guard.notes.pageOf(request);
  if (page === undefined) return enqueueLinks(options);
  const source = { stage: 'enqueue', referrer: request.loadedUrl ?? request.url, page } as const;
  const own = options?.['transformRequestFunction'] as Transform | undefined;
  const userOnSkipped = options?.['onSkippedRequest'] as ((o: { url: string; reason: string }) => unknown) | undefined;
  const reports: Promise<unknown>[] = [];
  const transformRequestFunction: Transform = (candidate) => {
    const skip = guard.checkpoints.nofollow(candidate.url, source);
    if (skip === undefined) return own ? own(candidate) : candidate;
    reports.push(guard.skips.report(skip), Promise.resolve(userOnSkipped?.({ url: skip.url, reason: 'robotsTxt' })));
    return false;
  };
  try {
    return await enqueueLinks(Object.assign({}, options, { transformRequestFunction }));
  } finally {
    await Promise.all(reports);
  }
}

/**
 * The page's usage verdict (its URL's robots.txt and tdmrep.json, then its headers and meta tags),
 * kept for `robots.usage(context)`; a page that disallows a declared purpose is stopped here.
 */
async function checkPageUsage(context: ContextInternals, guard: RobotsGuard): Promise<void> {
  const { request } = context;
  const pageUrl = request.loadedUrl ?? request.url;
  const evidence = guard.notes.pageOf(request)?.usageEvidence ?? [];
  const base = await guard.usage.report(pageUrl);
  const report = base === undefined ? (evidence.length > 0 ? new UsageReport(pageUrl, evidence) : undefined) : base.with(evidence);
  if (report !== undefined) guard.notes.of(request).usage = report;
  const skip = guard.checkpoints.response(report, pageUrl);
  if (skip !== undefined) stopNavigation(guard.notes, request, skip);
}

/**
 * Wraps `crawler.run()` on either major: `beforeRun` takes hold of the queue the run reads, which is
 * busy while it runs; at the end, sitemaps still being read are stopped and the summary is logged.
 */
export function wrapRun(
  crawler: Pick<PublicCrawler, 'run' | 'log'>,
  guard: RobotsGuard,
  queue: QueueHooks,
  feeder: SitemapFeeder | undefined,
  beforeRun: () => Promise<void>,
): void {
  const original = crawler.run.bind(crawler);
  crawler.run = async (requests?: unknown, options?: unknown) => {
    await beforeRun();
    queue.busy = true;
    try {
      return await original(requests, options);
    } finally {
      // Done reading its queue: a crawler built later on the same queue may claim it.
      queue.busy = false;
      // Ended with sitemaps still being read (maxRequestsPerCrawl, stop()): nothing will crawl them.
      feeder?.stopRunning();
      if (guard.options.logSummary) guard.log.info(guard.stats.summary());
    }
  };
}
