/**
 * Feeds sitemap URLs into the crawler's queue in the background. When an origin is first seen, its
 * robots.txt `Sitemap:` lines are read (via the manager, so robots.txt is not fetched again) and the
 * sitemaps walked (`sitemaps/read.ts`) as streams; each URL is scoped (`sitemaps/scope.ts`),
 * filtered, counted against `maxUrlsPerOrigin` and put in the origin's backlog as soon as it is
 * parsed. A second loop hands the backlog to the crawler in batches, waiting while the crawler
 * already has `maxPendingRequests` requests pending. Robots rules are applied by the same enqueue
 * filter as every other request; the sitemap files themselves, and each of their redirect hops,
 * are fetched only when their own origin's robots.txt allows it, after its crawl-delay, and hops
 * only under the cross-host rule (`gate`).
 *
 * Bounds: one {@link SitemapBudget} for the whole plugin (files read at once, bytes of URLs in the
 * backlogs), and per origin a time budget (`maxTimePerOriginMs`) that runs while the origin's
 * sitemaps are being fetched and parsed, not while its backlog waits for the crawler — so the crawl
 * (whose end waits for the feeder) never waits on one origin's sitemaps longer than that; and a
 * stall rule (`stallMs`, in `sitemaps/read.ts`) that ends the reading of files, then of the origin,
 * that deliver no entries, so a crawl whose pages are done does not wait on them for long. The
 * origins already read are remembered within a byte bound ({@link RecentOrigins}).
 *
 * The backlog is handed over one batch per event-loop turn: Crawlee's in-memory queue adds a batch
 * without waiting on I/O, so batches chained by `await` alone would run as one stretch of
 * microtasks, holding the event loop for as long as the whole backlog takes; one batch per turn
 * holds it for one batch, and the feed is no slower (BENCHMARKS.md, "Sitemaps at scale").
 */
import { AsyncResource } from 'node:async_hooks';
import { originOf, type FetchContext } from '@heed/manager';
import type { RobotsManagerLike } from '../manager-contract.js';
import type { ResolvedSitemapOptions } from '../options.js';
import { Clock, HeldBytes, SitemapBudget } from './budget.js';
import { readSitemaps } from './read.js';
import { RecentOrigins } from './recent-origins.js';
import { inScope, sitemapUrlFilter } from './scope.js';
import type { SitemapFetchOptions, SitemapRequest, SitemapSendClock } from './fetch.js';
import type { SitemapUrl } from './types.js';
import type { PluginStats } from '../report/stats.js';
import { MAX_TIMER_MS } from '../timers.js';
import { EndWait } from './end-wait.js';
import { sitemapProgress } from './progress.js';

export interface SitemapFeederDeps {
  readonly manager: RobotsManagerLike;
  /** Full user-agent header for sitemap fetches. */
  readonly userAgent: string;
  /** Signs sitemap fetches (option `signature`). Default: unsigned. */
  readonly signer?: SitemapFetchOptions['signer'];
  /** The proxy of the crawler's pages, used when the `proxyUrl` sitemap option is not set. Default: direct. */
  readonly proxyUrl?: FetchContext['proxyUrl'];
  readonly stats: PluginStats;
  /** Puts URLs into the crawler's queue through the robots filter; resolves to how many were accepted. */
  readonly enqueue: (urls: readonly SitemapUrl[]) => Promise<number>;
  /** Requests the crawler has pending right now. */
  readonly pending: () => number;
  readonly warn: (message: string) => void;
  /** Where progress goes (a line every so many URLs of a large sitemap); none: no progress lines. */
  readonly info?: (message: string) => void;
  /**
   * Lets a sitemap request (a file, a redirect hop) go out as a page would: resolves once robots.txt
   * allows it and its origin's crawl-delay has passed to `undefined`, else to why it must not.
   */
  readonly admit: (url: string, signal: AbortSignal | undefined) => Promise<string | undefined>;
  /** Claims each admitted request's send right before it leaves, and takes when it really left. Default: none. */
  readonly sendClock?: SitemapSendClock;
}

