/**
 * The loader's in-process cache: the parsed file of each origin, bounded in entries and in bytes,
 * the least recently used evicted first. An entry is fresh until its `validUntil` and kept stale
 * until it is evicted (it answers while an unreachable file's retry runs).
 *
 * Not a general LRU cache, because of what a broad crawl's warm check costs: it visits a million
 * origins in turn, none of them in the processor's caches, so each memory load that depends on the
 * one before costs a fetch from memory (0.25 µs at 100 MB, about 1 µs at 4 GB on a virtual
 * machine). A hit here is three such loads: the index (hash and entry number side by side), then
 * the entry's numbers (freshness, its neighbours in the recency list) beside its references (key,
 * file, parsed form and the caller's quick form of it), then the key to compare. A `Map` of
 * entries in a linked list costs twice that.
 *
 * The index is open-addressed with linear probing, at most half full, and deletes by shifting the
 * entries after a hole back (no tombstones to pile up under a broad crawl's evictions). Its hash is
 * seeded per process: host names come from the pages crawled, and a fixed hash would let a site
 * pick names that all land in one run of the index.
 */

/** Numbers per entry in {@link OriginTable.rows}. */
const ROW = 4;
const VALID_UNTIL = 0;
const PREV = 1;
const NEXT = 2;
const HASH = 3;
/** References per entry in {@link OriginTable.refs}. */
const REFS = 4;
const KEY = 0;
const ENTRY = 1;
const VALUE = 2;
const QUICK = 3;
/** No entry: the end of the recency list, an empty index slot (entry numbers are stored plus one). */
const NONE = -1;
const FIRST_ENTRIES = 16;

const SEED = (Math.random() * 2 ** 32) | 0;

/** A seeded 32-bit string hash: a multiply and a shift per char, mixed at the end (murmur3's finalizer). */
function hashOf(key: string): number {
  let h = SEED ^ key.length;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h ^ key.charCodeAt(i), 0x9e3779b1);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** What the table holds per origin: the loader's entry, whose `value` is the parsed form. */
export interface TableEntry<V> {
  readonly key: string;
  readonly value: V;
}

export interface OriginTableBounds {
  /** Entries held at most. */
  readonly maxEntries: number;
  /** Bytes held at most, each entry counted for what `set` was told; an entry larger alone is not kept. */
  readonly maxBytes: number;
}

export class OriginTable<E extends TableEntry<unknown>> {
  /** Per index slot: the key's hash, then its entry's number plus one (0: empty). */
  private index = new Int32Array(2 * 2 * FIRST_ENTRIES);
  private mask = 2 * FIRST_ENTRIES - 1;
  /** Per entry, {@link ROW} numbers: valid until, previous and next in recency order, the key's hash. */
  private rows = new Float64Array(ROW * FIRST_ENTRIES);
  /** Per entry, {@link REFS} references: key, entry, the entry's value, its quick form. */
  private refs: unknown[] = [];
  /** Per entry: the bytes it is counted for. */
  private sizes = new Float64Array(FIRST_ENTRIES);
  /** Entry numbers freed by deletes, to be used again. */
  private free: number[] = [];
  /** Entry numbers used so far (free ones included). */
  private used = 0;
  /** Least recently used entry, and most. */
  private head = NONE;
  private tail = NONE;
  private count = 0;
  private total = 0;

  constructor(private readonly bounds: OriginTableBounds) {}

  /** Entries held. */
  get size(): number {
    return this.count;
  }

  /** Bytes the entries held are counted for. */
  get bytes(): number {
    return this.total;
  }

  /**
   * The number of `key`'s entry when it is fresh at `now`, marked as the most recently used; -1
   * when there is none or it is stale (a stale entry keeps its place: nothing used it).
   */
  fresh(key: string, now: number): number {
    const id = this.find(key);
    if (id === NONE || !(now < (this.rows[id * ROW + VALID_UNTIL] as number))) return NONE;
    if (id !== this.tail) {
      this.unlink(id);
      this.append(id);
    }
    return id;
  }

  /** The entry numbered `id` (from {@link fresh}). */
  entryAt(id: number): E {
    return this.refs[id * REFS + ENTRY] as E;
  }

  /** The parsed form of the entry numbered `id`: its `value`, read without reading the entry. */
  valueAt(id: number): E['value'] {
    return this.refs[id * REFS + VALUE];
  }

  /**
   * The quick form of the entry numbered `id`: what its owner keeps beside it to answer a hit from
   * one string (see {@link setQuick}); undefined until set, and again once the entry is replaced.
   */
  quickAt(id: number): string | undefined {
    return this.refs[id * REFS + QUICK] as string | undefined;
  }

  /**
   * Keeps `quick` beside the entry held for `entry`'s key, if it still has `entry`'s parsed form (an
   * entry counted again is a new object with the same form).
   */
  setQuick(entry: E, quick: string): void {
    const id = this.find(entry.key);
    if (id !== NONE && this.refs[id * REFS + VALUE] === entry.value) this.refs[id * REFS + QUICK] = quick;
  }

  /** The entry held for `key`, fresh or stale, without marking it used. */
  peek(key: string): E | undefined {
    const id = this.find(key);
    return id === NONE ? undefined : (this.refs[id * REFS + ENTRY] as E);
  }

