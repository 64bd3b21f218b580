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

// A URL WHATWG would serialise unchanged: lower-case http(s) scheme and host, no dot segments, and
// only characters that neither the path nor the query percent-encode set touches.
const SIMPLE_URL = /^https?:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?(?=[/?#]|$)/;
const SIMPLE_REST = /^[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*(?:#.*)?$/s;
const DOT_SEGMENT = /\/\.|%2e/i;
const LOWER_ESCAPE = /%[0-9a-f]?[a-f]/;

/** The path+params+query of `url` as the matcher sees it. */
export function canonicalPath(url: string): string {
  const head = SIMPLE_URL.exec(url);
  if (head !== null) {
    const rest = url.slice(head[0].length);
    if (SIMPLE_REST.test(rest) && !DOT_SEGMENT.test(rest)) return upperEscapes(pathOf(rest));
  }
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

/** For `rest` = what follows the authority: the path and query, without the fragment. */
function pathOf(rest: string): string {
  const hash = rest.indexOf('#');
  const path = hash === -1 ? rest : rest.slice(0, hash);
  if (path.length === 0) return '/';
  return path.charCodeAt(0) === 0x2f ? path : '/' + path;
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
