/**
 * One file per origin (robots.txt, tdmrep.json), fetched once, kept by the status policy, cached
 * in the store and parsed once per process. Every kind of file gets the same rules:
 *
 * 1. A fresh entry of the in-process cache answers at once (the hot path: one lookup).
 * 2. Otherwise one flight per file (`flights`): every concurrent caller awaits it.
 * 3. The flight reads the store; a fresh record there (another crawler, another process, an
 *    earlier run) is parsed and used.
 * 4. Otherwise it takes the store's fetch lock (cross-process single flight), re-reads the store,
 *    fetches through the manager's queue, maps the outcome with `decideRecord()` and writes it
 *    back. A loader that finds the lock taken polls the store until the holder's record appears,
 *    for at most one lock life, then fetches without the lock and logs why.
 * 5. A due retry of an unreachable file keeps answering from the record it has: the caller that
 *    starts the retry waits for it only briefly, later callers not at all.
 *
 * The in-process cache is an {@link OriginTable}, bounded in bytes (each entry counted for its
 * record and what its parsed form holds, see `cache/sizes.ts`) and in entries, each entry fresh
 * until its `validUntil`. An evicted file is re-read from the store and parsed again, never fetched
 * again while the store holds a fresh record.
 *
 * The store's failures never fail a caller: a failed read fetches, a failed write keeps the record
 * in process only, a failed lock fetches without it; each is logged.
 */
import type { FetchSlots } from './fetch-slots.js';
import { recordBytes } from '../cache/sizes.js';
import type { Log, RobotsStore, StoreLock } from '../cache/store.js';
import { ManagerClosedError } from '../errors.js';
import type { FetchContext } from '../fetch/fetch-context.js';
import { fetchRobotsTxt } from '../fetch/fetch-file.js';
import type { ResolvedOptions } from '../options.js';
import { ownOrigin } from '../origin.js';
import { capExpiry, decideRecord, effectivePolicy, policyChangesAt, type EffectivePolicy } from '../policy.js';
import { decodeRecord, type RobotsRecord, type UnreachableRecord } from '../record.js';
import { FetchLog } from './fetch-log.js';
import { LongWaits } from './long-waits.js';
import { OriginTable } from './origin-table.js';

/** What a loader needs to know about one kind of file. */
export interface FileKind<P> {
  /** The file's name in log lines and warnings: `robots.txt`, `tdmrep.json`. */
  readonly name: string;
  /** The file's store key, also its records' `origin`: distinct per kind, so one is never read as another. */
  keyOf(origin: string): string;
  /** The URL the file is fetched from. */
  urlOf(origin: string): string;
  /** The most bytes a fetch reads. */
  maxBytes(options: ResolvedOptions): number;
  /**
   * The parsed form of a record under `policy`, and the bytes it is counted for. `previous` is the
   * entry the cache held for the file, whose parsed form may be reused when the body is the same.
   */
  parse(key: string, record: RobotsRecord, policy: EffectivePolicy, previous: LoadedFile<P> | undefined): Parsed<P>;
  /** The bytes a parsed form holds now, when it grows after it was counted (see {@link OriginFileLoader.recount}). */
  heldBytes?(value: P): number;
  /** The warning logged when a file becomes unreachable, if the kind warns of it. */
  unreachableWarning?(origin: string, record: UnreachableRecord): string | undefined;
}

export interface Parsed<P> {
  readonly value: P;
  readonly bytes: number;
}

/** A file ready to answer. */
export interface LoadedFile<P> {
  /** The store key (see {@link FileKind.keyOf}). */
  readonly key: string;
  readonly record: RobotsRecord;
  readonly policy: EffectivePolicy;
  readonly value: P;
  /** Until when the entry answers without going back to the store. */
  readonly validUntil: number;
  /** What the parsed form is counted for; the entry adds its record and {@link ENTRY_OVERHEAD}. */
  readonly valueBytes: number;
}

