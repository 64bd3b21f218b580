/**
 * The loader's in-process cache against a model: a list in recency order with the same bounds.
 * Every sequence of sets, hits, peeks and quick forms leaves the table holding what the model holds,
 * in the same order, counted the same: least recently used evicted first, stale entries kept but
 * never a hit, an entry larger than the whole bound not kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OriginTable, type TableEntry } from '../../packages/manager/src/loader/origin-table.js';

interface Entry extends TableEntry<{ readonly body: number }> {
  readonly id: number;
}

interface Held {
  entry: Entry;
  bytes: number;
  validUntil: number;
  quick: string | undefined;
}

/** The model: entries least recently used first. */
class Model {
  held: Held[] = [];
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  private at(key: string): number {
    return this.held.findIndex((h) => h.entry.key === key);
  }

  fresh(key: string, now: number): Entry | undefined {
    const i = this.at(key);
    if (i === -1 || !(now < this.held[i]!.validUntil)) return undefined;
    const [h] = this.held.splice(i, 1);
    this.held.push(h!);
    return h!.entry;
  }

  peek(key: string): Entry | undefined {
    return this.held[this.at(key)]?.entry;
  }

  set(entry: Entry, bytes: number, validUntil: number, keep: boolean): void {
    const i = this.at(entry.key);
    const old = i === -1 ? undefined : this.held.splice(i, 1)[0];
    if (bytes > this.maxBytes) return;
    const total = (): number => this.held.reduce((sum, h) => sum + h.bytes, 0);
    while (this.held.length > 0 && (this.held.length >= this.maxEntries || total() + bytes > this.maxBytes)) this.held.shift();
    const quick = old !== undefined && old.entry.value === entry.value ? old.quick : undefined;
    this.held.push({ entry, bytes, validUntil: keep && old !== undefined ? old.validUntil : validUntil, quick });
  }

  setQuick(entry: Entry, quick: string): void {
    const h = this.held[this.at(entry.key)];
    if (h !== undefined && h.entry.value === entry.value) h.quick = quick;
  }
}

type Op =
  | { kind: 'set'; key: number; bytes: number; validUntil: number; sameValue: boolean; keep: boolean }
  | { kind: 'fresh'; key: number; now: number }
  | { kind: 'peek'; key: number }
  | { kind: 'quick'; key: number };

const op = (keys: number): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('set' as const),
      key: fc.nat(keys - 1),
      bytes: fc.integer({ min: 1, max: 120 }),
      validUntil: fc.integer({ min: 0, max: 20 }),
      sameValue: fc.boolean(),
      keep: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('fresh' as const), key: fc.nat(keys - 1), now: fc.integer({ min: 0, max: 20 }) }),
    fc.record({ kind: fc.constant('peek' as const), key: fc.nat(keys - 1) }),
    fc.record({ kind: fc.constant('quick' as const), key: fc.nat(keys - 1) }),
  );

/** Keys that share their last characters and length, so many land near each other in the index. */
const keyOf = (n: number): string => `https://h${n}.example`;

describe('the loader’s origin table', () => {
  // A few keys under tight bounds (evictions on most sets), and more keys than the first index
  // holds (the index grows, and the back-shifted entries move with their recency links).
  it.each([
    { keys: 10, entries: 12, bytes: 400, runs: 200 },
    { keys: 60, entries: 50, bytes: 3000, runs: 60 },
  ])(
    'holds what a recency-ordered model holds, in the same order, for any sequence of calls ($keys keys)',
    ({ keys, entries, bytes, runs }) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: entries }),
          fc.integer({ min: 50, max: bytes }),
          fc.array(op(keys), { minLength: 50, maxLength: 300, size: 'max' }),
          (maxEntries, maxBytes, ops) => {
            const table = new OriginTable<Entry>({ maxEntries, maxBytes });
            const model = new Model(maxEntries, maxBytes);
            let made = 0;
            for (const o of ops) {
              const key = keyOf(o.key);
              if (o.kind === 'set') {
                const previous = model.peek(key);
                const value = o.sameValue && previous !== undefined ? previous.value : { body: made };
                const entry: Entry = { key, value, id: made++ };
                table.set(entry, o.bytes, o.validUntil, o.keep);
                model.set(entry, o.bytes, o.validUntil, o.keep);
              } else if (o.kind === 'fresh') {
                const id = table.fresh(key, o.now);
                const expected = model.fresh(key, o.now);
                expect(id === -1 ? undefined : table.entryAt(id)).toBe(expected);
                if (id !== -1) {
                  expect(table.valueAt(id)).toBe(expected?.value);
                  expect(table.quickAt(id)).toBe(model.held.at(-1)?.quick);
                }
              } else if (o.kind === 'peek') {
                expect(table.peek(key)).toBe(model.peek(key));
              } else {
                const entry = model.peek(key);
                if (entry !== undefined) {
                  table.setQuick(entry, `q${entry.id}`);
                  model.setQuick(entry, `q${entry.id}`);
                }
              }
              expect(table.oldestFirst()).toEqual(model.held.map((h) => h.entry));
              expect(table.size).toBe(model.held.length);
              expect(table.bytes).toBe(model.held.reduce((sum, h) => sum + h.bytes, 0));
            }
          },
        ),
        { numRuns: runs },
      );
    },
  );

  it('finds its keys through 200,000 evictions, clusters of the index wrapping around its end among them', () => {
    // A small table churned long: every slot, the last ones included, is freed and taken again many times.
    const table = new OriginTable<Entry>({ maxEntries: 1000, maxBytes: Infinity });
    for (let n = 0; n < 200_000; n++) {
      table.set({ key: keyOf(n), value: { body: n }, id: n }, 1, Infinity);
      if (n % 997 === 0)
        for (let back = 0; back < 1000; back += 37) expect(table.peek(keyOf(n - back))?.id).toBe(n - back < 0 ? undefined : n - back);
    }
    expect(table.size).toBe(1000);
    for (let n = 198_000; n < 200_000; n++) expect(table.peek(keyOf(n))?.id).toBe(n < 199_000 ? undefined : n);
  });

  it('finds every key among 100,000, after half are evicted and their slots taken again', () => {
    const table = new OriginTable<Entry>({ maxEntries: 50_000, maxBytes: Infinity });
    for (let n = 0; n < 100_000; n++) table.set({ key: keyOf(n), value: { body: n }, id: n }, 1, Infinity);
    expect(table.size).toBe(50_000);
    for (let n = 0; n < 100_000; n++) expect(table.peek(keyOf(n))?.id).toBe(n < 50_000 ? undefined : n);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.peek(keyOf(99_999))).toBeUndefined();
  });
});
