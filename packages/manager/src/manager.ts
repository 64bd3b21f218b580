/**
 * `RobotsManager`: the public face of the manager. One robots.txt record per origin, fetched once,
 * kept by the status policy, cached in a store and parsed once per process: the loading is
 * `loader/origin-file-loader.ts` (robots.txt and tdmrep.json alike), the file kinds are
 * `loader/robots-file.ts` and `usage/tdmrep-file.ts`; this class checks arguments, answers from the
 * loaded files and reports on them.
 */
import { setMaxListeners } from 'node:events';
import type { ProductTokens, RobotsTxt } from '@heed/parser';
import { consoleLog } from './cache/console-log.js';
import { MemoryStore } from './cache/memory.js';
import type { RobotsStore, SharedCrawlClock } from './cache/store.js';
import type { SnapshotStore } from './snapshots/snapshot.js';
import { InvalidOptionsError, InvalidUrlError, ManagerClosedError } from './errors.js';
import type { FetchContext } from './fetch/fetch-context.js';
import type { FetchCounts } from './loader/fetch-log.js';
import { FetchSlots } from './loader/fetch-slots.js';
import { OriginFileLoader, type LoaderContext } from './loader/origin-file-loader.js';
import { originOf } from './origin.js';
import { freezeTokens, productTokenProblem, resolveOptions, type ResolvedOptions, type RobotsManagerOptions } from './options.js';
import type { EffectivePolicy, VerdictReason } from './policy.js';
import type { RobotsRecord, RobotsRecordStatus } from './record.js';
import {
  allowedBy,
  quickAllows,
  quickOf,
  quickVerdict,
  robotsKind,
  verdictOf,
  type LoadedRobots,
  type RobotsRules,
} from './loader/robots-file.js';
import { madeBy, RecentVerdicts } from './recent-verdicts.js';
import { invalidUrlVerdict, type Verdict } from './verdict.js';
import { SnapshotKeeper } from './snapshots/keeper.js';
import { TDMREP_CACHE, tdmrepKind, usageReport, type TdmRepReading, type UsageQuery, type UsageReport } from './usage/index.js';
import { checkedAtCall } from './call-errors.js';

export type { Verdict, VerdictRecord } from './verdict.js';
export type { FetchContext } from './fetch/fetch-context.js';

/** What `stats()` reports for one origin held in the process cache. */
export interface OriginSummary {
  readonly origin: string;
  readonly status: RobotsRecordStatus;
  readonly httpStatus?: number;
  /** What decides its verdicts now. */
  readonly policy: EffectivePolicy['kind'];
  readonly reason: VerdictReason;
  readonly fetchedAt: number;
  readonly expiresAt: number;
  /** Why it is unavailable or unreachable (`http-503`, `timeout`, `redirect-loop`, ...). */
  readonly problem?: string;
}

/** Counters since the manager was created. */
export interface ManagerStats {
  /**
   * robots.txt fetches made by this manager (`total`), by the record they produced (`ok`,
   * `unavailable`, `unreachable`) and by the class of the final HTTP status (`network` when there
   * was no response).
   */
  readonly fetches: FetchCounts;
  readonly cache: {
    /** Checks answered from the in-process cache. */
    readonly hits: number;
    /** Checks that had to go to the store (or wait on a fetch). */
    readonly misses: number;
    /** Loads a fresh store record answered (no fetch needed). */
    readonly storeHits: number;
    /** Loads the store could not answer: fetched (or waited on another process's fetch). */
    readonly storeMisses: number;
    /** Parsed entries held in process. */
    readonly entries: number;
    /** Bytes those entries are counted for (record + estimate of the parsed rules, see `maxCacheBytes`). */
    readonly bytes: number;
    /** The bound on `bytes`: the `maxCacheBytes` option. */
    readonly maxBytes: number;
  };
  /** Origins being loaded now. */
  readonly inFlight: number;
  /** Fetches waiting for a slot of `maxConcurrency`. */
  readonly queued: number;
  /** Every origin held in the process cache. */
  readonly origins: readonly OriginSummary[];
}

const ALLOWED = Promise.resolve(true);
const DISALLOWED = Promise.resolve(false);
const allowedOf = (verdict: Verdict): boolean => verdict.allowed;

/**
 * One robots.txt record per origin, shared by every check of the process (and, with a shared
 * store, of the fleet). See the package README for the status policy and the stores.
 */
