/**
 * The origins whose sitemaps the feeder has read, remembered within a byte bound: a broad crawl
 * meets an unbounded number of hosts, and a set that only grows would grow with it.
 * The least recently seen origin is forgotten first. Forgetting costs little: a forgotten origin
 * seen again counts as new, so its sitemaps are read once more, and Crawlee's queue drops the URLs
 * it already holds (same `uniqueKey`). An origin seen on every page it crawls stays recent.
 */
import { LRUCache } from 'lru-cache';

/** What {@link RecentOrigins} may hold by default: 8 MiB, about 70,000 origins of 30 characters. */
export const MAX_RECENT_ORIGIN_BYTES = 8 * 1024 * 1024;

/** What one remembered origin costs beyond its characters (the cache's entry). */
const ENTRY_OVERHEAD_BYTES = 64;

export class RecentOrigins {
  private readonly origins: LRUCache<string, true>;

  constructor(readonly maxBytes: number = MAX_RECENT_ORIGIN_BYTES) {
    this.origins = new LRUCache({ maxSize: maxBytes, sizeCalculation: (_, origin) => 2 * origin.length + ENTRY_OVERHEAD_BYTES });
  }

  /** Whether `origin` is remembered; either way it is now the most recent. */
  touch(origin: string): boolean {
    if (this.origins.get(origin)) return true;
    this.origins.set(origin, true);
    return false;
  }

  /** Origins remembered. */
  get size(): number {
    return this.origins.size;
  }

  /** Bytes held, as counted against {@link maxBytes}. */
  get byteSize(): number {
    return this.origins.calculatedSize;
  }
}
