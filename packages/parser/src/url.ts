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

// Bytes WHATWG leaves as they are in the path and query of an http(s) URL: unreserved, sub-delims
// (but `'`, which the special query set encodes), `:`, `@`, `/`, `?` and `%`.
const LOWER_ESCAPE = /%[0-9a-f]?[a-f]/;
const KEEP = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/?%") KEEP[c.charCodeAt(0)] = 1;

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
        parsed = new URL(url, 'http://robots.invalid');
      } catch {
        parsed = undefined;
      }
    }
  }
  if (parsed !== undefined) return upperEscapes(googlePathParamsQuery(parsed.href));
  return escapeBytes(googlePathParamsQuery(textToByteString(url)));
}

/**
 * The common case in one pass, without `URL`: a lower-case `http://` or `https://` URL with a plain
 * lower-case host, no dot segments and only bytes WHATWG keeps as they are. Anything else: undefined.
 */
function simplePath(url: string): string | undefined {
  let i: number;
  if (url.startsWith('https://')) i = 8;
  else if (url.startsWith('http://')) i = 7;
  else return undefined;
  const hostStart = i;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d)) break;
  }
  if (i === hostStart) return undefined;
  if (url.charCodeAt(i) === 0x3a) {
    // A port: digits only; WHATWG drops a default one, which does not change the path.
    const portStart = ++i;
    while (i < url.length && url.charCodeAt(i) >= 0x30 && url.charCodeAt(i) <= 0x39) i++;
    if (i === portStart || i - portStart > 5) return undefined;
  }
  const pathStart = i;
  let lowerEscape = false;
  let inQuery = false;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x23) break; // the fragment is not compared
    if (c >= 128 || KEEP[c] === 0) return undefined;
    if (c === 0x3f) inQuery = true;
    else if (c === 0x25) {
      const h1 = url.charCodeAt(i + 1);
      const h2 = url.charCodeAt(i + 2);
      if ((h1 >= 0x61 && h1 <= 0x66) || (h2 >= 0x61 && h2 <= 0x66)) lowerEscape = true;
      // `%2e` in the path may be a dot segment; leave that to `URL`.
      if (!inQuery && (h1 === 0x32 && (h2 === 0x65 || h2 === 0x45))) return undefined;
    } else if (c === 0x2e && !inQuery && url.charCodeAt(i - 1) === 0x2f) {
      // `/.` starts a dot segment when followed by `/`, `?`, `#`, the end, or `./` etc.
      const next = url.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 0x2f || next === 0x3f || next === 0x23 || next === 0x2e) return undefined;
    }
  }
  if (i > pathStart && url.charCodeAt(pathStart) !== 0x2f && url.charCodeAt(pathStart) !== 0x3f) return undefined;
  let path = url.slice(pathStart, i);
  if (path.length === 0) path = '/';
  else if (path.charCodeAt(0) === 0x3f) path = '/' + path;
  return lowerEscape ? escapeBytes(path) : path;
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
