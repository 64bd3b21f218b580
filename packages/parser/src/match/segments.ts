/**
 * The `*` segments of rule sets with many `*` rules (hostile files are thousands of `/*a*a*…*b`),
 * numbered and cut out once, at compile time, so that one check can share its searches for the
 * same segment between rules (see {@link SegmentScratch}). A check then costs at most (distinct
 * segments × path length) plus a few steps per segment of each rule tried, instead of (rules × path
 * length).
 */
import { OBJECT, SLOT, stringsBytes, TYPED_ARRAY, typedArrayBytes } from './held-bytes.js';
import { ANCHORED, END, FLAGS, PREFIX_END, SPAN, STAR } from './layout.js';

/** Numbers per rule in {@link SharedSegments}' spans: segment offset, segment count, longest middle segment. */
const SHARED_SPAN = 3;
/**
 * A segment is searched with `indexOf` until its searches in one check have read this many path
 * lengths; then a table of its next occurrences answers (see {@link SegmentScratch}).
 */
const SEARCH_BUDGET = 4;
/** Check stamps restart before they could overflow an Int32. */
const LAST_STAMP = 2 ** 30;
/** Next-occurrence tables kept for reuse, process-wide, and the longest path they are kept for: 256 KiB at most. */
const KEPT_TABLES = 16;
const KEPT_TABLE_LENGTH = 4097;

/**
 * Once plain searches of a check that found nothing have read this many path lengths in all, the
 * check indexes the path's byte pairs (see {@link pairIndex}): the index answers misses, and the
 * first misses show that the path makes them costly.
 */
const PAIR_INDEX_AFTER = 1;
/** Byte pairs of a segment checked against the pair index: the first ones, enough to tell most misses. */
const PAIRS_PER_SEGMENT = 16;
/** Byte pairs are indexed for ASCII bytes; a canonical path and an escaped pattern are ASCII. */
const PAIR_BYTES = 128;

/**
 * Where each byte pair last starts in the path of the check in progress. A segment occurs at or
 * after `from` only if each of its pairs, at offset `o` in it, starts at or after `from + o`; so
 * one pass over the path answers, without a search, most searches for segments that are not
 * there: paths that hold every byte a hostile file's segments need but not in their order
 * (`abab…` against `aa`) made each such search read the whole path. Process-wide, like the table
 * pool: checks are synchronous.
 */
const pairIndex = {
  // Made on the first index: most processes never check a hostile file.
  last: new Int32Array(0),
  stamps: new Int32Array(0),
  stamp: 0,
  /** Indexes `path`; returns the stamp that marks this index valid. */
  build(path: string): number {
    if (this.last.length === 0) {
      this.last = new Int32Array(PAIR_BYTES * PAIR_BYTES);
      this.stamps = new Int32Array(PAIR_BYTES * PAIR_BYTES);
    }
    if (++this.stamp === LAST_STAMP) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    const { last, stamps, stamp } = this;
    let previous = path.charCodeAt(0);
    for (let i = 1; i < path.length; i++) {
      const code = path.charCodeAt(i);
      if (previous < PAIR_BYTES && code < PAIR_BYTES) {
        const pair = previous * PAIR_BYTES + code;
        last[pair] = i - 1;
        stamps[pair] = stamp;
      }
      previous = code;
    }
    return stamp;
  },
  /** Whether `pair` starts anywhere at or after `from` in the indexed path. */
  startsFrom(pair: number, from: number): boolean {
    return this.stamps[pair] === this.stamp && (this.last[pair] as number) >= from;
  },
};

/**
 * Next-occurrence tables for the check in progress, reused from check to check: a check of a
 * hostile file may need several, and allocating them each time made the collector a large part of
 * the check. Checks are synchronous, so one pool serves every matcher of the process; a table is
 * valid only for the check (and scratch) that filled it.
 */
const tablePool = {
  tables: [] as Int32Array[],
  used: 0,
  /** A table of at least `length` entries, not handed out since the last {@link release}. */
  take(length: number): Int32Array {
    const index = this.used++;
    const kept = this.tables[index];
    if (kept !== undefined && kept.length >= length) return kept;
    const table = new Int32Array(length <= KEPT_TABLE_LENGTH ? KEPT_TABLE_LENGTH : length);
    if (index < KEPT_TABLES && length <= KEPT_TABLE_LENGTH) this.tables[index] = table;
    return table;
  },
  release(): void {
    this.used = 0;
  },
};

