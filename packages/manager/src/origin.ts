/**
 * Origins: the unit a robots.txt governs (RFC 9309 §2.3: "the rules apply to the scheme, host and
 * port" it was fetched from). `http://a.com` and `https://a.com` are two origins; so are
 * `a.com` and `www.a.com`, and `a.com:8080`.
 *
 * The one `originOf` of Heed: the manager's cache keys and stored records, the plugin's skip events
 * and its crawl-delay keys (written and read with the verdict's `origin`) all come from it.
 *
 * `originOf()` sits on the hot path of every check, so the common case (a lower-case ASCII host
 * name, optional port) is sliced out of the string without building a `URL`; everything else
 * (upper case, IDN, IP literals, user info, odd ports) goes through WHATWG `URL`, which folds
 * default ports and turns IDN hosts into punycode. The last URL that needed `URL` is remembered
 * (see {@link RecentSlowOrigin}): a crawl reads runs of URLs of one origin (the links of a page,
 * the requests of a site), and `URL` costs several times what the fast path does.
 */

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The origin of an `http:` or `https:` URL exactly as WHATWG `URL.origin` writes it:
 * `scheme://host[:port]`, lower-cased, default port dropped, IDN host in punycode
 * (`https://bücher.de` → `https://xn--bcher-kva.de`), IP hosts in their canonical form, user info
 * dropped. `undefined` for anything that is not an absolute http(s) URL with a host (other schemes,
 * opaque URLs such as `mailto:`, whose `URL.origin` is `"null"`, relative or invalid strings, any
 * non-string): robots.txt is only fetched over HTTP here.
 */
export function originOf(url: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  return fastOrigin(url) ?? recentSlowOrigin.of(url);
}

/**
 * `origin` (or a key made from it) as a string of its own, for a structure that keeps it. {@link originOf} cuts the
 * origin out of the URL it was given, and V8 keeps a cut string as a pointer into its parent: kept
 * as a cache key, it would hold the whole first URL asked about (a long one as well) for as long as
 * the origin stays cached. Called once per origin loaded, never per check.
 */
export function ownOrigin(origin: string): string {
  return Buffer.from(origin, 'utf8').toString('utf8');
}

/** The robots.txt URL of an origin as returned by {@link originOf}. */
export function robotsTxtUrl(origin: string): string {
  return `${origin}/robots.txt`;
}

const SLASH = 47;
const QUESTION = 63;
const HASH = 35;
const BACKSLASH = 92;

/**
 * The origin of the last URL that needed WHATWG `URL` (IP hosts, upper case, IDN, odd ports): a URL
 * that starts with the same `scheme://authority` text, followed by `/`, `?`, `#` or its end, has
 * the same origin. One per process: every caller of `originOf()` (the manager's checks, the
 * plugin's crawl-delay keys and skip events) reads the same runs of URLs.
 */
class RecentSlowOrigin {
  /** `scheme://authority` of the last URL remembered, exactly as it was written; `''` for none. */
  private authority = '';
  private origin = '';

  of(url: string): string | undefined {
    const authority = this.authority;
    if (authority !== '' && url.startsWith(authority)) {
      const next = url.charCodeAt(authority.length);
      if (next === SLASH || next === QUESTION || next === HASH || Number.isNaN(next)) return this.origin;
    }
    const origin = slowOrigin(url);
    if (origin !== undefined) {
      const end = authorityEnd(url);
      if (end !== -1) {
        this.authority = url.slice(0, end);
        this.origin = origin;
      }
    }
    return origin;
  }
}

const recentSlowOrigin = new RecentSlowOrigin();

/**
 * Where the authority of `url` ends (at `/`, `?`, `#` or the end), for a URL written `http://` or
 * `https://` in lower case whose authority is not empty and holds only printable ASCII other than `\`; else -1, and
 * the URL is not remembered: the URL parser reads a `\` as `/`, drops tabs and newlines anywhere and
 * spaces at the ends, so such text could mean the same origin written otherwise.
 */
function authorityEnd(url: string): number {
  const from = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  if (from === -1) return -1;
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // An empty authority (`http:///host/`) is not remembered: `URL` skips the slashes, so the host
    // comes after them, and two such URLs would share the same text `http://`.
    if (c === SLASH || c === QUESTION || c === HASH) return i === from ? -1 : i;
    if (c <= 32 || c >= 127 || c === BACKSLASH) return -1;
  }
  return url.length === from ? -1 : url.length;
}

function slowOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    // As given: `URL` itself strips leading and trailing C0 controls and spaces, and nothing else.
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '') return undefined;
  // `URL.origin` already folds default ports and punycodes the host.
  return parsed.origin;
}

/**
 * The common case: `http(s)://` in lower case, a host of dot-separated `[a-z0-9-]` labels whose
 * last label starts with a letter (so it can never be read as an IPv4 number) and none with `xn--`
 * (punycode labels may be invalid; `URL` validates them), an optional port, then the end or `/`,
 * `?`, `#`. (A regular expression: irregexp's machine code reads a host several times faster than a
 * character loop in JavaScript.) Sticky, and run with `test()`: a match leaves its end in
 * `lastIndex`, so no match array is built per URL.
 */
const SIMPLE_ORIGIN = /https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?::[0-9]{1,5})?(?=[/?#]|$)/y;
/** Where the host starts in a match of {@link SIMPLE_ORIGIN}: after `http://` or `https://`. */
const HOST_FROM = 7;
const NINE = 57;

/** The common case without `URL` (see {@link SIMPLE_ORIGIN}); anything else returns `undefined`. */
function fastOrigin(url: string): string | undefined {
  SIMPLE_ORIGIN.lastIndex = 0;
  if (!SIMPLE_ORIGIN.test(url)) return undefined;
  const end = SIMPLE_ORIGIN.lastIndex;
  const origin = url.slice(0, end);
  // A port ends in a digit: an origin that ends in a letter has none.
  if (url.charCodeAt(end - 1) > NINE) return origin;
  const colon = origin.indexOf(':', HOST_FROM);
  if (colon === -1) return origin;
  const port = origin.slice(colon + 1);
  if (port.charCodeAt(0) === 48 /* a leading 0 */ || Number(port) > 65535) return undefined;
  const scheme = origin.charCodeAt(4) === 115 /* s */ ? 'https:' : 'http:';
  return port === DEFAULT_PORTS[scheme] ? origin.slice(0, colon) : origin;
}
