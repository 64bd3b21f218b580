/**
 * The hot form of a rule set: what a {@link RuleMatcher} switches to once it has answered enough
 * checks to be worth it (a crawler checks the same origin's rules thousands of times; most parsed
 * files are checked a few times, or never).
 *
 * The compact form reads every candidate rule out of the directive table on each check (where its
 * pattern starts and ends, whether it is anchored, where its first `*` is) and cuts its `*`
 * segments out of the table text to search for them. The hot form does that work once: each rule's
 * literal prefix, anchored tail and flags become numbers in one typed array, its `*` segments
 * strings, and the rules are indexed by the byte after the leading `/`, so a check only visits the
 * rules that can match. It costs about 100 bytes more per rule (a parsed 2 KB file: 2.9 KB → 9.5 KB),
 * which is why it is not the default.
 *
 * What it buys on the plugin path (issue 14: `RobotsManager#decide`, 100 cached origins of typical
 * 2 KB files; `HEED_AB_MANAGER` in test/bench/plugin-path.bench.mjs, 9 interleaved rounds in one
 * process): without it the plugin path ran at 0.74× the speed (rounds 0.51–1.04), so it stays, the
 * one second form of the matcher. Its rare-byte memo (skip a `*` rule whose segments need a byte the
 * path lacks) did not pay there (without it: 1.12× as fast, rounds 0.59–3.06) and was removed.
 */

/** What the hot form needs to know of a compiled rule. */
export interface RuleSource {
  readonly start: number;
  /** End of the pattern without its anchoring `$`. */
  readonly end: number;
  readonly anchored: boolean;
  /** Position of the first `*` in [start, end), or -1. */
  readonly firstStar: number;
  /** The byte after the leading `/` when the literal prefix has one, else 0. */
  readonly second: number;
  /** Byte classes the pattern needs (see `maskOf` in match.ts); 0 without `*`. */
  readonly mask: number;
}

/**
 * The shared segment search of rule sets with many `*` rules (see `SegmentFinder` in match.ts),
 * which the hot form keeps using for their segments.
 */
export interface SegmentSearch {
  matches(i: number, path: string, position: number, anchored: boolean): boolean;
}

/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
const ASCII = 128;

/** The candidate lists may hold at most this many entries per rule (plus one per byte). */
const LIST_GROWTH = 4;
/** Numbers per rule in {@link HotRules.spans}: prefix start, prefix end, tail start, end, flags. */
const SPAN = 5;
const ANCHORED = 1;
/** The rule's pattern has a `*` (its segments are in {@link HotRules.segments}). */
const STAR = 2;

export class HotRules {
  /** Per rule position, {@link SPAN} numbers: where its prefix and tail are in `text`, and flags. */
  private readonly spans: Int32Array;
  /** Per rule position: its literal segments between `*`s, without the tail (`*` rules only). */
  private readonly segments: (readonly string[] | undefined)[];
  private readonly masks: Int32Array;
  /** Per position: the byte after `/` the rule needs, 0 for any, 0xff for none a path can have. */
  private readonly seconds: Uint8Array;
  /** All candidate lists back to back: for each byte after `/`, the rules that can match. */
  private readonly lists: Int32Array;
  /** Where each byte's list starts and ends in {@link lists}: `[start, end]` per byte. */
  private readonly bounds: Int32Array;
  /** The lists were not split by the byte after `/` (see the constructor): check it per rule. */
  private readonly checkIndexed: boolean;

  /**
   * `indexed`: the positions the candidate lists cover (all rules when undefined; the rules too short
   * for a bucket of a large rule set otherwise).
   */
  constructor(
    private readonly text: string,
    sources: readonly RuleSource[],
    indexed: Int32Array | undefined,
    private readonly search: SegmentSearch | undefined,
  ) {
    const count = sources.length;
    this.spans = new Int32Array(count * SPAN);
    this.segments = new Array<readonly string[] | undefined>(count);
    this.masks = new Int32Array(count);
    this.seconds = new Uint8Array(count);
    sources.forEach((source, i) => {
      this.addRule(i, source);
      this.masks[i] = source.mask;
      this.seconds[i] = source.second < ASCII ? source.second : 0xff;
    });
    const any: number[] = [];
    const bySecond = new Map<number, number[]>();
    for (const i of indexed ?? sources.keys()) {
      const second = this.seconds[i] as number;
      if (second === 0) {
        any.push(i);
        for (const list of bySecond.values()) list.push(i);
        continue;
      }
      // A non-ASCII second byte is never in a canonical path: such a rule cannot match.
      if (second === 0xff) continue;
      let list = bySecond.get(second);
      if (list === undefined) {
        list = [...any];
        bySecond.set(second, list);
      }
      list.push(i);
    }
    this.bounds = new Int32Array(ASCII * 2);
    let size = any.length;
    for (const list of bySecond.values()) size += list.length;
    if (size > LIST_GROWTH * sources.length + ASCII) {
      // Many rules without a second byte and many distinct second bytes: one list for all bytes,
      // read with the second-byte check, rather than (bytes × rules) copies.
      const all = [...(indexed ?? sources.keys())];
      for (let code = 0; code < ASCII; code++) this.bounds[code * 2 + 1] = all.length;
      this.lists = new Int32Array(all);
      this.checkIndexed = true;
      return;
    }
    const lists: number[] = [...any];
    for (let code = 0; code < ASCII; code++) {
      const list = bySecond.get(code);
      if (list === undefined) {
        this.bounds[code * 2 + 1] = any.length; // the shared list of rules without a second byte
        continue;
      }
      this.bounds[code * 2] = lists.length;
      lists.push(...list);
      this.bounds[code * 2 + 1] = lists.length;
    }
    this.lists = new Int32Array(lists);
    this.checkIndexed = false;
  }

