/**
 * `RobotsManager`: one robots.txt record per origin, fetched once, kept by the status policy,
 * cached in a store and parsed once per process.
 *
 * The path of a check:
 * 1. `originOf(url)` → the origin; an in-process LRU of parsed entries answers at once while the
 *    entry is fresh (the hot path: a lookup and the parser's matcher).
 * 2. Otherwise one flight per origin (`flights`): every concurrent check of the origin awaits it.
 * 3. The flight reads the store; a fresh record there (another crawler, another process, an
 *    earlier run) is parsed and used.
 * 4. Otherwise it takes the store's fetch lock (cross-process single flight), re-reads the store,
 *    fetches through the global `p-queue`, maps the outcome with `decideRecord()` and writes it
 *    back. Managers that find the lock taken poll the store until the holder's record appears.
 *
 * The in-process cache is `lru-cache`, bounded in bytes (`maxCacheBytes`: each entry counted for its
 * record and an upper estimate of its parsed rules, see `cache/sizes.ts`) and in entries
 * (`cacheSize`). An entry's freshness is lru-cache's per-entry TTL, read against a clock refreshed
 * at most every `TTL_RESOLUTION_MS` (`ttlResolution`), because on virtual machines reading the time
 * costs a good part of a warm check. It replaced a hand-made LRU and a timer-driven clock (issue
 * 14), A/B on the warm check of `pnpm bench manager` (100 origins, typical 2 KB files): CPU time per
 * `await isAllowed(url)`, median of 6 runs each in separate processes, 1,453 ns hand-made against
 * 1,530 ns lru-cache (+5%); the bench's own ratio, bare parser / manager on the same pairs, 1.27x
 * hand-made and 1.33x lru-cache (two runs minutes apart); interleaved in one process, lru-cache at
 * 0.87-0.91x the rate. Kept: the loss is under the 10% that would have kept the hand-made code.
 * An evicted origin is re-read from the store and parsed again, never fetched again while the
 * store holds a fresh record.
 */
import { setMaxListeners } from 'node:events';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import { parseRobotsTxt, type Group, type ProductTokens, type RobotsTxt, type Rule } from '@heed/parser';
import { consoleLog } from './cache/console-log.js';
import { MemoryStore } from './cache/memory.js';
import { parsedBytes, recordBytes } from './cache/sizes.js';
import type { Log, RobotsStore, StoreLock } from './cache/store.js';
import { InvalidOptionsError, InvalidUrlError, ManagerClosedError } from './errors.js';
import { fetchRobotsTxt, type FetchOutcome } from './fetch.js';
import { originOf, robotsTxtUrl } from './origin.js';
import { freezeTokens, productTokenProblem, resolveOptions, type ResolvedOptions, type RobotsManagerOptions } from './options.js';
import { capExpiry, decideRecord, effectivePolicy, policyChangesAt, type EffectivePolicy, type VerdictReason } from './policy.js';
import { decodeRecord, type RobotsRecord, type RobotsRecordStatus } from './record.js';
import { TdmRepCache, usageReport, type UsageQuery, type UsageReport } from './usage/index.js';

/** The verdict for one URL, with what decided it. */
export interface Verdict {
  readonly allowed: boolean;
  /** The URL as given. */
  readonly url: string;
  /** Its origin (`''` for an invalid URL). */
  readonly origin: string;
  /** The product token (or list of tokens) the rules were matched against. */
  readonly productToken: ProductTokens;
  readonly reason: VerdictReason;
  /** The deciding rule's line; 0 when no rule decided (allowed by default, or the status policy decided). */
  readonly line: number;
  /** The deciding rule, when a rule decided. */
  readonly rule?: Rule;
  /** The groups that applied, when rules (current or a stale copy) decided. */
  readonly groups?: readonly Group[];
  /**
   * The origin's record: its status, the HTTP status of the last fetch, when that fetch was and
   * how old it is. For `invalid-url` verdicts a placeholder (`unavailable`, `fetchedAt: 0`).
   */
  readonly record: {
    readonly status: RobotsRecordStatus;
    readonly httpStatus?: number;
    readonly fetchedAt: number;
    readonly ageMs: number;
  };
}

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
  readonly fetches: {
    /** robots.txt fetches made by this manager. */
    readonly total: number;
    /** By the record they produced. */
    readonly ok: number;
    readonly unavailable: number;
    readonly unreachable: number;
    /** By the class of the final HTTP status; `network` when there was no response. */
    readonly byStatusClass: Readonly<Record<'2xx' | '3xx' | '4xx' | '5xx' | 'other' | 'network', number>>;
  };
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
  /** Fetches waiting for a slot of `concurrency`. */
  readonly queued: number;
  /** Every origin held in the process cache. */
  readonly origins: readonly OriginSummary[];
}

