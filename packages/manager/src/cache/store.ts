/**
 * The store contract: where robots records live between fetches. A store keeps the versioned JSON
 * record (raw bytes + fetch metadata, see `record.ts`), never a parsed object; the manager parses
 * and keeps parsed objects in its own bounded in-process cache.
 *
 * Three come with Heed: `MemoryStore` (one process), `KeyValueStoreStore` (a Crawlee key-value
 * store: survives runs) and `RedisStore` (a fleet of processes or machines). Any object with
 * these methods works.
 */
import type { RobotsRecord } from '../record.js';
import type { SnapshotSighting, StoredSnapshot } from '../snapshots/snapshot.js';

/** A held cross-process fetch lock. */
export interface StoreLock {
  /** Gives the lock up (only if still ours: a lock that expired and was taken over is left alone). */
  release(): Promise<void>;
}

/** A crawl slot reserved in a shared store ({@link RobotsStore.reserveCrawlSlot}). */
export interface CrawlSlot {
  /** Milliseconds from now until the slot (0 or less: now). */
  readonly waitMs: number;
  /** The slot on the store's clock, to hand back as `held` when the request comes back for it. */
  readonly at: number;
}

/**
 * The crawl clock a shared store keeps per origin, which every process sharing the store obeys:
 * crawl-delay slots and `Retry-After` pauses (see `RobotsManager.crawlClock()`).
 */
export type SharedCrawlClock = Required<Pick<RobotsStore, 'reserveCrawlSlot' | 'claimCrawlSend' | 'confirmCrawlSend' | 'pauseOrigin'>>;

/** Where the manager keeps robots records. */
export interface RobotsStore {
  /**
   * The record of `origin`, or `undefined` when there is none, or it is corrupt, of another
   * record version or past its retention. Expired (stale) records are returned: the manager needs
   * them for the backoff and the last good copy.
   */
  get(origin: string): Promise<RobotsRecord | undefined>;
  /** Stores `record` for `origin`, to be kept at least `retainMs` (`Infinity`: no expiry). */
  set(origin: string, record: RobotsRecord, retainMs: number): Promise<void>;
  /** Forgets `origin`. */
  delete(origin: string): Promise<void>;
  /**
   * Takes the fetch lock of `origin` for `ttlMs`, or returns `undefined` when somebody else holds
   * it. Stores shared between processes implement it so that one fetch goes out per origin across
   * all of them; without it the single flight is per manager.
   */
  lock?(origin: string, ttlMs: number): Promise<StoreLock | undefined>;
  /**
   * Reserves the next crawl slot of `origin` for every process sharing the store: the later of now,
   * the last slot reserved plus `delayMs`, the last request sent plus `delayMs`, and the end of a
   * pause ({@link pauseOrigin}). `held`: the slot this request reserved before (its `at`), kept when
   * no pause moved past it, so a request that comes back at its slot does not take a new one.
   * `undefined` when the store cannot answer now (the caller keeps its own clock). Optional: shared
   * stores implement it, together with {@link claimCrawlSend}, {@link confirmCrawlSend} and {@link pauseOrigin}.
   */
  reserveCrawlSlot?(origin: string, delayMs: number, held?: number): Promise<CrawlSlot | undefined>;
  /**
   * Called right before a request to `origin` leaves: 0 when it may go (recorded as the origin's
   * last request sent), else the milliseconds to wait before asking again (another process sent one
   * less than `delayMs` ago, or the origin is paused). `undefined` when the store cannot answer now.
   */
  claimCrawlSend?(origin: string, delayMs: number): Promise<number | undefined>;
  /**
   * A request to `origin` was really written to the wire `agoMs` ago (known once its answer is in):
   * later requests count their delay from then when that is later than its claim. A request may
   * leave a while after {@link claimCrawlSend} on a busy machine. Resolves to whether the store recorded it.
   */
  confirmCrawlSend?(origin: string, delayMs: number, agoMs: number): Promise<boolean>;
  /**
   * Pauses `origin` for `pauseMs` from now for every process sharing the store (a `Retry-After`):
   * no slot is given and no request let go before then. A later pause already set is kept.
   * Resolves to whether the store recorded it.
   */
  pauseOrigin?(origin: string, pauseMs: number): Promise<boolean>;
  /**
   * Keeps the robots.txt snapshot `id` (`sha256:<hex>` of `body`) once, and adds `sighting` to its
   * bounded log (see `snapshots/snapshot.ts`). Optional: a store with it keeps the snapshot of
   * every record the manager accepts, for an audit; the three stores of Heed have it.
   */
  keepSnapshot?(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void>;
  /** The snapshot `id` with its sightings, or `undefined`. Optional, with {@link keepSnapshot}. */
  getSnapshot?(id: string): Promise<StoredSnapshot | undefined>;
  /** Releases what the store opened itself (connections, timers). */
  close?(): Promise<void>;
}

/** The logger shape Heed writes to: Crawlee's `log` fits, and so does `console` with `warn` mapped. */
export interface Log {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** A log that drops everything: pass it as `log` to keep Heed quiet (the default log writes warnings to the console). */
export const silentLog: Log = Object.freeze({
  debug() {},
  info() {},
  warning() {},
  error() {},
});
