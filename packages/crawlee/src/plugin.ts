/**
 * `RobotsPlugin.attach(crawler, options)`: the one call that makes a Crawlee crawler obey robots.txt
 * through Heed. It validates the options, picks (or creates) the manager, and installs the hooks for
 * the crawler's kind: every crawler gets the queue, robots-check, request-handling, crawl-delay and
 * summary hooks; HTTP crawlers the got redirect hook; browser crawlers request interception.
 */
import { attachBasicHooks } from './attach/basic.js';
import { attachBrowserHooks } from './attach/browser.js';
import { crawlerKind, missingExtensionPoint, type CrawlerInternals } from './attach/crawler-internals.js';
import { attachHttpHooks } from './attach/http.js';
import { CrawlDelayScheduler } from './crawl-delay.js';
import { AlreadyAttachedError, UnsupportedCrawlerError } from './errors.js';
import { RobotsGuard } from './guard.js';
import type { RobotsManagerLike } from './manager-contract.js';
import { NO_DIRECTIVES, type RobotsDirectives } from './meta-robots.js';
import { resolveOptions, type ResolvedOptions, type RobotsPluginOptions } from './options.js';
import { SitemapFeeder } from './sitemap-feeder.js';
import type { SitemapUrl } from './sitemaps/index.js';
import { SkipReporter } from './skips.js';
import { PluginStats, type RobotsPluginStats } from './stats.js';

/** Crawlers already attached, so a second `attach()` fails instead of doubling every check. */
const attached = new WeakSet<object>();

/** A Crawlee crawler, as `attach()` accepts it: any `BasicCrawler` subclass instance. */
export type AnyCrawler = object;

/** The crawling context property the plugin adds: the page's robots directives. */
export interface RobotsCrawlingContext {
  /** Robots meta tags and `X-Robots-Tag` of the page, for this crawler's token. */
  readonly robotsDirectives: RobotsDirectives;
}

export class RobotsPlugin {
  private constructor(
    /** The options in force, defaults filled in. */
    readonly options: ResolvedOptions,
    /** The manager deciding; shared when one was passed in. */
    readonly manager: RobotsManagerLike,
    private readonly guard: RobotsGuard,
    private readonly feeder: SitemapFeeder | undefined,
    private readonly ownsManager: boolean,
  ) {}

  /**
   * Attaches Heed to `crawler` (BasicCrawler, HttpCrawler, CheerioCrawler, JSDOMCrawler,
   * PlaywrightCrawler or PuppeteerCrawler, before `run()`):
   * ```ts
   * const robots = await RobotsPlugin.attach(crawler, { userAgent: 'MyBot/1.0 (+https://example.com/bot)' });
   * ```
   * @throws InvalidOptionsError when an option is unknown or out of range.
   * @throws UnsupportedCrawlerError when `crawler` is not a Crawlee 3 crawler.
   */
  static async attach(crawler: AnyCrawler, options: RobotsPluginOptions): Promise<RobotsPlugin> {
    const resolved = resolveOptions(options);
    if (typeof crawler !== 'object' || crawler === null) throw new UnsupportedCrawlerError(String(crawler));
    const missing = missingExtensionPoint(crawler);
    if (missing) throw new UnsupportedCrawlerError(`an object without ${missing}()`);
    if (attached.has(crawler)) throw new AlreadyAttachedError();
    const internals = crawler as CrawlerInternals;

    const manager = resolved.manager ?? (await createManager(resolved.userAgent, resolved.productToken));
    const stats = new PluginStats();
    const warn = (message: string) => internals.log.warning(message);
    const reporter = new SkipReporter(
      stats,
      resolved.onSkip,
      (url) => internals.handleSkippedRequest({ url, reason: 'robotsTxt' }),
      (message, error) => internals.log.warning(`${message}: ${error instanceof Error ? error.message : String(error)}`),
    );
    const crawlDelays = resolved.crawlDelay ? new CrawlDelayScheduler(resolved.maxCrawlDelaySecs * 1000) : undefined;
    // Sitemap URLs are checked by the guard, then added with the crawler's own addRequests as it is
    // before the hooks (which would check them a second time).
    const addChecked = internals.addRequests.bind(internals);
    const feeder = resolved.sitemaps
      ? new SitemapFeeder(resolved.sitemaps, {
          manager,
          userAgent: resolved.userAgent,
          stats,
          warn,
          pending: () => internals.pendingRequestCountApproximation ?? 0,
          enqueue: (entries) => enqueueSitemapUrls(entries, guard, addChecked, resolved.sitemaps ? resolved.sitemaps.label : undefined),
        })
      : undefined;
    const guard: RobotsGuard = new RobotsGuard(resolved, manager, stats, reporter, crawlDelays, feeder, warn);
    const kind = crawlerKind(internals);
    if (kind === 'http') attachHttpHooks(internals, guard);
    if (kind === 'browser') attachBrowserHooks(internals, guard);
    attachBasicHooks(internals, guard);
    attached.add(crawler);
    return new RobotsPlugin(resolved, manager, guard, feeder, resolved.manager === undefined);
  }

  /** What the plugin has done so far: allowed, skipped by reason and stage, robots.txt statuses, sitemap URLs. */
  get stats(): RobotsPluginStats {
    return this.guard.stats.snapshot();
  }

  /** The summary line the plugin logs at the end of `crawler.run()`. */
  summary(): string {
    return this.guard.stats.summary();
  }

  /**
   * The robots directives of the page being handled (meta robots tags and `X-Robots-Tag`, for this
   * crawler's token). Call it in the request handler: `if (robots.directives(ctx).noindex) return;`.
   */
  directives(context: { request: object }): RobotsDirectives {
    return this.guard.pages.get(context.request)?.directives ?? NO_DIRECTIVES;
  }

  /** Resolves once every sitemap read in the background has been enqueued (or given up). */
  async sitemapsDone(): Promise<void> {
    await this.feeder?.whenIdle();
  }

  /** Stops sitemap reading and, when the plugin created the manager, closes it. */
  async close(): Promise<void> {
    this.feeder?.close();
    if (this.ownsManager) await this.manager.close();
  }
}

/** Puts sitemap URLs into the queue: robots-checked (stage `sitemap`), labelled. Resolves to how many were added. */
async function enqueueSitemapUrls(
  entries: readonly SitemapUrl[],
  guard: RobotsGuard,
  addChecked: (requests: unknown, options?: unknown) => Promise<unknown>,
  label: string | undefined,
): Promise<number> {
  const requests = entries.map((e) => ({ url: e.url, ...(label ? { label } : {}), userData: { sitemapUrl: e.sitemapUrl } }));
  const accepted: typeof requests = [];
  for await (const request of guard.filter(requests, { stage: 'sitemap' })) accepted.push(request);
  if (accepted.length > 0) await addChecked(accepted, { waitForAllRequestsToBeAdded: true });
  return accepted.length;
}

async function createManager(userAgent: string, productToken: string): Promise<RobotsManagerLike> {
  // Loaded on demand: a plugin handed a manager never needs the module.
  const { RobotsManager } = await import('@heed/manager');
  return new RobotsManager({ userAgent, productToken }) as unknown as RobotsManagerLike;
}
