/**
 * The matching engine: decides which rule of a rule set wins for a path, with Google's semantics
 * (longest pattern wins, `allow` wins ties, `*` matches any run of bytes, a trailing `$` anchors).
 *
 * No regular expression is built from a pattern. A pattern is read as literal segments between its
 * `*`s, found left to right with `indexOf` (greedy leftmost is exact for this language), so one
 * pattern costs O(path length) and hostile patterns cannot backtrack.
 *
 * A crawler checks the same rule set thousands of times, so compiling does the per-rule work once:
 * each rule's literal prefix, anchored tail and flags become integers in one typed array and its
 * `*` segments strings; rules are kept in the order in which they win, so the first rule that
 * matches decides; and they are listed by the byte after the leading `/` (and bucketed by prefix in
 * large sets: match/candidates.ts), so a check visits only the rules that can match. A rule set is
 * compiled for a user-agent on its first check (compile.ts): a parsed file nobody asks about costs
 * its directive table only.
 *
 * Most files' rule sets are small enough to be scanned whole: those are kept as one packed string
 * (match/packed.ts) instead of typed arrays, their segments and the table's text, and matched by
 * the functions of that module: a warm check then reads the matcher and one string.
 *
 * Rule sets with many `*` rules, hostile files above all, are matched by group: rules that share
 * their prefix, tail and sketch form one group (match/sketch-groups.ts), groups are split by the
 * byte classes they need, and within one check of a long path the searches for each segment are
 * shared between rules (match/segments.ts). That keeps thousands of `/*a*a*…*b` patterns cheap
 * against a 2,000-byte URL.
 */
import { CandidateIndex, SMALL_SET } from './match/candidates.js';
import { OBJECT, SLOT, STRING, TYPED_ARRAY, TYPED_VIEW, stringsBytes, typedArrayBytes } from './match/held-bytes.js';
import {
  ALLOWS,
  ALTERNATIVE,
  ANCHORED,
  ASCII,
  DOLLAR,
  END,
  FLAGS,
  LINE,
  NO_PATH,
  PIECES_SHIFT,
  PREFIX_END,
  SPAN,
  STAR,
  START,
  TAIL_START,
} from './match/layout.js';
import { PathClasses, byteClasses } from './match/byte-classes.js';
import {
  MAX_PACKED_RULES,
  packRules,
  packingScratch,
  packedAllowsAt,
  packedBytes,
  packedDecidingLine,
  packedLineAt,
  packedMatches,
  packedPriorityAt,
  packedSize,
  packedWinner,
} from './match/packed.js';
import { SharedSegments, type SegmentScratch } from './match/segments.js';
import { byPrecedence, decodedView, shapesOf, type Shape } from './match/shape.js';
import { groupBySketch, partitionByMask, type SketchGroups } from './match/sketch-groups.js';
import type { DirectiveTable } from './table.js';

/** From this many `*` rules on, rules are matched by sketch group and segment searches are shared within a check. */
const SHARED_SEGMENTS_FROM = 64;
/** A matcher without `*` segments of its own (none of its rules has a `*`, or it has the shared search). */
const NO_SEGMENTS: readonly string[] = Object.freeze([]);

/** Paths shorter than this search segments with plain `indexOf`: sharing would cost more. */
const SHARED_SEGMENTS_PATH = 256;

/** The candidate lists of a matcher whose rules are scanned whole. */
const NO_PARTS: readonly CandidateIndex[] = Object.freeze([]);
/** The layout and bytes after `/` of a packed matcher: its string holds them. */
const NO_SPANS = new Int32Array(0);
const NO_SECONDS = new Uint8Array(0);

