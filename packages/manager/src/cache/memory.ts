/**
 * `MemoryStore`: the default store. Records live in this process, in an LRU map bounded by entry
 * count; the fetch lock works between managers that share the instance.
 */
import { InvalidOptionsError } from '../errors.js';
import type { RobotsRecord } from '../record.js';
import { LruMap } from './lru.js';
import type { RobotsStore, StoreLock } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Origins kept at most; the least recently used go first. Default: 10,000. */
  readonly maxEntries?: number;
}

/** Records in process memory, least recently used evicted past `maxEntries`. */
export class MemoryStore implements RobotsStore {
  private readonly records: LruMap<string, { record: RobotsRecord; retainUntil: number }>;
  private readonly locks = new Map<string, { token: symbol; expiresAt: number }>();

  constructor(options: MemoryStoreOptions = {}) {
    for (const key of Object.keys(options)) {
      if (key !== 'maxEntries') throw new InvalidOptionsError(key, 'MemoryStore takes only "maxEntries".');
    }
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new InvalidOptionsError('maxEntries', `expected a whole number >= 1, got ${String(maxEntries)}.`);
    }
    this.records = new LruMap(maxEntries);
  }

  /** Origins currently held. */
  get size(): number {
    return this.records.size;
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
    this.records.set(origin, { record, retainUntil: Date.now() + retainMs });
  }

  async delete(origin: string): Promise<void> {
    this.records.delete(origin);
  }

  async lock(origin: string, ttlMs: number): Promise<StoreLock | undefined> {
    const now = Date.now();
    const held = this.locks.get(origin);
    if (held !== undefined && held.expiresAt > now) return undefined;
    const token = Symbol(origin);
    this.locks.set(origin, { token, expiresAt: now + ttlMs });
    return {
      release: async () => {
        if (this.locks.get(origin)?.token === token) this.locks.delete(origin);
      },
    };
  }

  async close(): Promise<void> {
    this.records.clear();
    this.locks.clear();
  }
}
