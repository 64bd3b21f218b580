/**
 * `RobotsPlugin.attach(crawler, options)`: the one call that makes a Crawlee crawler obey robots.txt
 * through Heed. It validates the options, checks the Crawlee release, picks the tap of the crawler's
 * major (`taps/pick.ts`), picks (or creates) the manager, makes the parts (the guard: checkpoints,
 * crawl clock, filter, notes; the skips; the queue hooks; the sitemap feeder) and hands them to the
 * tap, which installs the hooks for the crawler's kind through that major's extension points.
 */
import type { Log, UsageReport } from '@heed/manager';
import { describeValue, InvalidOptionsError } from '@heed/parser';
import { AlreadyAttachedError, UnsupportedCrawleeVersionError, UnsupportedCrawlerError, UnsupportedProxyError } from './errors.js';
import { createGuard, type RobotsGuard } from './guard/guard.js';
import type { RobotsManagerLike } from './manager-contract.js';
import { NO_DIRECTIVES, type RobotsDirectives } from './page-signals/meta-robots.js';
import { resolveOptions, type ResolvedOptions, type ResolvedSitemapOptions, type RobotsPluginOptions } from './options.js';
import { MAX_NAMED_WAITING, SitemapFeeder, type SitemapFeederDeps } from './sitemaps/feeder.js';
import type { SitemapUrl } from './sitemaps/index.js';
import { CrawlRecorder } from './records/recorder.js';
import { managerLogOf, printableLog } from './report/crawler-log.js';
import { requestListWarning } from './sources/request-lists.js';
import { SkipLog } from './report/skip-log.js';
import { Skips } from './report/skips.js';
import { PluginStats, type RobotsPluginStats } from './report/stats.js';
import { crawleeRelease, crawlerRelease, isSupportedRelease, SUPPORTED_CRAWLEE_RANGE, type PublicCrawler } from './taps/crawler-shape.js';
import { pickTap } from './taps/pick.js';
import { crawlerFetchContext, unusableProxyScheme, withFetchContext } from './taps/proxy.js';
import { assertQueueFree, PendingRequests, QueueHooks } from './taps/request-queue.js';
import type { MajorTap } from './taps/tap.js';

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
    private readonly recorder: CrawlRecorder | undefined,
  ) {}

  /**
   * Attaches Heed to `crawler` (BasicCrawler, HttpCrawler, CheerioCrawler, JSDOMCrawler,
   * PlaywrightCrawler or PuppeteerCrawler, before `run()`):
   * ```ts
   * const robots = await RobotsPlugin.attach(crawler, { userAgent: 'MyBot/1.0 (+https://example.com/bot)' });
   * ```
   * @throws InvalidOptionsError when an option is unknown or out of range.
   * @throws UnsupportedCrawlerError when `crawler` is not a Crawlee crawler, or one Heed cannot guard (Crawlee 4's AdaptivePlaywrightCrawler).
   * @throws UnsupportedCrawleeVersionError when Crawlee is outside `>=3.13.0 <4.0.0 || >=4.0.0-rc.0 <5.0.0` (the message names the release found).
   * @throws UnsupportedProxyError when the crawler's `proxyConfiguration` names a proxy other than http:// or https:// (SOCKS).
   * @throws SharedRequestQueueError when another crawler with a plugin reads the same request queue (give each its own).
   */
  static async attach(crawler: AnyCrawler, options: RobotsPluginOptions): Promise<RobotsPlugin> {
    let checked: ReturnType<typeof checkAttach>;
    try {
      checked = checkAttach(crawler, options);
    } catch (error) {
      // A mistake in the call is the caller's line to fix: the stack starts there, not in Heed's checks.
      // (A reference to the function only, never called through it.)
      // eslint-disable-next-line @typescript-eslint/unbound-method
      if (error instanceof Error) Error.captureStackTrace(error, RobotsPlugin.attach);
      throw error;
    }
    const { resolved, release, resolvedRelease, tap } = checked;
    const target = crawler as unknown as PublicCrawler;
    // Every line Heed writes to the crawler's log, escaped: many quote what a site sent.
    const log = printableLog(target.log);
    // A queue another plugin reads: refused before anything is hooked.
    assertQueueFree(await tap.requestQueue(target));
    if (release !== undefined && resolvedRelease !== undefined && release !== resolvedRelease) {
      log.warning(
        `RobotsPlugin: two copies of Crawlee are installed: the crawler's is ${release}, the @crawlee/core @heed/crawlee loads is ` +
          `${resolvedRelease}. It works, but install @crawlee/core@${release} beside your crawler package so npm keeps one.`,
      );
    }

    // The parts, each made from the ones before it.
    const manager = resolved.manager ?? (await createManager(resolved, managerLogOf(log)));
    // Heed's own fetches for this crawler (robots.txt, tdmrep.json, sitemaps) go through its proxies.
    const fetchContext = crawlerFetchContext(target, tap.major);
    const asked = fetchContext === undefined ? manager : withFetchContext(manager, fetchContext);
    const warn = (message: string) => log.warning(message);
    const stats = new PluginStats();
    const notifyCrawlee = tap.skipNotifier(target);
    const skips = new Skips(
      stats,
      resolved.onSkip,
      async (url) => notifyCrawlee?.(url),
      (message, error) => log.warning(`${message}: ${error instanceof Error ? error.message : String(error)}`),
      new SkipLog(resolved.logSkips, log),
    );
    const crawlDelays = resolved.crawlDelay ? await tap.crawlDelays(target, resolved.maxCrawlDelaySecs) : undefined;
    const guard = createGuard(resolved, asked, stats, skips, crawlDelays, log);
    const pending = new PendingRequests();
    const queue = new QueueHooks(guard, skips, pending, log, tap.asyncScopes);
    const feeder = resolved.sitemaps
      ? newFeeder(
          resolved.sitemaps,
          {
            manager: asked,
            userAgent: resolved.userAgent,
            ...(resolved.signature === undefined ? {} : { signer: resolved.signature }),
            stats,
            warn,
            info: (m) => log.info(m),
            ...(fetchContext?.proxyUrl ? { proxyUrl: fetchContext.proxyUrl } : {}),
          },
          guard,
          target,
          tap,
          pending,
          queue,
        )
      : undefined;
    const listWarning = requestListWarning(target);
    if (listWarning !== undefined) log.warning(listWarning);
    // Crawlee's requestsFromUrl sources: checked and fetched as Heed's own fetches are.
    queue.readUrlListsWith({
      checkpoints: guard.checkpoints,
      skips,
      userAgent: resolved.userAgent,
      ...(resolved.signature === undefined ? {} : { signer: resolved.signature }),
      ...(fetchContext?.proxyUrl ? { proxyUrl: fetchContext.proxyUrl } : {}),
      ...(guard.clock === undefined ? {} : { sendClock: guard.clock }),
      maxBytes: URL_LIST_MAX_BYTES,
      warn,
    });
    if (feeder) guard.verdicts.tellPageOrigins(feeder);
    if (feeder) queue.alsoWaitFor(feeder);
    await tap.attach({ crawler: target, guard, queue, feeder });
    const recorder = resolved.records === undefined ? undefined : recordCrawl(resolved, manager, guard, skips, target, warn);
    attached.add(crawler);
    return new RobotsPlugin(resolved, manager, guard, feeder, resolved.manager === undefined, recorder);
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
    return this.guard.notes.pageOf(context.request)?.directives ?? NO_DIRECTIVES;
  }

  /**
   * The AI-usage verdict of the page being handled, with `purposes` declared: its URL's robots.txt
   * (`Content-Usage`, `Content-Signal`) and tdmrep.json, then its response headers and meta tags,
   * each category with the evidence that decided (`report.decision('train-ai')`). Call it in the
   * request handler. `undefined` without `purposes`, or when nothing could be read.
   */
  usage(context: { request: object }): UsageReport | undefined {
    return this.guard.notes.usageOf(context.request);
  }

  /**
   * Reads the sitemaps at `urls` in the background and enqueues the URLs they list, as Crawlee's
   * `SitemapRequestList` would, but checked: each sitemap file, and each nested sitemap an index
   * names, is fetched only when its own origin's robots.txt allows it (after its crawl-delay, under
   * the bot's `userAgent`, through the crawler's proxy), and each URL it lists is checked before it
   * is enqueued (stage `sitemap`). A sitemap's URLs are kept within the site of the sitemap's own URL
   * (`sitemaps.enqueueStrategy`), under the bounds of one origin (`sitemaps.maxUrlsPerOrigin`, ...).
   * Call it before or during `crawler.run()`: the crawl does not end while they are read.
   *
   * `sitemaps.maxConcurrency` of them are read at once, the others wait their turn, 50,000 at most.
   *
   * @throws TypeError when the plugin reads no sitemaps (`sitemaps: false`) or a URL is not an
   *   absolute http(s) URL (nothing is read then), or when more than 50,000 would wait (those past it
   *   are not read).
   */
  addSitemaps(urls: readonly string[]): void {
    const { feeder } = this;
    if (feeder === undefined) {
      throw new TypeError(
        'RobotsPlugin.addSitemaps(): this plugin reads no sitemaps (sitemaps: false); attach it with sitemaps: true or { … }',
      );
    }
    if (!Array.isArray(urls))
      throw new TypeError(`RobotsPlugin.addSitemaps(): expected an array of sitemap URLs, got ${describeValue(urls)}`);
    const checked = urls.map((url: unknown, i) => {
      if (typeof url !== 'string' || !isHttpUrl(url)) {
        throw new TypeError(`RobotsPlugin.addSitemaps(): urls[${i}] is ${describeValue(url)}, not an absolute http(s) URL of a sitemap`);
      }
      return new URL(url).href;
    });
    const refused = checked.filter((url) => !feeder.sitemapNamed(url)).length;
    if (refused > 0) {
      throw new TypeError(
        `RobotsPlugin.addSitemaps(): ${refused} of the ${checked.length} sitemaps not read: ${MAX_NAMED_WAITING.toLocaleString('en-US')} wait their turn already; name a sitemap index instead (Heed reads its nested sitemaps within its bounds), or add more once these are read (robots.sitemapsDone())`,
      );
    }
  }

  /** Resolves once every sitemap read in the background has been enqueued (or given up). */
  async sitemapsDone(): Promise<void> {
    await this.feeder?.whenIdle();
  }

  /**
   * Writes the crawl records buffered so far (option `records`) and waits for the robots.txt
   * snapshots written in the background. The plugin flushes by itself at the end of every
   * `crawler.run()`, on `SIGINT`/`SIGTERM` and at exit: call it to read the file mid-run.
   */
  async flushRecords(): Promise<void> {
    await this.recorder?.flush();
  }

  /** Stops sitemap reading, closes the records file and, when the plugin created the manager, closes it. */
  async close(): Promise<void> {
    this.feeder?.close();
    await this.recorder?.close();
    if (this.ownsManager) await this.manager.close();
  }
}

