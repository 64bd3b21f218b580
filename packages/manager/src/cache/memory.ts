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

/** What a snapshot is counted for beside its body: the object, its slot, its 16 sightings at most. */
const SNAPSHOT_OVERHEAD = 4_096;

/** Default of `MemoryStore`'s `maxBytes`. */
export const DEFAULT_STORE_MAX_BYTES = 128 * 1024 * 1024;

const memoryStoreOptions = defineOptions('new MemoryStore()', {
  /**
   * Bytes the records may take, least recently used evicted first: about 37,000 typical origins
   * (2 KB robots.txt) or 180 of 500 KiB at the default. At least 1 MiB, at most the heap limit.
   * @default 134_217_728 (128 MiB)
   */
  maxBytes: memoryBound(DEFAULT_STORE_MAX_BYTES),
  /**
   * Origins kept at most, least recently used evicted first, on top of `maxBytes`.
   * @default no bound but `maxBytes`
   */
  maxEntries: option.number({ default: undefined, min: 1, integer: true }),
});

/** Options of {@link MemoryStore}. */
export type MemoryStoreOptions = OptionsInput<typeof memoryStoreOptions>;

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
  /** robots.txt snapshots by id, bounded by `maxBytes` on their own (least recently kept go first). */
  private readonly snapshots: LRUCache<string, { body: Uint8Array; sightings: SightingLog }>;

  constructor(options: MemoryStoreOptions = {}) {
    // No maxEntries default: left out, the store is bounded by maxBytes only.
    const { maxBytes, maxEntries } = memoryStoreOptions.resolve(options);
    this.maxBytes = maxBytes;
    this.records = new LRUCache<string, Slot>({
      ...(maxEntries === undefined ? {} : { max: maxEntries }),
      maxSize: this.maxBytes,
      sizeCalculation: (slot) => recordBytes(slot.record),
    });
    this.snapshots = new LRUCache({ maxSize: this.maxBytes, sizeCalculation: (s) => s.body.byteLength + SNAPSHOT_OVERHEAD });
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

  async keepSnapshot(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void> {
    const held = this.snapshots.get(id);
    // A copy of the bytes: the caller's buffer may be reused.
    this.snapshots.set(id, {
      body: held?.body ?? Uint8Array.from(body),
      sightings: addSighting(held?.sightings ?? EMPTY_SIGHTINGS, sighting),
    });
  }

  async getSnapshot(id: string): Promise<StoredSnapshot | undefined> {
    const held = this.snapshots.get(id);
    return held === undefined ? undefined : { id, body: held.body, sightings: held.sightings };
  }

  async close(): Promise<void> {
    this.snapshots.clear();
    this.records.clear();
    this.locks.clear();
  }
}
