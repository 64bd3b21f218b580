/**
 * The robots decisions of one attached crawler, shared by every hook: ask the manager, learn each
 * origin's crawl-delay and sitemaps on first sight, filter batches of requests (origins fetched in
 * parallel, then each URL checked), and remember which requests were stopped mid-navigation.
 */
import type { RobotsManagerLike } from './manager-contract.js';
import type { RobotsDirectives } from './page-signals/meta-robots.js';
import type { ResolvedOptions } from './options.js';
import { timerDelay, type CrawlDelayScheduler } from './crawl-delay.js';
import { SharedSlots } from './politeness/shared-slots.js';
import { originOf, type UsageEvidence, type UsageReport, type Verdict } from '@heed/manager';
import { LRUCache } from 'lru-cache';
import { nofollowSkip, skipFromVerdict, usageSkipEvent, type CheckFailure, type SkipEvent, type SkipStage } from './report/skip-events.js';
import type { Skips } from './report/skips.js';
import type { PluginStats } from './report/stats.js';
import { RequestNotes } from './request-notes.js';

/** What the plugin learnt from a fetched page, kept until its links are enqueued. */
export interface PageInfo {
  readonly directives: RobotsDirectives;
  /** Why links of the page are not followed (`meta robots`, `X-Robots-Tag`), when they are not. */
  readonly nofollowSource: string | undefined;
  readonly nofollowLinks: ReadonlySet<string>;
  /** With `purposes`: what the response headers and meta tags state about AI usage. */
  readonly usageEvidence?: readonly UsageEvidence[];
}

/** Anything Crawlee accepts as a request source: a URL string, request options or a `Request`. */
export type RequestLike = string | { url?: unknown };

/** Where a filtered batch comes from, for skip events and for `nofollow`. */
export interface FilterContext {
  readonly stage: SkipStage;
  /** The page whose links these are. */
  readonly referrer?: string;
  readonly page?: PageInfo;
  /** Also tell this callback (an `enqueueLinks` call's own `onSkippedRequest`). */
  readonly alsoNotify?: (url: string) => Promise<void>;
}

/** What a URL is checked for, which decides what is learnt about its origin (see {@link RobotsGuard.verdict}). */
export type UrlUse = 'page' | 'redirect' | 'sitemap' | 'subresource';

/** Told of each origin a page of the crawl is allowed on: the sitemap feeder reads its sitemaps. */
export interface PageOriginListener {
  originSeen(origin: string, url: string): void;
}

export class RobotsGuard {
  /**
   * What is known of each request being handled, keyed by the Crawlee `Request`: the URL checked
   * before its fetch, its page information, its usage verdict (with `purposes`, for
   * `robots.usage(context)`) and the skip it was stopped for during navigation (a disallowed redirect).
   */
  readonly requests = new RequestNotes();
  /**
   * Usage verdicts of recent URLs (robots.txt and tdmrep.json), so that a crawled URL is worked out
   * once for its enqueue check, its check before the fetch and its response, not three times. A
   * verdict is reused for {@link USAGE_REUSE_MS} at most: a URL fetched later is asked again, and
   * obeys a robots.txt or tdmrep.json that changed meanwhile.
   */
  private readonly usageReports = new LRUCache<string, { report: UsageReport | undefined }>({
    max: USAGE_REUSE_ENTRIES,
    ttl: USAGE_REUSE_MS,
  });
  /** Usage verdicts being worked out, by URL: concurrent asks share one. */
  private readonly usageLookups = new Map<string, Promise<UsageReport | undefined>>();
  /** Crawl-delay lookups in progress, by origin (deleted when answered: at most one per origin being asked). */
  private readonly delayLookups = new Map<string, Promise<number | undefined>>();
  /** Numbers the scheduler keys of {@link awaitCrawlDelay}'s waits (no Crawlee request id looks like them). */
  private waits = 0;
  /** Told of the origins of allowed pages (see {@link tellPageOrigins}). */
  private pageOrigins: PageOriginListener | undefined;
  /** The crawl clock of the manager's store, shared by every process on it (`RedisStore`), if it keeps one. */
  private readonly shared: SharedSlots | undefined;
  /**
   * The origin {@link pageOrigins} was told of last: links come in runs of one origin, and telling
   * it again changes nothing (it was the listener's most recent origin, and only another origin
   * could have made it forget it).
   */
  private lastPageOrigin = '';