/** Whether `value` parses as an absolute http(s) URL. */
function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Most bytes read of one `requestsFromUrl` file: a list of about a million URLs. */
const URL_LIST_MAX_BYTES = 100 * 1024 * 1024;

/**
 * The sitemap feeder of `crawler`: its files are fetched as `guard` admits them, its URLs enqueued
 * through `guard`'s filter, while the crawler has fewer than `maxPendingRequests` pending.
 */
function newFeeder(
  options: ResolvedSitemapOptions,
  base: Pick<SitemapFeederDeps, 'manager' | 'userAgent' | 'proxyUrl' | 'stats' | 'warn' | 'info'>,
  guard: RobotsGuard,
  crawler: PublicCrawler,
  tap: MajorTap,
  pending: PendingRequests,
  queue: QueueHooks,
): SitemapFeeder {
  const { clock } = guard;
  return new SitemapFeeder(options, {
    ...base,
    pending: () => tap.pendingCount(crawler) ?? pending.approximation,
    enqueue: (entries) => enqueueSitemapUrls(entries, guard, crawler, queue, options.label),
    admit: (url, signal) => guard.checkpoints.ownFetch(url, signal),
    ...(clock === undefined ? {} : { sendClock: clock }),
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
  for await (const request of guard.filter.filter(requests, { stage: 'sitemap' })) accepted.push(request);
  // Checked above: the queue admits them as they are. The crawler's own addRequests applies its
  // limits (maxRequestsPerCrawl).
  if (accepted.length > 0) await queue.addChecked(accepted, () => crawler.addRequests(accepted, { waitForAllRequestsToBeAdded: true }));
  return accepted.length;
}

/**
 * The recorder of option `records`, told of every request a checkpoint lets go and of every skip,
 * and flushed at the end of each `crawler.run()`: wrapped after the tap's own wrapper, so the
 * records of the run's last requests (and of the sitemaps it stopped) are written before `run()`
 * returns or throws.
 */
function recordCrawl(
  options: ResolvedOptions,
  manager: RobotsManagerLike,
  guard: RobotsGuard,
  skips: Skips,
  crawler: PublicCrawler,
  warn: (message: string) => void,
): CrawlRecorder {
  const recorder = new CrawlRecorder(
    options.records!,
    {
      productToken: options.productToken,
      purposes: options.purposes,
      pageUserAgent: options.identifyPages ? options.userAgent : undefined,
      userAgent: options.userAgent,
    },
    manager,
    warn,
    guard.usage,
    async (name) => {
      if (crawler.getDataset === undefined) throw new Error('the crawler has no getDataset()');
      return crawler.getDataset(name);
    },
  );
  guard.checkpoints.observer = recorder;
  skips.recorder = recorder;
  const run = crawler.run.bind(crawler);
  crawler.run = async (...args: Parameters<PublicCrawler['run']>) => {
    try {
      return await run(...args);
    } finally {
      await recorder.endOfRun();
    }
  };
  return recorder;
}

async function createManager(options: ResolvedOptions, log: Log): Promise<RobotsManagerLike> {
  // Loaded on demand: a plugin handed a manager never needs the module.
  const { RobotsManager } = await import('@heed/manager');
  const { userAgent, productToken, signature } = options;
  // The plugin's signer, key loaded once: its robots.txt and tdmrep.json fetches are signed as its pages are.
  return new RobotsManager({ userAgent, productToken, log, ...(signature === undefined ? {} : { signature }) });
}

/** What `attach()` checks of its arguments before it hooks anything; throws the error that names what is wrong. */
function checkAttach(crawler: AnyCrawler, options: RobotsPluginOptions) {
  const resolved = resolveOptions(options);
  if (typeof crawler !== 'object' || crawler === null) throw new UnsupportedCrawlerError(String(crawler));
  // The crawler's own release decides; the @crawlee/core this package resolves is the fallback.
  const resolvedRelease = crawleeRelease();
  const release = crawlerRelease(crawler) ?? resolvedRelease;
  if (release !== undefined && !isSupportedRelease(release)) throw new UnsupportedCrawleeVersionError(release, SUPPORTED_CRAWLEE_RANGE);
  const tap = pickTap(crawler, release);
  const missing = tap.missingMember(crawler);
  if (missing) {
    if (release !== undefined && 'run' in crawler)
      throw new UnsupportedCrawleeVersionError(release, SUPPORTED_CRAWLEE_RANGE, `its crawler has no ${missing}`);
    throw new UnsupportedCrawlerError(`an object without ${missing}`);
  }
  const refused = tap.refuses(crawler);
  if (refused !== undefined) throw new UnsupportedCrawlerError('', refused);
  if (attached.has(crawler)) throw new AlreadyAttachedError();
  const proxyScheme = unusableProxyScheme(crawler);
  if (proxyScheme !== undefined) throw new UnsupportedProxyError(proxyScheme);
  if (resolved.maxCrawlPrice !== undefined && resolved.signature === undefined)
    throw new InvalidOptionsError(
      'maxCrawlPrice',
      'needs signature: sites charge only crawlers they can verify, so the price is offered with signed requests only. Add signature: { key, signatureAgent }.',
      'RobotsPlugin.attach()',
    );
  return { resolved, release, resolvedRelease, tap };
}
