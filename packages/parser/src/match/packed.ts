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
 * rules. Measured on the real-file sample (test/fixtures/real-robots-sample, 41 files, 54 of 82
 * compiled sets packed): a compiled set's median held bytes 712 → 381 B; a warm `decidingLine()`
 * over 20,500 cached files 1.96 → 1.76 µs, and 1.54–1.59 µs from the kept string alone (41 files,
 * where everything is in cache: ~325 ns either way).
 *
 * Which sets are packed: those of at most 128 rules without the shared segment search (match.ts),
 * whose string fits 16-bit offsets. They are scanned whole, in precedence order. `*` segments
 * between prefix and tail of up to {@link HAND_SEARCHED_SEGMENT} characters are searched here by
 * hand, left to right; longer ones by `indexOf`.
 *
 * Layout (one UTF-16 code unit per entry):
 *
 *   [0] {@link PACKED_MAGIC}  [1] the reading flags of the file  [2] rule count  [3] where the
 *   lists by byte after `/` are (0: none)
 *   then per rule, in precedence order, the byte after `/` it needs (side by side, so that a check
 *   skips the rules a path cannot match reading a few cache lines, not every rule's record)
 *   then per rule, in precedence order, {@link RULE} units: line (high, low 16 bits), start, prefix
 *   end, tail start, end (positions of the pattern in this string's text area), flags
 *   (match/layout.ts)
 *   then, for a set of more than {@link SCANNED_WHOLE} rules, the lists by byte after `/`
 *   ({@link listsBySecond})
 *   then the text area: the patterns' text, each pattern's once.
 *
 * The matching semantics are RuleMatcher's (match.ts) for one rule on its own: the prefix must
 * start the path, an anchored tail must end it, and the `*` segments between them are found
 * greedily leftmost, which is exact for this language.
 */
import { STRING } from './held-bytes.js';
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
  PREFIX_END,
  SPAN,
  STAR,
  START,
  TAIL_START,
} from './layout.js';

/**
 * The first unit of every packed set: a fixed mark and the layout's version in its low bits, so a
 * foreign string (or one of another layout) is refused rather than misread. Above 0xff, so the
 * string is always a two-byte string, as {@link packedBytes} counts it.
 */
export const PACKED_MAGIC = 0x5203;
/** Where the reading flags are: how the URL is read before matching (see robots-txt.ts). */
const READING = 1;
/** Where the rule count is. */
const COUNT = 2;
/** Where the lists by byte after `/` start (see {@link listsBySecond}); 0 for a set scanned whole. */
const LISTS = 3;
/** Units before the first rule. */
const HEADER = 4;

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
/** `String.fromCharCode` is given this many units at a time (it takes them as arguments). */
const CHUNK = 4096;

const STAR_CODE = 0x2a;
/** Sets up to this many rules are scanned whole, reading each rule's byte after `/`; larger ones get lists by that byte. */
const SCANNED_WHOLE = 32;

/**
 * The packed string of the rules laid out in `spans` (match/layout.ts, `text` their text) with the
 * bytes after `/` in `seconds`, or `undefined` when they cannot be packed: a string too long for
 * 16-bit positions. `reading`: the file's reading flags (at most 16 bits), kept for whoever matches
 * a URL against the string alone. The caller decides that the set is small enough to be scanned
 * whole.
 */
export function packRules(text: string, spans: Int32Array, seconds: Uint8Array, reading: number): string | undefined {
  const count = seconds.length;
  // Each pattern's text is copied once, as long as its longest use: an `index.html` alternative
  // starts where its rule does and is shorter.
  const longest = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const at = i * SPAN;
    const start = spans[at + START] as number;
    longest.set(start, Math.max(longest.get(start) ?? 0, spans[at + END] as number));
  }
  const lists = count > SCANNED_WHOLE ? listsBySecond(seconds) : undefined;
  const copiedAt = new Map<number, number>();
  let length = HEADER + count * (1 + RULE) + (lists?.length ?? 0);
  for (const [start, end] of longest) {
    copiedAt.set(start, length);
    length += end - start;
  }
  if (length >= MAX_PACKED_LENGTH) return undefined;
  const units: number[] = [PACKED_MAGIC, reading, count, 0];
  for (let i = 0; i < count; i++) units.push(seconds[i] as number);
  for (let i = 0; i < count; i++) {
    const at = i * SPAN;
    const line = spans[at + LINE] as number;
    const start = spans[at + START] as number;
    const moved = (copiedAt.get(start) as number) - start;
    units.push(
      line >>> 16,
      line & 0xffff,
      start + moved,
      (spans[at + PREFIX_END] as number) + moved,
      (spans[at + TAIL_START] as number) + moved,
      (spans[at + END] as number) + moved,
      spans[at + FLAGS] as number,
    );
  }
  if (lists !== undefined) {
    units[LISTS] = units.length;
    units.push(...lists);
  }
  for (const [start, end] of longest) for (let k = start; k < end; k++) units.push(text.charCodeAt(k));
  return stringOf(units);
}

/**
 * For each ASCII byte after `/`, the positions of the rules a path with that byte can match (those
 * that need it and those that need none), in precedence order: {@link ASCII} pairs of bounds into
 * the lists, then the lists. The lists of a set of more than {@link SCANNED_WHOLE} rules, so that a
 * check visits a few rules rather than all; `undefined` when they would hold more than about twice
 * the rules (many rules that need no byte, under many distinct bytes), and the set is scanned whole.
 */
function listsBySecond(seconds: Uint8Array): number[] | undefined {
  const any: number[] = [];
  const bySecond = new Map<number, number[]>();
  for (let i = 0; i < seconds.length; i++) {
    const second = seconds[i] as number;
    if (second === 0) {
      any.push(i);
      for (const list of bySecond.values()) list.push(i);
      continue;
    }
    if (second === NO_PATH) continue;
    let list = bySecond.get(second);
    if (list === undefined) bySecond.set(second, (list = [...any]));
    list.push(i);
  }
  let size = any.length;
  for (const list of bySecond.values()) size += list.length;
  if (size > 2 * seconds.length + ASCII) return undefined;
  const bounds: number[] = [];
  const lists: number[] = [...any];
  for (let code = 0; code < ASCII; code++) {
    const list = bySecond.get(code);
    if (list === undefined) {
      // The shared list of the rules that need no byte.
      bounds.push(0, any.length);
      continue;
    }
    bounds.push(lists.length);
    lists.push(...list);
    bounds.push(lists.length);
  }
  return [...bounds, ...lists];
}

/** One flat string of `units` (never a rope, whose reads would go through one more object). */
function stringOf(units: readonly number[]): string {
  const chunks: string[] = [];
  for (let from = 0; from < units.length; from += CHUNK) chunks.push(String.fromCharCode(...units.slice(from, from + CHUNK)));
  return chunks.join('');
}

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
  const lists = packed.charCodeAt(LISTS);
  if (lists !== 0) {
    // A byte after `/` that is not ASCII (or none) can only match the rules that need none.
    const code = second < ASCII ? second : 0;
    const first = lists + 2 * ASCII;
    const to = first + packed.charCodeAt(lists + 2 * code + 1);
    for (let k = first + packed.charCodeAt(lists + 2 * code); k < to; k++) {
      const i = packed.charCodeAt(k);
      if (matchesAt(packed, records + i * RULE, path)) return i;
    }
    return -1;
  }
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
