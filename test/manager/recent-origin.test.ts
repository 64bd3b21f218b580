/**
 * `originOf()` remembers the last URL that needed WHATWG `URL`: whatever the order of the URLs, each
 * gets its own origin as `URL` gives it, never the previous URL's when only its text starts alike.
 */
import { describe, expect, it } from 'vitest';
import { originOf } from '@heed/manager';

/** What `originOf()` must give: WHATWG `URL.origin` of an absolute http(s) URL with a host. */
function whatwgOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
    return web && parsed.hostname !== '' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

const URLS = [
  'http://127.0.0.1:4321/a',
  'http://127.0.0.1:43211/a',
  'http://127.0.0.1:4321',
  'http://127.0.0.1:4321?q=1',
  'http://127.0.0.1:4321#top',
  'http://127.0.0.1:4321\\@evil.example/',
  'http://127.0.0.1:4321@evil.example/',
  'http://127.0.0.1:4321.evil.example/',
  'HTTP://127.0.0.1:4321/upper',
  'http://127.0.0.1:80/default-port',
  'http://127.0.0.1/default-port',
  'https://example.com/a',
  'https://example.com:443/a',
  'https://example.com.evil.example/a',
  'https://example.com\t/tab',
  'https://example.com /space',
  'https://EXAMPLE.com/upper',
  'https://user:pw@example.com/info',
  'https://bücher.de/idn',
  'https://xn--bcher-kva.de/idn',
  'http://[::1]:8080/v6',
  'http://[::1]:80/v6',
  'http://0x7f.1/hex-ip',
  'mailto:someone@example.com',
  'relative/path',
  'https://',
  'http://',
  'http:///empty-authority.example/a',
  'http:///other.example/a',
  'http:///',
  'https:example.com/no-slashes',
];

describe('originOf() after another URL', () => {
  it('gives every URL its own origin, in any order', () => {
    // Every ordered pair, so each URL follows each other one.
    for (const before of URLS) {
      for (const url of URLS) {
        originOf(before);
        expect(originOf(url), `${url} after ${before}`).toBe(whatwgOrigin(url));
      }
    }
  });

  it('answers runs of one origin, and the URL after the run', () => {
    expect(originOf('http://127.0.0.1:8080/p/1')).toBe('http://127.0.0.1:8080');
    for (let i = 2; i < 50; i++) expect(originOf(`http://127.0.0.1:8080/p/${i}`)).toBe('http://127.0.0.1:8080');
    expect(originOf('http://127.0.0.1:80808/p/1')).toBeUndefined();
    expect(originOf('http://127.0.0.1:8080.evil.example/p/1')).toBeUndefined();
    expect(originOf('http://127.0.0.1:8080/p/50')).toBe('http://127.0.0.1:8080');
    expect(originOf('http://127.0.0.1:8080@evil.example/p/1')).toBe('http://evil.example');
  });
});
