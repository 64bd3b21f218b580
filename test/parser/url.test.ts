/**
 * canonicalPath has a one-pass fast path for plain http(s) URLs; it must give exactly what WHATWG
 * `URL` serialisation gives (path + query, escapes upper-cased, no fragment).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from '../../packages/parser/src/url.js';

function viaWhatwg(url: string): string {
  const parsed = new URL(url);
  const href = parsed.href;
  const hash = href.indexOf('#');
  const withoutHash = hash === -1 ? href : href.slice(0, hash);
  const path = withoutHash.slice(parsed.origin.length);
  return path.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

const pieces = [
  '/',
  'a',
  'Z',
  '0',
  '.',
  '..',
  '%2e',
  '%2E',
  '%c3%a9',
  '%',
  '?',
  '#',
  '&',
  '=',
  ';',
  ':',
  '@',
  '~',
  '-',
  '_',
  '!',
  '*',
  '(',
  ')',
  ',',
  '+',
  '$',
  ' ',
  '"',
  "'",
  '<',
  '>',
  '|',
  '\\',
  'é',
  '{',
  '}',
  '^',
  '`',
];

describe('canonicalPath', () => {
  it('agrees with WHATWG URL for http(s) URLs made of tricky pieces', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http://', 'https://', 'HTTP://'),
        fc.constantFrom('example.com', 'a-b.example.org:8080', 'Example.COM', '127.0.0.1:80', 'xn--caf-dma.fr'),
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        (scheme, host, rest) => {
          const url = scheme + host + (rest.length > 0 && !['?', '#'].includes(rest[0] as string) ? '/' : '') + rest.join('');
          expect(canonicalPath(url)).toBe(viaWhatwg(url));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a path given alone as the same path of an http URL', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (rest) => {
        const path = '/' + rest.join('');
        if (path.startsWith('//')) return;
        expect(canonicalPath(path)).toBe(viaWhatwg('http://example.com' + path));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['https://example.com', '/'],
    ['https://example.com?q=1', '/?q=1'],
    ['https://example.com/a/./b/../c', '/a/c'],
    ['https://example.com/a?', '/a?'],
    ['https://example.com/caf%c3%a9?x=%2f', '/caf%C3%A9?x=%2F'],
    ['/just/a/path?x#y', '/just/a/path?x'],
  ])('%s → %s', (url, path) => expect(canonicalPath(url)).toBe(path));
});
