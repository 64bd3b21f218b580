/**
 * The hot form of a rule set: what a {@link RuleMatcher} switches to once it has answered enough
 * checks to be worth it (a crawler checks the same origin's rules thousands of times; most parsed
 * files are checked a few times, or never).
 *
 * The compact form reads every candidate rule out of the directive table on each check (where its
 * pattern starts and ends, whether it is anchored, where its first `*` is) and cuts its `*`
 * segments out of the table text to search for them. The hot form does that work once: each rule
 * becomes a small object holding its literal prefix, its `*` segments and its anchored tail as
 * strings, and the rules are indexed by the byte after the leading `/`, so a check only visits the
 * rules that can match. It costs about 60 bytes per rule more, which is why it is not the default.
 */

/** One rule, pre-cut. Every rule has the same fields, so property reads stay monomorphic. */
interface HotRule {
  /** The literal bytes before the first `*` (the whole pattern when it has none). */
  readonly prefix: string;
  /**
   * The literal segments between `*`s after the prefix, without the anchored tail; undefined for a
   * pattern without `*`.
   */
  readonly segments: readonly string[] | undefined;
  /** For an anchored pattern with `*`: the segment after the last `*`, which must end the path. */
  readonly tail: string;
  readonly anchored: boolean;
  /** Byte classes the pattern needs (see `maskOf` in match.ts); 0 without `*`. */
  readonly mask: number;
}

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
  readonly mask: number;
}

/**
 * The shared segment search of rule sets with many `*` rules (see `SegmentFinder` in match.ts),
 * which the hot form keeps using for their segments.
 */
export interface SegmentSearch {
  matches(i: number, path: string, position: number, anchored: boolean): boolean;
}

/**
 * Paths at least this long first compare byte-class masks, a cheap rejection of `*` rules; rule sets
 * with many `*` rules always do (for a short path and a few rules, the pass over the path costs
 * more than the searches it saves).
 */
const MASK_PATH = 256;
/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
const ASCII = 128;

export class HotRules {
  private readonly rules: HotRule[];
  /** Per byte after `/`: the positions of the rules that can match such a path, in precedence order. */
  private readonly candidates: Int32Array[];
  /** Per position: the byte after `/` the rule needs, or 0. */
  private readonly seconds: Uint8Array;

  /**
   * `indexed`: the positions the candidate lists cover (all rules when undefined; the rules too short
   * for a bucket of a large rule set otherwise).
   */
  constructor(
    text: string,
    sources: readonly RuleSource[],
    indexed: Int32Array | undefined,
    private readonly search: SegmentSearch | undefined,
  ) {
    this.rules = sources.map((source) => hotRule(text, source));
    this.seconds = Uint8Array.from(sources, (source) => (source.second < ASCII ? source.second : 0xff));
    const any: number[] = [];
    const bySecond = new Map<number, number[]>();
    const positions = indexed ?? Int32Array.from(sources, (_, i) => i);
    positions.forEach((i) => {
      const source = sources[i] as RuleSource;
      if (source.second === 0) {
        any.push(i);
        for (const list of bySecond.values()) list.push(i);
        return;
      }
      // A non-ASCII second byte is never in a canonical path: such a rule cannot match.
      if (source.second >= ASCII) return;
      let list = bySecond.get(source.second);
      if (list === undefined) {
        list = [...any];
        bySecond.set(source.second, list);
      }
      list.push(i);
    });
    const shared = new Int32Array(any);
    this.candidates = Array.from({ length: ASCII }, (_, code) => {
      const list = bySecond.get(code);
      return list === undefined ? shared : new Int32Array(list);
    });
  }

  /** The candidates for `path`: every rule whose second byte is that of `path`, or which has none. */
  candidatesFor(path: string): Int32Array {
    const second = path.charCodeAt(1);
    return (this.candidates[second < ASCII ? second : 0] as Int32Array);
  }

  /**
   * The first position of `list` whose rule matches `path`, or -1. `checkSecond`: the list was not
   * selected by the byte after `/` (a bucket of a large rule set), so reject on it first.
   */
  firstMatch(list: Int32Array, path: string, checkSecond: boolean): number {
    const second = path.charCodeAt(1);
    const useMasks = this.search !== undefined || path.length >= MASK_PATH;
    let pathMask = -1;
    for (let k = 0; k < list.length; k++) {
      const i = list[k] as number;
      if (checkSecond) {
        const expected = this.seconds[i] as number;
        if (expected !== 0 && expected !== second) continue;
      }
      const rule = this.rules[i] as HotRule;
      if (useMasks && rule.mask !== 0) {
        if (pathMask === -1) pathMask = byteClasses(path);
        if ((rule.mask & ~pathMask) !== 0) continue;
      }
      if (this.search !== undefined && rule.segments !== undefined ? this.searchMatches(i, rule, path) : matches(rule, path)) return i;
    }
    return -1;
  }

  /** A `*` rule of a rule set whose segment searches are shared: prefix and tail here, segments there. */
  private searchMatches(i: number, rule: HotRule, path: string): boolean {
    if (!startsWithAt(path, 0, rule.prefix)) return false;
    if (rule.anchored) {
      const tailStart = path.length - rule.tail.length;
      if (tailStart < rule.prefix.length || !startsWithAt(path, tailStart, rule.tail)) return false;
    }
    return (this.search as SegmentSearch).matches(i, path, rule.prefix.length, rule.anchored);
  }
}

function hotRule(text: string, source: RuleSource): HotRule {
  const { start, end, anchored, firstStar, mask } = source;
  if (firstStar === -1) return { prefix: text.slice(start, end), segments: undefined, tail: '', anchored, mask };
  const pieces = text.slice(firstStar + 1, end).split('*');
  // Anchored: the piece after the last `*` must end the path (it is never empty: `*$` unanchors).
  const tail = anchored ? (pieces.pop() as string) : '';
  return { prefix: text.slice(start, firstStar), segments: pieces.filter((piece) => piece.length > 0), tail, anchored, mask };
}

/** Google's `Matches` for a pre-cut rule: leftmost-first segment search, which is exact here. */
function matches(rule: HotRule, path: string): boolean {
  const { prefix, segments } = rule;
  if (!startsWithAt(path, 0, prefix)) return false;
  if (segments === undefined) return !rule.anchored || path.length === prefix.length;
  let position = prefix.length;
  let limit = path.length;
  if (rule.anchored) {
    // The tail must end the path: the cheapest rejection, so it goes first.
    limit -= rule.tail.length;
    if (limit < position || !startsWithAt(path, limit, rule.tail)) return false;
  }
  for (let k = 0; k < segments.length; k++) {
    const segment = segments[k] as string;
    const found = path.indexOf(segment, position);
    if (found === -1) return false;
    position = found + segment.length;
  }
  return position <= limit;
}

function startsWithAt(path: string, at: number, literal: string): boolean {
  const length = literal.length;
  if (path.length - at < length) return false;
  for (let i = 0; i < length; i++) {
    if (path.charCodeAt(at + i) !== literal.charCodeAt(i)) return false;
  }
  return true;
}

/** The byte classes (code & 31) of `path`, as `maskOf` in match.ts computes them for patterns. */
function byteClasses(path: string): number {
  let mask = 0;
  for (let i = 0; i < path.length; i++) mask |= 1 << (path.charCodeAt(i) & 31);
  return mask;
}
