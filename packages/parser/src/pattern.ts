/**
 * robots.txt path patterns outside robots.txt (`*` any run of bytes, a trailing `$` anchors, bytes
 * and escapes normalised as Google does), one on its own or a list in order, matched by the same
 * engine as Allow/Disallow rules. For formats that borrow robots.txt's patterns but not its
 * precedence, such as TDMRep's `/.well-known/tdmrep.json`, where the first matching `location` in
 * array order decides.
 */
import { textToByteString } from './bytes.js';
import { decodeUnreserved, escapeBytes } from './escape.js';
import { RuleMatcher } from './match.js';
import { HAS_STAR, KIND, LINE_SHIFT, ROW, type DirectiveTable } from './table.js';
import { canonicalPath } from './url.js';

/** A compiled path pattern. */
export interface PathPattern {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether the pattern matches the path (with parameters and query) of `url`; any string is accepted as URL. */
  matches(url: string): boolean;
}

/** Path patterns compiled together, in the order given: which is the first to match a URL. */
export interface PathPatternList {
  /** The patterns as given. */
  readonly patterns: readonly string[];
  /** The index of the first pattern (in the order given) that matches `url`'s path and query; -1 when none does. */
  firstMatch(url: string): number;
}

/**
 * Compiles a robots.txt-style path pattern. `decodeUnreservedEscapes` (default `false`) decodes
 * `%XX` escapes of unreserved characters in pattern and URL before comparing (RFC 9309 §2.2.2,
 * and TDMRep's reading).
 */
export function pathPattern(pattern: string, options: { readonly decodeUnreservedEscapes?: boolean } = {}): PathPattern {
  const list = pathPatternList([pattern], options);
  return { pattern: list.patterns[0] as string, matches: (url: string) => list.firstMatch(url) === 0 };
}

/**
 * Compiles `patterns` into one matcher that answers which comes first among those that match. One
 * check reads the URL's path once and asks the Allow/Disallow engine once, with its bucketing and
 * shared `*` segment search, so a hostile list of a thousand `/*a*a*…*b` patterns costs about what as
 * many Disallow rules cost, not a thousand separate checks (each with its own reading of the URL).
 */
export function pathPatternList(
  patterns: readonly string[],
  options: { readonly decodeUnreservedEscapes?: boolean } = {},
): PathPatternList {
  const decode = options.decodeUnreservedEscapes === true;
  const given = patterns.map((pattern) => String(pattern));
  const parts: string[] = [];
  const rows = new Int32Array(given.length * ROW);
  let length = 0;
  given.forEach((pattern, i) => {
    let normalized = escapeBytes(textToByteString(pattern));
    if (decode) normalized = decodeUnreserved(normalized);
    parts.push(normalized);
    length += normalized.length;
    // The line is the 1-based position in the list: it is what a match reports.
    rows[i * ROW] = ((i + 1) << LINE_SHIFT) | (normalized.includes('*') ? HAS_STAR : 0) | KIND.disallow;
    rows[i * ROW + 1] = length;
  });
  const table: DirectiveTable = { text: parts.join(''), rows, count: given.length, hasUsage: false };
  const matcher = RuleMatcher.fromTable(
    table,
    given.map((_, i) => i),
    false,
    'listed',
  );
  return {
    patterns: given,
    firstMatch(url: string): number {
      if (given.length === 0) return -1;
      const path = canonicalPath(typeof url === 'string' ? url : String(url));
      const found = matcher.match(decode ? decodeUnreserved(path) : path);
      return found === undefined ? -1 : found.line - 1;
    },
  };
}
