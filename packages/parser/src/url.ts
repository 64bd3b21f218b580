/**
 * From the URL a caller has to the path Google's matcher compares: path, parameters and query, no
 * fragment, in the canonical form a crawler sends (WHATWG `URL` serialisation, upper-case escapes).
 *
 * Invalid URLs never throw. A string that WHATWG `URL` rejects is read the way google/robotstxt's
 * `GetPathParamsQuery()` reads any string (skip `scheme://host`, path from the first `/`, `?` or
 * `;`, stop at `#`; `/` when there is none), with non-ASCII bytes percent-encoded.
 */
import { textToByteString } from './bytes.js';
import { escapeBytes } from './escape.js';

const LOWER_ESCAPE = /%[0-9a-f]?[a-f]/;

/** The path+params+query of `url` as the matcher sees it. */
export function canonicalPath(url: string): string {
  const fast = simplePath(url);
  if (fast !== undefined) return fast;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    if (url.startsWith('/') && !url.startsWith('//')) {
      try {
        // Appended, not resolved: `/\x` must stay a path, not become a scheme-relative URL.
        parsed = new URL('http://robots.invalid' + url);
      } catch {
        parsed = undefined;
      }
    }
  }
  if (parsed !== undefined) return upperEscapes(googlePathParamsQuery(parsed.href));
  return escapeBytes(googlePathParamsQuery(textToByteString(url)));
}

/**
 * A lower-case `http://` or `https://` URL with a plain lower-case host, only bytes WHATWG keeps as
 * they are in path and query (no `%`), and no path segment starting with `.` (so no dot segment for
 * `URL` to resolve): group 1 is the path and query, possibly empty. (Irregexp compiles this to
 * machine code: one pass over the URL, faster than a character loop or a second search for `/.`.)
 */
const SIMPLE_URL =
  /^https?:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?((?:\/(?!\.)[A-Za-z0-9\-._~!$&()*+,;=:@]*)*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?)(?:#|$)/;
/** The same for a path given alone (`/a/b?c`), as the matcher itself is often asked. */
const SIMPLE_PATH = /^(?!\/\/)((?:\/(?!\.)[A-Za-z0-9\-._~!$&()*+,;=:@]*)+(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?)(?:#|$)/;
/**
 * URL and path with escapes (`%`) allowed: the rarer case, read second. An escaped dot segment
 * (`/%2e`) has to be looked for separately, as do lower-case escapes.
 */
const ESCAPED_URL = /^https?:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?([/?][A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?(?:#|$)/;
const ESCAPED_PATH = /^(\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)(?:#|$)/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/**
 * The common case without `URL`: a simple URL (see {@link SIMPLE_URL}), or one with escapes but no
 * dot segment. Anything else: undefined.
 */
function simplePath(url: string): string | undefined {
  const isPath = url.charCodeAt(0) === 0x2f;
  const match = isPath ? SIMPLE_PATH.exec(url) : SIMPLE_URL.exec(url);
  if (match !== null) {
    const rest = match[1] as string;
    if (rest === '') return '/';
    return rest.charCodeAt(0) === 0x3f ? '/' + rest : rest;
  }
  if (url.indexOf('%') === -1) return undefined;
  return escapedPath(isPath ? ESCAPED_PATH.exec(url) : ESCAPED_URL.exec(url));
}

/** The path of an {@link ESCAPED_URL} or {@link ESCAPED_PATH} match, unless `URL` must resolve it. */
function escapedPath(match: RegExpExecArray | null): string | undefined {
  if (match === null) return undefined;
  const rest = match[1];
  if (rest === undefined) return '/';
  // A dot segment (`/.`, `/..`, `/%2e`) in the path, before the query, is resolved by `URL`.
  const query = rest.indexOf('?');
  if (DOT_SEGMENT.test(query === -1 ? rest : rest.slice(0, query))) return undefined;
  const path = rest.charCodeAt(0) === 0x3f ? '/' + rest : rest;
  return upperEscapes(path);
}

function upperEscapes(path: string): string {
  return LOWER_ESCAPE.test(path) ? escapeBytes(path) : path;
}

/** google/robotstxt `GetPathParamsQuery()`, byte for byte. */
export function googlePathParamsQuery(url: string): string {
  let searchStart = 0;
  if (url.length >= 2 && url[0] === '/' && url[1] === '/') searchStart = 2;
  const earlyPath = firstOf(url, searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  if (earlyPath !== -1 && (protocolEnd === -1 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd === -1 ? searchStart : protocolEnd + 3;
  const pathStart = firstOf(url, protocolEnd);
  if (pathStart === -1) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash !== -1 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path[0] === '/' ? path : '/' + path;
}

function firstOf(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x3b) return i;
  }
  return -1;
}