  constructor(
    readonly options: ResolvedOptions,
    private readonly manager: RobotsManagerLike,
    readonly stats: PluginStats,
    readonly skips: Skips,
    readonly crawlDelays: CrawlDelayScheduler | undefined,
    private readonly warn: (message: string) => void,
  ) {
    const clock = crawlDelays === undefined ? undefined : manager.crawlClock?.();
    this.shared = clock === undefined ? undefined : new SharedSlots(clock);
  }

  /**
   * Tells `listener` of each origin a page of the crawl is allowed on. The sitemap feeder listens:
   * it is made after the guard, because its own fetches are admitted by the guard.
   */
  tellPageOrigins(listener: PageOriginListener): void {
    this.pageOrigins = listener;
    this.lastPageOrigin = '';
  }

  /** Marks `request` as stopped mid-navigation: the request-handling hook ends it as `skip`. */
  block(request: object, skip: SkipEvent): void {
    this.requests.of(request).blocked = skip;
  }

  /** Whether `request` was stopped mid-navigation. */
  isBlocked(request: object): boolean {
    return this.requests.peek(request)?.blocked !== undefined;
  }

  /** The skip `request` was stopped for, forgotten as it is read (it is reported once). */
  takeBlocked(request: object): SkipEvent | undefined {
    const note = this.requests.peek(request);
    if (note === undefined) return undefined;
    const skip = note.blocked;
    note.blocked = undefined;
    return skip;
  }

  /** Keeps what was read of the page of `request` (and its usage verdict) while it is handled. */
  notePage(request: object, info: PageInfo): void {
    this.requests.of(request).page = info;
  }

  noteUsage(request: object, report: UsageReport): void {
    this.requests.of(request).usage = report;
  }

  /** What was read of the page of `request`, while it is handled. */
  pageOf(request: object): PageInfo | undefined {
    return this.requests.peek(request)?.page;
  }

  /** The usage verdict of the page of `request`, while it is handled. */
  usageOf(request: object): UsageReport | undefined {
    return this.requests.peek(request)?.usage;
  }

  /**
   * The skip event when `url` may not be fetched, else `undefined`: robots.txt first, then with
   * `purposes` the usage preferences of robots.txt and tdmrep.json. Every check of a URL about to
   * be requested (before the fetch, a rewritten URL, `sendRequest`) and of a URL entering the queue
   * goes through here. `from`: the page it was linked, redirected or requested from.
   */
  async skipFor(url: string, stage: SkipStage, from?: string, use: UrlUse = 'page'): Promise<SkipEvent | undefined> {
    const verdict = await this.verdict(url, use);
    if (!verdict.allowed) return skipFromVerdict(verdict, stage, from);
    return this.usageSkip(url, stage, verdict.origin, from);
  }

  /**
   * {@link skipFor} for a page, answered on the spot when the manager has the verdict at hand (its
   * origin's record in memory and fresh, no `purposes`): a check that costs a crawl no promise for
   * every request it fetches. Otherwise the promise of {@link skipFor}.
   */
  skipForNow(url: string, stage: SkipStage, from?: string): SkipEvent | undefined | Promise<SkipEvent | undefined> {
    const verdict = this.verdictAtHand(url);
    if (verdict === undefined) return this.skipFor(url, stage, from);
    this.noteVerdict(verdict, url, true);
    return verdict.allowed ? undefined : skipFromVerdict(verdict, stage, from);
  }