/** What every loader of one manager shares. */
export interface LoaderContext {
  readonly store: RobotsStore;
  readonly options: ResolvedOptions;
  readonly log: Log;
  readonly clock: () => number;
  /** The manager's fetch queue: every kind of file shares its `maxConcurrency`. */
  readonly queue: FetchSlots;
  /** Aborted by `close()`. */
  readonly signal: AbortSignal;
  isClosed(): boolean;
}

export interface CacheBounds {
  readonly maxEntries: number;
  readonly maxBytes: number;
}

/** Loads since the loader was created, by where they were answered. */
export interface LoadCounts {
  /** Answered from the in-process cache. */
  readonly hits: number;
  /** Had to go to the store (or wait on a fetch). */
  readonly misses: number;
  /** Loads a fresh store record answered (no fetch needed). */
  readonly storeHits: number;
  /** Loads the store could not answer: fetched (or waited on another process's fetch). */
  readonly storeMisses: number;
}

/**
 * How long a cache hit may reuse the time it read (with the real clock): reading it costs about
 * 50 ns, a good part of a warm check. The time is read 250 ms ahead, so an entry is let go up to
 * that early, never late (while timers run: a stretch of checks that never yields to the event loop
 * keeps the time of its start).
 */
const HIT_TIME_RESOLUTION_MS = 250;
/** An entry object with its slot in the cache, beside its record and parsed form. */
export const ENTRY_OVERHEAD = 256;
/** How long a caller waits for the retry of an unreachable file before answering from its record. */
const RETRY_WAIT_MS = 1_000;
const NO_LOCK: StoreLock = { release: async () => {} };

/** Thrown inside a flight that `close()` ended; callers see `ManagerClosedError` naming their method. */
class Closed extends Error {}

export class OriginFileLoader<P> {
  readonly fetchLog: FetchLog;
  /** The line when a load keeps its callers waiting. */
  private readonly longWaits: LongWaits;
  private readonly entries: OriginTable<LoadedFile<P>>;
  /** Loads in progress, one per file, each deleted when it settles. */
  private readonly flights = new Map<string, Promise<LoadedFile<P>>>();
  private readonly counts = { hits: 0, misses: 0, storeHits: 0, storeMisses: 0 };
  /** The time cache hits compare expiries with, 0 when it is to be read again (see {@link hitTime}). */
  private hitTimeRead = 0;

  constructor(
    private readonly kind: FileKind<P>,
    private readonly ctx: LoaderContext,
    bounds: CacheBounds,
  ) {
    this.fetchLog = new FetchLog(kind.name, ctx.log);
    this.longWaits = new LongWaits((origin) => kind.urlOf(origin), ctx.options.timeoutMs, ctx.queue, ctx.log);
    // A stale entry stays (until evicted): it answers while an unreachable file's retry runs, and
    // its record carries the backoff state and the last good copy.
    this.entries = new OriginTable<LoadedFile<P>>(bounds);
  }

  /** The fresh cached file of `origin`, counted as a hit; `undefined` (nothing counted) otherwise. */
  cached(origin: string): LoadedFile<P> | undefined {
    const id = this.cachedId(origin);
    return id === -1 ? undefined : this.entries.entryAt(id);
  }

  /**
   * {@link cached} as the number of the entry in the cache, -1 when there is none: for a caller that
   * answers from {@link valueAt} and {@link quickAt} without reading the entry itself.
   */
  cachedId(origin: string): number {
    const id = this.entries.fresh(this.kind.keyOf(origin), this.hitTime());
    if (id !== -1) this.counts.hits++;
    return id;
  }

  /**
   * The time a cache hit compares expiries with: the real clock read at most every
   * {@link HIT_TIME_RESOLUTION_MS}, that much ahead; an injected clock (`now`), read every time.
   */
  private hitTime(): number {
    if (this.ctx.clock !== Date.now) return this.ctx.clock();
    if (this.hitTimeRead === 0) {
      this.hitTimeRead = Date.now() + HIT_TIME_RESOLUTION_MS;
      setTimeout(() => (this.hitTimeRead = 0), HIT_TIME_RESOLUTION_MS).unref();
    }
    return this.hitTimeRead;
  }

  /** The parsed form of the cached entry `id` (from {@link cachedId}). */
  valueAt(id: number): P {
    return this.entries.valueAt(id);
  }