/**
 * What `decide()` answers: the verdict of one check and the line that decided it. Shared between
 * the checks an origin's line decides (frozen): nothing is built per check.
 */
export interface Decision {
  readonly allowed: boolean;
  /** The URL's origin (`''` for an invalid URL). */
  readonly origin: string;
  readonly reason: VerdictReason;
  /** The deciding rule's line; 0 when no rule decided (allowed by default, or the status policy decided). */
  readonly line: number;
  /** The status of the origin's record the verdict rests on (`unavailable` for an invalid URL). */
  readonly status: RobotsRecordStatus;
  /** The HTTP status of the record's last fetch, when there was a response. */
  readonly httpStatus?: number;
  /** When the record was fetched (ms since the epoch; 0 for an invalid URL). */
  readonly fetchedAt: number;
}

/** A parsed, ready-to-check origin. */
interface Entry {
  readonly origin: string;
  readonly record: RobotsRecord;
  readonly policy: EffectivePolicy;
  /** Parsed rules, when `policy.kind === 'rules'`. */
  readonly robots: RobotsTxt | undefined;
  /** Until when the entry answers without going back to the store. */
  readonly validUntil: number;
  /** What the entry is counted for in the cache's byte bound. */
  readonly bytes: number;
  /**
   * `decide()`'s answers, by deciding line (0: no rule decided), made the first time each is given;
   * at most {@link MAX_ANSWERS} lines are kept (`answersKept`), later ones are made per check.
   */
  readonly answers: (Decision | undefined)[];
  answersKept: number;
}

const NO_LOCK: StoreLock = { release: async () => {} };
const ALLOWED = Promise.resolve(true);
const DISALLOWED = Promise.resolve(false);
const allowedOf = (decision: Decision): boolean => decision.allowed;
const INVALID_URL: Decision = Object.freeze({
  allowed: false,
  origin: '',
  reason: 'invalid-url',
  line: 0,
  status: 'unavailable',
  fetchedAt: 0,
});
/**
 * How stale the time read by cache hits may be (lru-cache's `ttlResolution`). Entries live for
 * hours; their TTL is shortened by this much, so an entry is let go up to this early, never late.
 */
const TTL_RESOLUTION_MS = 250;
/** The options of a cache hit, one object for all (lru-cache's default is a fresh `{}` per call). */
const HIT: LRUCache.GetOptions<string, Entry, unknown> = Object.freeze({});
/**
 * Deciding lines whose `decide()` answer an entry keeps (about 100 bytes each): a crawl's URLs of one
 * origin are decided by a few lines; a file of thousands of rules cannot make an entry grow past
 * what `cache/sizes.ts` counts for it.
 */
const MAX_ANSWERS = 256;
/** An entry object with its slot in the cache, beside its record and parsed rules. */
const ENTRY_OVERHEAD = 256;

/** The decision of a loaded origin for `url`: one object per deciding line, made once. */
function decisionOf(entry: Entry, url: string, token: ProductTokens): Decision {
  if (entry.policy.kind !== 'rules') return entry.answers[0] ?? makeAnswer(entry, 0, entry.policy.kind === 'allow-all');
  // A line decides the same way for every agent: its directive (or the default allow, line 0) does.
  const { line, allowed } = (entry.robots as RobotsTxt).decide(url, token);
  return entry.answers[line] ?? makeAnswer(entry, line, allowed);
}

function makeAnswer(entry: Entry, line: number, allowed: boolean): Decision {
  const { status, httpStatus, fetchedAt } = entry.record;
  const decision: Decision = Object.freeze({
    allowed,
    origin: entry.origin,
    reason: entry.policy.reason,
    line,
    status,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    fetchedAt,
  });
  if (entry.answersKept < MAX_ANSWERS) {
    entry.answers[line] = decision;
    entry.answersKept++;
  }
  return decision;
}

/**
 * One robots.txt record per origin, shared by every check of the process (and, with a shared
 * store, of the fleet). See the package README for the status policy and the stores.
 */