  /**
   * The manager's verdict for `url` and this crawler's product token(s), or, when the manager
   * failed (a store error, a bug), a {@link CheckFailure}: not allowed either way. Never throws.
   * `use` says what the URL is for, which decides what is learnt about a new origin: a page
   * entering the queue or about to be fetched (`page`) starts its sitemaps and crawl-delay; a
   * redirect target only its crawl-delay (it is fetched, but the crawl did not choose its origin),
   * and so does a sitemap file Heed fetches itself (`sitemap`); a sub-resource nothing (a CDN's
   * sitemaps are not the crawl's business).
   */
  async verdict(url: string, use: UrlUse = 'page'): Promise<Verdict | CheckFailure> {
    let verdict: Verdict;
    try {
      verdict = await this.manager.decide(url, this.options.productToken);
    } catch (error) {
      // Without a verdict the URL is not known to be allowed: never fetch it on a guess. This is
      // Heed failing, not the site: it is reported as such, not as an unreachable robots.txt.
      const message = error instanceof Error ? error.message : String(error);
      this.warn(`RobotsPlugin: checking ${url} failed (${message}); the URL is skipped`);
      return { allowed: false, url, origin: safeOrigin(url), productToken: this.options.productToken, error: message };
    }
    if (use !== 'subresource') this.noteVerdict(verdict, url, use === 'page');
    return verdict;
  }

  /** Counts the verdict of a URL about to be fetched or enqueued, and learns about its origin when it is allowed. */
  private noteVerdict(verdict: Verdict, url: string, readSitemaps: boolean): void {
    this.stats.noteVerdict(verdict);
    if (verdict.allowed && verdict.origin) this.learn(verdict.origin, url, readSitemaps);
  }

  /**
   * The manager's verdict for `url` when it has one at hand (its origin's record in memory and
   * fresh), else `undefined`: the URL then goes through {@link skipFor}, which waits for the record
   * and reports a failure. Only without `purposes`, whose usage check waits anyway.
   */
  private verdictAtHand(url: string): Verdict | undefined {
    if (this.manager.decideCached === undefined || this.readsUsage) return undefined;
    try {
      return this.manager.decideCached(url, this.options.productToken);
    } catch {
      // decide() meets the same error and it is reported there, once, as `check-failed`.
      return undefined;
    }
  }

  /**
   * Waits for the crawl-delay of `url`'s origin, for a request that cannot be put back into the
   * queue because it is already under way: a redirect hop, a browser's request. Takes the origin's
   * slot ({@link awaitCrawlSlot}) and then claims the send ({@link beforeSend}): call it right before
   * the request goes out. Resolves at once without a delay (or with `crawlDelay: false`). Rejects
   * with the signal's reason when `signal` aborts first (the slot is then given up).
   */
  async awaitCrawlDelay(url: string, signal?: AbortSignal): Promise<void> {
    await this.awaitCrawlSlot(url, signal);
    await this.beforeSend(url, signal);
  }

  /**
   * Waits for the crawl-delay slot of `url`'s origin: learns the origin's delay if needed, reserves
   * its next slot (after every slot already given, pages included) and resolves when it is due. The
   * caller then claims the send with {@link beforeSend} at the last step before the request leaves
   * (a sitemap fetch does it in got's last `beforeRequest` hook, after the request is built).
   * Hops of one origin go in the order they asked, however long the queue ahead of them; each wait
   * holds one timer of at most the longest a timer can wait. Rejects with the signal's reason when
   * `signal` aborts first (the slot is then given up).
   */
  async awaitCrawlSlot(url: string, signal?: AbortSignal): Promise<void> {
    const scheduler = this.crawlDelays;
    const origin = originOf(url);
    if (scheduler === undefined || origin === undefined) return;
    const key = `\0heed-wait:${++this.waits}`;
    try {
      for (;;) {
        signal?.throwIfAborted();
        // As for a page leaving the queue: the delay is set right before the slot is asked for.
        const learning = this.learnCrawlDelay(origin, url);
        if (learning !== undefined) {
          const seconds = await abortable(learning, signal);
          if (!scheduler.knows(origin)) scheduler.setDelay(origin, seconds);
        }
        const slot = this.crawlSlot(origin, key);
        const wait = typeof slot === 'number' ? slot : await abortable(slot, signal);
        if (wait <= 0) return;
        await sleep(timerDelay(wait), signal);
      }
    } catch (error) {
      this.cancelSlot(key);
      throw error;
    }
  }