export class RobotsManager {
  private readonly options: ResolvedOptions;
  private readonly store: RobotsStore;
  private readonly ownsStore: boolean;
  private readonly queue: FetchSlots;
  private readonly robots: OriginFileLoader<RobotsRules>;
  /** `/.well-known/tdmrep.json` per origin, loaded only for `usage()` with a TDM purpose. */
  private readonly tdmrep: OriginFileLoader<TdmRepReading>;
  /** The last `productToken` argument a call named, and its checked (frozen) form. */
  private lastTokenArgument: unknown;
  private lastTokens: ProductTokens = '';
  private readonly abort = new AbortController();
  private closed = false;
  /** What `decideCached()` answered last, per URL (see `recent-verdicts.ts`). */
  private readonly recentVerdicts = new RecentVerdicts();
  /** Where the snapshot of each accepted record goes (see `snapshots/keeper.ts`). */
  private readonly snapshots: SnapshotKeeper;

  constructor(options: RobotsManagerOptions) {
    this.options = checkedAtCall(new.target, () => resolveOptions(options));
    this.ownsStore = this.options.store === undefined;
    this.store = this.options.store ?? new MemoryStore();
    this.queue = new FetchSlots(this.options.maxConcurrency);
    // Every fetch in flight listens on the one close signal: up to `maxConcurrency` listeners.
    setMaxListeners(0, this.abort.signal);
    const context: LoaderContext = {
      store: this.store,
      options: this.options,
      log: this.options.log ?? consoleLog,
      clock: this.options.now,
      queue: this.queue,
      signal: this.abort.signal,
      isClosed: () => this.closed,
    };
    this.snapshots = new SnapshotKeeper(this.store, context.log);
    // A verdict explained later counts its file again (robots-file.ts): late-bound, as the loader is made with the kind.
    this.robots = new OriginFileLoader(
      robotsKind(this.options, this.snapshots, (origin) => this.robots.recountKey(origin)),
      context,
      {
        maxEntries: this.options.cacheSize,
        maxBytes: this.options.maxCacheBytes,
      },
    );
    this.tdmrep = new OriginFileLoader(tdmrepKind, context, TDMREP_CACHE);
  }

  /** The product token (or list of tokens) rules are matched against when a call names none. */
  get productToken(): ProductTokens {
    return this.options.productToken;
  }

