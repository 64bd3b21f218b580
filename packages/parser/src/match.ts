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
 * matches decides; and they are listed by the byte after the leading `/`, so a check visits only
 * the rules that can match. A rule set is compiled for a user-agent on its first check (compile.ts):
 * a parsed file nobody asks about costs its directive table only.
 *
 * Defences keep hostile files cheap. Large rule sets are also bucketed by literal prefix. Rule sets
 * with many `*` rules filter them by a byte-class mask first, try each rule's first, longest and
 * last segment before walking all of them, and within one check of a long path share their segment
 * searches: where a segment's search found nothing (no later search can find it), and a
 * next-occurrence table for a segment once plain searches for it have read the path a few times
 * over. That is what keeps thousands of `/*a*a*…*b` patterns cheap against a 2,000-byte URL (on the
 * hostile benchmark file, about a third of the CPU per check of building every segment's table on
 * its second search and walking every segment; the 500 KiB file's long URLs no slower). The shared
 * searches live in the check that makes them, so a matcher holds no state between checks.
 */
import { decodeUnreserved } from './escape.js';
import { HAS_RAW, HAS_STAR, LINE_SHIFT, rowEnd, rowHead, rowStart, type DirectiveTable } from './table.js';

const KIND_ALLOW = 1;

/**
 * Rule sets up to this size are listed whole by the byte after `/`; larger ones are bucketed by
 * literal prefix, and only the rules too short for a bucket are listed.
 */
const LINEAR_LIMIT = 256;
/** Bucket key length: large rule sets are bucketed by the first bytes of their literal prefix. */
const KEY_LENGTH = 5;
/** From this many `*` rules on, a byte-class mask filters them and segment searches are shared within a check. */
const SHARED_SEGMENTS_FROM = 64;
/** Paths shorter than this search segments with plain `indexOf`: a table would cost more. */
const SHARED_SEGMENTS_PATH = 256;
/**
 * A segment is searched with `indexOf` until its searches in one check have read this many path
 * lengths; then a table of its next occurrences answers (see {@link SegmentScratch}).
 */
const SEARCH_BUDGET = 4;
/** Bucket offsets and lengths share one number: offset * BUCKET_SPLIT + length. */
const BUCKET_SPLIT = 2 ** 21;
/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
const ASCII = 128;
/** The candidate lists may hold at most this many entries per rule (plus one per byte). */
const LIST_GROWTH = 4;
/** `second` of a rule whose byte after `/` is not ASCII: no canonical path has it. */
const NO_PATH = 0xff;

/** Numbers per rule in {@link RuleMatcher.spans}. */
const SPAN = 6;
/** Numbers per rule in {@link SharedSegments}' spans: segment offset, segment count, longest middle segment. */
const SHARED_SPAN = 3;
/** Offsets in a rule's span: its directive row, where its prefix and tail are in the text, flags. */
const ROW = 0;
const START = 1;
const PREFIX_END = 2;
const TAIL_START = 3;
const END = 4;
const FLAGS = 5;
const ANCHORED = 1;
/** The pattern has a `*`: its segments follow the prefix. */
const STAR = 2;
/** Google's `index.html` alternative of an `allow` (see `fromTable`). */
const ALTERNATIVE = 4;
/** An `allow`, or an empty pattern (Google's `disallow()` needs a priority above 0). */
const ALLOWS = 8;

/** Where a rule's pattern is, and how to read it. */
interface Shape {
  readonly row: number;
  readonly alternative: boolean;
  readonly start: number;
  /** End of the pattern without its anchoring `$`. */
  readonly end: number;
  readonly anchored: boolean;
  /** Position of the first `*` in [start, end), or -1. */
  readonly firstStar: number;
  readonly priority: number;
  readonly allow: boolean;
  readonly line: number;
}

/** A compiled rule set for one user-agent: answers "which rule wins for this path?". */
export class RuleMatcher {
  /** Per rule position (precedence order), {@link SPAN} numbers: row, prefix, tail, end, flags. */
  private readonly spans: Int32Array;
  /** Per rule position: its literal segments between `*`s, without an anchored tail (`*` rules; not with `shared`). */
  private readonly segments: (readonly string[] | undefined)[];
  /** The shared segment search of rule sets with many `*` rules. */
  private readonly shared: SharedSegments | undefined;
  /**
   * Per rule position: the byte classes its pattern needs (0 without `*`), filled with `shared`. Every
   * matcher has the array, so the check reads one field shape for small and large rule sets alike.
   */
  private readonly masks: Int32Array;
  /** Per rule position: the byte after `/` the rule needs, 0 for any, {@link NO_PATH} for none. */
  private readonly seconds: Uint8Array;
  /** All candidate lists back to back: for each byte after `/`, the rules that can match. */
  private readonly lists: Int32Array;
  /** Where each byte's list starts and ends in {@link lists}: `[start, end]` per byte. */
  private readonly bounds: Int32Array;
  /** The lists were not split by the byte after `/` (see the constructor): check it per rule. */
  private readonly checkIndexed: boolean;
  /** Bucket key → [offset, length] in `bucketItems`, for large rule sets: one array for all buckets. */
  private readonly buckets: Map<string, number> | undefined;
  private readonly bucketItems: Int32Array | undefined;

  private constructor(
    private readonly text: string,
    private readonly rows: Int32Array,
    rules: readonly Shape[],
  ) {
    const count = rules.length;
    this.spans = new Int32Array(count * SPAN);
    this.seconds = new Uint8Array(count);
    let wildcards = 0;
    rules.forEach((rule, i) => {
      this.addRule(i, rule);
      if (rule.firstStar !== -1) wildcards++;
    });
    this.masks = new Int32Array(count);
    this.segments = new Array<readonly string[] | undefined>(count);
    if (wildcards >= SHARED_SEGMENTS_FROM) {
      this.shared = new SharedSegments(text, this.spans, count);
      for (let i = 0; i < count; i++) {
        const at = i * SPAN;
        if ((this.spans[at + FLAGS] as number) & STAR)
          this.masks[i] = byteClasses(text, this.spans[at + START] as number, this.spans[at + END] as number);
      }
    } else {
      this.shared = undefined;
      for (let i = 0; i < count; i++) if ((rules[i] as Shape).firstStar !== -1) this.segments[i] = this.cutSegments(i);
    }

    let listed: readonly number[] | undefined;
    if (count <= LINEAR_LIMIT) {
      this.buckets = undefined;
      this.bucketItems = undefined;
    } else {
      const short: number[] = [];
      const buckets = new Map<string, number[]>();
      for (let i = 0; i < count; i++) {
        const at = i * SPAN;
        const start = this.spans[at + START] as number;
        if ((this.spans[at + PREFIX_END] as number) - start < KEY_LENGTH) {
          short.push(i);
          continue;
        }
        const key = text.slice(start, start + KEY_LENGTH);
        const bucket = buckets.get(key);
        if (bucket === undefined) buckets.set(key, [i]);
        else bucket.push(i);
      }
      const items: number[] = [];
      this.buckets = new Map();
      for (const [key, list] of buckets) {
        this.buckets.set(key, items.length * BUCKET_SPLIT + list.length);
        items.push(...list);
      }
      this.bucketItems = new Int32Array(items);
      listed = short;
    }

    listed ??= [...rules.keys()];
    const any: number[] = [];
    const bySecond = new Map<number, number[]>();
    for (const i of listed) {
      const second = this.seconds[i] as number;
      if (second === 0) {
        any.push(i);
        for (const list of bySecond.values()) list.push(i);
        continue;
      }
      if (second === NO_PATH) continue;
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
    if (size > LIST_GROWTH * count + ASCII) {
      // Many rules without a second byte and many distinct second bytes: one list for all bytes,
      // read with the second-byte check, rather than (bytes × rules) copies.
      const all = [...listed];
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

  /**
   * Compiles the rules at `rowIndices` of `table` (file order). `decodeUnreservedEscapes` applies
   * the RFC 9309 reading to the patterns (the caller decodes the path the same way). `order`:
   * `'precedence'` sorts the rules by Google's precedence (longest first, `allow` wins ties);
   * `'listed'` keeps them as given, so the first listed rule that matches decides (TDMRep's
   * locations, pattern.ts).
   */
  static fromTable(
    table: DirectiveTable,
    rowIndices: readonly number[],
    decodeUnreservedEscapes: boolean,
    order: 'precedence' | 'listed' = 'precedence',
  ): RuleMatcher {
    const source = decodeUnreservedEscapes ? decodedView(table, rowIndices) : { text: table.text, rows: table.rows, indices: rowIndices };
    const drafts: Shape[] = [];
    for (const row of source.indices) {
      drafts.push(shapeOf(source.text, source.rows, row, false));
      if ((rowHead(source.rows, row) & 7) !== KIND_ALLOW) continue;
      // Google: `allow: /dir/index.htm[l]` also allows `/dir/` itself, as `allow: /dir/$` would. The
      // alternative is shorter than the pattern, so it only decides when the pattern does not match.
      const start = rowStart(source.text, source.rows, row);
      const end = rowEnd(source.rows, row);
      const slash = source.text.lastIndexOf('/', end - 1);
      if (slash >= start && slash + 10 <= end && source.text.startsWith('/index.htm', slash)) {
        drafts.push(shapeOf(source.text, source.rows, row, true));
      }
    }
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
    return new RuleMatcher(source.text, source.rows, rules);
  }

  /** Number of distinct compiled rules. */
  get size(): number {
    return this.seconds.length;
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
      if (this.matches(i, path, undefined)) lines.push(this.lineAt(i));
    }
    return lines;
  }

  /** Whether `path` is allowed: the hot path, allocating nothing but a long path's shared segment tables. */
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
    return ((this.spans[i * SPAN + FLAGS] as number) & ALLOWS) !== 0;
  }

  /** The 1-based line of the rule at position `i`. */
  lineAt(i: number): number {
    return rowHead(this.rows, this.spans[i * SPAN + ROW] as number) >>> LINE_SHIFT;
  }

  /** Google's priority of the rule at position `i`: the pattern's length (the alternative's, plus its `$`). */
  private priorityAt(i: number): number {
    const at = i * SPAN;
    const start = this.spans[at + START] as number;
    if ((this.spans[at + FLAGS] as number) & ALTERNATIVE) return (this.spans[at + END] as number) - start + 1;
    return rowEnd(this.rows, this.spans[at + ROW] as number) - start;
  }

  private winner(path: string): number {
    // Rule sets with many `*` rules share segment searches within this check of a long path.
    const scratch = this.shared !== undefined && path.length >= SHARED_SEGMENTS_PATH ? new SegmentScratch() : undefined;
    const second = path.charCodeAt(1);
    const code = second < ASCII ? second : 0;
    const best = this.firstMatch(
      this.lists,
      this.bounds[code * 2] as number,
      this.bounds[code * 2 + 1] as number,
      path,
      this.checkIndexed,
      scratch,
    );
    const bucket = this.bucketFor(path);
    if (bucket === undefined) return best;
    const other = this.firstMatch(bucket, 0, bucket.length, path, true, scratch);
    // Positions follow precedence: the lower one wins.
    if (other === -1) return best;
    return best === -1 || other < best ? other : best;
  }

  /** The rules of a large rule set whose literal prefix starts as `path` does. */
  private bucketFor(path: string): Int32Array | undefined {
    if (this.buckets === undefined || this.bucketItems === undefined || path.length < KEY_LENGTH) return undefined;
    const bucket = this.buckets.get(path.slice(0, KEY_LENGTH));
    if (bucket === undefined) return undefined;
    const offset = Math.floor(bucket / BUCKET_SPLIT);
    return this.bucketItems.subarray(offset, offset + (bucket % BUCKET_SPLIT));
  }

  /**
   * The first position of `list[from, to)` whose rule matches `path`, or -1. `checkSecond`: the list
   * was not selected by the byte after `/`, so reject on it first.
   */
  private firstMatch(
    list: Int32Array,
    from: number,
    to: number,
    path: string,
    checkSecond: boolean,
    scratch: SegmentScratch | undefined,
  ): number {
    const second = path.charCodeAt(1);
    // Masks pay for rule sets with many `*` rules; for a few, native segment searches cost less than
    // a pass over the path in JavaScript, however long the path.
    const useMasks = this.shared !== undefined;
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
          if (pathMask === -1) pathMask = byteClasses(path, 0, path.length);
          if ((mask & ~pathMask) !== 0) continue;
        }
      }
      if (this.matches(i, path, scratch)) return i;
    }
    return -1;
  }

  /** Google's `RobotsMatchStrategy::Matches` for the rule at position `i`: the hot path, it allocates nothing. */
  private matches(i: number, path: string, scratch: SegmentScratch | undefined): boolean {
    const { spans, text } = this;
    const at = i * SPAN;
    const start = spans[at + START] as number;
    const prefixLength = (spans[at + PREFIX_END] as number) - start;
    const flags = spans[at + FLAGS] as number;
    if (path.length < prefixLength) return false;
    for (let k = 0; k < prefixLength; k++) {
      if (path.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
    }
    if ((flags & STAR) === 0) return (flags & ANCHORED) === 0 || path.length === prefixLength;
    let limit = path.length;
    if (flags & ANCHORED) {
      // The tail must end the path: the cheapest rejection, so it goes first.
      const tailStart = spans[at + TAIL_START] as number;
      const tailLength = (spans[at + END] as number) - tailStart;
      limit -= tailLength;
      if (limit < prefixLength) return false;
      for (let k = 0; k < tailLength; k++) {
        if (path.charCodeAt(limit + k) !== text.charCodeAt(tailStart + k)) return false;
      }
    }
    if (this.shared !== undefined) return this.shared.matches(i, path, prefixLength, limit, scratch);
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

  private addRule(i: number, rule: Shape): void {
    const { start, end, anchored, firstStar } = rule;
    const at = i * SPAN;
    const spans = this.spans;
    spans[at + ROW] = rule.row;
    spans[at + START] = start;
    spans[at + END] = end;
    const allows = rule.allow || rule.priority === 0 ? ALLOWS : 0;
    const flags = allows | (rule.alternative ? ALTERNATIVE : 0) | (anchored ? ANCHORED : 0);
    const prefixEnd = firstStar === -1 ? end : firstStar;
    spans[at + PREFIX_END] = prefixEnd;
    this.seconds[i] = prefixEnd - start < 2 ? 0 : this.text.charCodeAt(start + 1) < ASCII ? this.text.charCodeAt(start + 1) : NO_PATH;
    if (firstStar === -1) {
      spans[at + TAIL_START] = end;
      spans[at + FLAGS] = flags;
      return;
    }
    // Anchored: the piece after the last `*` must end the path (it is never empty: `*$` unanchors).
    spans[at + TAIL_START] = anchored ? this.text.lastIndexOf('*', end - 1) + 1 : end;
    spans[at + FLAGS] = flags | STAR;
  }

  /** The literal segments of the `*` rule at position `i` between its prefix and its tail. */
  private cutSegments(i: number): readonly string[] {
    const at = i * SPAN;
    const from = (this.spans[at + PREFIX_END] as number) + 1;
    const to =
      (this.spans[at + FLAGS] as number) & ANCHORED ? (this.spans[at + TAIL_START] as number) - 1 : (this.spans[at + END] as number);
    return this.text
      .slice(from, Math.max(from, to))
      .split('*')
      .filter((piece) => piece.length > 0);
  }
}

/** Where the pattern at `row` (or its `index.html` alternative) is in `text`, and how to read it. */
function shapeOf(text: string, rows: Int32Array, row: number, alternative: boolean): Shape {
  const head = rowHead(rows, row);
  const start = rowStart(text, rows, row);
  let end = rowEnd(rows, row);
  const allow = (head & 7) === KIND_ALLOW;
  const line = head >>> LINE_SHIFT;
  if (alternative) {
    end = text.lastIndexOf('/', end - 1) + 1;
    const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
    return {
      row,
      alternative,
      start,
      end,
      anchored: true,
      firstStar: star !== -1 && star < end ? star : -1,
      priority: end - start + 1,
      allow,
      line,
    };
  }
  const priority = end - start;
  let anchored = false;
  if (priority > 0 && text.charCodeAt(end - 1) === 0x24) {
    end--;
    // `/a*$`: a trailing `*` makes the anchor always true.
    anchored = !(head & HAS_STAR && end > start && text.charCodeAt(end - 1) === 0x2a);
  }
  const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
  return { row, alternative, start, end, anchored, firstStar: star !== -1 && star < end ? star : -1, priority, allow, line };
}

/** The chosen rows with their patterns decoded (RFC 9309 reading), as a small table of their own. */
function decodedView(table: DirectiveTable, rowIndices: readonly number[]): { text: string; rows: Int32Array; indices: number[] } {
  const parts: string[] = [];
  const rows: number[] = [];
  let length = 0;
  for (const row of rowIndices) {
    const pattern = decodeUnreserved(table.text.slice(rowStart(table.text, table.rows, row), rowEnd(table.rows, row)));
    rows.push(rowHead(table.rows, row) & ~HAS_RAW, length + pattern.length);
    parts.push(pattern);
    length += pattern.length;
  }
  return { text: parts.join(''), rows: new Int32Array(rows), indices: rowIndices.map((_, i) => i) };
}

/** Precedence: longer first, `allow` before `disallow`, then file order. */
function byPrecedence(a: Shape, b: Shape): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.allow !== b.allow) return a.allow ? -1 : 1;
  return a.line - b.line;
}