export class RobotsManager {
  private readonly options: ResolvedOptions;
  private readonly store: RobotsStore;
  private readonly ownsStore: boolean;
  private readonly log: Log;
  private readonly clock: () => number;
  /**
   * Whether lru-cache's TTLs (the real clock) say when an entry is stale; false when `options.now`
   * replaces the clock (tests, simulations), and each hit compares that clock with `validUntil`.
   */
  private readonly cacheTtls: boolean;
  private readonly queue: PQueue;
  private readonly entries: LRUCache<string, Entry>;
  /** Loads in progress, one per origin, each deleted when it settles: as many as origins being loaded. */
  private readonly flights = new Map<string, Promise<Entry>>();
  /** The last `productToken` argument a call named, and its checked (frozen) form. */
  private lastTokenArgument: unknown;
  private lastTokens: ProductTokens = '';
  private readonly abort = new AbortController();
  /** `/.well-known/tdmrep.json` per origin, loaded only for `usage()` with a TDM purpose. */
  private readonly tdmrep: TdmRepCache;
  private closed = false;
  private readonly counters = {
    fetches: 0,
    ok: 0,
    unavailable: 0,
    unreachable: 0,
    classes: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0, network: 0 },
    hits: 0,
    misses: 0,
    storeHits: 0,
    storeMisses: 0,
  };

  constructor(options: RobotsManagerOptions) {
    this.options = resolveOptions(options);
    this.ownsStore = this.options.store === undefined;
    this.store = this.options.store ?? new MemoryStore();
    this.log = this.options.log ?? consoleLog;
    this.clock = this.options.now;
    this.cacheTtls = this.clock === Date.now;
    this.queue = new PQueue({ concurrency: this.options.concurrency });
    this.entries = new LRUCache<string, Entry>({
      max: this.options.cacheSize,
      maxSize: this.options.maxCacheBytes,
      sizeCalculation: (entry) => entry.bytes,
      ttlResolution: TTL_RESOLUTION_MS,
      // A stale entry stays (until evicted): it answers while an unreachable origin's retry runs,
      // and its record carries the backoff state and the last good copy.
      noDeleteOnStaleGet: true,
    });
    // Every fetch in flight listens on the one close signal: up to `concurrency` listeners.
    setMaxListeners(0, this.abort.signal);
    this.tdmrep = new TdmRepCache({
      store: this.store,
      options: this.options,
      log: this.log,
      clock: this.clock,
      queue: this.queue,
      signal: this.abort.signal,
    });
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
    let decision: Decision | Promise<Decision>;
    try {
      decision = this.decide(url, productToken);
    } catch (error) {
      // decide() throws only Heed's errors (InvalidOptionsError, ManagerClosedError), handed on as they are.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    // A warm decision answers with one of two settled promises: no async frame, no allocation.
    if (decision instanceof Promise) return decision.then(allowedOf);
    return decision.allowed ? ALLOWED : DISALLOWED;
  }

  /**
   * The check a crawler makes before each request: the verdict for `url`, its reason and the line
   * that decided it, without the groups and rule objects of {@link check} (ask `check()` for those
   * when a URL is skipped). A warm check (the origin's rules cached and fresh) answers at once, not
   * with a promise, and allocates nothing: the answers are frozen decisions, one per deciding line of
   * each cached origin; `await` it either way. Otherwise a promise, which never rejects for a bad URL
   * (it is not allowed) or a failing fetch (the status policy decides).
   *
   * Why not always a promise: awaiting one costs a microtask, about as much as the rest of a warm
   * check; the plugin's guard awaits only a promise (see BENCHMARKS.md, "What users run").
   *
   * `productToken` as for {@link isAllowed}; a malformed one throws `InvalidOptionsError` (a
   * programming error, not a verdict).
   */
  decide(url: string, productToken?: ProductTokens): Decision | Promise<Decision> {
    const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    // Looking the URL's text before its path up first, before `originOf()`, gained 3–6% here (A/B
    // on the plugin path, issue 14): under the 10% that pays for a second lookup, so there is one.
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) return Promise.reject(new ManagerClosedError('decide'));
      return INVALID_URL;
    }
    const entry = this.entries.get(origin, HIT);
    if (entry !== undefined && this.fresh(entry)) {
      this.counters.hits++;
      return decisionOf(entry, url, token);
    }
    return this.decideAfterLoad(origin, url, token);
  }

  private async decideAfterLoad(origin: string, url: string, token: ProductTokens): Promise<Decision> {
    return decisionOf(await this.entryFor(origin, 'decide'), url, token);
  }

  /**
   * The verdict for `url` with its reason, the deciding rule and the origin record's state.
   * `productToken` as for {@link isAllowed}.
   */
  async check(url: string, productToken?: ProductTokens): Promise<Verdict> {
    const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('check');
      return {
        allowed: false,
        url: String(url),
        origin: '',
        productToken: token,
        reason: 'invalid-url',
        line: 0,
        record: { status: 'unavailable', fetchedAt: 0, ageMs: 0 },
      };
    }
    const entry = await this.entryFor(origin, 'check');
    const now = this.clock();
    const record = {
      status: entry.record.status,
      ...(entry.record.httpStatus === undefined ? {} : { httpStatus: entry.record.httpStatus }),
      fetchedAt: entry.record.fetchedAt,
      ageMs: Math.max(0, now - entry.record.fetchedAt),
    };
    const base = { url, origin, productToken: token, record };
    if (entry.policy.kind !== 'rules') {
      return { ...base, allowed: entry.policy.kind === 'allow-all', reason: entry.policy.reason, line: 0 };
    }
    const explanation = (entry.robots as RobotsTxt).explain(url, token);
    return {
      ...base,
      allowed: explanation.allowed,
      reason: entry.policy.reason,
      line: explanation.line,
      ...(explanation.rule === undefined ? {} : { rule: explanation.rule }),
      groups: explanation.groups,
    };
  }

  /**
   * The record of the origin of `urlOrOrigin` (fetching it if needed): status, HTTP status, raw
   * body (base64), fetch time, expiry, problem, last good copy. Rejects with `InvalidUrlError`
   * for anything that is not an absolute http(s) URL.
   */
  async get(urlOrOrigin: string): Promise<RobotsRecord> {
    const origin = originOf(urlOrOrigin);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('get');
      throw new InvalidUrlError(urlOrOrigin);
    }
    return (await this.entryFor(origin, 'get')).record;
  }

  /**
   * The AI-usage verdict of `url` (see the package README, "AI-usage preferences"): what its
   * robots.txt (`Content-Usage`, `Content-Signal`) and, for the purposes `train-ai` and `ai-input`,
   * its origin's `/.well-known/tdmrep.json` say, each category with its deciding evidence (file and
   * line or rule). `query.productToken` as for {@link isAllowed}. Rejects with `InvalidUrlError` for
   * anything that is not an absolute http(s) URL.
   */
  async usage(url: string, query: UsageQuery = {}): Promise<UsageReport> {
    const tokens = query.productToken === undefined ? this.options.productToken : this.tokensOf(query.productToken);
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError('usage');
      throw new InvalidUrlError(url);
    }
    const robots = await this.rulesOf(url, 'usage');
    return usageReport(url, origin, robots, tokens, query.purposes, this.tdmrep);
  }

  /** The `sitemap:` URLs of the robots.txt of `url`'s origin (of the stale copy while unreachable). */
  async sitemaps(url: string): Promise<readonly string[]> {
    const robots = await this.rulesOf(url, 'sitemaps');
    return robots?.sitemaps ?? [];
  }

  /**
   * The crawl-delay in seconds the robots.txt of `url`'s origin sets for `productToken` (default:
   * the manager's), if any: the first `crawl-delay` of the groups that apply (for a list, the groups
   * of every named token), in file order.
   */
  async crawlDelay(url: string, productToken?: ProductTokens): Promise<number | undefined> {
    const token = productToken === undefined ? this.options.productToken : this.tokensOf(productToken);
    const robots = await this.rulesOf(url, 'crawlDelay');
    return robots?.crawlDelay(token);
  }

  /**
   * Loads the robots.txt of every origin among `urls`, origins in parallel: fetches are bounded by
   * `concurrency`, store reads by twice that. Invalid URLs are skipped. Resolves when all are in.
   */
  async prefetch(urls: Iterable<string>): Promise<void> {
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
        await this.entryFor(origin, 'prefetch');
      }
    };
    const workers = Math.min(pending.length, this.options.concurrency * 2);
    await Promise.all(Array.from({ length: workers }, worker));
  }

  /** Fetch, cache and per-origin counters. */
  stats(): ManagerStats {
    const c = this.counters;
    const origins: OriginSummary[] = [];
    // dump(): stale entries too (an unreachable origin waiting for its retry is still held).
    for (const [origin, { value: entry }] of this.entries.dump()) {
      origins.push({
        origin,
        status: entry.record.status,
        ...(entry.record.httpStatus === undefined ? {} : { httpStatus: entry.record.httpStatus }),
        policy: entry.policy.kind,
        reason: entry.policy.reason,
        fetchedAt: entry.record.fetchedAt,
        expiresAt: entry.record.expiresAt,
        ...(entry.record.problem === undefined ? {} : { problem: entry.record.problem.code }),
      });
    }
    return {
      fetches: { total: c.fetches, ok: c.ok, unavailable: c.unavailable, unreachable: c.unreachable, byStatusClass: { ...c.classes } },
      cache: {
        hits: c.hits,
        misses: c.misses,
        storeHits: c.storeHits,
        storeMisses: c.storeMisses,
        entries: this.entries.size,
        bytes: this.entries.calculatedSize,
        maxBytes: this.options.maxCacheBytes,
      },
      inFlight: this.flights.size,
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
    // Abort first: queued fetches listen to the signal and reject with an AbortError (p-queue 9's
    // clear() would drop them unsettled), which refresh() reports as ManagerClosedError.
    this.abort.abort();
    this.queue.clear();
    await Promise.allSettled([...this.flights.values()]);
    this.entries.clear();
    this.tdmrep.clear();
    if (this.ownsStore) await this.store.close?.();
  }

  // ---- loading -------------------------------------------------------------------------------

  private async rulesOf(url: string, method: string): Promise<RobotsTxt | undefined> {
    const origin = originOf(url);
    if (origin === undefined) {
      if (this.closed) throw new ManagerClosedError(method);
      return undefined;
    }
    const entry = await this.entryFor(origin, method);
    return entry.robots;
  }

  private entryFor(origin: string, method: string): Promise<Entry> | Entry {
    const fresh = this.entries.get(origin);
    if (fresh !== undefined && this.fresh(fresh)) {
      this.counters.hits++;
      return fresh;
    }
    const entry = this.entries.peek(origin, { allowStale: true });
    const now = this.clock();
    if (entry !== undefined && entry.record.status === 'unreachable' && now < policyChangesAt(entry.record, this.options)) {
      // A retry of an unreachable origin is due. Until it succeeds the answer stays what it was
      // (disallow all, or the last good copy), so the check that starts the retry waits for it only
      // briefly, and checks that come while it runs do not wait at all: a server that never
      // answers must not hold every check of its origin for a fetch timeout.
      const retrying = this.flights.has(origin);
      const loading = this.load(origin, method);
      if (retrying) {
        loading.catch(() => undefined);
        return entry;
      }
      return answerWithin(loading, entry, RETRY_WAIT_MS);
    }
    return this.load(origin, method);
  }

  /** Whether an entry the cache handed out (so fresh by its TTL) may answer without going back to the store. */
  private fresh(entry: Entry): boolean {
    return this.cacheTtls || this.clock() < entry.validUntil;
  }

  /** The single flight: one load per origin at a time, whoever asks. */
  private load(origin: string, method: string): Promise<Entry> {
    if (this.closed) return Promise.reject(new ManagerClosedError(method));
    this.counters.misses++;
    let flight = this.flights.get(origin);
    if (flight === undefined) {
      flight = this.refresh(origin).finally(() => this.flights.delete(origin));
      this.flights.set(origin, flight);
    }
    return flight;
  }

  private async refresh(origin: string): Promise<Entry> {
    try {
      return await this.refreshOrWait(origin);
    } catch (error) {
      // Queued fetches are dropped by close() with an AbortError: report the reason callers can act on.
      if (this.closed) throw new ManagerClosedError('check');
      throw error;
    }
  }

  private async refreshOrWait(origin: string): Promise<Entry> {
    const stored = await this.storeGet(origin);
    if (stored !== undefined && this.clock() < stored.expiresAt) {
      this.counters.storeHits++;
      return this.remember(origin, stored);
    }
    this.counters.storeMisses++;
    let previous = newest(stored, this.entries.peek(origin, { allowStale: true })?.record);
    // Real time, not the injectable clock: this bounds an actual wait. One lock life: the holder
    // takes the lock once its fetch slot is ours, so it holds it for one fetch (timeoutMs, within
    // lockTtlMs); past that the lock has expired, or the store never frees it.
    const waitUntil = Date.now() + this.options.lockTtlMs;
    let pollMs = 25;
    let force = false;
    for (;;) {
      const record = await this.queue.add(() => this.fetchUnderLock(origin, previous, force), { signal: this.abort.signal });
      if (this.closed) throw new ManagerClosedError('check');
      if (record !== undefined) return this.remember(origin, record);
      // Another manager is fetching this origin: wait for its record rather than fetch twice.
      await sleep(Math.max(1, Math.min(pollMs, waitUntil - Date.now())));
      pollMs = Math.min(pollMs * 2, 500);
      if (this.closed) throw new ManagerClosedError('check');
      const seen = await this.storeGet(origin);
      if (seen !== undefined && this.clock() < seen.expiresAt) return this.remember(origin, seen);
      previous = newest(seen, previous);
      if (!force && Date.now() >= waitUntil) {
        force = true;
        this.log.warning(
          `The robots fetch lock of ${origin} was not given within lockTtlMs (${this.options.lockTtlMs} ms), and no other process stored its robots.txt meanwhile: fetching it without the lock. Logged for every new origin, it means the store's lock never frees (check the store).`,
          { origin },
        );
      }
    }
  }

  /**
   * Runs in a fetch slot: takes the origin's lock, fetches, stores the record. `undefined` when
   * another manager holds the lock. `force` skips the lock (it has outlived its ttl: a store whose
   * lock never frees must not stall checks forever).
   */
  private async fetchUnderLock(origin: string, previous: RobotsRecord | undefined, force: boolean): Promise<RobotsRecord | undefined> {
    const lock = force ? NO_LOCK : await this.storeLock(origin);
    if (lock === undefined) return undefined;
    try {
      let latest = previous;
      if (lock !== NO_LOCK) {
        // The holder before us may have written its record between our read and our lock.
        const again = await this.storeGet(origin);
        if (again !== undefined && this.clock() < again.expiresAt) return again;
        latest = newest(again, previous);
      }
      const record = await this.fetchRecord(origin, latest);
      await this.storeSet(origin, record);
      return record;
    } finally {
      await lock
        .release()
        .catch((error: unknown) => this.log.debug('releasing a robots fetch lock failed', { origin, error: String(error) }));
    }
  }

  private async fetchRecord(origin: string, previous: RobotsRecord | undefined): Promise<RobotsRecord> {
    const url = robotsTxtUrl(origin);
    const outcome = await fetchRobotsTxt(url, {
      userAgent: this.options.userAgent,
      ...(this.options.proxyUrl === undefined ? {} : { proxyUrl: this.options.proxyUrl }),
      connectTimeoutMs: this.options.connectTimeoutMs,
      timeoutMs: this.options.timeoutMs,
      maxBytes: this.options.maxBytes,
      maxRedirects: this.options.maxRedirects,
      signal: this.abort.signal,
    });
    if (this.closed) throw new ManagerClosedError('check');
    const record = decideRecord(origin, outcome, previous, this.clock(), this.options);
    this.count(outcome, record);
    this.log.debug('robots.txt fetched', {
      url,
      status: record.status,
      httpStatus: record.httpStatus,
      problem: record.problem?.code,
      durationMs: outcome.durationMs,
    });
    if (record.status === 'unreachable' && (record.failures ?? 1) === 1) {
      this.log.warning(
        `robots.txt of ${origin} is unreachable (${record.problem?.code ?? 'unknown'}); ${
          record.lastGood === undefined ? 'its URLs are disallowed' : 'using the last good copy'
        } until a retry succeeds.`,
        { origin, retryAt: new Date(record.expiresAt).toISOString() },
      );
    }
    return record;
  }

  /** Parses a record into an entry and keeps it in the process cache. */
  private remember(origin: string, record: RobotsRecord): Entry {
    const now = this.clock();
    const policy = effectivePolicy(record, now, this.options);
    let robots: RobotsTxt | undefined;
    let bytes = ENTRY_OVERHEAD + recordBytes(record);
    if (policy.kind === 'rules') {
      const current = this.entries.peek(origin, { allowStale: true });
      // A record read back again (another flight, a re-read) need not be parsed twice.
      if (current !== undefined && current.policy.kind === 'rules' && current.policy.body === policy.body) {
        robots = current.robots;
        bytes = current.bytes - recordBytes(current.record) + recordBytes(record);
      } else {
        const body = Buffer.from(policy.body, 'base64');
        robots = parseRobotsTxt(body, this.options.parseOptions);
        bytes += parsedBytes(body, robots.directiveCount);
      }
    }
    const validUntil = Math.min(record.expiresAt, policyChangesAt(record, this.options));
    const entry: Entry = { origin, record, policy, robots, validUntil, bytes, answers: [], answersKept: 0 };
    // lru-cache reads 0 as "no TTL": an entry already due gets 1 ms. Past `maxCacheBytes` on its own
    // the entry is not kept (lru-cache refuses it): it answers this call, the next one re-reads the store.
    const ttl = this.cacheTtls ? Math.max(1, Math.floor(validUntil - now - TTL_RESOLUTION_MS)) : 0;
    this.entries.set(origin, entry, { ttl });
    return entry;
  }

  private count(outcome: FetchOutcome, record: RobotsRecord): void {
    const c = this.counters;
    c.fetches++;
    c[record.status]++;
    if (outcome.kind === 'network') c.classes.network++;
    else {
      const cls = Math.floor(outcome.status / 100);
      const key = cls === 2 ? '2xx' : cls === 3 ? '3xx' : cls === 4 ? '4xx' : cls === 5 ? '5xx' : 'other';
      c.classes[key]++;
    }
  }

  /**
   * A call's `productToken`, checked. A crawler names the same token (or the same list object) every
   * time: compared first, so a warm check pays one comparison, not the check.
   */
  private tokensOf(productToken: ProductTokens): ProductTokens {
    if (productToken === this.lastTokenArgument) return this.lastTokens;
    const problem = productTokenProblem(productToken);
    if (problem !== undefined) throw new InvalidOptionsError('productToken', problem);
    this.lastTokens = freezeTokens(productToken);
    // A list is kept as given only when frozen: a caller could change its own array later.
    this.lastTokenArgument = typeof productToken === 'string' || Object.isFrozen(productToken) ? productToken : undefined;
    return this.lastTokens;
  }

  // ---- the store, whose failures never fail a check --------------------------------------------

  private async storeGet(origin: string): Promise<RobotsRecord | undefined> {
    let stored: unknown;
    try {
      stored = await this.store.get(origin);
    } catch (error) {
      this.log.warning('reading a robots record from the store failed; fetching instead', { origin, error: String(error) });
      return undefined;
    }
    if (stored === undefined || stored === null) return undefined;
    // Checked here, whatever the store: a MemoryStore or a custom store hands back what was put in,
    // and a record of another version or a corrupt one must be refetched, never obeyed or crash a check.
    const record = decodeRecord(stored, origin);
    if (record === undefined) {
      this.log.debug('ignoring a robots record the store held in another version or corrupt; fetching again', { origin });
      return undefined;
    }
    // Nor is a record obeyed longer than this manager would keep its own (a far-future expiresAt).
    return capExpiry(record, this.clock(), this.options);
  }

  private async storeSet(origin: string, record: RobotsRecord): Promise<void> {
    // Keep records past their expiry: they carry the backoff state and the last good copy.
    const retainMs = record.expiresAt - this.clock() + this.options.unreachableAllowAfterMs;
    try {
      await this.store.set(origin, record, retainMs);
    } catch (error) {
      this.log.warning('writing a robots record to the store failed; it is kept in process only', { origin, error: String(error) });
    }
  }

  private async storeLock(origin: string): Promise<StoreLock | undefined> {
    if (typeof this.store.lock !== 'function') return NO_LOCK;
    try {
      return await this.store.lock(origin, this.options.lockTtlMs);
    } catch (error) {
      this.log.warning('taking the robots fetch lock failed; fetching without it', { origin, error: String(error) });
      return NO_LOCK;
    }
  }
}

/** The more recently fetched of two records. */
function newest(a: RobotsRecord | undefined, b: RobotsRecord | undefined): RobotsRecord | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.fetchedAt >= b.fetchedAt ? a : b;
}

/** How long a check waits for the retry of an unreachable origin before answering from its record. */
const RETRY_WAIT_MS = 1_000;

/** `loading` if it settles within `ms`, else `fallback` (the load goes on, and its result is kept). */
function answerWithin(loading: Promise<Entry>, fallback: Entry, ms: number): Promise<Entry> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Entry>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref?.();
  });
  // When the fallback wins, a failure of the load (e.g. close()) must not surface as unhandled.
  loading.catch(() => undefined);
  return Promise.race([loading, late]).finally(() => clearTimeout(timer));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
