/**
 * One robots.txt path pattern on its own (`*` any run of bytes, a trailing `$` anchors, bytes and
 * escapes normalised as Google does), matched by the same engine as Allow/Disallow rules. For
 * formats that borrow robots.txt's patterns but not its precedence, such as TDMRep's
 * `/.well-known/tdmrep.json`, where the first matching `location` in array order decides.
 */
import { textToByteString } from './bytes.js';
import { decodeUnreserved, escapeBytes } from './escape.js';
import { RuleMatcher } from './match.js';
import { HAS_STAR, KIND, LINE_SHIFT, type DirectiveTable } from './table.js';
import { canonicalPath } from './url.js';

/** A compiled path pattern. */
export interface PathPattern {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether the pattern matches the path (with parameters and query) of `url`; any string is accepted as URL. */
  matches(url: string): boolean;
}

/**
 * Compiles a robots.txt-style path pattern. `decodeUnreservedEscapes` (default `false`) decodes
 * `%XX` escapes of unreserved characters in pattern and URL before comparing (RFC 9309 §2.2.2,
 * and TDMRep's reading).
 */
export function pathPattern(pattern: string, options: { readonly decodeUnreservedEscapes?: boolean } = {}): PathPattern {
  const decode = options.decodeUnreservedEscapes === true;
  let normalized = escapeBytes(textToByteString(String(pattern)));
  if (decode) normalized = decodeUnreserved(normalized);
  const table: DirectiveTable = {
    text: normalized,
    rows: new Int32Array([(1 << LINE_SHIFT) | (normalized.includes('*') ? HAS_STAR : 0) | KIND.disallow, normalized.length]),
    count: 1,
    hasUsage: false,
  };
  const matcher = RuleMatcher.fromTable(table, [0], false);
  return {
    pattern: String(pattern),
    matches(url: string): boolean {
      const path = canonicalPath(typeof url === 'string' ? url : String(url));
      return matcher.match(decode ? decodeUnreserved(path) : path) !== undefined;
    },
  };
}