/**
 * Before a rule's segments are walked in order, its sketch rejects most rules that cannot match:
 * its first segment, its longest middle segment and its last one must occur in that order. Each is
 * found at or before where the full walk would find it, so a failed sketch is a failed match; the
 * sketch costs three searches, where a rule that fails late costs one per segment. Rules with the
 * same prefix, tail and sketch pass or fail it together (see sketch-groups.ts).
 */
export class SharedSegments {
  /**
   * Per rule position, {@link SHARED_SPAN} numbers: offset of its segment ids in `ids`, their count
   * (the tail of an anchored rule last), and where its longest middle segment is among them (0: no
   * segment between the first and the last).
   */
  private readonly spans: Int32Array;
  private readonly ids: Int32Array;
  readonly strings: string[] = [];
  /** The searches of the check in progress of a long path (checks are synchronous: one at a time), made on the first. */
  private searches: SegmentScratch | undefined;

  constructor(text: string, ruleSpans: Int32Array, count: number) {
    const numbers = new Map<string, number>();
    const ids: number[] = [];
    this.spans = new Int32Array(count * SHARED_SPAN);
    for (let i = 0; i < count; i++) {
      const at = i * SPAN;
      const flags = ruleSpans[at + FLAGS] as number;
      if ((flags & STAR) === 0) continue;
      const offset = ids.length;
      const end = ruleSpans[at + END] as number;
      let from = (ruleSpans[at + PREFIX_END] as number) + 1;
      while (from <= end) {
        let to = text.indexOf('*', from);
        if (to === -1 || to > end) to = end;
        if (to > from) {
          const segment = text.slice(from, to);
          let id = numbers.get(segment);
          if (id === undefined) {
            id = this.strings.length;
            numbers.set(segment, id);
            this.strings.push(segment);
          }
          ids.push(id);
        }
        from = to + 1;
      }
      const walked = ids.length - offset - (flags & ANCHORED ? 1 : 0);
      let longest = 0;
      for (let k = 1; k < walked - 1; k++) {
        if (
          longest === 0 ||
          (this.strings[ids[offset + k] as number] as string).length > (this.strings[ids[offset + longest] as number] as string).length
        )
          longest = k;
      }
      this.spans[i * SHARED_SPAN] = offset;
      this.spans[i * SHARED_SPAN + 1] = ids.length - offset;
      this.spans[i * SHARED_SPAN + 2] = longest;
    }
    this.ids = new Int32Array(ids);
  }

  /**
   * Starts the shared searches of a check of a long path. Most matchers are never asked about one,
   * so their scratch is made on the first.
   */
  beginSearches(): SegmentScratch {
    this.searches ??= new SegmentScratch(this.strings, segmentPairs(this.strings));
    return this.searches.begin();
  }

  /**
   * Whether the `*` rule at position `i`, whose literal prefix (and anchored tail) matched, matches:
   * its segments in order from `position`, ending by `limit` (where an anchored tail starts). On a
   * short path (no `scratch`), plain searches are cheap and the walk ends as soon as a segment is
   * missing: the sketch would cost more.
   */
  matches(i: number, path: string, position: number, limit: number, scratch: SegmentScratch | undefined): boolean {
    return (scratch === undefined || this.sketch(i, path, position, limit, scratch)) && this.walk(i, path, position, limit, scratch);
  }

  /**
   * The sketch of the `*` rule at position `i`, whose literal prefix (and anchored tail) matched:
   * whether its first, longest middle and last segment occur in that order from `position`, the
   * last ending by `limit`. False means the rule cannot match; true, that {@link walk} must decide.
   */
  sketch(i: number, path: string, position: number, limit: number, scratch: SegmentScratch | undefined): boolean {
    const offset = this.spans[i * SHARED_SPAN] as number;
    const walked = this.walkedCount(i, path, limit);
    // With fewer than two segments the walk is the sketch.
    if (walked < 2) return true;
    const after = this.after(offset, path, position, scratch);
    if (after === -1) return false;
    const longest = this.spans[i * SHARED_SPAN + 2] as number;
    const middle = longest === 0 ? after : this.after(offset + longest, path, after, scratch);
    if (middle === -1) return false;
    const end = this.after(offset + walked - 1, path, middle, scratch);
    return end !== -1 && end <= limit;
  }

  /** The walk of the `*` rule at position `i`: its segments in order from `position`, ending by `limit`. */
  walk(i: number, path: string, position: number, limit: number, scratch: SegmentScratch | undefined): boolean {
    const offset = this.spans[i * SHARED_SPAN] as number;
    const walked = this.walkedCount(i, path, limit);
    for (let k = 0; k < walked; k++) {
      position = this.after(offset + k, path, position, scratch);
      if (position === -1) return false;
    }
    return position <= limit;
  }

