/**
 * From the URL a caller has to what a robots.txt check needs of it: the origin whose robots.txt
 * governs it ({@link originOf}) and the path Google's matcher compares ({@link canonicalPath}):
 * path, parameters and query, no fragment, in the canonical form a crawler sends (WHATWG `URL`
 * serialisation, upper-case escapes).
 *
 * Invalid URLs never throw. A string that WHATWG `URL` rejects has no origin, and its path is read
 * the way google/robotstxt's `GetPathParamsQuery()` reads any string (skip `scheme://host`, path
 * from the first `/`, `?` or `;`, stop at `#`; `/` when there is none), with non-ASCII bytes
 * percent-encoded.
 *
 * A check through `RobotsManager` asks for both, one after the other (the origin picks the file,
 * the file then reads the path): {@link originOf} reads both in one pass and keeps them for the
 * URL it was last given, so the path is not read twice.
 */
import { textToByteString } from './bytes.js';
import { escapeBytes } from './escape.js';

const LOWER_ESCAPE = /%[0-9a-f]?[a-f]/;

/** The last URL {@link originOf} read, its origin, and its canonical path when that pass found it. */
let lastUrl: string | undefined;
let lastOrigin: string | undefined;
let lastPath: string | undefined;

/** The path+params+query of `url` as the matcher sees it. */
export function canonicalPath(url: string): string {
  if (url === lastUrl && lastPath !== undefined) return lastPath;
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
const SIMPLE_URL = /^https?:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?((?:\/(?!\.)[A-Za-z0-9\-._~!$&()*+,;=:@]*)*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?)(?:#|$)/;
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
  if (match !== null) return pathOfRest(match[1] as string);
  if (url.indexOf('%') === -1) return undefined;
  return escapedPath(isPath ? ESCAPED_PATH.exec(url) : ESCAPED_URL.exec(url));
}

/** The path and query after a simple URL's host (possibly empty, or only a query) as the matcher reads it. */
function pathOfRest(rest: string): string {
  if (rest === '') return '/';
  return rest.charCodeAt(0) === 0x3f ? '/' + rest : rest;
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

/**
 * The origin of an `http:` or `https:` URL, exactly as WHATWG `URL` writes it (`URL.origin`):
 * `scheme://host[:port]`, lower-cased, default port dropped, IDN host in punycode
 * (`https://bücher.de` → `https://xn--bcher-kva.de`), IP hosts in their canonical form, user info
 * dropped. `undefined` for anything that is not an absolute http(s) URL with a host (other schemes,
 * opaque URLs such as `mailto:`, whose `URL.origin` is `"null"`, relative or invalid URLs, any
 * non-string): RFC 9309 §2.3, a robots.txt governs the scheme, host and port it was fetched from.
 */
export function originOf(url: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  if (url === lastUrl) return lastOrigin;
  let origin: string | undefined;
  let path: string | undefined;
  const match = SIMPLE_ORIGIN_AND_PATH.exec(url);
  if (match !== null) {
    origin = simpleOrigin(match[1] as string);
    if (origin !== undefined) path = pathOfRest(match[2] as string);
  } else {
    // A simple origin before a path `URL` has to read (escapes, dot segments, other bytes).
    const head = SIMPLE_ORIGIN.exec(url);
    if (head !== null) origin = simpleOrigin(head[0]);
  }
  origin ??= whatwgOrigin(url);
  lastUrl = url;
  lastOrigin = origin;
  lastPath = path;
  return origin;
}

/**
 * The common case of {@link originOf} and {@link canonicalPath} in one pass: a {@link SIMPLE_URL}
 * whose host (group 1, with scheme and port) is dot-separated `[a-z0-9-]` labels, the last one
 * starting with a letter (so `URL` cannot read it as an IPv4 number); group 2 is the path and query.
 */
const SIMPLE_ORIGIN_AND_PATH = /^(https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?::[0-9]{1,5})?)((?:\/(?!\.)[A-Za-z0-9\-._~!$&()*+,;=:@]*)*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?)(?:#|$)/;
/** Group 1 of {@link SIMPLE_ORIGIN_AND_PATH} alone, followed by anything a URL may hold. */
const SIMPLE_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?::[0-9]{1,5})?(?=[/?#]|$)/;
/** Where the host starts in group 1 of {@link SIMPLE_ORIGIN_AND_PATH}: after `http://` or `https://`. */
const HOST_FROM = 7;

/** `scheme://host[:port]` of a {@link SIMPLE_ORIGIN_AND_PATH} match as `URL.origin`; undefined when `URL` has to judge it. */
function simpleOrigin(origin: string): string | undefined {
  // Punycode labels may be invalid; URL validates them.
  if (origin.indexOf('xn--', HOST_FROM) !== -1) return undefined;
  const colon = origin.indexOf(':', HOST_FROM);
  if (colon === -1) return origin;
  const port = origin.slice(colon + 1);
  if (port.charCodeAt(0) === 0x30 /* a leading 0 */ || Number(port) > 65535) return undefined;
  const defaultPort = origin.charCodeAt(4) === 0x73 /* https */ ? '443' : '80';
  return port === defaultPort ? origin.slice(0, colon) : origin;
}

function whatwgOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return undefined;
  return parsed.origin;
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