  /** The entry `id` (from {@link cachedId}). */
  entryAt(id: number): LoadedFile<P> {
    return this.entries.entryAt(id);
  }

  /** The quick form kept beside the cached entry `id` (see {@link keepQuick}), if any. */
  quickAt(id: number): string | undefined {
    return this.entries.quickAt(id);
  }

  /**
   * Keeps `quick` beside `entry` while it is cached: a string from which its owner answers a hit
   * without reading the parsed form (the packed rules of the crawler's user-agent).
   */
  keepQuick(entry: LoadedFile<P>, quick: string): void {
    this.entries.setQuick(entry, quick);
  }

  /**
   * The file of `origin`, loaded if need be. `method` is the public method the user called, named
   * by the `ManagerClosedError` a closed manager rejects with. `fetch` is consulted only if the file
   * is fetched (the flight this call starts; a flight already under way keeps its own).
   */
  load(origin: string, method: string, fetch?: FetchContext): Promise<LoadedFile<P>> | LoadedFile<P> {
    const fresh = this.cached(origin);
    if (fresh !== undefined) return fresh;
    const key = this.kind.keyOf(origin);
    const entry = this.entries.peek(key);
    if (
      entry !== undefined &&
      entry.record.status === 'unreachable' &&
      this.ctx.clock() < policyChangesAt(entry.record, this.ctx.options)
    ) {
      // A retry of an unreachable file is due. Until it succeeds the answer stays what it was
      // (disallow all, or the last good copy), so the caller that starts the retry waits for it only
      // briefly, and callers that come while it runs do not wait at all: a server that never
      // answers must not hold every check of its origin for a fetch timeout.
      const retrying = this.flights.has(key);
      const loading = this.join(key, origin, method, fetch);
      if (retrying) {
        loading.catch(() => undefined);
        return entry;
      }
      return answerWithin(loading, entry, RETRY_WAIT_MS);
    }
    return this.join(key, origin, method, fetch);
  }

  stats(): LoadCounts & { readonly entries: number; readonly bytes: number; readonly inFlight: number } {
    return { ...this.counts, entries: this.entries.size, bytes: this.entries.bytes, inFlight: this.flights.size };
  }

  /**
   * Counts the cached `entry` again when its parsed form holds more than it was counted for (a
   * check compiled its rules or built a verdict, a verdict was explained), so that the byte bound
   * holds what is really held; least recently used files are evicted if it no longer fits, and a
   * file that grew past the whole bound leaves the cache (the next check reads it from the store).
   * A field read and a comparison when nothing grew: it runs after every check.
   */
  recount(entry: LoadedFile<P>): void {
    const bytes = this.kind.heldBytes?.(entry.value);
    if (bytes === undefined || bytes <= entry.valueBytes) return;
    // Not if it was replaced or evicted meanwhile.
    if (this.entries.peek(entry.key) !== entry) return;
    const recounted = { ...entry, valueBytes: bytes };
    this.entries.set(recounted, entryBytes(recounted), entry.validUntil, true);
  }

  /** {@link recount} of the file cached for `key`, if one is. */
  recountKey(key: string): void {
    const entry = this.entries.peek(key);
    if (entry !== undefined) this.recount(entry);
  }

  /** Every file held, stale ones too (an unreachable file waiting for its retry is still held). */
  held(): LoadedFile<P>[] {
    return this.entries.oldestFirst();
  }

  /** Waits for the flights `close()` ended, then forgets every file. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.flights.values()]);
    this.entries.clear();
  }

  /** The single flight: one load per file at a time, whoever asks. */
  private join(key: string, origin: string, method: string, fetch: FetchContext | undefined): Promise<LoadedFile<P>> {
    if (this.ctx.isClosed()) return Promise.reject(new ManagerClosedError(method));
    this.counts.misses++;
    let flight = this.flights.get(key);
    if (flight === undefined) {
      // What the flight stores and caches (the key, the record's origin) outlives the caller's URL.
      const ownKey = ownOrigin(key);
      const ownedOrigin = key === origin ? ownKey : ownOrigin(origin);
      this.longWaits.started(ownKey, ownedOrigin);
      flight = this.refresh(ownKey, ownedOrigin, fetch).finally(() => {
        this.flights.delete(key);
        this.longWaits.ended(key);
      });
      this.flights.set(key, flight);
    }
    this.longWaits.joined(key);
    // Queued fetches are dropped by close() with an AbortError: report the reason callers can act on.
    return flight.catch((error: unknown) => {
      if (this.ctx.isClosed()) throw new ManagerClosedError(method);
      throw error;
    });
  }

