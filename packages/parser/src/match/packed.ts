/**
 * The packed form of a small compiled rule set: one string that holds the rules' layout and their
 * patterns' text, and the matching of a path against it.
 *
 * Why: a broad crawl holds about a million parsed files and checks each origin's URLs in turn, so
 * a warm check's cost is its chain of dependent memory loads (~1 µs each once the working set is
 * gigabytes). The block form reads matcher → typed array view → buffer → backing store, plus the
 * segments array and the table's text; a packed set is read from one string, so a caller that keeps
 * that string (the manager, through `RobotsTxt#packedRules`) answers a check in two loads. It also
 * holds fewer bytes than the block, whose buffer and views each cost more than a typical file's
 * rules (BENCHMARKS.md, the broad cache).
 *
 * Which sets are packed: those of at most {@link MAX_PACKED_RULES} rules without the shared segment
 * search (match.ts), whose string fits 16-bit offsets. They are scanned whole, in precedence order.
 * `*` segments between prefix and tail of up to {@link HAND_SEARCHED_SEGMENT} characters are
 * searched here by hand, left to right; longer ones by `indexOf`.
 *
 * Layout (one UTF-16 code unit per entry):
 *
 *   [0] {@link PACKED_MAGIC}  [1] the reading flags of the file  [2] rule count
 *   then per rule, in precedence order, the byte after `/` it needs (side by side, so that a check
 *   skips the rules a path cannot match reading a few cache lines, not every rule's record)
 *   then per rule, in precedence order, {@link RULE} units: line (high, low 16 bits), start, prefix
 *   end, tail start, end (positions of the pattern in this string's text area), flags
 *   (match/layout.ts)
 *   then the text area: the patterns' text, each pattern's once.
 *
 * The matching semantics are RuleMatcher's (match.ts) for one rule on its own: the prefix must
 * start the path, an anchored tail must end it, and the `*` segments between them are found
 * greedily leftmost, which is exact for this language.
 */
import { unitsToString } from '../bytes.js';
import { STRING } from './held-bytes.js';
import { ALLOWS, ALTERNATIVE, ANCHORED, DOLLAR, END, FLAGS, LINE, PREFIX_END, SPAN, STAR, START, TAIL_START } from './layout.js';

/**
 * The first unit of every packed set: a fixed mark and the layout's version in its low bits, so a
 * foreign string (or one of another layout) is refused rather than misread. Above 0xff, so the
 * string is always a two-byte string, as {@link packedBytes} counts it.
 */
export const PACKED_MAGIC = 0x5204;
/** Where the reading flags are: how the URL is read before matching (see robots-txt.ts). */
const READING = 1;
/** Where the rule count is. */
const COUNT = 2;
/** Units before the first rule. */
const HEADER = 3;

/** Units per rule record, and their offsets. */
const RULE = 7;
const LINE_HIGH = 0;
const LINE_LOW = 1;
const RULE_START = 2;
const RULE_PREFIX_END = 3;
const RULE_TAIL_START = 4;
const RULE_END = 5;
const RULE_FLAGS = 6;

/**
 * Longest `*` segment searched by hand: up to here that costs what `indexOf` does. Longer ones go
 * to `indexOf`, whose search stays linear in the path for a long needle (a hand-written one would
 * cost the path's length times the segment's), through a slice of the packed string.
 */
const HAND_SEARCHED_SEGMENT = 16;
/** Positions are single units: the whole string must stay below this length. */
const MAX_PACKED_LENGTH = 0x10000;

const STAR_CODE = 0x2a;

/**
 * The packed string of the rules laid out in `spans` (match/layout.ts, `text` their text) with the
 * bytes after `/` in `seconds`, or `undefined` when they cannot be packed: a string too long for
 * 16-bit positions. `reading`: the file's reading flags (at most 16 bits), kept for whoever matches
 * a URL against the string alone. The caller decides that the set is small enough to be scanned
 * whole.
 */