  /**
   * Whether a request to `origin` may go now, its delay known and nothing held back (this process's
   * clock, the last origin it let go at once: see `CrawlDelayScheduler.goesAtOnce`). Never with a
   * fleet's clock, which another process may have paused.
   */
  goesAtOnce(origin: string): boolean {
    return this.shared === undefined && this.crawlDelays !== undefined && this.crawlDelays.goesAtOnce(origin);
  }

  /**
   * How long the request `key` to `origin` must wait for its crawl-delay slot: 0 when it may go
   * now, else the milliseconds until its slot (reserved for `key`: ask again then, with the same
   * key). The fleet's clock when the manager's store keeps one and answers, else this process's.
   * Learn the origin's delay first ({@link learnCrawlDelay}).
   */
  crawlSlot(origin: string, key: string): number | Promise<number> {
    // A number, not a promise, when this process's clock decides: the check before every fetch
    // asks, and most crawls share no clock.
    const scheduler = this.crawlDelays;
    if (scheduler === undefined || this.goesAtOnce(origin)) return 0;
    const delayMs = scheduler.delayOf(origin);
    if (this.shared !== undefined) return this.sharedCrawlSlot(this.shared, scheduler, origin, key, delayMs);
    return scheduler.acquire(origin, key, Date.now());
  }

  private async sharedCrawlSlot(
    shared: SharedSlots,
    scheduler: CrawlDelayScheduler,
    origin: string,
    key: string,
    delayMs: number | undefined,
  ): Promise<number> {
    const wait = await shared.acquire(origin, key, delayMs ?? 0);
    if (wait !== undefined) return wait;
    // The store could not tell: this process's clock decides, with the delay in force (set again
    // if the scheduler forgot the origin during the wait for the store).
    if (delayMs !== undefined && !scheduler.knows(origin)) scheduler.setDelay(origin, delayMs / 1000);
    return scheduler.acquire(origin, key, Date.now());
  }

  /** Gives up the slot reserved for `key` (its request will not come back for it). */
  cancelSlot(key: string): void {
    this.crawlDelays?.cancel(key);
    this.shared?.cancel(key);
  }

  /**
   * Whether the clock at send has nothing to do: no origin of this crawl has had a crawl-delay or
   * a pause, and no store shares a clock with other processes. The hooks around each request's send
   * then return at once.
   */
  get sendClockIdle(): boolean {
    return this.shared === undefined && this.crawlDelays?.holdsBack !== true;
  }

  /**
   * Call right before a request to `url` goes on the wire (got's last `beforeRequest` hook, a
   * browser's last pre-navigation hook, a `BasicCrawler`'s handler): resolves once it may go, and
   * from then on the origin's crawl-delay counts from this request. It waits only when the last
   * request to the origin (of any process sharing the store) left later than its slot said, less
   * than the delay ago, or while the origin is paused by a `Retry-After`. Rejects with the signal's
   * reason when `signal` aborts first.
   */
  async beforeSend(url: string, signal?: AbortSignal): Promise<void> {
    const scheduler = this.crawlDelays;
    const origin = originOf(url);
    if (scheduler === undefined || origin === undefined) return;
    for (;;) {
      signal?.throwIfAborted();
      const delay = scheduler.delayOf(origin) ?? 0;
      // An origin without a delay is not asked of the store here: only a pause holds it back, and
      // the fleet's pauses were asked for with its slot.
      const shared = delay > 0 && this.shared !== undefined ? await abortable(this.shared.claimSend(origin, delay), signal) : undefined;
      let wait: number;
      if (shared === undefined) wait = scheduler.claimSend(origin, Date.now());
      else {
        wait = shared;
        if (wait <= 0) scheduler.sent(origin, Date.now());
      }
      if (wait <= 0) return;
      await sleep(timerDelay(wait), signal);
    }
  }

