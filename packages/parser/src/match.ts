/**
 * The matching engine: decides which rule of a rule set wins for a path, with Google's semantics
 * (longest pattern wins, `allow` wins ties, `*` matches any run of bytes, a trailing `$` anchors).
 *
 * No regular expression is built from a pattern. A pattern is read as literal segments between its
 * `*`s, found left to right with `indexOf` (greedy leftmost is exact for this language), so one
 * pattern costs O(path length) and hostile patterns cannot backtrack. Before that, a pattern whose
 * bytes do not all occur in the path is rejected in O(1) by a 32-bit character-class mask, which is
 * what keeps thousands of `/*a*a*…*b` patterns cheap against a 2,000-byte URL.
 *
 * Rules are stored in the order in which they win, packed five numbers each into one `Int32Array`
 * whose patterns point into the directive table's text, so the first rule that matches decides and a
 * compiled rule costs 20 bytes. Large rule sets are bucketed by literal prefix.
 */
import { decodeUnreserved } from './escape.js';
import { ROW, type DirectiveTable } from './table.js';

/** Numbers per packed rule: `[start, end, priority, flags | row << 4, mask]`. */
const FIELDS = 5;
const ALLOW = 1;
/** The pattern ends with `$` (not counted in `[start, end)`). */
const ANCHORED = 2;
/** The pattern has no `*`. */
const LITERAL = 4;

/** Rule sets up to this size are scanned whole; larger ones are bucketed by literal prefix. */
const LINEAR_LIMIT = 64;
/** Bucket key length: large rule sets are bucketed by the first bytes of their literal prefix. */
const KEY_LENGTH = 5;
/** From this many `*` rules on, segment searches share next-occurrence tables within a check. */
const SHARED_SEGMENTS_FROM = 64;

interface Draft {
  start: number;
  end: number;
  priority: number;
  flags: number;
  row: number;
  line: number;
}

/** A compiled rule set for one user-agent: answers "which rule wins for this path?". */
export class RuleMatcher {
  /** Rules whose literal prefix is shorter than the bucket key; undefined for a small set (all rules). */
  private readonly short: readonly number[] | undefined;
  private readonly buckets: Map<string, readonly number[]> | undefined;
  /** For rule sets with many `*` rules: shared next-occurrence tables of their segments. */
  private readonly segments: SegmentFinder | undefined;