  /**
   * What the sketch of the `*` rule at position `i` reads, as a key: rules with equal keys (and
   * equal prefix and tail) pass or fail it together. A rule with fewer than two segments to walk is
   * keyed by all of them, its sketch being its walk.
   */
  sketchKey(i: number, anchored: boolean): string {
    const offset = this.spans[i * SHARED_SPAN] as number;
    const count = this.spans[i * SHARED_SPAN + 1] as number;
    const walked = anchored ? count - 1 : count;
    if (walked < 2) return `${walked}:${Array.from(this.ids.subarray(offset, offset + walked)).join(',')}`;
    const longest = this.spans[i * SHARED_SPAN + 2] as number;
    return `${this.ids[offset]},${longest === 0 ? -1 : this.ids[offset + longest]},${this.ids[offset + walked - 1]}`;
  }

  /** The segments to walk of the `*` rule at position `i`: with an anchor, the last one is the tail, which the caller has checked ends the path. */
  /**
   * The bytes these searches hold, the scratch of a long path's check counted as made (it is, on
   * the first such check, and kept): see held-bytes.ts.
   */
  heldBytes(): number {
    const count = this.strings.length;
    // The scratch: its object, six numbers and a table slot per segment, and the pair index.
    const scratch = 2 * OBJECT + 6 * TYPED_ARRAY + 6 * 4 * count + SLOT * count;
    const pairs = 2 * TYPED_ARRAY + 4 * (count + 1) + 4 * PAIRS_PER_SEGMENT * count;
    return OBJECT + typedArrayBytes(this.spans) + typedArrayBytes(this.ids) + stringsBytes(this.strings) + scratch + pairs;
  }

  private walkedCount(i: number, path: string, limit: number): number {
    const count = this.spans[i * SHARED_SPAN + 1] as number;
    return limit < path.length ? count - 1 : count;
  }

  /** Where the first occurrence at or after `from` of the segment at `ids[at]` ends, or -1. */
  private after(at: number, path: string, from: number, scratch: SegmentScratch | undefined): number {
    const id = this.ids[at] as number;
    const segment = this.strings[id] as string;
    const found = scratch === undefined ? path.indexOf(segment, from) : scratch.find(path, id, from);
    return found === -1 ? -1 : found + segment.length;
  }
}

/**
 * The searches of one check of a long path against a {@link SharedSegments} rule set. For each
 * segment the check remembers where a search found nothing (no later search from further on will)
 * and the successful search that read the most: it found the segment at `found` from `from`, and so
 * does any search from between the two. Other searches use `indexOf` until they have read as many
 * characters as the path has, four times over; from then on, a table of the segment's next
 * occurrence at every path position answers in O(1). The table costs a pass over the path, so it
 * is built only for the segments whose plain searches have cost as much: a check whose rules find
 * their segments close by builds none, and no segment costs more than about five path lengths in
 * one check. Once the searches of the check that found nothing have read the path once, its byte
 * pairs are indexed, and a segment with a pair that does not occur late enough is missing without a search.
 *
 * One scratch serves every check of its matcher: entries carry the stamp of the check that wrote
 * them, so a new check starts by changing the stamp, not by clearing or allocating.
 */
export class SegmentScratch {
  private stamp = 0;
  /** Per segment id: the stamp of the check its entries below belong to. */
  private readonly stamps: Int32Array;
  /** Per segment id: a position from which a search found nothing (no search from further on will), or -1. */
  private readonly missing: Int32Array;
  /** Per segment id: where one successful search started and what it found (of this check's, the one that read the most). */
  private readonly lastFrom: Int32Array;
  private readonly lastFound: Int32Array;
  /** Per segment id: the characters its searches have read so far. */
  private readonly read: Int32Array;
  /** Per segment id: the stamp of the check whose table is in `tables`. */
  private readonly tableStamps: Int32Array;
  /** Per segment id: its next-occurrence table in this check (from the pool, valid while its stamp is the check's). */
  private readonly tables: (Int32Array | undefined)[];
  /** The characters the plain searches of this check that found nothing have read. */
  private missRead = 0;
  /** The stamp of the pair index built for this check, or 0. */
  private pairStamp = 0;

  /** `pairs`: per segment, its first byte pairs and their offsets (see {@link segmentPairs}). */
  constructor(
    private readonly strings: readonly string[],
    private readonly pairs: SegmentPairs,
  ) {
    const count = strings.length;
    this.stamps = new Int32Array(count);
    this.missing = new Int32Array(count);
    this.lastFrom = new Int32Array(count);
    this.lastFound = new Int32Array(count);
    this.read = new Int32Array(count);
    this.tableStamps = new Int32Array(count);
    this.tables = new Array<Int32Array | undefined>(count);
  }