/**
 * The byte classes (code & 31) of the bytes of text[start, end), `*` left out: the same function
 * reads a pattern (whose `*` is no byte) and a path, and a pattern's classes must all be in the
 * path's for it to match.
 */
function byteClasses(text: string, start: number, end: number): number {
  let mask = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x2a) mask |= 1 << (code & 31);
  }
  return mask;
}

/**
 * The segments of rule sets with many `*` rules (hostile files are thousands of `/*a*a*…*b`),
 * numbered and cut out once, at compile time, so that one check can share its searches for the
 * same segment between rules (see {@link SegmentScratch}). A check then costs at most (distinct
 * segments × path length) plus a few steps per segment of each rule tried, instead of (rules × path
 * length).
 *
 * Before a rule's segments are walked in order, a sketch of the walk rejects most rules that cannot
 * match: its first segment, its longest middle segment and its last one must occur in that order.
 * Each is found at or before where the full walk would find it, so a failed sketch is a failed
 * match; the sketch costs three searches, where a rule that fails late costs one per segment. On the
 * hostile benchmark file the sketch cuts the segment searches of a check about sixfold (paths that
 * hold every letter the patterns need, in the wrong order, are what made checks slow).
 */
class SharedSegments {
  /**
   * Per rule position, {@link SHARED_SPAN} numbers: offset of its segment ids in `ids`, their count
   * (the tail of an anchored rule last), and where its longest middle segment is among them (0: no
   * segment between the first and the last).
   */
  private readonly spans: Int32Array;
  private readonly ids: Int32Array;
  readonly strings: string[] = [];

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
   * Whether the `*` rule at position `i`, whose literal prefix (and anchored tail) matched, matches:
   * its segments in order from `position`, ending by `limit` (where an anchored tail starts).
   */
  matches(i: number, path: string, position: number, limit: number, scratch: SegmentScratch | undefined): boolean {
    const offset = this.spans[i * SHARED_SPAN] as number;
    const count = this.spans[i * SHARED_SPAN + 1] as number;
    // With an anchor, the last segment is the tail, which the caller has checked ends the path.
    const walked = limit < path.length ? count - 1 : count;
    if (walked === 0) return position <= limit;
    let k = 0;
    if (walked >= 2 && scratch !== undefined) {
      // The sketch: first, longest middle and last segment in order. The first segment's place is
      // where the walk finds it too, so the walk goes on from there. On a short path, plain searches
      // are cheap and the walk ends as soon as a segment is missing: the sketch would cost more.
      position = this.after(offset, path, position, scratch);
      if (position === -1) return false;
      k = 1;
      const longest = this.spans[i * SHARED_SPAN + 2] as number;
      const middle = longest === 0 ? position : this.after(offset + longest, path, position, scratch);
      if (middle === -1) return false;
      const end = this.after(offset + walked - 1, path, middle, scratch);
      if (end === -1 || end > limit) return false;
    }
    for (; k < walked; k++) {
      position = this.after(offset + k, path, position, scratch);
      if (position === -1) return false;
    }
    return position <= limit;
  }