  /**
   * A request to `url` was really written to the wire at `at` (got's timings, once its answer is
   * in): later requests of its origin, of every process sharing the store, count their delay from
   * then when that is later than its {@link beforeSend}. On a busy machine a request may leave a
   * while after the hook that let it go.
   */
  async confirmSent(url: string, at: number): Promise<void> {
    const scheduler = this.crawlDelays;
    const origin = originOf(url);
    if (scheduler === undefined || origin === undefined) return;
    const delay = scheduler.delayOf(origin) ?? 0;
    if (delay <= 0) return;
    scheduler.sent(origin, at);
    await this.shared?.confirmSend(origin, delay, Date.now() - at);
  }

  /**
   * Pauses `url`'s origin for `pauseMs` (a page answered `429` or `503`): in this process, and for
   * every process sharing the store when it keeps a crawl clock. Requests waiting in the queue and
   * requests about to leave both wait for it. Never throws.
   */
  async pauseOrigin(url: string, pauseMs: number): Promise<void> {
    const scheduler = this.crawlDelays;
    const origin = originOf(url);
    if (scheduler === undefined || origin === undefined || pauseMs <= 0) return;
    scheduler.pause(origin, Date.now() + pauseMs);
    await this.shared?.pause(origin, pauseMs);
  }

  /**
   * Lets a fetch of Heed's own (a sitemap file, each of its redirect hops) go out the way a page
   * would: `undefined` once `url`'s robots.txt allows it and its origin's crawl-delay slot is due
   * (robots.txt itself is fetched first, through the manager), else why it must not be fetched.
   * As for a page, the send is claimed later, with {@link beforeSend} right before the request
   * leaves, and confirmed with {@link confirmSent} once its answer is in: building a request can
   * take a while on a busy machine, and the site's delay counts from when it really arrives.
   * Rejects with the signal's reason as soon as `signal` aborts (a robots.txt slow to answer included).
   */
  async admitOwnFetch(url: string, signal?: AbortSignal): Promise<string | undefined> {
    const verdict = await abortable(this.verdict(url, 'sitemap'), signal);
    if (!verdict.allowed) return skipFromVerdict(verdict, 'sitemap').message;
    await this.awaitCrawlSlot(url, signal);
    return undefined;
  }

  /** Whether usage preferences are read at all: only with declared `purposes`. */
  get readsUsage(): boolean {
    return this.options.purposes.length > 0;
  }

  /**
   * The usage verdict of `url` from robots.txt and tdmrep.json. Never throws: a failure is a
   * verdict with no evidence (every preference unknown), and is logged.
   */
  async usageReport(url: string): Promise<UsageReport | undefined> {
    if (!this.readsUsage || this.manager.usage === undefined) return undefined;
    const known = this.usageReports.get(url);
    if (known !== undefined) return known.report;
    let lookup = this.usageLookups.get(url);
    if (lookup === undefined) {
      lookup = this.askUsage(url).finally(() => this.usageLookups.delete(url));
      this.usageLookups.set(url, lookup);
    }
    return lookup;
  }

  private async askUsage(url: string): Promise<UsageReport | undefined> {
    try {
      const report = await this.manager.usage?.(url, { productToken: this.options.productToken, purposes: this.options.purposes });
      this.usageReports.set(url, { report });
      return report;
    } catch (error) {
      // Not kept: the next ask of the URL tries again.
      this.warn(
        `RobotsPlugin: reading the usage preferences of ${url} failed (${error instanceof Error ? error.message : String(error)}); they count as unknown`,
      );
      return undefined;
    }
  }