const BATCH_SIZE = 100;
/**
 * Named sitemaps that may wait their turn at once (`addSitemaps()`): a sitemap index's most. Past
 * it the user is told to name an index, which Heed reads within its bounds.
 */
export const MAX_NAMED_WAITING = 50_000;
/** How long a part batch waits for more URLs before it is enqueued anyway. */
const BATCH_LINGER_MS = 50;
const BACKPRESSURE_POLL_MS = 200;
/** Other hosts whose robots.txt is asked, per origin, whether they vouch for a sitemap they host. */
const MAX_VOUCHING_HOSTS = 16;
/** What one buffered URL costs beyond its characters (object, array slot). */
const ENTRY_OVERHEAD_BYTES = 64;
/** What one URL remembered to skip its repeats costs beyond its characters (set entry). */
const SEEN_OVERHEAD_BYTES = 48;

export class SitemapFeeder {
  /** Origins whose sitemaps were read, the least recent forgotten beyond a byte bound. */
  private readonly originsSeen = new RecentOrigins();
  /** The feeding task of each origin whose sitemaps are being read or enqueued. */
  private readonly running = new Map<string, Promise<void>>();
  /** Sitemaps the user named that wait for their turn ({@link startNamed}), in the order named. */
  private readonly namedWaiting = new Set<string>();
  /** Named sitemaps being read now. */
  private namedReading = 0;
  /** The line when the end of the crawl waits long on sitemaps. */
  private readonly endWait: EndWait;
  private abort = new AbortController();
  private closed = false;
  private readonly keep: (url: string, sitemapUrl: string) => boolean;
  /** The sitemap budget of every origin of this plugin. */
  readonly budget: SitemapBudget;
  private readonly detached: (start: () => Promise<void>) => Promise<void>;

  constructor(
    private readonly options: ResolvedSitemapOptions,
    private readonly deps: SitemapFeederDeps,
  ) {
    this.keep = sitemapUrlFilter(options);
    this.endWait = new EndWait(deps.info);
    // A new origin is first seen in the middle of some other work (a batch being enqueued, a
    // request being checked), whose async context (e.g. "inside a queue call") the feeding task
    // would otherwise inherit for its whole life; it runs in the context the plugin was made in.
    this.detached = AsyncResource.bind((start: () => Promise<void>) => start());
    this.budget = new SitemapBudget({
      maxConcurrentFetches: options.maxConcurrency,
      maxBufferedBytes: options.maxBufferedBytes,
      maxHeldBytes: options.maxHeldBytes,
    });
  }