/** A compiled rule set for one user-agent: answers "which rule wins for this path?". */
export class RuleMatcher {
  /**
   * The whole rule set as one string (match/packed.ts), when it has at most {@link MAX_PACKED_RULES}
   * rules; every other field is then empty, and every answer is read from
   * this string alone.
   */
  readonly packed: string | undefined;
  /** The text the rules' positions point into, shared with the table unless decoded ('' when packed). */
  private readonly text: string;
  /** Per rule position (precedence order), {@link SPAN} numbers: line, prefix, tail, end, flags. */
  private readonly spans: Int32Array;
  /**
   * The literal segments between `*`s of every `*` rule, without an anchored tail (not with
   * `shared`): one list for the whole matcher, each rule's segments from the position its flags
   * hold ({@link PIECES_SHIFT}) to an empty string. A list per rule cost a typical file's matcher
   * about 280 B more.
   */
  private readonly segments: readonly string[];
  /** The shared segment search of rule sets with many `*` rules. */
  private readonly shared: SharedSegments | undefined;
  /** Per rule position: the byte classes its pattern needs (0 without `*`; filled with `shared`). */
  private readonly masks: Int32Array | undefined;
  /** Per rule position: the byte after `/` the rule needs, 0 for any, {@link NO_PATH} for none. */
  private readonly seconds: Uint8Array;
  /** With `shared`: the sketch groups, which the candidate lists hold instead of rule positions. */
  private readonly groups: SketchGroups | undefined;
  /**
   * The candidate lists: one over all rules, or with `shared`, one per part of the groups split by
   * byte classes, `partMasks[p]` being what every group of part `p` needs. None for a set of at most
   * {@link SMALL_SET} rules without `shared`: a check scans them all in precedence order, which is
   * what their one list would hold, without the list, its index and their objects to read (a broad
   * crawl's warm check fetches each object it reads from memory).
   */
  private readonly parts: readonly CandidateIndex[];
  private readonly partMasks: Int32Array | undefined;
  /** The byte classes of the path being checked, with `shared`. */
  private readonly pathClasses: PathClasses | undefined;
  /** The one buffer {@link spans}, {@link seconds} and the candidate list are views of, without `shared`. */
  private readonly block: ArrayBuffer | undefined;

  private constructor(text: string, rules: readonly Shape[], reading: number) {
    const count = rules.length;
    let wildcards = 0;
    for (const rule of rules) if (rule.firstStar !== -1) wildcards++;
    const small = wildcards < SHARED_SEGMENTS_FROM;
    // A typical file's matcher is a few hundred bytes of rules, beside which each typed array's
    // buffer costs more than its numbers: without the shared search, the rules' layout, their
    // bytes after `/` and the candidate list are views of one buffer (see {@link MatcherBlock}).
    const scannedWhole = small && count <= SMALL_SET;
    let packed: string | undefined;
    if (small && count <= MAX_PACKED_RULES) {
      // Laid out in the packing's scratch: a packed matcher keeps no typed array.
      const scratch = packingScratch();
      rules.forEach((rule, i) => layOut(text, scratch.spans, scratch.seconds, i, rule));
      packed = packRules(text, scratch.spans, scratch.seconds, count, reading);
    }
    this.packed = packed;
    if (packed !== undefined) {
      // The table's text is let go: the string holds what the rules read of it.
      this.text = '';
      this.spans = NO_SPANS;
      this.seconds = NO_SECONDS;
      this.block = undefined;
      this.segments = NO_SEGMENTS;
      this.shared = undefined;
      this.groups = undefined;
      this.masks = undefined;
      this.pathClasses = undefined;
      this.parts = NO_PARTS;
      this.partMasks = undefined;
      return;
    }
    const block = small ? new MatcherBlock(count, !scannedWhole) : undefined;
    const spans = block?.spans ?? new Int32Array(count * SPAN);
    const seconds = block?.seconds ?? new Uint8Array(count);
    rules.forEach((rule, i) => layOut(text, spans, seconds, i, rule));
    this.text = text;
    this.spans = spans;
    this.seconds = seconds;
    this.block = block?.buffer;
    if (block !== undefined) {
      // What only the shared search reads is not made either.
      this.shared = undefined;
      this.groups = undefined;
      this.masks = undefined;
      this.pathClasses = undefined;
      this.segments = this.cutSegments(count);
      const positions = { ids: Array.from({ length: count }, (_, i) => i), lead: (i: number): number => i };
      this.parts = scannedWhole ? NO_PARTS : [new CandidateIndex(positions, text, this.spans, this.seconds, block.listRoom)];
      this.partMasks = undefined;
      return;
    }
    this.segments = NO_SEGMENTS;
    this.shared = new SharedSegments(text, this.spans, count);
    const ruleMasks = new Int32Array(count);
    this.masks = ruleMasks;
    this.pathClasses = new PathClasses();
    for (let i = 0; i < count; i++) {
      const at = i * SPAN;
      if ((this.spans[at + FLAGS] as number) & STAR)
        ruleMasks[i] = byteClasses(text, this.spans[at + START] as number, this.spans[at + END] as number);
    }
    const groups = groupBySketch(text, this.spans, ruleMasks, this.shared, count);
    this.groups = groups;
    const lead = (group: number): number => groups.rules[groups.starts[group] as number] as number;
    const { masks, parts } = partitionByMask(groups);
    this.parts = parts.map((ids) => new CandidateIndex({ ids, lead }, text, this.spans, this.seconds));
    this.partMasks = masks;
  }

