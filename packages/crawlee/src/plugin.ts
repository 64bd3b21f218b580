/**
 * `RobotsPlugin.attach(crawler, options)`: the one call that makes a Crawlee crawler obey robots.txt
 * through Heed. It validates the options, checks the Crawlee release, picks (or creates) the manager,
 * makes the parts (guard, skips, queue hooks, sitemap feeder) and hands them to the adapter of the
 * crawler's major (`attach/v3.ts`, `attach/v4/adapter.ts`), which installs the hooks for the
 * crawler's kind through that major's extension points.
 */
import type { Log, UsageReport } from '@heed/manager';
import type { ProductTokens } from '@heed/parser';
import {
  crawleeRelease,
  crawleeSkipNotifier,
  crawlerRelease,
  isSupportedRelease,
  majorOf,
  missingMember,
  pendingRequestCount,
  SUPPORTED_CRAWLEE_RANGE,
  type PublicCrawler,
} from './attach/crawler-internals.js';
import { crawlerFetchContext, withFetchContext } from './attach/proxy.js';
import { attachV3 } from './attach/v3.js';
import { attachV4 } from './attach/v4/adapter.js';
import { domainThrottling, isCrawlerV4, missingMemberV4, type CrawlerV4 } from './attach/v4/crawler-v4.js';
import { requestQueueOf, ThrottledCrawlDelays } from './attach/v4/hooks.js';
import { assertQueueFree, PendingRequests, QueueHooks } from './attach/queue.js';
import { CrawlDelayScheduler } from './crawl-delay.js';
import { AlreadyAttachedError, UnsupportedCrawleeVersionError, UnsupportedCrawlerError } from './errors.js';
import { RobotsGuard } from './guard.js';
import type { RobotsManagerLike } from './manager-contract.js';
import { NO_DIRECTIVES, type RobotsDirectives } from './page-signals/meta-robots.js';
import { resolveOptions, type ResolvedOptions, type ResolvedSitemapOptions, type RobotsPluginOptions } from './options.js';
import { SitemapFeeder, type SitemapFeederDeps } from './sitemaps/feeder.js';
import type { SitemapUrl } from './sitemaps/index.js';
import { managerLogOf } from './report/crawler-log.js';
import { SkipLog } from './report/skip-log.js';
import { Skips } from './report/skips.js';
import { PluginStats, type RobotsPluginStats } from './report/stats.js';

/** Crawlers already attached, so a second `attach()` fails instead of doubling every check. */
const attached = new WeakSet<object>();

/**
 * A Crawlee crawler, as `attach()` accepts it: any `BasicCrawler` subclass instance of Crawlee 3.13+
 * or 4 (HttpCrawler, CheerioCrawler, JSDOMCrawler, PlaywrightCrawler, PuppeteerCrawler, or your own
 * subclass). Declared by the public members both majors share, so one declaration of Heed accepts
 * the crawler of whichever major is installed.
 */
export interface AnyCrawler {
  run(...args: never[]): Promise<unknown>;
  addRequests(...args: never[]): Promise<unknown>;
  getRequestQueue(): Promise<unknown>;
  readonly log: object;
}