  /** The first position whose rule matches `path`, among the rules indexed by the byte after `/`. */
  firstIndexedMatch(path: string): number {
    const second = path.charCodeAt(1);
    const code = second < ASCII ? second : 0;
    return this.firstMatch(this.lists, this.bounds[code * 2] as number, this.bounds[code * 2 + 1] as number, path, this.checkIndexed);
  }

  /** The first position of `list` (a bucket of a large rule set) whose rule matches `path`. */
  firstMatchIn(list: Int32Array, path: string): number {
    return this.firstMatch(list, 0, list.length, path, true);
  }

  /**
   * The first position of `list[from, to)` whose rule matches `path`, or -1. `checkSecond`: the list
   * was not selected by the byte after `/`, so reject on it first.
   */
  private firstMatch(list: Int32Array, from: number, to: number, path: string, checkSecond: boolean): number {
    const second = path.charCodeAt(1);
    // Masks pay for rule sets with many `*` rules; for a few, native segment searches cost less than
    // a pass over the path in JavaScript, however long the path.
    const useMasks = this.search !== undefined;
    let pathMask = -1;
    for (let k = from; k < to; k++) {
      const i = list[k] as number;
      if (checkSecond) {
        const expected = this.seconds[i] as number;
        if (expected !== 0 && expected !== second) continue;
      }
      if (useMasks) {
        const mask = this.masks[i] as number;
        if (mask !== 0) {
          if (pathMask === -1) pathMask = byteClasses(path);
          if ((mask & ~pathMask) !== 0) continue;
        }
      }
      if (this.matches(i, path)) return i;
    }
    return -1;
  }

  /** Google's `Matches` for the rule at position `i`: leftmost-first segment search, exact here. */
  private matches(i: number, path: string): boolean {
    const { spans, text } = this;
    const at = i * SPAN;
    const start = spans[at] as number;
    const prefixEnd = spans[at + 1] as number;
    const flags = spans[at + 4] as number;
    const prefixLength = prefixEnd - start;
    if (path.length < prefixLength) return false;
    for (let k = 0; k < prefixLength; k++) {
      if (path.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
    }
    if ((flags & STAR) === 0) return (flags & ANCHORED) === 0 || path.length === prefixLength;
    let limit = path.length;
    if (flags & ANCHORED) {
      // The tail must end the path: the cheapest rejection, so it goes first.
      const tailStart = spans[at + 2] as number;
      const tailLength = (spans[at + 3] as number) - tailStart;
      limit -= tailLength;
      if (limit < prefixLength) return false;
      for (let k = 0; k < tailLength; k++) {
        if (path.charCodeAt(limit + k) !== text.charCodeAt(tailStart + k)) return false;
      }
    }
    if (this.search !== undefined) return this.search.matches(i, path, prefixLength, (flags & ANCHORED) !== 0);
    const segments = this.segments[i] as readonly string[];
    let position = prefixLength;
    for (let k = 0; k < segments.length; k++) {
      const segment = segments[k] as string;
      const found = path.indexOf(segment, position);
      if (found === -1) return false;
      position = found + segment.length;
    }
    return position <= limit;
  }

  private addRule(i: number, source: RuleSource): void {
    const { start, end, anchored, firstStar } = source;
    const at = i * SPAN;
    this.spans[at] = start;
    this.spans[at + 3] = end;
    if (firstStar === -1) {
      this.spans[at + 1] = end;
      this.spans[at + 2] = end;
      this.spans[at + 4] = anchored ? ANCHORED : 0;
      return;
    }
    this.spans[at + 1] = firstStar;
    // Anchored: the piece after the last `*` must end the path (it is never empty: `*$` unanchors).
    const lastStar = this.text.lastIndexOf('*', end - 1);
    this.spans[at + 2] = anchored ? lastStar + 1 : end;
    this.spans[at + 4] = STAR | (anchored ? ANCHORED : 0);
    // With a shared segment search the segments are searched there: no need to cut them here.
    if (this.search !== undefined) return;
    const middleEnd = anchored ? lastStar : end;
    const segments = this.text
      .slice(firstStar + 1, Math.max(firstStar + 1, middleEnd))
      .split('*')
      .filter((piece) => piece.length > 0);
    this.segments[i] = segments;
  }
}

/** The byte classes (code & 31) of `path`, as `maskOf` in match.ts computes them for patterns. */
function byteClasses(path: string): number {
  let mask = 0;
  for (let i = 0; i < path.length; i++) mask |= 1 << (path.charCodeAt(i) & 31);
  return mask;
}