  /**
   * Compiles the rules at `rowIndices` of `table` (file order). `decodeUnreservedEscapes` applies
   * the RFC 9309 reading to the patterns (the caller decodes the path the same way). `order`:
   * `'precedence'` sorts the rules by Google's precedence (longest first, `allow` wins ties);
   * `'listed'` keeps them as given, so the first listed rule that matches decides (TDMRep's
   * locations, pattern.ts). `reading`: the file's reading flags (robots-txt.ts), kept in the packed
   * form for a caller that matches URLs against it alone.
   */
  static fromTable(
    table: DirectiveTable,
    rowIndices: readonly number[],
    decodeUnreservedEscapes: boolean,
    order: 'precedence' | 'listed' = 'precedence',
    reading = 0,
  ): RuleMatcher {
    const source = decodeUnreservedEscapes ? decodedView(table, rowIndices) : { text: table.text, rows: table.rows, indices: rowIndices };
    const drafts = shapesOf(source.text, source.rows, source.indices);
    if (order === 'precedence') drafts.sort(byPrecedence);
    const rules: Shape[] = [];
    const seen = new Set<string>();
    for (const shape of drafts) {
      // Exact repeats never decide: the earlier line of two equal rules always wins (in either order).
      const key = `${shape.allow ? 'a' : 'd'}${shape.anchored ? '$' : ''}${shape.priority}:${source.text.slice(shape.start, shape.end)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(shape);
    }
    return new RuleMatcher(source.text, rules, reading);
  }

  /**
   * The bytes this matcher holds (see match/held-bytes.ts). `tableText`: the text of the table it was
   * compiled from, which it shares unless its patterns were decoded into a text of their own.
   */
  heldBytes(tableText: string): number {
    let bytes = OBJECT + 12 * SLOT + (this.pathClasses === undefined ? 0 : OBJECT); // the matcher and its path classes
    if (this.packed !== undefined) return bytes + packedBytes(this.packed);
    bytes +=
      this.block === undefined
        ? typedArrayBytes(this.spans) + typedArrayBytes(this.seconds)
        : TYPED_ARRAY + this.block.byteLength + 2 * TYPED_VIEW; // a list's view is its index's
    bytes += typedArrayBytes(this.masks) + typedArrayBytes(this.partMasks);
    if (this.segments !== NO_SEGMENTS) bytes += stringsBytes(this.segments);
    for (const part of this.parts) bytes += part.heldBytes();
    if (this.shared !== undefined) bytes += this.shared.heldBytes();
    const groups = this.groups;
    if (groups !== undefined)
      bytes += OBJECT + typedArrayBytes(groups.starts) + typedArrayBytes(groups.rules) + typedArrayBytes(groups.masks);
    if (this.text !== tableText) bytes += STRING + this.text.length;
    return bytes;
  }

  /** Number of distinct compiled rules. */
  get size(): number {
    return this.packed === undefined ? this.seconds.length : packedSize(this.packed);
  }

  /** The line of the rule that decides for `path`, with its verdict; undefined when none matches. */
  match(path: string): { line: number; allowed: boolean } | undefined {
    const winner = this.winner(path);
    if (winner === -1) return undefined;
    return { line: this.lineAt(winner), allowed: this.allowsAt(winner) };
  }

  /**
   * The lines of every rule that matches `path` with the winning (longest) priority, in precedence
   * order; empty when none matches. For rule sets whose equal-length matches combine instead of one
   * winning (Content-Usage rules: usage/rules.ts).
   */
  longestMatches(path: string): number[] {
    const first = this.winner(path);
    if (first === -1) return [];
    const priority = this.priorityAt(first);
    const lines = [this.lineAt(first)];
    for (let i = first + 1; i < this.size; i++) {
      if (this.priorityAt(i) !== priority) break;
      if (this.matches(i, path)) lines.push(this.lineAt(i));
    }
    return lines;
  }

  /** Whether `path` is allowed: the hot path, allocating nothing. */
  allows(path: string): boolean {
    const winner = this.winner(path);
    return winner === -1 || this.allowsAt(winner);
  }

  /** The position (in precedence order) of the rule that decides for `path`, or -1 when none matches. */
  decidingPosition(path: string): number {
    return this.winner(path);
  }

  /** Whether the rule at position `i` allows: an `allow`, or a matching empty `disallow` (Google's `disallow()` needs > 0). */
  allowsAt(i: number): boolean {
    if (this.packed !== undefined) return packedAllowsAt(this.packed, i);
    return ((this.spans[i * SPAN + FLAGS] as number) & ALLOWS) !== 0;
  }

  /**
   * The line of the rule that decides for `path`, negated when it disallows; 0 when none matches.
   * The verdict in one number, read from the rule's span alone.
   */
  decidingLine(path: string): number {
    if (this.packed !== undefined) return packedDecidingLine(this.packed, path);
    const winner = this.winner(path);
    if (winner === -1) return 0;
    return this.allowsAt(winner) ? this.lineAt(winner) : -this.lineAt(winner);
  }

  /** The 1-based line of the rule at position `i`. */
  lineAt(i: number): number {
    if (this.packed !== undefined) return packedLineAt(this.packed, i);
    return this.spans[i * SPAN + LINE] as number;
  }

  /** Google's priority of the rule at position `i`: the pattern's length (the alternative's, plus its `$`). */
  private priorityAt(i: number): number {
    if (this.packed !== undefined) return packedPriorityAt(this.packed, i);
    const at = i * SPAN;
    const start = this.spans[at + START] as number;
    const flags = this.spans[at + FLAGS] as number;
    // An alternative is anchored, a pattern whose `$` was cut off counts it: one more either way.
    return (this.spans[at + END] as number) - start + (flags & (ALTERNATIVE | DOLLAR) ? 1 : 0);
  }

  private winner(path: string): number {
    if (this.packed !== undefined) return packedWinner(this.packed, path);
    const second = path.charCodeAt(1);
    const code = second < ASCII ? second : 0;
    if (this.shared === undefined) {
      if (this.parts.length === 0) return this.firstOfAll(path);
      const index = this.parts[0] as CandidateIndex;
      const best = this.firstMatch(index.lists, index.from(code), index.to(code), path, index.checkIndexed);
      const bucket = index.bucketFor(path);
      if (bucket === undefined) return best;
      const other = this.firstMatch(bucket, 0, bucket.length, path, true);
      // Positions follow precedence: the lower one wins.
      if (other === -1) return best;
      return best === -1 || other < best ? other : best;
    }
    const scratch = path.length >= SHARED_SEGMENTS_PATH ? this.shared.beginSearches() : undefined;
    // Made with `shared`, as `partMasks` is.
    const classes = (this.pathClasses as PathClasses).reset(path);
    const partMasks = this.partMasks as Int32Array;
    let best = this.size;
    for (let p = 0; p < this.parts.length; p++) {
      if (!classes.covers(partMasks[p] as number)) continue;
      const index = this.parts[p] as CandidateIndex;
      const from = index.from(code);
      const to = index.to(code);
      // Each part is searched below the best rule of the parts before it.
      best = this.firstGroupMatch(this.shared, index.lists, from, to, path, index.checkIndexed, scratch, best, classes);
      const bucket = index.bucketFor(path);
      if (bucket !== undefined) best = this.firstGroupMatch(this.shared, bucket, 0, bucket.length, path, true, scratch, best, classes);
    }
    return best === this.size ? -1 : best;
  }

  /** The first position whose rule matches `path`, or -1, every rule tried in turn (see {@link parts}). */
  private firstOfAll(path: string): number {
    const second = path.charCodeAt(1);
    const seconds = this.seconds;
    for (let i = 0; i < seconds.length; i++) {
      // A rule that needs a byte after `/` (NO_PATH: no path can match it) the path does not have.
      const expected = seconds[i] as number;
      if (expected !== 0 && expected !== second) continue;
      if (this.matches(i, path)) return i;
    }
    return -1;
  }

  /**
   * The first position of `list[from, to)` whose rule matches `path`, or -1. `checkSecond`: the list
   * was not selected by the byte after `/`, so reject on it first.
   */
  private firstMatch(list: Int32Array, from: number, to: number, path: string, checkSecond: boolean): number {
    const second = path.charCodeAt(1);
    for (let k = from; k < to; k++) {
      const i = list[k] as number;
      if (checkSecond) {
        const expected = this.seconds[i] as number;
        if (expected !== 0 && expected !== second) continue;
      }
      if (this.matches(i, path)) return i;
    }
    return -1;
  }

  /**
   * The lowest position below `bound` of a rule of the sketch groups `list[from, to)` that matches
   * `path`, or `bound`. A group's byte classes, prefix, tail and sketch are tried once for all of
   * its rules; only the rules of a group that passes them are walked, in precedence order. Groups
   * are listed in the order of their first rule, so the search stops at the first group that
   * cannot beat the best rule found.
   */
  private firstGroupMatch(
    shared: SharedSegments,
    list: Int32Array,
    from: number,
    to: number,
    path: string,
    checkSecond: boolean,
    scratch: SegmentScratch | undefined,
    bound: number,
    classes: PathClasses,
  ): number {
    const { spans } = this;
    // Made with `shared`, as the groups are.
    const masks = this.masks as Int32Array;
    const { starts, rules, masks: groupMasks } = this.groups as SketchGroups;
    const second = path.charCodeAt(1);
    let best = bound;
    for (let k = from; k < to; k++) {
      const group = list[k] as number;
      const start = starts[group] as number;
      const lead = rules[start] as number;
      if (lead >= best) break;
      if (checkSecond) {
        const expected = this.seconds[lead] as number;
        if (expected !== 0 && expected !== second) continue;
      }
      if (!classes.covers(groupMasks[group] as number)) continue;
      const limit = this.literalLimit(lead, path);
      if (limit === -1) continue;
      if (((spans[lead * SPAN + FLAGS] as number) & STAR) === 0) {
        best = lead;
        continue;
      }
      const prefixLength = (spans[lead * SPAN + PREFIX_END] as number) - (spans[lead * SPAN + START] as number);
      const end = starts[group + 1] as number;
      if (end - start === 1) {
        if (shared.matches(lead, path, prefixLength, limit, scratch)) best = lead;
        continue;
      }
      if (!shared.sketch(lead, path, prefixLength, limit, scratch)) continue;
      for (let j = start; j < end; j++) {
        const i = rules[j] as number;
        if (i >= best) break;
        if (!classes.covers(masks[i] as number)) continue;
        if (shared.walk(i, path, prefixLength, limit, scratch)) {
          best = i;
          break;
        }
      }
    }
    return best;
  }

  /** Google's `RobotsMatchStrategy::Matches` for the rule at position `i`, one rule on its own. */
  private matches(i: number, path: string): boolean {
    if (this.packed !== undefined) return packedMatches(this.packed, i, path);
    const limit = this.literalLimit(i, path);
    if (limit === -1) return false;
    const at = i * SPAN;
    const flags = this.spans[at + FLAGS] as number;
    if ((flags & STAR) === 0) return true;
    const prefixLength = (this.spans[at + PREFIX_END] as number) - (this.spans[at + START] as number);
    if (this.shared !== undefined) return this.shared.walk(i, path, prefixLength, limit, undefined);
    const segments = this.segments;
    let position = prefixLength;
    for (let k = flags >>> PIECES_SHIFT; ; k++) {
      const segment = segments[k] as string;
      if (segment === '') break;
      const found = path.indexOf(segment, position);
      if (found === -1) return false;
      position = found + segment.length;
    }
    return position <= limit;
  }

  /**
   * Whether the literal parts of the rule at position `i` fit `path`: its prefix starts the path
   * and, when anchored, its tail ends it. Returns where the tail starts (the path's length when
   * unanchored), by which the `*` segments must end; -1 when they do not fit. A rule without `*`
   * matches exactly when this is not -1.
   */
  private literalLimit(i: number, path: string): number {
    const { spans, text } = this;
    const at = i * SPAN;
    const start = spans[at + START] as number;
    const prefixLength = (spans[at + PREFIX_END] as number) - start;
    const flags = spans[at + FLAGS] as number;
    if (path.length < prefixLength) return -1;
    for (let k = 0; k < prefixLength; k++) {
      if (path.charCodeAt(k) !== text.charCodeAt(start + k)) return -1;
    }
    if ((flags & ANCHORED) === 0) return path.length;
    if ((flags & STAR) === 0) return path.length === prefixLength ? path.length : -1;
    // The tail must end the path: the cheapest rejection, so it goes before any segment search.
    const tailStart = spans[at + TAIL_START] as number;
    const tailLength = (spans[at + END] as number) - tailStart;
    const limit = path.length - tailLength;
    if (limit < prefixLength) return -1;
    for (let k = 0; k < tailLength; k++) {
      if (path.charCodeAt(limit + k) !== text.charCodeAt(tailStart + k)) return -1;
    }
    return limit;
  }

  /**
   * The literal segments of the `*` rules between their prefix and their tail, each rule's ended by
   * an empty string; each rule's flags get where its segments start.
   */
  private cutSegments(count: number): readonly string[] {
    const spans = this.spans;
    let segments: string[] | undefined;
    for (let i = 0; i < count; i++) {
      const at = i * SPAN;
      const flags = spans[at + FLAGS] as number;
      if ((flags & STAR) === 0) continue;
      segments ??= [];
      spans[at + FLAGS] = flags | (segments.length << PIECES_SHIFT);
      const from = (spans[at + PREFIX_END] as number) + 1;
      const to = flags & ANCHORED ? (spans[at + TAIL_START] as number) - 1 : (spans[at + END] as number);
      for (const piece of this.text.slice(from, Math.max(from, to)).split('*')) if (piece.length > 0) segments.push(piece);
      segments.push('');
    }
    return segments ?? NO_SEGMENTS;
  }
}

/** Lays the rule at position `i` out in `spans` ({@link SPAN} numbers) and `seconds` (the byte after `/` it needs). */
function layOut(text: string, spans: Int32Array, seconds: Uint8Array, i: number, rule: Shape): void {
  const { start, end, anchored, firstStar } = rule;
  const at = i * SPAN;
  spans[at + LINE] = rule.line;
  spans[at + START] = start;
  spans[at + END] = end;
  const allows = rule.allow || rule.priority === 0 ? ALLOWS : 0;
  const dollar = !rule.alternative && rule.priority > end - start ? DOLLAR : 0;
  const flags = allows | dollar | (rule.alternative ? ALTERNATIVE : 0) | (anchored ? ANCHORED : 0);
  const prefixEnd = firstStar === -1 ? end : firstStar;
  spans[at + PREFIX_END] = prefixEnd;
  seconds[i] = prefixEnd - start < 2 ? 0 : text.charCodeAt(start + 1) < ASCII ? text.charCodeAt(start + 1) : NO_PATH;
  if (firstStar === -1) {
    spans[at + TAIL_START] = end;
    spans[at + FLAGS] = flags;
    return;
  }
  // Anchored: the piece after the last `*` must end the path (it is never empty: `*$` unanchors).
  spans[at + TAIL_START] = anchored ? text.lastIndexOf('*', end - 1) + 1 : end;
  spans[at + FLAGS] = flags | STAR;
}

/**
 * The typed arrays of a matcher without the shared search, as views of one buffer: the rules'
 * layout ({@link SPAN} numbers each), room for the candidate list when it has one (at most one
 * entry per rule) and the bytes after `/`. Each typed array of its own costs a buffer object and an
 * allocation of its own, more than a typical file's rules hold; a broad crawl holds a matcher per
 * origin.
 */
class MatcherBlock {
  readonly buffer: ArrayBuffer;
  readonly spans: Int32Array;
  readonly listRoom: Int32Array | undefined;
  readonly seconds: Uint8Array;

  constructor(count: number, listed: boolean) {
    const ints = count * SPAN + (listed ? count : 0);
    this.buffer = new ArrayBuffer(4 * ints + count);
    this.spans = new Int32Array(this.buffer, 0, count * SPAN);
    this.listRoom = listed ? new Int32Array(this.buffer, 4 * count * SPAN, count) : undefined;
    this.seconds = new Uint8Array(this.buffer, 4 * ints, count);
  }
}