  private async refresh(key: string, origin: string, fetch: FetchContext | undefined): Promise<LoadedFile<P>> {
    const { options, clock, queue, signal, log } = this.ctx;
    const stored = await this.storeGet(key);
    if (stored !== undefined && clock() < stored.expiresAt) {
      this.counts.storeHits++;
      return this.remember(key, stored);
    }
    this.counts.storeMisses++;
    let previous = newest(stored, this.entries.peek(key)?.record);
    // Real time, not the injectable clock: this bounds an actual wait. One lock life: the holder
    // takes the lock once its fetch slot is ours, so it holds it for one fetch (timeoutSecs, within
    // lockTtlSecs); past that the lock has expired, or the store never frees it.
    const waitUntil = Date.now() + options.lockTtlMs;
    let pollMs = 25;
    let force = false;
    for (;;) {
      const record = await queue.add(() => this.fetchUnderLock(key, origin, previous, force, fetch), { signal });
      if (this.ctx.isClosed()) throw new Closed();
      if (record !== undefined) return this.remember(key, record);
      // Another manager is fetching this file: wait for its record rather than fetch twice.
      await sleep(Math.max(1, Math.min(pollMs, waitUntil - Date.now())));
      pollMs = Math.min(pollMs * 2, 500);
      if (this.ctx.isClosed()) throw new Closed();
      const seen = await this.storeGet(key);
      if (seen !== undefined && clock() < seen.expiresAt) return this.remember(key, seen);
      previous = newest(seen, previous);
      if (!force && Date.now() >= waitUntil) {
        force = true;
        const name = this.kind.name;
        log.warning(
          `The ${name} fetch lock of ${origin} was not given within lockTtlSecs (${options.lockTtlMs / 1000} s), and no other process stored its ${name} meanwhile: fetching it without the lock. Logged for every new origin, it means the store's lock never frees (check the store).`,
          { origin },
        );
      }
    }
  }

  /**
   * Runs in a fetch slot: takes the file's lock, fetches, stores the record. `undefined` when
   * another manager holds the lock. `force` skips the lock (it has outlived its ttl: a store whose
   * lock never frees must not stall callers forever).
   */
  private async fetchUnderLock(
    key: string,
    origin: string,
    previous: RobotsRecord | undefined,
    force: boolean,
    fetch: FetchContext | undefined,
  ): Promise<RobotsRecord | undefined> {
    const lock = force ? NO_LOCK : await this.storeLock(key);
    if (lock === undefined) return undefined;
    try {
      let latest = previous;
      if (lock !== NO_LOCK) {
        // The holder before us may have written its record between our read and our lock.
        const again = await this.storeGet(key);
        if (again !== undefined && this.ctx.clock() < again.expiresAt) return again;
        latest = newest(again, previous);
      }
      const record = await this.fetchRecord(key, origin, latest, fetch);
      await this.storeSet(key, record);
      return record;
    } finally {
      await lock
        .release()
        .catch((error: unknown) => this.ctx.log.debug(`releasing a ${this.kind.name} fetch lock failed`, { key, error: String(error) }));
    }
  }

