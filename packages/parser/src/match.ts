/**
 * The matching engine: decides which rule of a rule set wins for a path, with Google's semantics
 * (longest pattern wins, `allow` wins ties, `*` matches any run of bytes, a trailing `$` anchors).
 *
 * No regular expression is built from a pattern. A pattern is read as literal segments between its
 * `*`s, found left to right with `indexOf` (greedy leftmost is exact for this language), so one
 * pattern costs O(path length) and hostile patterns cannot backtrack. Cheap rejections come first:
 * the byte after the leading `/`, then, for `*` rules, a 32-bit mask of the byte classes the pattern
 * needs. Rule sets with many `*` rules share next-occurrence tables of their segments within a check,
 * which is what keeps thousands of `/*a*a*…*b` patterns cheap against a 2,000-byte URL.
 *
 * A compiled rule is one integer: the directive table row that holds the pattern, plus two small
 * fields; rules are kept in the order in which they win, so the first rule that matches decides.
 * Large rule sets are bucketed by literal prefix. A rule set checked often switches to a faster,
 * larger form (hot-rules.ts).
 */
import { decodeUnreserved } from './escape.js';
import { HotRules, type RuleSource } from './hot-rules.js';
import { HAS_RAW, HAS_STAR, LINE_SHIFT, rowEnd, rowHead, rowStart, type DirectiveTable } from './table.js';

const KIND_ALLOW = 1;
/** Entry layout: `row << 9 | alternative << 8 | second byte of the literal prefix (0: none)`. */
const ALTERNATIVE = 0x100;
const SECOND = 0xff;

/**
 * Rule sets up to this size are scanned whole (the byte after `/` rejects most rules with one integer
 * compare); larger ones are bucketed by literal prefix.
 */
const LINEAR_LIMIT = 256;
/** Bucket key length: large rule sets are bucketed by the first bytes of their literal prefix. */
const KEY_LENGTH = 5;
/** From this many `*` rules on, segment searches share next-occurrence tables within a check. */
const SHARED_SEGMENTS_FROM = 64;
/** Paths shorter than this search segments with plain `indexOf`: a table would cost more. */
const SHARED_SEGMENTS_PATH = 256;
/** Bucket offsets and lengths share one number: offset * BUCKET_SPLIT + length. */
const BUCKET_SPLIT = 2 ** 21;
/**
 * After this many checks a rule set switches to its hot form ({@link HotRules}): faster checks for
 * about 100 more bytes per rule, paid only by the rule sets a crawler keeps asking.
 */
export const HOT_AFTER = 64;

/** Where a compiled rule's pattern is, and how to read it. */
interface Shape {
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
  /** Rule positions (into `entries`) whose literal prefix is shorter than the bucket key; all rules when small. */
  private readonly short: Int32Array | undefined;
  /** Bucket key → [offset, length] in `bucketItems`: one array for all buckets, not one each. */
  private readonly buckets: Map<string, number> | undefined;
  private readonly bucketItems: Int32Array | undefined;
  private readonly segments: SegmentFinder | undefined;
  private hot: HotRules | undefined;
  private checks = 0;

