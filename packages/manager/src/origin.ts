/**
 * Origins: the unit a robots.txt governs (RFC 9309 §2.3: "the rules apply to the scheme, host and
 * port" it was fetched from). `http://a.com` and `https://a.com` are two origins; so are
 * `a.com` and `www.a.com`, and `a.com:8080`.
 *
 * `originOf()` sits on the hot path of every check, so the common case (a lower-case ASCII host
 * name, optional port) is sliced out of the string without building a `URL`; everything else
 * (upper case, IDN, IP literals, user info, odd ports) goes through WHATWG `URL`, which folds
 * default ports and turns IDN hosts into punycode.
 */

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The origin of an `http:` or `https:` URL as `scheme://host[:port]`, lower-cased, default port
 * folded, IDN host in punycode (`https://bücher.de` → `https://xn--bcher-kva.de`), IP hosts as the
 * URL standard writes them. `undefined` for anything that is not an absolute http(s) URL: robots.txt
 * is only fetched over HTTP here.
 */
export function originOf(url: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  return fastOrigin(url) ?? slowOrigin(url);
}

/** The robots.txt URL of an origin as returned by {@link originOf}. */
export function robotsTxtUrl(origin: string): string {
  return `${origin}/robots.txt`;
}

function slowOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '') return undefined;
  // `URL.origin` already folds default ports and punycodes the host.
  return parsed.origin;
}

/**
 * The common case without `URL`: `http(s)://` in lower case, then a host of `[a-z0-9.-]` whose
 * last label starts with a letter (so it can never be read as an IPv4 number), then an optional
 * canonical port. Anything else returns `undefined` and takes the slow path.
 */
function fastOrigin(url: string): string | undefined {
  let start: number;
  let scheme: 'http:' | 'https:';
  if (url.startsWith('https://')) {
    start = 8;
    scheme = 'https:';
  } else if (url.startsWith('http://')) {
    start = 7;
    scheme = 'http:';
  } else {
    return undefined;
  }
  let end = start;
  let colon = -1;
  let lastLabelStart = start;
  const length = url.length;
  for (; end < length; end++) {
    const code = url.charCodeAt(end);
    if (code === 47 /* / */ || code === 63 /* ? */ || code === 35 /* # */) break;
    if (colon !== -1) {
      if (code < 48 || code > 57) return undefined; // port digits only
      continue;
    }
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 /* - */) continue;
    if (code === 46 /* . */) {
      lastLabelStart = end + 1;
      continue;
    }
    if (code === 58 /* : */) {
      colon = end;
      continue;
    }
    return undefined; // upper case, `@`, `%`, `\`, `[`, non-ASCII, white space...
  }
  const hostEnd = colon === -1 ? end : colon;
  if (hostEnd === start) return undefined;
  // A trailing dot, an empty label or a numeric last label: let URL decide.
  const first = url.charCodeAt(lastLabelStart);
  if (lastLabelStart >= hostEnd || first < 97 || first > 122) return undefined;
  if (url.charCodeAt(start) === 46) return undefined;
  // Punycode labels may be invalid; URL validates them.
  const ace = url.indexOf('xn--', start);
  if (ace !== -1 && ace < hostEnd) return undefined;
  if (colon === -1) return end === length ? url : url.slice(0, end);
  const port = url.slice(colon + 1, end);
  if (port === '') return url.slice(0, colon);
  if (port.length > 5 || port.charCodeAt(0) === 48 /* leading 0 */ || Number(port) > 65535) return undefined;
  if (port === DEFAULT_PORTS[scheme]) return url.slice(0, colon);
  return end === length ? url : url.slice(0, end);
}