  /**
   * Whether the crawler with `productToken` (default: the manager's, see the `productToken` option)
   * may fetch `url`: `decide()`'s `allowed`. `productToken` is one token (`'OtherBot'`) or a list
   * (`['MyBot-News', 'MyBot']`: the groups of every named token apply, `*` only when none is
   * named); it is never a whole header (`'OtherBot/2.0'` rejects with `InvalidOptionsError`). Never
   * rejects for a bad URL (it is not allowed) or a failing fetch (the status policy decides).
   */
  isAllowed(url: string, productToken?: ProductTokens): Promise<boolean> {
    let token: ProductTokens;
    try {
      token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    const origin = originOf(url);
    const id = origin === undefined ? -1 : this.robots.cachedId(origin);
    if (id === -1) return this.decideWith(url, token, origin).then(allowedOf);
    // A warm check answers with one of two settled promises: no verdict is built for a boolean.
    const quick = token === this.options.productToken ? this.robots.quickAt(id) : undefined;
    let allowed: boolean;
    if (quick !== undefined) allowed = quickAllows(quick, url);
    else {
      const entry = this.robots.entryAt(id);
      allowed = allowedBy(entry, url, token);
      this.afterCheck(entry, token);
    }
    return allowed ? ALLOWED : DISALLOWED;
  }

  /**
   * The verdict for `url`: allowed or not, its reason, the deciding line, the origin and the state
   * of its record; `verdict.explain()` adds the deciding rule and the groups (worked out when
   * asked, so a crawler that checks every URL pays for them only on the URLs it skips). Never
   * rejects for a bad URL (it is not allowed) or a failing fetch or store read (the status policy
   * decides); rejects after `close()`, and with any error Heed could not recover from (a custom
   * store that breaks its contract, a bug), which the Crawlee plugin reports as `check-failed`.
   *
   * Always a promise, warm or not: the plugin's crawl costs the same either way (see BENCHMARKS.md,
   * "One verdict type: `decide()` always a promise").
   *
   * `productToken` as for {@link isAllowed}; a malformed one rejects with `InvalidOptionsError` (a
   * programming error, not a verdict).
   *
   * `fetch`: what the caller lends for a fetch this call causes (a crawler's proxy, see
   * {@link FetchContext}); consulted only when robots.txt is fetched, never on a cache hit, so pass
   * one object created once. The other methods take it too.
   */
  decide(url: string, productToken?: ProductTokens, fetch?: FetchContext): Promise<Verdict> {
    // Not an async function: a warm check builds one settled promise, where an async function
    // costs more around the same value. Its errors still reject, never throw.
    try {
      const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
      const origin = originOf(url);
      const id = origin === undefined ? -1 : this.robots.cachedId(origin);
      if (id === -1) return this.decideWith(url, token, origin, fetch);
      return Promise.resolve(this.cachedVerdict(id, url, origin as string, token));
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  }

  /**
   * The verdict for `url` when it can be given without waiting: the record of its origin is in the
   * process cache and fresh (or the URL is not an absolute http(s) URL), else `undefined`: nothing is
   * loaded, {@link decide} loads it (after `close()` always `undefined`, and `decide()` rejects). The
   * same verdict `decide()` would give, synchronously: a crawler checking every link of a page judges
   * them all in one go and waits only for origins not yet known. A URL asked about again while its
   * origin's record is the same gets the same verdict object (the last few thousand URLs are
   * remembered): a crawl meets a site's menu links on every page. `productToken` as for
   * {@link isAllowed}; a malformed one throws `InvalidOptionsError`.
   */
  decideCached(url: string, productToken?: ProductTokens): Verdict | undefined {
    if (this.closed) return undefined;
    const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    const known = this.recentVerdicts.lastFor(url, token);
    // A URL judged before: its origin is the verdict's, read without parsing the URL again.
    const origin = known === undefined ? originOf(url) : known.origin;
    if (origin === undefined) return invalidUrlVerdict(url, token);
    const id = this.robots.cachedId(origin);
    if (id === -1) return undefined;
    if (known !== undefined && madeBy(known, this.robots.valueAt(id))) return known;
    const verdict = this.cachedVerdict(id, url, origin, token);
    this.recentVerdicts.remember(url, verdict);
    return verdict;
  }

  private async decideWith(url: string, token: ProductTokens, origin: string | undefined, fetch?: FetchContext): Promise<Verdict> {
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('decide');
      return invalidUrlVerdict(url, token);
    }
    const entry = await this.robots.load(origin, 'decide', fetch);
    return this.verdictOf(entry, url, token);
  }

  /**
   * The verdict of a loaded origin, its file counted again if the check made it grow (its rules
   * compiled, a verdict built), as explaining the verdict later will.
   */
  private verdictOf(entry: LoadedRobots, url: string, token: ProductTokens): Verdict {
    const verdict = verdictOf(entry, url, token);
    this.afterCheck(entry, token);
    return verdict;
  }

  /**
   * The verdict of the cached entry `id` (see `OriginFileLoader.cachedId`) for `url` of `origin`.
   * With the crawler's own token, from the entry's quick form once it has one: the packed rules a
   * check reads in place of the parsed file, which a broad crawl's warm check would otherwise fetch
   * piece by piece from memory.
   */
  private cachedVerdict(id: number, url: string, origin: string, token: ProductTokens): Verdict {
    const quick = token === this.options.productToken ? this.robots.quickAt(id) : undefined;
    if (quick !== undefined) return quickVerdict(this.robots.valueAt(id), quick, url, origin, token);
    return this.verdictOf(this.robots.entryAt(id), url, token);
  }

  /**
   * After a check of a loaded origin: its file counted again if the check made it grow (its rules
   * compiled), and with the crawler's own token, its quick form kept once there is one.
   */
  private afterCheck(entry: LoadedRobots, token: ProductTokens): void {
    this.robots.recount(entry);
    if (token !== this.options.productToken) return;
    const quick = quickOf(entry, token);
    if (quick !== undefined) this.robots.keepQuick(entry, quick);
  }

  /**
   * The record of the origin of `urlOrOrigin` (fetching it if needed): status, HTTP status, raw
   * body (base64), fetch time, expiry, problem, last good copy. Rejects with `InvalidUrlError`
   * for anything that is not an absolute http(s) URL. `fetch` as for {@link decide}.
   */
  async get(urlOrOrigin: string, fetch?: FetchContext): Promise<RobotsRecord> {
    const origin = originOf(urlOrOrigin);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('get');
      throw new InvalidUrlError(urlOrOrigin);
    }
    return (await this.robots.load(origin, 'get', fetch)).record;
  }

