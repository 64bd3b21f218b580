/**
 * `MemoryStore`: the default store. Records live in this process, in an LRU bounded in bytes (each
 * record counted for its raw body, base64, and its fields: see `sizes.ts`), and optionally in
 * entries; the fetch lock works between managers that share the instance.
 *
 * Records are small next to parsed files (a typical 2 KB robots.txt: about 3.5 KB), so the store
 * holds many more origins than the manager's parsed cache: an origin the manager evicted is parsed
 * again from here instead of fetched again.
 */
import { LRUCache } from 'lru-cache';
import { defineOptions, option, type OptionsInput } from '@heed/parser';
import type { RobotsRecord } from '../record.js';
import { memoryBound, recordBytes } from './sizes.js';
import type { RobotsStore, StoreLock } from './store.js';
import { addSighting, EMPTY_SIGHTINGS, type SightingLog, type SnapshotSighting, type StoredSnapshot } from '../snapshots/snapshot.js';
import { checkedAtCall } from '../call-errors.js';

/** What a snapshot is counted for beside its body: the object, its slot, its 16 sightings at most. */
const SNAPSHOT_OVERHEAD = 4_096;

/** Default of `MemoryStore`'s `maxBytes`. */
export const DEFAULT_STORE_MAX_BYTES = 128 * 1024 * 1024;

/** The options of `new MemoryStore()` (the reference's table is written from them). */
export const MEMORY_STORE_OPTIONS = defineOptions('new MemoryStore()', {
  /**
   * Bytes the records may take, least recently used evicted first: about 37,000 typical origins
   * (2 KB robots.txt) or 180 of 500 KiB at the default. At least 1 MiB, at most the heap limit.
   * @default `134_217_728` (128 MiB)
   */
  maxBytes: memoryBound(DEFAULT_STORE_MAX_BYTES),
  /**
   * Origins kept at most, least recently used evicted first, on top of `maxBytes`.
   * @default no bound but `maxBytes`
   */
  maxEntries: option.number({ default: undefined, min: 1, integer: true }),
  /**
   * Whether the store keeps the robots.txt snapshot of every record (`getSnapshot(id)`), in a second
   * budget of `maxBytes`. Off by default: a process's memory does not outlive the crawl, so evidence
   * meant to last belongs in a `SnapshotDirectory` (`RobotsManager.keepSnapshotsIn()`, the Crawlee
   * plugin's `records` option) or Redis, and kept here it would double what the store may hold.
   * @default `false`
   */
  snapshots: option.boolean({ default: false }),
});

/** Options of {@link MemoryStore}. */
export type MemoryStoreOptions = OptionsInput<typeof MEMORY_STORE_OPTIONS>;

/** Locks held before expired ones are swept (the manager holds one per fetch, at most `maxConcurrency`). */
const LOCK_SWEEP_AT = 1_024;

interface Slot {
  readonly record: RobotsRecord;
  readonly retainUntil: number;
}

/** Records in process memory, least recently used evicted past `maxBytes` (or `maxEntries`). */
export class MemoryStore implements RobotsStore {
  /** The byte bound in force. */
  readonly maxBytes: number;
  private readonly records: LRUCache<string, Slot>;
  /** Fetch locks held: one per fetch in progress (released in a `finally`); expired ones are swept past {@link LOCK_SWEEP_AT}. */
  private readonly locks = new Map<string, { token: symbol; expiresAt: number }>();
  /** robots.txt snapshots by id, bounded by `maxBytes` on their own (least recently kept go first); only with option `snapshots`. */
  private readonly snapshots: LRUCache<string, { body: Uint8Array; sightings: SightingLog }> | undefined;
  /**
   * Present only with option `snapshots`: the manager hands a store snapshots (and decodes their
   * bytes) only when the store has these methods.
   */
  readonly keepSnapshot?: (id: string, body: Uint8Array, sighting: SnapshotSighting) => Promise<void>;
  readonly getSnapshot?: (id: string) => Promise<StoredSnapshot | undefined>;

  constructor(options: MemoryStoreOptions = {}) {
    // No maxEntries default: left out, the store is bounded by maxBytes only.
    const { maxBytes, maxEntries, snapshots } = checkedAtCall(new.target, () => MEMORY_STORE_OPTIONS.resolve(options));
    this.maxBytes = maxBytes;
    this.records = new LRUCache<string, Slot>({
      ...(maxEntries === undefined ? {} : { max: maxEntries }),
      maxSize: this.maxBytes,
      sizeCalculation: (slot) => recordBytes(slot.record),
    });
    if (snapshots) {
      const held = new LRUCache<string, { body: Uint8Array; sightings: SightingLog }>({
        maxSize: this.maxBytes,
        sizeCalculation: (s) => s.body.byteLength + SNAPSHOT_OVERHEAD,
      });
      this.snapshots = held;
      this.keepSnapshot = async (id, body, sighting) => {
        const kept = held.get(id);
        // A copy of the bytes: the caller's buffer may be reused.
        held.set(id, { body: kept?.body ?? Uint8Array.from(body), sightings: addSighting(kept?.sightings ?? EMPTY_SIGHTINGS, sighting) });
      };
      this.getSnapshot = async (id) => {
        const kept = held.get(id);
        return kept === undefined ? undefined : { id, body: kept.body, sightings: kept.sightings };
      };
    }
  }

  /** Origins currently held. */
  get size(): number {
    return this.records.size;
  }

  /** Bytes the held records are counted for (see `maxBytes`). */
  get bytes(): number {
    return this.records.calculatedSize;
  }

  async get(origin: string): Promise<RobotsRecord | undefined> {
    const slot = this.records.get(origin);
    if (slot === undefined) return undefined;
    if (Date.now() > slot.retainUntil) {
      this.records.delete(origin);
      return undefined;
    }
    return slot.record;
  }

  async set(origin: string, record: RobotsRecord, retainMs: number): Promise<void> {
    // A record counted larger than the whole bound is not kept (lru-cache refuses it).
    this.records.set(origin, { record, retainUntil: Date.now() + retainMs });
  }

  async delete(origin: string): Promise<void> {
    this.records.delete(origin);
  }

  async lock(origin: string, ttlMs: number): Promise<StoreLock | undefined> {
    const now = Date.now();
    const held = this.locks.get(origin);
    if (held !== undefined && held.expiresAt > now) return undefined;
    // A holder that never released (a custom caller) must not grow the map: expired locks go.
    if (held === undefined && this.locks.size >= LOCK_SWEEP_AT) {
      for (const [key, lock] of this.locks) if (lock.expiresAt <= now) this.locks.delete(key);
    }
    const token = Symbol(origin);
    this.locks.set(origin, { token, expiresAt: now + ttlMs });
    return {
      release: async () => {
        if (this.locks.get(origin)?.token === token) this.locks.delete(origin);
      },
    };
  }

  async close(): Promise<void> {
    this.snapshots?.clear();
    this.records.clear();
    this.locks.clear();
  }
}