  /**
   * Holds `entry` for its key, counted as `bytes`, fresh until `validUntil` (or, with `keepValidUntil`,
   * until what the entry it replaces was), as the most recently used; the least recently used are
   * evicted until the bounds hold. An entry larger than the whole byte bound is not kept, and
   * neither is the one it replaces. Its quick form is kept only if the parsed form is the same.
   */
  set(entry: E, bytes: number, validUntil: number, keepValidUntil = false): void {
    const { key } = entry;
    let id = this.find(key);
    if (bytes > this.bounds.maxBytes) {
      if (id !== NONE) this.remove(id);
      return;
    }
    const rows = this.rows;
    if (id !== NONE) {
      this.unlink(id);
      this.total -= this.sizes[id] as number;
      if (keepValidUntil) validUntil = rows[id * ROW + VALID_UNTIL] as number;
      if (this.refs[id * REFS + VALUE] !== entry.value) this.refs[id * REFS + QUICK] = undefined;
      this.count--;
    }
    // Room first: what is evicted is never the entry being set (it is out of the list).
    while (this.head !== NONE && (this.count >= this.bounds.maxEntries || this.total + bytes > this.bounds.maxBytes)) {
      this.remove(this.head);
    }
    if (id === NONE) {
      id = this.allocate();
      const hash = hashOf(key);
      rows[id * ROW + HASH] = hash;
      this.insertIndex(hash, id);
      this.refs[id * REFS + KEY] = key;
      this.refs[id * REFS + QUICK] = undefined;
    }
    this.refs[id * REFS + ENTRY] = entry;
    this.refs[id * REFS + VALUE] = entry.value;
    this.rows[id * ROW + VALID_UNTIL] = validUntil;
    this.sizes[id] = bytes;
    this.total += bytes;
    this.count++;
    this.append(id);
  }

  /** Every entry held, least recently used first. */
  oldestFirst(): E[] {
    const held: E[] = [];
    for (let id = this.head; id !== NONE; id = this.rows[id * ROW + NEXT] as number) held.push(this.refs[id * REFS + ENTRY] as E);
    return held;
  }

  clear(): void {
    this.index = new Int32Array(2 * 2 * FIRST_ENTRIES);
    this.mask = 2 * FIRST_ENTRIES - 1;
    this.rows = new Float64Array(ROW * FIRST_ENTRIES);
    this.refs = [];
    this.sizes = new Float64Array(FIRST_ENTRIES);
    this.free = [];
    this.used = 0;
    this.head = this.tail = NONE;
    this.count = this.total = 0;
  }

  /** The number of `key`'s entry, or -1. */
  private find(key: string): number {
    const hash = hashOf(key);
    const { index, mask, refs } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const stored = index[2 * at + 1] as number;
      if (stored === 0) return NONE;
      if (index[2 * at] === hash && refs[(stored - 1) * REFS + KEY] === key) return stored - 1;
    }
  }

  private remove(id: number): void {
    this.unlink(id);
    this.deleteIndex(this.rows[id * ROW + HASH] as number, id);
    const at = id * REFS;
    this.refs[at + KEY] = this.refs[at + ENTRY] = this.refs[at + VALUE] = this.refs[at + QUICK] = undefined;
    this.total -= this.sizes[id] as number;
    this.count--;
    this.free.push(id);
  }

  private allocate(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.sizes.length) {
      const rows = new Float64Array(this.rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
      const sizes = new Float64Array(this.sizes.length * 2);
      sizes.set(this.sizes);
      this.sizes = sizes;
    }
    return this.used++;
  }

  private insertIndex(hash: number, id: number): void {
    // At most half full: a probe stays short, and an empty slot always ends it.
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const { index, mask } = this;
    let at = hash & mask;
    while (index[2 * at + 1] !== 0) at = (at + 1) & mask;
    index[2 * at] = hash;
    index[2 * at + 1] = id + 1;
  }

  private grow(): void {
    const old = this.index;
    this.index = new Int32Array(old.length * 2);
    this.mask = old.length - 1;
    for (let at = 0; at < old.length; at += 2) {
      const stored = old[at + 1] as number;
      if (stored === 0) continue;
      let to = (old[at] as number) & this.mask;
      while (this.index[2 * to + 1] !== 0) to = (to + 1) & this.mask;
      this.index[2 * to] = old[at] as number;
      this.index[2 * to + 1] = stored;
    }
  }

  /** Removes `id` from the index, moving back the slots after it that would no longer be found. */
  private deleteIndex(hash: number, id: number): void {
    const { index, mask } = this;
    let hole = hash & mask;
    while (index[2 * hole + 1] !== id + 1) hole = (hole + 1) & mask;
    for (let at = (hole + 1) & mask; index[2 * at + 1] !== 0; at = (at + 1) & mask) {
      const home = (index[2 * at] as number) & mask;
      // The slot stays if its home is cyclically in (hole, at]: a probe from there never crosses the hole.
      const stays = hole <= at ? hole < home && home <= at : hole < home || home <= at;
      if (stays) continue;
      index[2 * hole] = index[2 * at] as number;
      index[2 * hole + 1] = index[2 * at + 1] as number;
      hole = at;
    }
    index[2 * hole] = 0;
    index[2 * hole + 1] = 0;
  }

  private unlink(id: number): void {
    const rows = this.rows;
    const prev = rows[id * ROW + PREV] as number;
    const next = rows[id * ROW + NEXT] as number;
    if (prev === NONE) this.head = next;
    else rows[prev * ROW + NEXT] = next;
    if (next === NONE) this.tail = prev;
    else rows[next * ROW + PREV] = prev;
  }

  private append(id: number): void {
    const rows = this.rows;
    rows[id * ROW + PREV] = this.tail;
    rows[id * ROW + NEXT] = NONE;
    if (this.tail === NONE) this.head = id;
    else rows[this.tail * ROW + NEXT] = id;
    this.tail = id;
  }
}
