/**
 * The matching engine: decides which rule of a rule set wins for a path, with Google's semantics
 * (longest pattern wins, `allow` wins ties, `*` matches any run of bytes, a trailing `$` anchors).
 *
 * No regular expression is built from a pattern. A pattern is split at its `*`s into literal
 * segments that are found left to right with `indexOf` (greedy leftmost is exact for this
 * language), so one pattern costs O(path length) and hostile patterns cannot backtrack.
 * Rules are kept in the order in which they would win, so the first rule that matches decides; large
 * rule sets are bucketed by their literal prefix so that a check only looks at rules that can match.
 */

/** One rule, compiled for matching. */
export interface CompiledRule<R> {
  readonly allow: boolean;
  /** Google's priority: the length of the normalised pattern (including `*` and `$`). */
  readonly priority: number;
  readonly line: number;
  /** Literal text before the first `*` (the whole pattern when it has none). */
  readonly prefix: string;
  /** The literal segments after the prefix, in order (empty segments removed). */
  readonly segments: readonly string[];
  /** The pattern ends with `$`: the last segment (or the prefix) must end the path. */
  readonly anchored: boolean;
  /** The pattern has no `*`. */
  readonly literal: boolean;
  /** What the caller attached to the rule (for explanations). */
  readonly source: R;
}

/** Compiles a normalised pattern. `source` comes back with the verdict. */
export function compilePattern<R>(pattern: string, allow: boolean, line: number, source: R): CompiledRule<R> {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  const prefix = parts[0] ?? '';
  const segments = parts.slice(1).filter((part) => part.length > 0);
  // `/a*` anchored is `/a*$`: the trailing star makes the anchor trivially true.
  const trailingStar = parts.length > 1 && parts[parts.length - 1] === '';
  return {
    allow,
    priority: pattern.length,
    line,
    prefix,
    segments,
    anchored: anchored && !trailingStar,
    literal: parts.length === 1,
    source,
  };
}

/** Whether the compiled pattern matches the path (Google's `RobotsMatchStrategy::Matches`). */
export function matches(rule: CompiledRule<unknown>, path: string): boolean {
  const { prefix, segments, anchored } = rule;
  if (!path.startsWith(prefix)) return false;
  if (rule.literal) return !anchored || path.length === prefix.length;
  let position = prefix.length;
  const last = segments.length - 1;
  const middleEnd = anchored ? last : segments.length;
  for (let i = 0; i < middleEnd; i++) {
    const segment = segments[i] as string;
    const found = path.indexOf(segment, position);
    if (found === -1) return false;
    position = found + segment.length;
  }
  if (!anchored || last < 0) return true;
  const tail = segments[last] as string;
  return path.length - tail.length >= position && path.endsWith(tail);
}

/** Rule order: the earlier rule wins. Longer first, `allow` before `disallow`, then file order. */
export function winsOver(a: CompiledRule<unknown>, b: CompiledRule<unknown>): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.allow !== b.allow) return a.allow;
  return a.line < b.line;
}

function byPrecedence(a: CompiledRule<unknown>, b: CompiledRule<unknown>): number {
  return winsOver(a, b) ? -1 : winsOver(b, a) ? 1 : 0;
}

/** Rule sets up to this size are scanned whole; larger ones are bucketed by literal prefix. */
const LINEAR_LIMIT = 24;
/** Bucket key length: rules are bucketed by the first few bytes of their literal prefix. */
const KEY_LENGTH = 5;

/** A compiled rule set for one user-agent: answers "which rule wins for this path?". */
export class RuleMatcher<R> {
  /** Rules whose literal prefix is shorter than the bucket key (or every rule, for small sets). */
  private readonly short: readonly CompiledRule<R>[];
  private readonly buckets: Map<string, CompiledRule<R>[]> | undefined;

  constructor(rules: readonly CompiledRule<R>[]) {
    const sorted = dedupe([...rules].sort(byPrecedence));
    if (sorted.length <= LINEAR_LIMIT) {
      this.short = sorted;
      this.buckets = undefined;
      return;
    }
    const short: CompiledRule<R>[] = [];
    const buckets = new Map<string, CompiledRule<R>[]>();
    for (const rule of sorted) {
      if (rule.prefix.length < KEY_LENGTH) {
        short.push(rule);
        continue;
      }
      const key = rule.prefix.slice(0, KEY_LENGTH);
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [rule]);
      else bucket.push(rule);
    }
    this.short = short;
    this.buckets = buckets;
  }

  /** Number of distinct rules. */
  get size(): number {
    let size = this.short.length;
    if (this.buckets !== undefined) for (const bucket of this.buckets.values()) size += bucket.length;
    return size;
  }

  /** The rule that decides for `path`, or undefined when none matches. */
  match(path: string): CompiledRule<R> | undefined {
    const best = firstMatch(this.short, path);
    if (this.buckets === undefined || path.length < KEY_LENGTH) return best;
    const bucket = this.buckets.get(path.slice(0, KEY_LENGTH));
    if (bucket === undefined) return best;
    const other = firstMatch(bucket, path);
    if (other === undefined) return best;
    return best === undefined || winsOver(other, best) ? other : best;
  }
}

function firstMatch<R>(rules: readonly CompiledRule<R>[], path: string): CompiledRule<R> | undefined {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as CompiledRule<R>;
    if (rule.priority === 0) return rule; // the empty pattern matches everything
    if (matches(rule, path)) return rule;
  }
  return undefined;
}

/** Drops exact repeats (same directive and pattern): the earlier line always wins over them. */
function dedupe<R>(sorted: CompiledRule<R>[]): CompiledRule<R>[] {
  const seen = new Set<string>();
  return sorted.filter((rule) => {
    const key = (rule.allow ? 'a' : 'd') + rule.prefix + '*' + rule.segments.join('*') + (rule.anchored ? '$' : '') + rule.priority;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