  /**
   * The AI-usage verdict of `url` (see "tdmrep.json" and the API table in docs/reference.md): what its
   * robots.txt (`Content-Usage`, `Content-Signal`) and, for the purposes `train-ai` and `ai-input`,
   * its origin's `/.well-known/tdmrep.json` say, each category with its deciding evidence (file and
   * line or rule). `query.productToken` as for {@link isAllowed}, `query.fetch` as `fetch` for
   * {@link decide} (tdmrep.json included). Rejects with `InvalidUrlError` for anything that is not an
   * absolute http(s) URL.
   */
  async usage(url: string, query: UsageQuery = {}): Promise<UsageReport> {
    const tokens = query.productToken === undefined ? this.options.productToken : this.tokensOf(query.productToken);
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('usage');
      throw new InvalidUrlError(url);
    }
    return this.withRules(url, 'usage', query.fetch, (robots) =>
      usageReport(url, origin, robots, tokens, query.purposes, async (at) => (await this.tdmrep.load(at, 'usage', query.fetch)).value),
    );
  }

  /**
   * The `sitemap:` URLs of the robots.txt of `url`'s origin (of the stale copy while unreachable).
   * `fetch` as for {@link decide}.
   */
  async sitemaps(url: string, fetch?: FetchContext): Promise<readonly string[]> {
    return this.withRules(url, 'sitemaps', fetch, (robots) => robots?.sitemaps ?? []);
  }

  /**
   * The crawl-delay in seconds the robots.txt of `url`'s origin sets for `productToken` (default:
   * the manager's), if any: the first `crawl-delay` of the groups that apply (for a list, the groups
   * of every named token), in file order. `fetch` as for {@link decide}.
   */
  async crawlDelay(url: string, productToken?: ProductTokens, fetch?: FetchContext): Promise<number | undefined> {
    const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    return this.withRules(url, 'crawlDelay', fetch, (robots) => robots?.crawlDelay(token));
  }

  /**
   * Loads the robots.txt of every origin among `urls`, origins in parallel: fetches are bounded by
   * `maxConcurrency`, store reads by twice that. Invalid URLs are skipped. Resolves when all are in.
   * `fetch` as for {@link decide}.
   */
  async prefetch(urls: Iterable<string>, fetch?: FetchContext): Promise<void> {
    if (this.closed) throw new ManagerClosedError('prefetch');
    const origins = new Set<string>();
    for (const url of urls) {
      const origin = originOf(url);
      if (origin !== undefined) origins.add(origin);
    }
    const pending = [...origins];
    let next = 0;
    const worker = async () => {
      while (next < pending.length && !this.closed) {
        const origin = pending[next++] as string;
        await this.robots.load(origin, 'prefetch', fetch);
      }
    };
    const workers = Math.min(pending.length, this.options.maxConcurrency * 2);
    await Promise.all(Array.from({ length: workers }, worker));
  }

  /**
   * The crawl clock the manager's store keeps for every process that shares it (`RedisStore`):
   * crawl-delay slots and `Retry-After` pauses per origin. `undefined` for a store without one
   * (`MemoryStore`, `KeyValueStoreStore`): each crawler then keeps its own clock. The Crawlee plugin
   * uses it when it is there; a crawler of your own can too.
   */
  crawlClock(): SharedCrawlClock | undefined {
    const store = this.store;
    if (
      store.reserveCrawlSlot === undefined ||
      store.claimCrawlSend === undefined ||
      store.confirmCrawlSend === undefined ||
      store.pauseOrigin === undefined
    )
      return undefined;
    return {
      reserveCrawlSlot: (origin, delayMs, held) => store.reserveCrawlSlot!(origin, delayMs, held),
      claimCrawlSend: (origin, delayMs) => store.claimCrawlSend!(origin, delayMs),
      confirmCrawlSend: (origin, delayMs, agoMs) => store.confirmCrawlSend!(origin, delayMs, agoMs),
      pauseOrigin: (origin, pauseMs) => store.pauseOrigin!(origin, pauseMs),
    };
  }

  /**
   * Keeps the robots.txt snapshot of every record this manager accepts from now on in `sink` (a
   * `SnapshotDirectory`, or any {@link SnapshotStore}), starting with the records it holds now:
   * every verdict's {@link Verdict.snapshot} can then be read back from `sink`. A sink that writes
   * synchronously (`SnapshotDirectory`) has the snapshot before the first verdict made with it is
   * given. Returns a function that stops keeping them there. A store with the optional snapshot
   * methods (`MemoryStore`, `KeyValueStoreStore`, `RedisStore`) keeps them without this call.
   */
  keepSnapshotsIn(sink: SnapshotStore): () => void {
    const held = this.robots.held().map(({ key, record, policy, value }) => ({ origin: key, record, policy, snapshot: value.snapshot }));
    return this.snapshots.add(sink, held);
  }

  /** Resolves once every snapshot written in the background (to the store, to async sinks) is written. */
  async snapshotsWritten(): Promise<void> {
    await this.snapshots.settled();
  }

  /** Fetch, cache and per-origin counters. */
  stats(): ManagerStats {
    const origins: OriginSummary[] = this.robots.held().map(({ key, record, policy }) => ({
      origin: key,
      status: record.status,
      ...(record.httpStatus === undefined ? {} : { httpStatus: record.httpStatus }),
      policy: policy.kind,
      reason: policy.reason,
      fetchedAt: record.fetchedAt,
      expiresAt: record.expiresAt,
      ...(record.status === 'ok' ? {} : { problem: record.problem.code }),
    }));
    const loads = this.robots.stats();
    return {
      fetches: this.robots.fetchLog.counts(),
      cache: {
        hits: loads.hits,
        misses: loads.misses,
        storeHits: loads.storeHits,
        storeMisses: loads.storeMisses,
        entries: loads.entries,
        bytes: loads.bytes,
        maxBytes: this.options.maxCacheBytes,
      },
      inFlight: loads.inFlight,
      queued: this.queue.size,
      origins,
    };
  }

  /**
   * Stops: queued fetches are dropped, running ones aborted, and the store is closed if the
   * manager created it (a store you passed in is yours to close). Later calls reject with
   * `ManagerClosedError`.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Queued fetches listen to the signal and reject, which refresh() reports as ManagerClosedError.
    this.abort.abort();
    await Promise.all([this.robots.close(), this.tdmrep.close()]);
    await this.snapshots.settled();
    if (this.ownsStore) await this.store.close?.();
  }

  /**
   * `read` of the parsed robots.txt of `url`'s origin (undefined when no rules are in force or the URL
   * has no origin), the file counted again after it, as reading may have made it grow.
   */
  private async withRules<T>(
    url: string,
    method: string,
    fetch: FetchContext | undefined,
    read: (robots: RobotsTxt | undefined) => T | Promise<T>,
  ): Promise<T> {
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError(method);
      return read(undefined);
    }
    const entry = await this.robots.load(origin, method, fetch);
    const result = await read(entry.value.robots);
    this.robots.recount(entry);
    return result;
  }

  /**
   * A call's `productToken`, checked. A crawler names the same token (or the same list object) every
   * time: compared first, so a warm check pays one comparison, not the check.
   */
  private tokensOf(productToken: ProductTokens): ProductTokens {
    if (productToken === this.lastTokenArgument) return this.lastTokens;
    const problem = productTokenProblem(productToken);
    if (problem !== undefined) throw new InvalidOptionsError('productToken', problem);
    // The crawler's own tokens named again are its own: its checks then answer from quick forms.
    this.lastTokens = sameTokens(productToken, this.options.productToken) ? this.options.productToken : freezeTokens(productToken);
    // A list is kept as given only when frozen: a caller could change its own array later.
    this.lastTokenArgument = typeof productToken === 'string' || Object.isFrozen(productToken) ? productToken : undefined;
    return this.lastTokens;
  }
}

/** Whether two product tokens (or lists) name the same tokens, in the same order. */
function sameTokens(a: ProductTokens, b: ProductTokens): boolean {
  const first = typeof a === 'string' ? [a] : a;
  const second = typeof b === 'string' ? [b] : b;
  return first.length === second.length && first.every((token, i) => token === second[i]);
}