  /** Starts reading the sitemaps of `origin` (once per origin); `url` is any URL of it. */
  originSeen(origin: string, url: string): void {
    if (this.closed) return;
    // An origin still being fed is never read twice, even once forgotten.
    if (this.originsSeen.touch(origin) || this.running.has(origin)) return;
    const task = this.detached(() => this.feed(origin, url)).catch((error: unknown) => {
      this.deps.warn(`RobotsPlugin: reading the sitemaps of ${origin} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.running.set(origin, task);
    void task.finally(() => this.running.delete(origin));
  }

  /**
   * Reads a sitemap the user names (`RobotsPlugin.addSitemaps()`), once while it is read or waits:
   * a sitemap file or an index, read as the sitemaps robots.txt names are, within the site of its
   * own URL and within the bounds of one origin. `maxConcurrency` of them are read at once (each
   * reading holds a backlog and timers of its own); the others wait their turn, in order.
   * @returns false when {@link MAX_NAMED_WAITING} sitemaps wait already: this one is not read.
   */
  sitemapNamed(sitemapUrl: string): boolean {
    if (this.closed || this.running.has(sitemapUrl) || this.namedWaiting.has(sitemapUrl)) return true;
    if (this.namedWaiting.size >= MAX_NAMED_WAITING) return false;
    this.namedWaiting.add(sitemapUrl);
    this.startNamed();
    return true;
  }

  /** Starts the named sitemaps that wait, while fewer than `maxConcurrency` are read. */
  private startNamed(): void {
    for (const sitemapUrl of this.namedWaiting) {
      if (this.closed || this.namedReading >= this.options.maxConcurrency) return;
      this.namedWaiting.delete(sitemapUrl);
      this.namedReading++;
      const origin = originOf(sitemapUrl) ?? sitemapUrl;
      const task = this.detached(() => this.feed(origin, sitemapUrl, [sitemapUrl])).catch((error: unknown) => {
        this.deps.warn(`RobotsPlugin: reading the sitemap ${sitemapUrl} failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      // Named by its URL, which is also what a line about the crawl's end waiting on it names.
      this.running.set(sitemapUrl, task);
      void task.finally(() => {
        this.running.delete(sitemapUrl);
        this.namedReading--;
        this.startNamed();
      });
    }
  }

  /** No sitemap is being read, enqueued or waiting to be read. Asked when the crawl's queue is empty: a long wait gets a line. */
  idle(): boolean {
    this.endWait.note([...this.running.keys()]);
    return this.running.size === 0 && this.namedWaiting.size === 0;
  }

  /** Resolves once every sitemap task has ended. */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Stops the sitemap reading under way (at the next fetch or batch): the run it fed has ended
   * (`maxRequestsPerCrawl`, `crawler.stop()`), so nothing would crawl what it enqueues.
   */
  stopRunning(): void {
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Stops all sitemap reading for good. */
  close(): void {
    this.closed = true;
    this.namedWaiting.clear();
    this.abort.abort();
  }

  /** Reads and enqueues the sitemaps of the site of `url`: those robots.txt names, or `named`. */
  private async feed(origin: string, url: string, named?: readonly string[]): Promise<void> {
    const run = this.abort.signal;
    const outOfTime = new AbortController();
    const signal = AbortSignal.any([run, outOfTime.signal]);
    const clock = new Clock();
    const budget = clock.countdown(timerMs(this.options.maxTimePerOriginSecs), () => outOfTime.abort());
    const backlog = new Backlog();
    const handing = this.handOver(backlog, run, Math.min(BATCH_SIZE, this.options.maxPendingRequests));
    const held = new HeldBytes(this.options.maxHeldBytesPerOrigin, this.budget);
    try {
      await this.read(origin, url, named, signal, clock, backlog, held);
    } finally {
      budget.stop();
      backlog.close();
      held.releaseAll();
    }
    if (outOfTime.signal.aborted && !run.aborted) {
      this.deps.warn(
        `RobotsPlugin: ${origin}: its sitemaps were not read within ${this.options.maxTimePerOriginSecs} s (sitemaps.maxTimePerOriginSecs); the URLs read so far are enqueued, the rest is not`,
      );
    }
    await handing;
  }

  /** Reads the sitemaps of the site of `url` (robots.txt's, or `named`) into `backlog`, scoped, filtered and bounded. */
  private async read(
    origin: string,
    url: string,
    named: readonly string[] | undefined,
    signal: AbortSignal,
    clock: Clock,
    backlog: Backlog,
    held: HeldBytes,
  ): Promise<void> {
    const { manager } = this.deps;
    const sitemapUrls = named ?? (await untilAborted(manager.sitemaps(url), signal));
    if (!sitemapUrls || sitemapUrls.length === 0) return;
    const { maxUrlsPerOrigin, maxBytes, maxDepth, maxFilesPerOrigin, timeoutSecs, stallSecs, proxyUrl, enqueueStrategy } = this.options;
    const warn = (message: string) => this.deps.warn(`RobotsPlugin: ${origin}: ${message}`);
    const vouching = new Map<string, Promise<ReadonlySet<string>>>();
    let outOfScope = 0;
    /** Nested sitemaps outside the site: counted, the first named (an index may list thousands). */
    const outsideNested = { count: 0, first: '' };
    /** Whether the robots.txt of `pageUrl`'s origin names `sitemapUrl` (cross-submission). */
    const vouched = async (pageUrl: string, sitemapUrl: string): Promise<boolean> => {
      // The manager's origin (the one `originOf`): the key its robots.txt is cached under.
      const pageOrigin = originOf(pageUrl) ?? '';
      let listed = vouching.get(pageOrigin);
      if (!listed) {
        if (vouching.size >= MAX_VOUCHING_HOSTS) return false;
        listed = manager.sitemaps(pageUrl).then(
          (urls) => new Set(urls.map(normalized)),
          () => new Set<string>(),
        );
        vouching.set(pageOrigin, listed);
      }
      return (await untilAborted(listed, signal))?.has(normalized(sitemapUrl)) ?? false;
    };
    /** URLs read, to skip their repeats; within `held` (beyond it, a repeat reaches the crawler's queue, which drops it). */
    const seen = new Set<string>();
    let unremembered = 0;
    let kept = 0;
    const entries = readSitemaps(
      sitemapUrls,
      {
        userAgent: this.deps.userAgent,
        ...(this.deps.signer === undefined ? {} : { signer: this.deps.signer }),
        maxBytes,
        maxDepth,
        maxFiles: maxFilesPerOrigin,
        timeoutMs: timerMs(timeoutSecs),
        stallMs: timerMs(stallSecs),
        signal,
        clock,
        budget: this.budget,
        gate: (request, fetchSignal) => this.gate(request, url, fetchSignal),
        ...(this.deps.sendClock === undefined ? {} : { sendClock: this.deps.sendClock }),
        held,
        // The option is the user's explicit choice; else the crawler's proxy.
        ...(proxyUrl ? { proxyUrl } : this.deps.proxyUrl ? { proxyUrl: this.deps.proxyUrl } : {}),
      },
      {
        onSitemapRead: () => this.deps.stats.sitemapsRead++,
        onProblem: warn,
        keepNested: (nested, parent) => {
          if (inScope(nested, url, enqueueStrategy)) return true;
          if (outsideNested.count++ === 0) outsideNested.first = `sitemap ${parent} lists the sitemap ${nested}`;
          return false;
        },
      },
    );
    for await (const entry of entries) {
      if (seen.has(entry.url)) continue;
      // Outside the site: kept only from a sitemap on the URL's own host that this host's robots.txt names.
      if (
        !inScope(entry.url, url, enqueueStrategy) &&
        !(sameHost(entry.url, entry.sitemapUrl) && (await vouched(entry.url, entry.sitemapUrl)))
      ) {
        outOfScope++;
        continue;
      }
      if (!this.keep(entry.url, entry.sitemapUrl)) continue;
      if (held.tryHold(2 * entry.url.length + SEEN_OVERHEAD_BYTES)) seen.add(entry.url);
      else unremembered++;
      const bytes = 2 * (entry.url.length + entry.sitemapUrl.length) + ENTRY_OVERHEAD_BYTES;
      // A full budget means the crawler is behind: waiting for it is not sitemap time.
      clock.pause();
      const reserved = await this.budget.reserveBytes(bytes, signal);
      clock.resume();
      if (!reserved) break;
      backlog.push(entry, bytes);
      const progress = sitemapProgress(origin, ++kept, entry.sitemapUrl);
      if (progress !== undefined) this.deps.info?.(progress);
      if (kept >= maxUrlsPerOrigin) {
        warn(`its sitemaps list more than ${maxUrlsPerOrigin} URLs (sitemaps.maxUrlsPerOrigin); the rest is not enqueued`);
        break;
      }
    }
    if (outsideNested.count > 0) {
      const others = outsideNested.count > 1 ? `, and ${outsideNested.count - 1} more sitemap location(s) outside it` : '';
      warn(`${outsideNested.first}, outside the site (sitemaps.enqueueStrategy '${enqueueStrategy}')${others}; not fetched`);
    }
    if (unremembered > 0) {
      warn(
        `${unremembered} sitemap URL(s) not remembered to skip their repeats: the bytes the reading may hold are reached (sitemaps.maxHeldBytesPerOrigin, sitemaps.maxHeldBytes); a repeat reaches the crawler's queue, which drops it`,
      );
    }
    if (outOfScope > 0) {
      warn(
        `${outOfScope} sitemap URL(s) outside the site (sitemaps.enqueueStrategy '${enqueueStrategy}') and not in a sitemap their own host's robots.txt names; not enqueued`,
      );
    }
  }

  /**
   * Whether a request of a sitemap read for the site of `siteUrl` goes out (see `SitemapGate`). A
   * redirect hop follows the cross-host rule: it stays in the site, or on the host of the file the
   * site vouched for (that host moving its own file); every request, the file's first included,
   * then obeys its own origin's robots.txt and crawl-delay. A refusal is counted and costs no request.
   */
  private async gate(request: SitemapRequest, siteUrl: string, signal: AbortSignal | undefined): Promise<string | undefined> {
    const { enqueueStrategy } = this.options;
    let refusal: string | undefined;
    if (request.from !== undefined && !inScope(request.url, siteUrl, enqueueStrategy) && !sameHost(request.url, request.sitemapUrl)) {
      refusal = `outside the site (sitemaps.enqueueStrategy '${enqueueStrategy}') and off the host of the sitemap`;
    } else {
      refusal = await this.deps.admit(request.url, signal);
    }
    if (refusal !== undefined) this.deps.stats.sitemapsSkipped++;
    return refusal;
  }

  /** Hands the backlog to the crawler in batches, with back-pressure, until it is closed and empty. */
  private async handOver(backlog: Backlog, run: AbortSignal, batchSize: number): Promise<void> {
    for (;;) {
      const batch = await backlog.take(batchSize);
      if (!batch) return;
      try {
        await this.waitForRoom(run);
        // Crawlee's in-memory queue adds a batch without ever waiting on I/O, so without this the
        // whole backlog would be added in one stretch of microtasks, holding the event loop.
        await yieldToEventLoop();
        if (!run.aborted) this.deps.stats.sitemapUrlsEnqueued += await this.deps.enqueue(batch.entries);
      } finally {
        this.budget.releaseBytes(batch.bytes);
      }
    }
  }

  private async waitForRoom(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.deps.pending() >= this.options.maxPendingRequests) {
      await new Promise((resolve) => setTimeout(resolve, BACKPRESSURE_POLL_MS).unref?.());
    }
  }
}

/** The URLs of one origin read and not yet handed to the crawler. */
class Backlog {
  private items: { entry: SitemapUrl; bytes: number }[] = [];
  private head = 0;
  private closed = false;
  private wake: (() => void) | undefined;

  private get size(): number {
    return this.items.length - this.head;
  }

  push(entry: SitemapUrl, bytes: number): void {
    this.items.push({ entry, bytes });
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /**
   * The next batch: `size` URLs, or fewer once the reading has ended or no more came within
   * {@link BATCH_LINGER_MS}; `undefined` when closed and empty.
   */
  async take(size: number): Promise<{ entries: SitemapUrl[]; bytes: number } | undefined> {
    let lingering: ReturnType<typeof setTimeout> | undefined;
    let lingered = false;
    while (this.size < size && !this.closed && !lingered) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (this.size > 0 && lingering === undefined) {
          lingering = setTimeout(() => {
            lingered = true;
            resolve();
          }, BATCH_LINGER_MS);
        }
      });
      this.wake = undefined;
    }
    clearTimeout(lingering);
    if (this.size === 0) return undefined;
    const taken = this.items.slice(this.head, this.head + size);
    this.head += taken.length;
    // Taken items are dropped from the front now and then, not one by one (linear overall).
    if (this.head > 1_024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return { entries: taken.map((t) => t.entry), bytes: taken.reduce((sum, t) => sum + t.bytes, 0) };
  }
}

/** Lets timers and I/O run before the next batch (one macrotask turn). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `promise`'s value, or `undefined` as soon as `signal` aborts. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => {
        onAbort = () => resolve(undefined);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** A duration option in seconds as a timer's milliseconds: whole, and no longer than a Node.js timer waits. */
function timerMs(secs: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(secs * 1000)));
}

function sameHost(a: string, b: string): boolean {
  return new URL(a).host === new URL(b).host;
}

function normalized(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