  private constructor(
    private readonly text: string,
    private readonly rules: Int32Array,
  ) {
    const count = rules.length / FIELDS;
    let wildcards = 0;
    for (let i = 0; i < count; i++) if (((rules[i * FIELDS + 3] as number) & LITERAL) === 0) wildcards++;
    this.segments = wildcards >= SHARED_SEGMENTS_FROM ? new SegmentFinder(text, rules) : undefined;
    if (count <= LINEAR_LIMIT) {
      this.short = undefined;
      this.buckets = undefined;
      return;
    }
    const short: number[] = [];
    const buckets = new Map<string, number[]>();
    for (let i = 0; i < count; i++) {
      const start = rules[i * FIELDS] as number;
      const prefixEnd = this.prefixEnd(i);
      if (prefixEnd - start < KEY_LENGTH) {
        short.push(i);
        continue;
      }
      const key = text.slice(start, start + KEY_LENGTH);
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [i]);
      else bucket.push(i);
    }
    this.short = short;
    this.buckets = buckets;
  }

  /**
   * Compiles the rules at `rowIndices` of `table` (file order). `decodeUnreservedEscapes` applies
   * the RFC 9309 reading to the patterns (the caller decodes the path the same way).
   */
  static fromTable(table: DirectiveTable, rowIndices: readonly number[], decodeUnreservedEscapes: boolean): RuleMatcher {
    let text = table.text;
    const drafts: Draft[] = [];
    let decoded: string[] | undefined;
    let decodedLength = 0;
    if (decodeUnreservedEscapes) decoded = [];
    for (const row of rowIndices) {
      const at = row * ROW;
      const head = table.rows[at] as number;
      let start = table.rows[at + 2] as number;
      let end = table.rows[at + 3] as number;
      if (decoded !== undefined) {
        const pattern = decodeUnreserved(table.text.slice(start, end));
        decoded.push(pattern);
        start = decodedLength;
        end = decodedLength += pattern.length;
      }
      addDrafts(drafts, decoded === undefined ? text : (decoded[decoded.length - 1] as string), start, end, row, head, decoded === undefined ? 0 : start);
    }
    if (decoded !== undefined) text = decoded.join('');
    drafts.sort(byPrecedence);
    const rules: number[] = [];
    const seen = new Set<string>();
    for (const draft of drafts) {
      // Exact repeats never decide: the earlier line of two equal rules always wins.
      const key = `${draft.flags & (ALLOW | ANCHORED)}:${draft.priority}:${text.slice(draft.start, draft.end)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(draft.start, draft.end, draft.priority, draft.flags | (draft.row << 4), draft.flags & LITERAL ? 0 : maskOf(text, draft.start, draft.end));
    }
    return new RuleMatcher(text, Int32Array.from(rules));
  }

  /** Number of distinct compiled rules. */
  get size(): number {
    return this.rules.length / FIELDS;
  }

  /** The table row of the rule that decides for `path`, with its verdict; undefined when none matches. */
  match(path: string): { row: number; allowed: boolean } | undefined {
    const winner = this.winner(path);
    if (winner === -1) return undefined;
    const flags = this.rules[winner * FIELDS + 3] as number;
    // A matching empty pattern (priority 0) decides, but allows (Google's `disallow()` needs > 0).
    const allowed = (flags & ALLOW) !== 0 || this.rules[winner * FIELDS + 2] === 0;
    return { row: flags >>> 4, allowed };
  }

  /** Whether `path` is allowed: the hot path, no allocation. */
  allows(path: string): boolean {
    const winner = this.winner(path);
    return winner === -1 || ((this.rules[winner * FIELDS + 3] as number) & ALLOW) !== 0 || this.rules[winner * FIELDS + 2] === 0;
  }

  private winner(path: string): number {
    if (this.short === undefined) return this.firstOfAll(path);
    const best = this.firstMatch(this.short, path);
    if (this.buckets === undefined || path.length < KEY_LENGTH) return best;
    const bucket = this.buckets.get(path.slice(0, KEY_LENGTH));
    if (bucket === undefined) return best;
    const other = this.firstMatch(bucket, path);
    // Rules are packed in precedence order: the lower index wins.
    if (other === -1) return best;
    return best === -1 || other < best ? other : best;
  }

  private firstOfAll(path: string): number {
    const rules = this.rules;
    const count = rules.length / FIELDS;
    let pathMask = -1;
    for (let rule = 0; rule < count; rule++) {
      const at = rule * FIELDS;
      if (rules[at + 2] === 0) return rule;
      // The character-class mask rejects most `*` rules before any byte is compared.
      const mask = rules[at + 4] as number;
      if (mask !== 0) {
        if (pathMask === -1) pathMask = maskOf(path, 0, path.length);
        if ((mask & ~pathMask) !== 0) continue;
      }
      if (this.matches(rule, path)) return rule;
    }
    return -1;
  }

  private firstMatch(list: readonly number[], path: string): number {
    const rules = this.rules;
    let pathMask = -1;
    for (let i = 0; i < list.length; i++) {
      const rule = list[i] as number;
      const at = rule * FIELDS;
      if (rules[at + 2] === 0) return rule;
      const mask = rules[at + 4] as number;
      if (mask !== 0) {
        if (pathMask === -1) pathMask = maskOf(path, 0, path.length);
        if ((mask & ~pathMask) !== 0) continue;
      }
      if (this.matches(rule, path)) return rule;
    }
    return -1;
  }

  /** Google's `RobotsMatchStrategy::Matches` for packed rule `rule`. */
  private matches(rule: number, path: string): boolean {
    const { rules, text } = this;
    const at = rule * FIELDS;
    const start = rules[at] as number;
    const end = rules[at + 1] as number;
    const flags = rules[at + 3] as number;
    const anchored = (flags & ANCHORED) !== 0;
    if (flags & LITERAL) {
      const length = end - start;
      if (anchored ? path.length !== length : path.length < length) return false;
      return sameBytes(path, 0, text, start, end);
    }
    const firstStar = text.indexOf('*', start);
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
    if (this.segments !== undefined) return this.segments.matches(rule, path, position, anchored);
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

  private prefixEnd(rule: number): number {
    const start = this.rules[rule * FIELDS] as number;
    const end = this.rules[rule * FIELDS + 1] as number;
    if ((this.rules[rule * FIELDS + 3] as number) & LITERAL) return end;
    return this.text.indexOf('*', start);
  }
}

/** Adds the draft(s) of one rule: itself, and for `allow: …/index.htm[l]` its `…/$` alternative. */
function addDrafts(drafts: Draft[], source: string, start: number, end: number, row: number, head: number, offset: number): void {
  const allow = (head & 7) === 1;
  const line = head >>> 3;
  const priority = end - start;
  // Local offsets into `source`, which is either the table text or one decoded pattern.
  const localStart = start - offset;
  const localEnd = end - offset;
  const anchored = priority > 0 && source.charCodeAt(localEnd - 1) === 0x24;
  const bodyEnd = anchored ? end - 1 : end;
  const starAt = source.indexOf('*', localStart);
  const literal = starAt === -1 || starAt >= localEnd - (anchored ? 1 : 0);
  // `/a*$`: a trailing `*` makes the anchor always true.
  const trailingStar = anchored && !literal && source.charCodeAt(localEnd - 2) === 0x2a;
  let flags = (allow ? ALLOW : 0) | (literal ? LITERAL : 0) | (anchored && !trailingStar ? ANCHORED : 0);
  drafts.push({ start, end: anchored && !trailingStar ? bodyEnd : anchored ? bodyEnd : end, priority, flags, row, line });
  if (!allow) return;
  // Google: `allow: /dir/index.htm[l]` also allows `/dir/` itself, as `allow: /dir/$` would. The
  // alternative is shorter than the pattern, so it only decides when the pattern does not match.
  const slash = source.lastIndexOf('/', localEnd - 1);
  if (slash < localStart || !source.startsWith('/index.htm', slash) || slash + 10 > localEnd) return;
  const prefixEnd = start + (slash - localStart) + 1;
  const prefixLiteral = starAt === -1 || starAt >= slash;
  flags = ALLOW | ANCHORED | (prefixLiteral ? LITERAL : 0);
  drafts.push({ start, end: prefixEnd, priority: prefixEnd - start + 1, flags, row, line });
}

/** Precedence: longer first, `allow` before `disallow`, then file order. */
function byPrecedence(a: Draft, b: Draft): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if ((a.flags & ALLOW) !== (b.flags & ALLOW)) return a.flags & ALLOW ? -1 : 1;
  return a.line - b.line;
}

function sameBytes(path: string, at: number, text: string, start: number, end: number): boolean {
  if (path.length - at < end - start) return false;
  for (let i = start; i < end; i++) {
    if (path.charCodeAt(at + i - start) !== text.charCodeAt(i)) return false;
  }
  return true;
}

/** The character classes (code & 31) of the literal bytes of text[start, end). */
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
 * Segments are numbered once, at compile time. Within one check, the first search for a segment uses
 * `indexOf`; from the second on, a table of the segment's next occurrence at every path position
 * answers in O(1). A check then costs at most (distinct segments × path length) plus one step per
 * segment of each rule tried, instead of (rules × path length).
 */
class SegmentFinder {
  /** Per packed rule: offset of its segment ids in `ids`, and their count (0 for literal rules). */
  private readonly spans: Int32Array;
  private readonly ids: Int32Array;
  private readonly strings: string[] = [];
  private path: string | undefined;
  private uses: Int32Array;
  private tables: (Int32Array | undefined)[] = [];

  constructor(text: string, rules: Int32Array) {
    const count = rules.length / FIELDS;
    const numbers = new Map<string, number>();
    const ids: number[] = [];
    this.spans = new Int32Array(count * 2);
    for (let rule = 0; rule < count; rule++) {
      const at = rule * FIELDS;
      if ((rules[at + 3] as number) & LITERAL) continue;
      const start = rules[at] as number;
      const end = rules[at + 1] as number;
      this.spans[rule * 2] = ids.length;
      let from = text.indexOf('*', start) + 1;
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
      this.spans[rule * 2 + 1] = ids.length - (this.spans[rule * 2] as number);
    }
    this.ids = Int32Array.from(ids);
    this.uses = new Int32Array(this.strings.length);
  }

  /** Whether `rule` (a `*` rule whose literal prefix already matched) matches `path`. */
  matches(rule: number, path: string, position: number, anchored: boolean): boolean {
    if (path !== this.path) {
      this.path = path;
      this.uses.fill(0);
      this.tables = [];
    }
    const offset = this.spans[rule * 2] as number;
    const count = this.spans[rule * 2 + 1] as number;
    // With an anchor, the last segment is the tail: the caller has checked that it ends the path.
    const middle = anchored ? count - 1 : count;
    for (let i = 0; i < middle; i++) {
      const id = this.ids[offset + i] as number;
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