  private constructor(
    private readonly text: string,
    private readonly rows: Int32Array,
    /**
     * Compiled rules in precedence order, then, when any rule has a `*`, the byte-class mask of
     * each rule (0 for rules without `*`): one array, so a small file pays for one buffer.
     */
    private readonly entries: Int32Array,
    private readonly count: number,
  ) {
    const hasMasks = entries.length > count;
    let wildcards = 0;
    if (hasMasks) for (let i = 0; i < count; i++) if (entries[count + i] !== 0) wildcards++;
    this.segments = wildcards >= SHARED_SEGMENTS_FROM ? new SegmentFinder(this) : undefined;
    if (count <= LINEAR_LIMIT) {
      this.short = undefined;
      this.buckets = undefined;
      this.bucketItems = undefined;
      return;
    }
    const short: number[] = [];
    const buckets = new Map<string, number[]>();
    for (let i = 0; i < count; i++) {
      const shape = this.shape(i);
      const prefixEnd = shape.firstStar === -1 ? shape.end : shape.firstStar;
      if (prefixEnd - shape.start < KEY_LENGTH) {
        short.push(i);
        continue;
      }
      const key = text.slice(shape.start, shape.start + KEY_LENGTH);
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [i]);
      else bucket.push(i);
    }
    this.short = new Int32Array(short);
    const items: number[] = [];
    this.buckets = new Map();
    for (const [key, list] of buckets) {
      this.buckets.set(key, items.length * BUCKET_SPLIT + list.length);
      items.push(...list);
    }
    this.bucketItems = new Int32Array(items);
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
    const drafts: { entry: number; shape: Shape }[] = [];
    for (const row of source.indices) {
      const head = rowHead(source.rows, row);
      const entry = row << 9;
      drafts.push({ entry, shape: shapeOf(source.text, source.rows, entry) });
      if ((head & 7) !== KIND_ALLOW) continue;
      // Google: `allow: /dir/index.htm[l]` also allows `/dir/` itself, as `allow: /dir/$` would. The
      // alternative is shorter than the pattern, so it only decides when the pattern does not match.
      const start = rowStart(source.text, source.rows, row);
      const end = rowEnd(source.rows, row);
      const slash = source.text.lastIndexOf('/', end - 1);
      if (slash >= start && slash + 10 <= end && source.text.startsWith('/index.htm', slash)) {
        drafts.push({ entry: entry | ALTERNATIVE, shape: shapeOf(source.text, source.rows, entry | ALTERNATIVE) });
      }
    }
    if (order === 'precedence') drafts.sort((a, b) => byPrecedence(a.shape, b.shape));
    const entries: number[] = [];
    const masks: number[] = [];
    let anyWildcard = false;
    const seen = new Set<string>();
    for (const { entry, shape } of drafts) {
      // Exact repeats never decide: the earlier line of two equal rules always wins (in either order).
      const key = `${shape.allow ? 'a' : 'd'}${shape.anchored ? '$' : ''}${shape.priority}:${source.text.slice(shape.start, shape.end)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const prefixEnd = shape.firstStar === -1 ? shape.end : shape.firstStar;
      const second = prefixEnd - shape.start >= 2 ? source.text.charCodeAt(shape.start + 1) : 0;
      entries.push(entry | (second & SECOND));
      const mask = shape.firstStar === -1 ? 0 : maskOf(source.text, shape.start, shape.end);
      if (mask !== 0) anyWildcard = true;
      masks.push(mask);
    }
    return new RuleMatcher(source.text, source.rows, new Int32Array(anyWildcard ? entries.concat(masks) : entries), entries.length);
  }

  /** Number of distinct compiled rules. */
  get size(): number {
    return this.count;
  }

  /** The line of the rule that decides for `path`, with its verdict; undefined when none matches. */
  match(path: string): { line: number; allowed: boolean } | undefined {
    const winner = this.winner(path);
    if (winner === -1) return undefined;
    const shape = this.shape(winner);
    // A matching empty pattern (priority 0) decides, but allows (Google's `disallow()` needs > 0).
    return { line: shape.line, allowed: shape.allow || shape.priority === 0 };
  }

  /**
   * The lines of every rule that matches `path` with the winning (longest) priority, in precedence
   * order; empty when none matches. For rule sets whose equal-length matches combine instead of one
   * winning (Content-Usage rules: usage/rules.ts).
   */
  longestMatches(path: string): number[] {
    const first = this.winner(path);
    if (first === -1) return [];
    const top = this.shape(first);
    const lines = [top.line];
    for (let i = first + 1; i < this.count; i++) {
      const shape = this.shape(i);
      if (shape.priority !== top.priority) break;
      if (this.matches(i, path)) lines.push(shape.line);
    }
    return lines;
  }

  /** Whether `path` is allowed: the hot path, no allocation. */
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
    const row = (this.entries[i] as number) >>> 9;
    return (rowHead(this.rows, row) & 7) === KIND_ALLOW || rowStart(this.text, this.rows, row) === rowEnd(this.rows, row);
  }

  /** The 1-based line of the rule at position `i`. */
  lineAt(i: number): number {
    return rowHead(this.rows, (this.entries[i] as number) >>> 9) >>> LINE_SHIFT;
  }

  /** The shape of the compiled rule at position `i` of the precedence order. */
  shape(i: number): Shape {
    return shapeOf(this.text, this.rows, this.entries[i] as number);
  }

  private winner(path: string): number {
    if (this.hot === undefined && ++this.checks >= HOT_AFTER) this.hot = this.heatUp();
    const hot = this.hot;
    if (hot === undefined && this.short === undefined) return this.firstMatch(undefined, path);
    const best = hot === undefined ? this.firstMatch(this.short, path) : hot.firstIndexedMatch(path);
    const bucket = this.bucketFor(path);
    if (bucket === undefined) return best;
    const other = hot === undefined ? this.firstMatch(bucket, path) : hot.firstMatchIn(bucket, path);
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

  private heatUp(): HotRules {
    const { entries, count } = this;
    const hasMasks = entries.length > count;
    const sources: RuleSource[] = [];
    for (let i = 0; i < count; i++) {
      const { start, end, anchored, firstStar } = this.shape(i);
      const mask = hasMasks ? (entries[count + i] as number) : 0;
      sources.push({ start, end, anchored, firstStar, second: (entries[i] as number) & SECOND, mask });
    }
    return new HotRules(this.text, sources, this.short, this.segments);
  }

  /** The first rule of `list` (all rules when undefined) that matches `path`, or -1. */
  private firstMatch(list: Int32Array | undefined, path: string): number {
    const { entries } = this;
    // Masks pay when many `*` rules or a long path would otherwise be walked; for a small file and
    // a short path, computing the path's mask costs more than it saves.
    const hasMasks = entries.length > this.count && (this.segments !== undefined || path.length >= SHARED_SEGMENTS_PATH);
    const count = list === undefined ? this.count : list.length;
    const second = path.charCodeAt(1);
    let pathMask = -1;
    for (let k = 0; k < count; k++) {
      const i = list === undefined ? k : (list[k] as number);
      const entry = entries[i] as number;
      // The byte after the leading `/` rejects most rules without reading the pattern.
      const expected = entry & SECOND;
      if (expected !== 0 && expected !== second) continue;
      if (hasMasks) {
        const mask = entries[this.count + i] as number;
        if (mask !== 0) {
          if (pathMask === -1) pathMask = maskOf(path, 0, path.length);
          if ((mask & ~pathMask) !== 0) continue;
        }
      }
      if (this.matches(i, path)) return i;
    }
    return -1;
  }

  /**
   * Google's `RobotsMatchStrategy::Matches` for the compiled rule at position `i`. It reads the rule
   * as {@link shapeOf} does, inline: this is the hot path, and it allocates nothing.
   */
  private matches(i: number, path: string): boolean {
    const { text, rows } = this;
    const entry = this.entries[i] as number;
    const row = entry >>> 9;
    const head = rowHead(rows, row);
    const start = rowStart(text, rows, row);
    let end = rowEnd(rows, row);
    if (start === end) return true; // the empty pattern matches everything
    let anchored: boolean;
    if (entry & ALTERNATIVE) {
      end = text.lastIndexOf('/', end - 1) + 1;
      anchored = true;
    } else {
      anchored = text.charCodeAt(end - 1) === 0x24;
      if (anchored) {
        end--;
        // `/a*$`: a trailing `*` makes the anchor always true.
        if (head & HAS_STAR && end > start && text.charCodeAt(end - 1) === 0x2a) anchored = false;
      }
    }
    let firstStar = head & HAS_STAR ? text.indexOf('*', start) : -1;
    if (firstStar >= end) firstStar = -1;
    if (firstStar === -1) {
      const length = end - start;
      if (anchored ? path.length !== length : path.length < length) return false;
      return sameBytes(path, 0, text, start, end);
    }
    if (!sameBytes(path, 0, text, start, firstStar)) return false;
    let position = firstStar - start;
    let segmentsEnd = end;
    let tailLength = 0;
    if (anchored) {
      // The last segment must end the path: check it first, it is the cheapest rejection.
      const lastStar = text.lastIndexOf('*', end - 1);
      tailLength = end - lastStar - 1;
      if (path.length - tailLength < position || !sameBytes(path, path.length - tailLength, text, lastStar + 1, end)) return false;
      segmentsEnd = lastStar;
    }
    if (this.segments !== undefined) return this.segments.matches(i, path, position, anchored);
    let segmentStart = firstStar + 1;
    while (segmentStart <= segmentsEnd) {
      let segmentEnd = text.indexOf('*', segmentStart);
      if (segmentEnd === -1 || segmentEnd > segmentsEnd) segmentEnd = segmentsEnd;
      const length = segmentEnd - segmentStart;
      if (length > 0) {
        const found = path.indexOf(length === 1 ? (text[segmentStart] as string) : text.slice(segmentStart, segmentEnd), position);
        if (found === -1) return false;
        position = found + length;
      }
      segmentStart = segmentEnd + 1;
    }
    return !anchored || path.length - tailLength >= position;
  }

  /** The pattern text the matcher reads (for the segment finder). */
  get patternText(): string {
    return this.text;
  }
}

/** Where the pattern of a compiled rule (`entry`) is in `text`, and how to read it. */
function shapeOf(text: string, rows: Int32Array, entry: number): Shape {
  const row = entry >>> 9;
  const head = rowHead(rows, row);
  const start = rowStart(text, rows, row);
  let end = rowEnd(rows, row);
  const allow = (head & 7) === KIND_ALLOW;
  const line = head >>> LINE_SHIFT;
  if (entry & ALTERNATIVE) {
    end = text.lastIndexOf('/', end - 1) + 1;
    const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
    return { start, end, anchored: true, firstStar: star !== -1 && star < end ? star : -1, priority: end - start + 1, allow, line };
  }
  const priority = end - start;
  let anchored = false;
  if (priority > 0 && text.charCodeAt(end - 1) === 0x24) {
    end--;
    // `/a*$`: a trailing `*` makes the anchor always true.
    anchored = !(head & HAS_STAR && end > start && text.charCodeAt(end - 1) === 0x2a);
  }
  const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
  return { start, end, anchored, firstStar: star !== -1 && star < end ? star : -1, priority, allow, line };
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

function sameBytes(path: string, at: number, text: string, start: number, end: number): boolean {
  if (path.length - at < end - start) return false;
  for (let i = start; i < end; i++) {
    if (path.charCodeAt(at + i - start) !== text.charCodeAt(i)) return false;
  }
  return true;
}

/** The byte classes (code & 31) of the literal bytes of text[start, end). */
function maskOf(text: string, start: number, end: number): number {
  let mask = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x2a) mask |= 1 << (code & 31);
  }
  return mask;
}

/**
 * Segment search for rule sets with many `*` rules (hostile files are thousands of `/*a*a*…*b`).
 * Segments are numbered and cut out once, at compile time. Within one check of a long path, the
 * first search for a segment uses `indexOf`; from the second on, a table of the segment's next
 * occurrence at every path position answers in O(1). A check then costs at most (distinct segments × path length) plus one step per
 * segment of each rule tried, instead of (rules × path length).
 */
class SegmentFinder {
  /** Per rule position: offset of its segment ids in `ids`, and their count. */
  private readonly spans: Int32Array;
  private readonly ids: Int32Array;
  private readonly strings: string[] = [];
  private path: string | undefined;
  private readonly uses: Int32Array;
  private tables: (Int32Array | undefined)[] = [];

  constructor(matcher: RuleMatcher) {
    const text = matcher.patternText;
    const count = matcher.size;
    const numbers = new Map<string, number>();
    const ids: number[] = [];
    this.spans = new Int32Array(count * 2);
    for (let i = 0; i < count; i++) {
      const { end, firstStar } = matcher.shape(i);
      if (firstStar === -1) continue;
      this.spans[i * 2] = ids.length;
      let from = firstStar + 1;
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
      this.spans[i * 2 + 1] = ids.length - (this.spans[i * 2] as number);
    }
    this.ids = new Int32Array(ids);
    this.uses = new Int32Array(this.strings.length);
  }

  /** Whether the `*` rule at position `i`, whose literal prefix (and anchored tail) matched, matches. */
  matches(i: number, path: string, position: number, anchored: boolean): boolean {
    if (path !== this.path && path.length >= SHARED_SEGMENTS_PATH) {
      this.path = path;
      this.uses.fill(0);
      this.tables = [];
    }
    const offset = this.spans[i * 2] as number;
    const count = this.spans[i * 2 + 1] as number;
    // With an anchor, the last segment is the tail, which the caller has checked ends the path.
    const middle = anchored ? count - 1 : count;
    for (let k = 0; k < middle; k++) {
      const id = this.ids[offset + k] as number;
      const found = this.find(path, id, position);
      if (found === -1) return false;
      position = found + (this.strings[id] as string).length;
    }
    if (!anchored) return true;
    const tail = count === 0 ? 0 : (this.strings[this.ids[offset + count - 1] as number] as string).length;
    return path.length - tail >= position;
  }

  private find(path: string, id: number, from: number): number {
    if (from > path.length) return -1;
    if (path.length < SHARED_SEGMENTS_PATH) return path.indexOf(this.strings[id] as string, from);
    const table = this.tables[id];
    if (table !== undefined) return table[from] as number;
    const uses = ++(this.uses[id] as number);
    const segment = this.strings[id] as string;
    if (uses < 2) return path.indexOf(segment, from);
    const built = nextOccurrences(path, segment);
    this.tables[id] = built;
    return built[from] as number;
  }
}

/** table[i] = the first position ≥ i where `segment` occurs in `path`, or -1. */
function nextOccurrences(path: string, segment: string): Int32Array {
  const table = new Int32Array(path.length + 1).fill(-1);
  let i = 0;
  for (let found = path.indexOf(segment); found !== -1; found = path.indexOf(segment, found + 1)) {
    while (i <= found) table[i++] = found;
  }
  return table;
}