  /**
   * The skip event when a declared purpose is disallowed for `url` by robots.txt or tdmrep.json,
   * else `undefined`. Only an explicit `disallow` keeps a URL unfetched: with `unknownUsage:
   * 'disallow'`, an unknown preference is judged at the response, whose headers may still say yes.
   */
  private async usageSkip(url: string, stage: SkipStage, origin: string, referrer?: string): Promise<SkipEvent | undefined> {
    if (!this.readsUsage) return undefined;
    const report = await this.usageReport(url);
    return this.skipOf(report, url, stage, origin, referrer, 'allow');
  }

  /** The skip event a usage verdict calls for, if any (`unknown` as given, default the `unknownUsage` option). */
  skipOf(
    report: UsageReport | undefined,
    url: string,
    stage: SkipStage,
    origin: string,
    referrer?: string,
    unknown?: 'allow' | 'disallow',
  ): SkipEvent | undefined {
    const { purposes } = this.options;
    const unknownUsage = unknown ?? this.options.unknownUsage;
    if (report === undefined) {
      return unknownUsage === 'disallow'
        ? usageSkipEvent(url, origin, this.options.productToken, stage, { purpose: purposes[0] as string }, referrer)
        : undefined;
    }
    const check = report.check(purposes, unknownUsage);
    if (check.allowed) return undefined;
    return usageSkipEvent(
      url,
      origin,
      this.options.productToken,
      stage,
      { purpose: check.purpose as string, ...(check.evidence ? { evidence: check.evidence } : {}) },
      referrer,
    );
  }

  /** Fetches the robots.txt of every origin of `urls` in parallel (one request per origin). */
  async prefetch(urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    try {
      await this.manager.prefetch(urls);
    } catch {
      // prefetch is an optimisation: each URL is still checked on its own.
    }
  }

  /**
   * The requests of `source` that may be enqueued, lazily: up to `prefetchBatchSize` are looked
   * ahead and judged together (see {@link filterBatch}). Skips are reported.
   */
  async *filter<T extends RequestLike>(source: Iterable<T> | AsyncIterable<T>, context: FilterContext): AsyncGenerator<T> {
    const size = this.options.prefetchBatchSize;
    let buffer: T[] = [];
    for await (const item of source) {
      buffer.push(item);
      if (buffer.length >= size) {
        yield* await this.filterBatch(buffer, context);
        buffer = [];
      }
    }
    if (buffer.length > 0) yield* await this.filterBatch(buffer, context);
  }