  /** Starts the searches of a new check: nothing from an earlier check is taken as known. */
  begin(): this {
    tablePool.release();
    this.missRead = 0;
    this.pairStamp = 0;
    if (++this.stamp === LAST_STAMP) {
      this.stamps.fill(0);
      this.tableStamps.fill(0);
      this.stamp = 1;
    }
    return this;
  }

  /** The first position at or after `from` where segment `id` occurs in `path` (the path of this check), or -1. */
  find(path: string, id: number, from: number): number {
    const stamp = this.stamp;
    if (this.tableStamps[id] === stamp) return from > path.length ? -1 : ((this.tables[id] as Int32Array)[from] as number);
    if (this.stamps[id] !== stamp) {
      this.stamps[id] = stamp;
      this.missing[id] = -1;
      this.lastFrom[id] = -1;
      this.lastFound[id] = -1;
      this.read[id] = 0;
    } else {
      const missing = this.missing[id] as number;
      if (missing !== -1 && from >= missing) return -1;
      const found = this.lastFound[id] as number;
      if (from >= (this.lastFrom[id] as number) && from <= found) return found;
    }
    if (this.pairStamp === 0) {
      if (this.missRead >= PAIR_INDEX_AFTER * path.length) this.pairStamp = pairIndex.build(path);
    } else if (this.lacksPair(id, from)) {
      this.missing[id] = from;
      return -1;
    }
    const read = this.read[id] as number;
    if (read < SEARCH_BUDGET * path.length) {
      const found = path.indexOf(this.strings[id] as string, from);
      const length = 1 + (found === -1 ? path.length : found) - from;
      this.read[id] = read + length;
      if (found === -1) {
        this.missing[id] = from;
        this.missRead += length;
      } else if (found - from >= (this.lastFound[id] as number) - (this.lastFrom[id] as number)) {
        // The longer of the two spans is kept: a search that read far is the one worth not repeating.
        this.lastFrom[id] = from;
        this.lastFound[id] = found;
      }
      return found;
    }
    const table = tablePool.take(path.length + 1);
    this.tables[id] = table;
    nextOccurrences(path, this.strings[id] as string, table);
    this.tableStamps[id] = stamp;
    return table[from] as number;
  }

  /** Whether some byte pair of segment `id` does not start late enough in the path for the segment to occur at or after `from`. */
  private lacksPair(id: number, from: number): boolean {
    const { offsets, codes } = this.pairs;
    const end = offsets[id + 1] as number;
    for (let k = offsets[id] as number; k < end; k++) {
      const code = codes[k] as number;
      if (!pairIndex.startsFrom(code >>> 4, from + (code & 15))) return true;
    }
    return false;
  }
}

/** Per segment id, its first byte pairs: `codes[offsets[id], offsets[id + 1])`, each `pair << 4 | offset`. */
interface SegmentPairs {
  readonly offsets: Int32Array;
  readonly codes: Int32Array;
}

/** The first {@link PAIRS_PER_SEGMENT} byte pairs of each segment, where both bytes are ASCII. */
function segmentPairs(strings: readonly string[]): SegmentPairs {
  const offsets = new Int32Array(strings.length + 1);
  const codes: number[] = [];
  strings.forEach((segment, id) => {
    offsets[id] = codes.length;
    for (let o = 0; o + 1 < segment.length && o < PAIRS_PER_SEGMENT; o++) {
      const first = segment.charCodeAt(o);
      const second = segment.charCodeAt(o + 1);
      if (first < PAIR_BYTES && second < PAIR_BYTES) codes.push(((first * PAIR_BYTES + second) << 4) | o);
    }
  });
  offsets[strings.length] = codes.length;
  return { offsets, codes: new Int32Array(codes) };
}

/** Fills table[i], i ≤ path.length, with the first position ≥ i where `segment` occurs in `path`, or -1: one backward pass. */
function nextOccurrences(path: string, segment: string, table: Int32Array): void {
  const first = segment.charCodeAt(0);
  const length = segment.length;
  let next = -1;
  table[path.length] = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path.charCodeAt(i) === first && i + length <= path.length) {
      // Compared in place: a call per candidate position would cost more than the pass itself.
      let k = 1;
      while (k < length && path.charCodeAt(i + k) === segment.charCodeAt(k)) k++;
      if (k === length) next = i;
    }
    table[i] = next;
  }
}
