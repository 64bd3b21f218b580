/**
 * The origin of the last URL that needed WHATWG `URL` to read (IP hosts, upper case, IDN, odd ports),
 * in front of `originOf()`: a crawl checks runs of URLs of one origin (the links of a page, the
 * requests of a site), and a URL that starts with the same `scheme://authority` text, followed by
 * `/`, `?`, `#` or its end, has the same origin. Measured per URL on this machine: an IPv4 host
 * 0.8–0.9 µs by `originOf()`, 0.15–0.2 µs in a run here; 0.6% of the CPU of the link-dense crawl
 * benchmark, whose origins are 127.x addresses (BENCHMARKS.md). Host names in lower case, the
 * common case, take `originOf()`'s own fast path first: remembering them gained nothing in a run
 * and cost 0.2 µs per URL when origins alternate.
 */
import { fastOrigin, originOf } from './origin.js';

const SLASH = 47;
const QUESTION = 63;
const HASH = 35;

export class LastOrigin {
  /** `scheme://authority` of the last URL remembered, exactly as it was written; `''` for none. */
  private authority = '';
  private origin = '';

  /** The origin of `url`, as `originOf()` gives it. */
  of(url: string): string | undefined {
    if (typeof url !== 'string') return undefined;
    const fast = fastOrigin(url);
    if (fast !== undefined) return fast;
    const authority = this.authority;
    if (authority !== '' && url.startsWith(authority)) {
      const next = url.charCodeAt(authority.length);
      if (next === SLASH || next === QUESTION || next === HASH || Number.isNaN(next)) return this.origin;
    }
    const origin = originOf(url);
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

/**
 * Where the authority of `url` ends (at `/`, `?`, `#` or the end), for a URL written `http://` or
 * `https://` in lower case whose authority holds only printable ASCII other than `\`; else -1, and
 * the URL is not remembered: the URL parser reads a `\` as `/`, drops tabs and newlines anywhere and
 * spaces at the ends, so such text could mean the same origin written otherwise.
 */
function authorityEnd(url: string): number {
  const from = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  if (from === -1) return -1;
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === SLASH || c === QUESTION || c === HASH) return i;
    if (c <= 32 || c >= 127 || c === 92 /* \ */) return -1;
  }
  return url.length;
}