export function packRules(text: string, spans: Int32Array, seconds: Uint8Array, count: number, reading: number): string | undefined {
  // Each pattern's text is copied once, as long as its longest use: an `index.html` alternative
  // starts where its rule does and is shorter.
  const longest = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const at = i * SPAN;
    const start = spans[at + START] as number;
    longest.set(start, Math.max(longest.get(start) ?? 0, spans[at + END] as number));
  }
  const copiedAt = new Map<number, number>();
  let length = HEADER + count * (1 + RULE);
  for (const [start, end] of longest) {
    copiedAt.set(start, length);
    length += end - start;
  }
  if (length >= MAX_PACKED_LENGTH) return undefined;
  // Written in place, in a buffer kept for it: a compile is on a crawl's path (a file's second
  // check), often before the engine has optimized this code, and each buffer made costs more
  // than the writing.
  const units = SCRATCH_UNITS;
  units[0] = PACKED_MAGIC;
  units[READING] = reading;
  units[COUNT] = count;
  for (let i = 0; i < count; i++) units[HEADER + i] = seconds[i] as number;
  let to = HEADER + count;
  for (let i = 0; i < count; i++, to += RULE) {
    const at = i * SPAN;
    const line = spans[at + LINE] as number;
    const moved = (copiedAt.get(spans[at + START] as number) as number) - (spans[at + START] as number);
    units[to + LINE_HIGH] = line >>> 16;
    units[to + LINE_LOW] = line & 0xffff;
    units[to + RULE_START] = (spans[at + START] as number) + moved;
    units[to + RULE_PREFIX_END] = (spans[at + PREFIX_END] as number) + moved;
    units[to + RULE_TAIL_START] = (spans[at + TAIL_START] as number) + moved;
    units[to + RULE_END] = (spans[at + END] as number) + moved;
    units[to + RULE_FLAGS] = spans[at + FLAGS] as number;
  }
  for (const [start, end] of longest) for (let k = start; k < end; k++) units[to++] = text.charCodeAt(k);
  return unitsToString(units, length);
}

/** Where a matcher being packed lays its rules out first (see {@link packRules}): one for all, reused. */
export function packingScratch(): { readonly spans: Int32Array; readonly seconds: Uint8Array } {
  return SCRATCH;
}

/**
 * Rule sets of up to this many rules (without the shared `*` search) are packed and scanned whole,
 * as the block form scans them. Larger ones keep the block and its candidate index: packed with lists
 * by the byte after `/` in the string, sets of up to 128 rules took a fresh process's first checks
 * about 100 ms more CPU (BENCHMARKS.md, the broad cache's notes) for 6% on a broad crawl's warm
 * check.
 */
export const MAX_PACKED_RULES = 32;
const SCRATCH = { spans: new Int32Array(MAX_PACKED_RULES * SPAN), seconds: new Uint8Array(MAX_PACKED_RULES) };
const SCRATCH_UNITS = new Uint16Array(MAX_PACKED_LENGTH);

/** Whether `value` is a packed rule set this version reads: its mark, and room for the rules it counts. */
export function isPacked(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= HEADER &&
    value.charCodeAt(0) === PACKED_MAGIC &&
    value.length >= HEADER + value.charCodeAt(COUNT) * (1 + RULE)
  );
}

/** The reading flags the packed set was made with. */
export function packedReading(packed: string): number {
  return packed.charCodeAt(READING);
}

/** Number of rules of the packed set. */
export function packedSize(packed: string): number {
  return packed.charCodeAt(COUNT);
}

/** The bytes the packed string holds: two a unit, and its header. */
export function packedBytes(packed: string): number {
  return STRING + 2 * packed.length;
}

/** Where the record of the rule at position `i` starts. */
function recordAt(packed: string, i: number): number {
  return HEADER + packed.charCodeAt(COUNT) + i * RULE;
}

/** The 1-based line of the rule at position `i`. */
export function packedLineAt(packed: string, i: number): number {
  const at = recordAt(packed, i);
  return packed.charCodeAt(at + LINE_HIGH) * 0x10000 + packed.charCodeAt(at + LINE_LOW);
}

/** Whether the rule at position `i` allows (see `ALLOWS`). */
export function packedAllowsAt(packed: string, i: number): boolean {
  return (packed.charCodeAt(recordAt(packed, i) + RULE_FLAGS) & ALLOWS) !== 0;
}

/** Google's priority of the rule at position `i`: the pattern's length (the alternative's, plus its `$`). */
export function packedPriorityAt(packed: string, i: number): number {
  const at = recordAt(packed, i);
  const flags = packed.charCodeAt(at + RULE_FLAGS);
  return packed.charCodeAt(at + RULE_END) - packed.charCodeAt(at + RULE_START) + (flags & (ALTERNATIVE | DOLLAR) ? 1 : 0);
}