  private async fetchRecord(
    key: string,
    origin: string,
    previous: RobotsRecord | undefined,
    fetch: FetchContext | undefined,
  ): Promise<RobotsRecord> {
    const { options, signal, clock, log } = this.ctx;
    const url = this.kind.urlOf(origin);
    // The manager's own proxyUrl is the user's explicit choice: it wins over the caller's.
    const proxyUrl = options.proxyUrl ?? fetch?.proxyUrl;
    const outcome = await fetchRobotsTxt(url, {
      userAgent: options.userAgent,
      ...(proxyUrl === undefined ? {} : { proxyUrl }),
      connectTimeoutMs: options.connectTimeoutMs,
      timeoutMs: options.timeoutMs,
      maxBytes: this.kind.maxBytes(options),
      maxRedirects: options.maxRedirects,
      signal,
      ...(options.signature === undefined ? {} : { signer: options.signature }),
    });
    if (this.ctx.isClosed()) throw new Closed();
    const record = decideRecord(key, outcome, previous, clock(), options);
    this.fetchLog.fetched(url, outcome, record);
    if (record.status === 'unreachable' && record.failures === 1) {
      const warning = this.kind.unreachableWarning?.(origin, record);
      if (warning !== undefined) log.warning(warning, { origin, retryAt: new Date(record.expiresAt).toISOString() });
    }
    return record;
  }

  /** Parses a record into an entry and keeps it in the process cache. */
  private remember(key: string, record: RobotsRecord): LoadedFile<P> {
    const now = this.ctx.clock();
    const policy = effectivePolicy(record, now, this.ctx.options);
    const parsed = this.kind.parse(key, record, policy, this.entries.peek(key));
    const validUntil = Math.min(record.expiresAt, policyChangesAt(record, this.ctx.options));
    const entry: LoadedFile<P> = { key, record, policy, value: parsed.value, validUntil, valueBytes: parsed.bytes };
    // Past the byte bound on its own the entry is not kept: it answers this call, the next one
    // re-reads the store.
    this.entries.set(entry, entryBytes(entry), validUntil);
    return entry;
  }

  private async storeGet(key: string): Promise<RobotsRecord | undefined> {
    const { store, log, clock, options } = this.ctx;
    let stored: unknown;
    try {
      stored = await store.get(key);
    } catch (error) {
      log.warning(`reading a ${this.kind.name} record from the store failed; fetching instead`, { key, error: String(error) });
      return undefined;
    }
    if (stored === undefined || stored === null) return undefined;
    // Checked here, whatever the store: a MemoryStore or a custom store hands back what was put in,
    // and a record of another version or a corrupt one must be refetched, never obeyed or crash a check.
    const record = decodeRecord(stored, key);
    if (record === undefined) {
      log.debug(`ignoring a ${this.kind.name} record the store held in another version or corrupt; fetching again`, { key });
      return undefined;
    }
    // Nor is a record obeyed longer than this manager would keep its own (a far-future expiresAt).
    return capExpiry(record, clock(), options);
  }

  private async storeSet(key: string, record: RobotsRecord): Promise<void> {
    // Keep records past their expiry: they carry the backoff state and the last good copy.
    const retainMs = record.expiresAt - this.ctx.clock() + this.ctx.options.unreachableAllowAfterMs;
    try {
      await this.ctx.store.set(key, record, retainMs);
    } catch (error) {
      this.ctx.log.warning(`writing a ${this.kind.name} record to the store failed; it is kept in process only`, {
        key,
        error: String(error),
      });
    }
  }

  private async storeLock(key: string): Promise<StoreLock | undefined> {
    const { store, log, options } = this.ctx;
    if (typeof store.lock !== 'function') return NO_LOCK;
    try {
      return await store.lock(key, options.lockTtlMs);
    } catch (error) {
      log.warning(`taking the ${this.kind.name} fetch lock failed; fetching without it`, { key, error: String(error) });
      return NO_LOCK;
    }
  }
}

function entryBytes(entry: LoadedFile<unknown>): number {
  return ENTRY_OVERHEAD + recordBytes(entry.record) + entry.valueBytes;
}

/** The more recently fetched of two records. */
function newest(a: RobotsRecord | undefined, b: RobotsRecord | undefined): RobotsRecord | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.fetchedAt >= b.fetchedAt ? a : b;
}

/** `loading` if it settles within `ms`, else `fallback` (the load goes on, and its result is kept). */
function answerWithin<T>(loading: Promise<T>, fallback: T, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
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