  /** Where the first occurrence at or after `from` of the segment at `ids[at]` ends, or -1. */
  private after(at: number, path: string, from: number, scratch: SegmentScratch | undefined): number {
    const id = this.ids[at] as number;
    const segment = this.strings[id] as string;
    const found = scratch === undefined ? path.indexOf(segment, from) : scratch.find(this, path, id, from);
    return found === -1 ? -1 : found + segment.length;
  }
}

/**
 * The searches of one check of a long path against a {@link SharedSegments} rule set. A segment is
 * searched with `indexOf` until those searches have read as many characters as the path has; from
 * then on, a table of its next occurrence at every path position answers in O(1). The table costs
 * a pass over the path, so it is built only for the segments whose plain searches have cost as much:
 * a check whose rules find their segments close by (a rule that matches early) builds none, and no
 * segment costs more than about three path lengths in one check. Made per check, so no matcher state
 * outlives a check.
 */
class SegmentScratch {
  /** Per segment id: a position from which a search found nothing (so none from further on will). */
  private readonly missing: number[] = [];
  /** Per segment id: the characters its searches have read so far. */
  private readonly read: number[] = [];
  /** Per segment id: its next-occurrence table, once built. */
  private readonly tables: (Int32Array | undefined)[] = [];

  find(segments: SharedSegments, path: string, id: number, from: number): number {
    const table = this.tables[id];
    if (table !== undefined) return from > path.length ? -1 : (table[from] as number);
    const segment = segments.strings[id] as string;
    const missing = this.missing[id];
    if (missing !== undefined && from >= missing) return -1;
    const read = this.read[id] ?? 0;
    if (read < SEARCH_BUDGET * path.length) {
      const found = path.indexOf(segment, from);
      if (found === -1) {
        this.missing[id] = from;
        this.read[id] = read + 1 + path.length - from;
      } else this.read[id] = read + 1 + found - from;
      return found;
    }
    const built = nextOccurrences(path, segment);
    this.tables[id] = built;
    return built[from] as number;
  }
}

/** table[i] = the first position ≥ i where `segment` occurs in `path`, or -1: one backward pass. */
function nextOccurrences(path: string, segment: string): Int32Array {
  const table = new Int32Array(path.length + 1);
  const first = segment.charCodeAt(0);
  let next = -1;
  table[path.length] = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path.charCodeAt(i) === first && (segment.length === 1 || path.startsWith(segment, i))) next = i;
    table[i] = next;
  }
  return table;
}