/** The position (precedence order) of the first rule that matches `path`, or -1. */
export function packedWinner(packed: string, path: string): number {
  const count = packed.charCodeAt(COUNT);
  const second = path.charCodeAt(1);
  const records = HEADER + count;
  for (let i = 0; i < count; i++) {
    // A rule that needs a byte after `/` (NO_PATH: no path can match it) the path does not have.
    const expected = packed.charCodeAt(HEADER + i);
    if (expected !== 0 && expected !== second) continue;
    if (matchesAt(packed, records + i * RULE, path)) return i;
  }
  return -1;
}

/** The line of the rule that decides for `path`, negated when it disallows; 0 when none matches. */
export function packedDecidingLine(packed: string, path: string): number {
  const winner = packedWinner(packed, path);
  if (winner === -1) return 0;
  const line = packedLineAt(packed, winner);
  return packedAllowsAt(packed, winner) ? line : -line;
}

/** Whether the rule at position `i` matches `path`, on its own. */
export function packedMatches(packed: string, i: number, path: string): boolean {
  return matchesAt(packed, recordAt(packed, i), path);
}

/** Google's `RobotsMatchStrategy::Matches` for the rule whose units start at `at`. */
function matchesAt(packed: string, at: number, path: string): boolean {
  const start = packed.charCodeAt(at + RULE_START);
  const prefixEnd = packed.charCodeAt(at + RULE_PREFIX_END);
  const flags = packed.charCodeAt(at + RULE_FLAGS);
  const prefixLength = prefixEnd - start;
  if (path.length < prefixLength) return false;
  for (let k = 0; k < prefixLength; k++) {
    if (path.charCodeAt(k) !== packed.charCodeAt(start + k)) return false;
  }
  if ((flags & STAR) === 0) return (flags & ANCHORED) === 0 || path.length === prefixLength;
  let limit = path.length;
  let to = packed.charCodeAt(at + RULE_END);
  if (flags & ANCHORED) {
    // The tail must end the path: the cheapest rejection, so it goes before any segment search.
    const tailStart = packed.charCodeAt(at + RULE_TAIL_START);
    const tailLength = to - tailStart;
    limit = path.length - tailLength;
    if (limit < prefixLength) return false;
    for (let k = 0; k < tailLength; k++) {
      if (path.charCodeAt(limit + k) !== packed.charCodeAt(tailStart + k)) return false;
    }
    to = tailStart - 1;
  }
  // The segments between the first `*` and the tail, split on `*` (empty ones match anywhere).
  let position = prefixLength;
  for (let from = prefixEnd + 1; from < to;) {
    let end = from;
    while (end < to && packed.charCodeAt(end) !== STAR_CODE) end++;
    if (end > from) {
      position =
        end - from <= HAND_SEARCHED_SEGMENT
          ? segmentEnd(packed, from, end, path, position, limit)
          : longSegmentEnd(packed.slice(from, end), path, position, limit);
      if (position === -1) return false;
    }
    from = end + 1;
  }
  return position <= limit;
}

/** {@link segmentEnd} of a long segment, by `indexOf`. */
function longSegmentEnd(segment: string, path: string, position: number, limit: number): number {
  const found = path.indexOf(segment, position);
  return found === -1 || found + segment.length > limit ? -1 : found + segment.length;
}

/** Strings of one character, for `indexOf` (V8 keeps one of each below 256: none is made per search). */
const ONE_CHAR = Array.from({ length: 256 }, (_, code) => String.fromCharCode(code));

/**
 * Where the leftmost occurrence of `packed[from, to)` in `path` at or after `position` ends, if it
 * ends by `limit`; else -1. A later occurrence would end later still, so none can fit then. Its
 * first character is found by `indexOf` (a path is often a hundred characters and a segment such
 * as `?sessionid=` absent from it: a loop over the path in JavaScript cost several times more), the
 * rest compared here.
 */
function segmentEnd(packed: string, from: number, to: number, path: string, position: number, limit: number): number {
  const length = to - from;
  const first = packed.charCodeAt(from);
  const needle = ONE_CHAR[first] ?? String.fromCharCode(first);
  for (let p = path.indexOf(needle, position); p !== -1 && p + length <= limit; p = path.indexOf(needle, p + 1)) {
    let k = 1;
    while (k < length && path.charCodeAt(p + k) === packed.charCodeAt(from + k)) k++;
    if (k === length) return p + length;
  }
  return -1;
}
