/**
 * The last-origin lookup in front of `originOf()`: whatever the order of the URLs, each gets the
 * origin `originOf()` gives it, never the previous URL's when only its text starts alike.
 */
import { describe, expect, it } from 'vitest';
import { originOf } from '@heed/manager';
import { LastOrigin } from '../../packages/manager/src/last-origin.js';

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
  'https:example.com/no-slashes',
];

describe('LastOrigin', () => {
  it('gives every URL the origin originOf() gives it, in any order', () => {
    const last = new LastOrigin();
    // Every ordered pair, so each URL follows each other one.
    for (const before of URLS) {
      for (const url of URLS) {
        last.of(before);
        expect(last.of(url), `${url} after ${before}`).toBe(originOf(url));
      }
    }
  });

  it('answers runs of one origin from the URL it remembered', () => {
    const last = new LastOrigin();
    expect(last.of('http://127.0.0.1:8080/p/1')).toBe('http://127.0.0.1:8080');
    for (let i = 2; i < 50; i++) expect(last.of(`http://127.0.0.1:8080/p/${i}`)).toBe('http://127.0.0.1:8080');
    expect(last.of('http://127.0.0.1:80808/p/1')).toBeUndefined();
  });
});
