/**
 * A size-bounded least-recently-used map. Reads sit on the check hot path, so a read only moves an
 * entry to the young end when it has drifted into the older half: the order is approximate, reads
 * of hot entries cost one `Map.get`, and the eviction still removes entries nobody read lately.
 */
export class LruMap<K, V> {
  readonly maxEntries: number;
  private readonly map = new Map<K, { value: V; tick: number }>();
  private tick = 0;

  constructor(maxEntries: number) {
    this.maxEntries = Math.max(1, Math.floor(maxEntries));
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    if (this.tick - slot.tick > this.maxEntries >>> 1) {
      this.map.delete(key);
      slot.tick = ++this.tick;
      this.map.set(key, slot);
    }
    return slot.value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, { value, tick: ++this.tick });
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next();
      if (oldest.done === true) break;
      this.map.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.map) yield [key, slot.value];
  }
}