  /**
   * The requests of `items` that may be enqueued, in order; skips are reported, in order. A link
   * of an origin whose record the manager holds is judged on the spot (`decideCached`): a page's
   * links to known origins cost no promise, generator step or async context each, which is most of
   * what a link cost a crawl otherwise. From the first URL of an unknown origin on, the origins of
   * the rest of the batch are fetched in parallel, and each URL not at hand waits for its record.
   */
  async filterBatch<T extends RequestLike>(items: readonly T[], context: FilterContext): Promise<T[]> {
    const kept: T[] = [];
    let prefetched = false;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const url = urlOf(item);
      // Not a URL Crawlee could fetch: leave the error (or the filter) to Crawlee.
      if (url === undefined) {
        kept.push(item);
        continue;
      }
      const nofollow = this.nofollowSource(url, context);
      if (nofollow !== undefined) {
        await this.skip(nofollowSkip(url, safeOrigin(url), this.options.productToken, context.referrer!, nofollow), context);
        continue;
      }
      let skip: SkipEvent | undefined;
      const verdict = this.verdictAtHand(url);
      if (verdict !== undefined) {
        this.noteVerdict(verdict, url, true);
        if (!verdict.allowed) skip = skipFromVerdict(verdict, context.stage, context.referrer);
      } else {
        if (!prefetched) {
          prefetched = true;
          await this.prefetch(urlsOf(items, i));
        }
        skip = await this.skipFor(url, context.stage, context.referrer);
      }
      if (skip === undefined) kept.push(item);
      else await this.skip(skip, context);
    }
    return kept;
  }

  /** Why the page of `context` does not let `url` be followed (`nofollow`), if it does not. */
  private nofollowSource(url: string, context: FilterContext): string | undefined {
    const { page } = context;
    if (page === undefined || !context.referrer) return undefined;
    return page.nofollowSource ?? (page.nofollowLinks.has(url) ? 'the link is rel="nofollow"' : undefined);
  }

  private async skip(event: SkipEvent, context: FilterContext): Promise<void> {
    await this.skips.report(event);
    await context.alsoNotify?.(event.url);
  }

  /** An allowed URL of an origin: learn its crawl-delay (once) and, for pages, read its sitemaps (once). */
  private learn(origin: string, url: string, readSitemaps: boolean): void {
    if (readSitemaps && origin !== this.lastPageOrigin && this.pageOrigins !== undefined) {
      this.lastPageOrigin = origin;
      this.pageOrigins.originSeen(origin, url);
    }
    void this.learnCrawlDelay(origin, url);
  }

  /**
   * Asks the manager for the crawl-delay of `origin` unless the scheduler knows it (it forgets idle
   * origins past its bound, see `MAX_IDLE_ORIGINS`): `undefined` when known, else the lookup, which
   * records the delay and resolves to it (seconds; `undefined`, also on failure: none). Before asking
   * for a slot, set what it resolved to again if the scheduler forgot it meanwhile.
   */
  learnCrawlDelay(origin: string, url: string): Promise<number | undefined> | undefined {
    const scheduler = this.crawlDelays;
    if (scheduler === undefined || this.goesAtOnce(origin) || scheduler.knows(origin)) return undefined;
    let lookup = this.delayLookups.get(origin);
    if (lookup === undefined) {
      lookup = this.manager
        .crawlDelay(url, this.options.productToken)
        .catch(() => undefined)
        .then((seconds) => {
          scheduler.setDelay(origin, seconds);
          return seconds;
        })
        .finally(() => this.delayLookups.delete(origin));
      this.delayLookups.set(origin, lookup);
    }
    return lookup;
  }
}

/** The URLs of `items` from `start` on (those that have one). */
function urlsOf(items: readonly RequestLike[], start: number): string[] {
  const urls: string[] = [];
  for (let i = start; i < items.length; i++) {
    const url = urlOf(items[i]!);
    if (url !== undefined) urls.push(url);
  }
  return urls;
}

/** The URL of a request source, when it has one. */
export function urlOf(item: RequestLike): string | undefined {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object' && typeof item.url === 'string') return item.url;
  return undefined;
}

/**
 * The origin of `url` as the manager keys it (`originOf()`, the one implementation), or `''` when
 * it has none (not an absolute http(s) URL): for skip events of URLs the manager never keyed.
 */
export function safeOrigin(url: string): string {
  return originOf(url) ?? '';
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}

/** Why `signal` aborted, as an Error (`abort()` without a reason gives a DOMException, an Error too). */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error(`aborted: ${String(reason)}`);
}

/**
 * How long a URL's usage verdict is reused: long enough to cover its enqueue check, its check
 * before the fetch and its response in a crawl whose queue moves, short next to how long the
 * manager itself keeps a robots.txt or tdmrep.json (`Cache-Control: max-age`, else a day).
 */
const USAGE_REUSE_MS = 10 * 60_000;
/** URLs whose usage verdict is kept for reuse, at most (a bound on memory in a broad crawl). */
const USAGE_REUSE_ENTRIES = 10_000;