/** The crawling context property the plugin adds: the page's robots directives. */
export interface RobotsCrawlingContext {
  /** Robots meta tags and `X-Robots-Tag` of the page, for this crawler's token(s). */
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
   * @throws UnsupportedCrawlerError when `crawler` is not a Crawlee crawler.
   * @throws UnsupportedCrawleeVersionError when Crawlee is outside `>=3.13.0 <4.0.0 || >=4.0.0-rc.0 <5.0.0` (the message names the release found).
   * @throws SharedRequestQueueError when another crawler with a plugin reads the same request queue (give each its own).
   */
  static async attach(crawler: AnyCrawler, options: RobotsPluginOptions): Promise<RobotsPlugin> {
    const resolved = resolveOptions(options);
    if (typeof crawler !== 'object' || crawler === null) throw new UnsupportedCrawlerError(String(crawler));
    // The crawler's own release decides; the @crawlee/core this package resolves is the fallback.
    const resolvedRelease = crawleeRelease();
    const release = crawlerRelease(crawler) ?? resolvedRelease;
    if (release !== undefined && !isSupportedRelease(release)) throw new UnsupportedCrawleeVersionError(release, SUPPORTED_CRAWLEE_RANGE);
    // One adapter per major: the crawler's own shape decides (4.x crawlers load as ES modules, so
    // their release is read from the @crawlee/core beside them), the release found confirms.
    const v4 = isCrawlerV4(crawler) || majorOf(release) === 4;
    const missing = v4 ? missingMemberV4(crawler) : missingMember(crawler);
    if (missing) {
      if (release !== undefined && 'run' in crawler)
        throw new UnsupportedCrawleeVersionError(release, SUPPORTED_CRAWLEE_RANGE, `its crawler has no ${missing}`);
      throw new UnsupportedCrawlerError(`an object without ${missing}`);
    }
    if (attached.has(crawler)) throw new AlreadyAttachedError();
    const target = crawler as unknown as PublicCrawler;
    // A queue another plugin reads: refused before anything is hooked.
    assertQueueFree(v4 ? await requestQueueOf(crawler as unknown as CrawlerV4) : await target.getRequestQueue());
    if (release !== undefined && resolvedRelease !== undefined && release !== resolvedRelease) {
      target.log.warning(
        `RobotsPlugin: two copies of Crawlee are installed: the crawler's is ${release}, the @crawlee/core @heed/crawlee loads is ` +
          `${resolvedRelease}. It works, but install @crawlee/core@${release} beside your crawler package so npm keeps one.`,
      );
    }

    // The parts, each made from the ones before it.
    const manager = resolved.manager ?? (await createManager(resolved.userAgent, resolved.productToken, managerLogOf(target.log)));
    // Heed's own fetches for this crawler (robots.txt, tdmrep.json, sitemaps) go through its proxies.
    const fetchContext = crawlerFetchContext(target);
    const asked = fetchContext === undefined ? manager : withFetchContext(manager, fetchContext);
    const warn = (message: string) => target.log.warning(message);
    const stats = new PluginStats();
    const notifyCrawlee = crawleeSkipNotifier(target);
    const skips = new Skips(
      stats,
      resolved.onSkip,
      async (url) => notifyCrawlee?.(url),
      (message, error) => target.log.warning(`${message}: ${error instanceof Error ? error.message : String(error)}`),
      new SkipLog(resolved.logSkips, target.log),
    );
    const crawlDelays = resolved.crawlDelay ? await newCrawlDelays(v4, target, resolved.maxCrawlDelaySecs) : undefined;
    const guard = new RobotsGuard(resolved, asked, stats, skips, crawlDelays, warn);
    const pending = new PendingRequests();
    const queue = new QueueHooks(guard, skips, pending, target.log, v4);
    const feeder = resolved.sitemaps
      ? newFeeder(
          resolved.sitemaps,
          {
            manager: asked,
            userAgent: resolved.userAgent,
            stats,
            warn,
            info: (m) => target.log.info(m),
            ...(fetchContext?.proxyUrl ? { proxyUrl: fetchContext.proxyUrl } : {}),
          },
          guard,
          target,
          pending,
          queue,
        )
      : undefined;
    if (feeder) guard.tellPageOrigins(feeder);
    if (feeder) queue.alsoWaitFor(feeder);
    const adapter = v4 ? attachV4 : attachV3;
    await adapter({ crawler: target, options: resolved, guard, skips, queue, feeder });
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
   * crawler's token, or any of its tokens when `productToken` is a list). Call it in the request handler: `if (robots.directives(ctx).noindex) return;`.
   */
  directives(context: { request: object }): RobotsDirectives {
    return this.guard.pageOf(context.request)?.directives ?? NO_DIRECTIVES;
  }

  /**
   * The AI-usage verdict of the page being handled, with `purposes` declared: its URL's robots.txt
   * (`Content-Usage`, `Content-Signal`) and tdmrep.json, then its response headers and meta tags,
   * each category with the evidence that decided (`report.decision('train-ai')`). Call it in the
   * request handler. `undefined` without `purposes`, or when nothing could be read.
   */
  usage(context: { request: object }): UsageReport | undefined {
    return this.guard.usageOf(context.request);
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

/**
 * The sitemap feeder of `crawler`: its files are fetched as `guard` admits them, its URLs enqueued
 * through `guard`'s filter, while the crawler has fewer than `maxPendingRequests` pending.
 */
function newFeeder(
  options: ResolvedSitemapOptions,
  base: Pick<SitemapFeederDeps, 'manager' | 'userAgent' | 'proxyUrl' | 'stats' | 'warn' | 'info'>,
  guard: RobotsGuard,
  crawler: PublicCrawler,
  pending: PendingRequests,
  queue: QueueHooks,
): SitemapFeeder {
  return new SitemapFeeder(options, {
    ...base,
    pending: () => pendingRequestCount(crawler) ?? pending.approximation,
    enqueue: (entries) => enqueueSitemapUrls(entries, guard, crawler, queue, options.label),
    admit: (url, signal) => guard.admitOwnFetch(url, signal),
    sendClock: guard,
  });
}

/** Puts sitemap URLs into the queue: robots-checked (stage `sitemap`), labelled. Resolves to how many were added. */
async function enqueueSitemapUrls(
  entries: readonly SitemapUrl[],
  guard: RobotsGuard,
  crawler: PublicCrawler,
  queue: QueueHooks,
  label: string | undefined,
): Promise<number> {
  const requests = entries.map((e) => ({ url: e.url, ...(label ? { label } : {}), userData: { sitemapUrl: e.sitemapUrl } }));
  const accepted: typeof requests = [];
  for await (const request of guard.filter(requests, { stage: 'sitemap' })) accepted.push(request);
  // Checked above: the queue admits them as they are. The crawler's own addRequests applies its
  // limits (maxRequestsPerCrawl).
  if (accepted.length > 0) await queue.addChecked(accepted, () => crawler.addRequests(accepted, { waitForAllRequestsToBeAdded: true }));
  return accepted.length;
}

/**
 * Heed's crawl-delay scheduler. On Crawlee 4 with a `ThrottlingRequestManager` (its `requestManager`
 * option, or `sameDomainDelaySecs`), the manager paces each domain: delays go to it.
 */
async function newCrawlDelays(v4: boolean, crawler: PublicCrawler, maxDelaySecs: number): Promise<CrawlDelayScheduler> {
  const throttling = v4 ? domainThrottling(await (crawler as unknown as CrawlerV4).getRequestManager()) : undefined;
  return throttling ? new ThrottledCrawlDelays(maxDelaySecs, throttling) : new CrawlDelayScheduler(maxDelaySecs * 1000);
}

async function createManager(userAgent: string, productToken: ProductTokens, log: Log): Promise<RobotsManagerLike> {
  // Loaded on demand: a plugin handed a manager never needs the module.
  const { RobotsManager } = await import('@heed/manager');
  return new RobotsManager({ userAgent, productToken, log });
}
