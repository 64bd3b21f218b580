/** Origins: scheme + host + port, the unit a robots.txt governs. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originOf } from '@heed/manager';
import { robotsTxtUrl } from '../../packages/manager/src/origin.js';

const cases: [input: string, origin: string | undefined][] = [
  ['https://example.com/a/b?c#d', 'https://example.com'],
  ['https://example.com', 'https://example.com'],
  ['https://example.com?q', 'https://example.com'],
  ['https://example.com#frag', 'https://example.com'],
  ['http://example.com:80/x', 'http://example.com'],
  ['https://example.com:443/x', 'https://example.com'],
  ['http://example.com:443/x', 'http://example.com:443'],
  ['https://example.com:8443/x', 'https://example.com:8443'],
  ['https://example.com:/x', 'https://example.com'],
  ['http://example.com:0080/x', 'http://example.com'],
  ['HTTPS://WWW.Example.COM/Path', 'https://www.example.com'],
  ['https://www.example.com/', 'https://www.example.com'],
  ['https://sub.example.co.uk/', 'https://sub.example.co.uk'],
  ['https://bücher.de/x', 'https://xn--bcher-kva.de'],
  ['https://xn--bcher-kva.de/x', 'https://xn--bcher-kva.de'],
  ['https://www.xn--bcher-kva.de:8080/x', 'https://www.xn--bcher-kva.de:8080'],
  ['https://www.xn--a.de/x', undefined], // invalid punycode in an inner label
  ['https://a-xn--b.example/x', 'https://a-xn--b.example'],
  ['http://host1/x', 'http://host1'],
  ['http://host1:80/x', 'http://host1'],
  ['https://user:pass@example.com/x', 'https://example.com'],
  ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080'],
  ['http://127.1/x', 'http://127.0.0.1'],
  ['http://[::1]:3000/x', 'http://[::1]:3000'],
  ['http://[2001:DB8::1]/x', 'http://[2001:db8::1]'],
  ['  https://example.com/x  ', 'https://example.com'],
  ['https://example.com:65535/', 'https://example.com:65535'],
  ['https://example.com:65536/', undefined],
  ['ftp://example.com/x', undefined],
  ['mailto:someone@example.com', undefined],
  ['/relative/path', undefined],
  ['example.com/x', undefined],
  ['', undefined],
  ['https://', undefined],
  ['http://exa mple.com/', undefined],
  ['javascript:alert(1)', undefined],
];

describe('originOf', () => {
  for (const [input, origin] of cases) {
    it(`${JSON.stringify(input)} → ${String(origin)}`, () => {
      expect(originOf(input)).toBe(origin);
    });
  }

  it('agrees with URL.origin on the fast path', () => {
    for (const url of ['http://a.b.c/x', 'https://a-b.example/x?y', 'http://host.example:8080', 'https://x1.example:443/']) {
      expect(originOf(url)).toBe(new URL(url).origin);
    }
  });

  it('equals URL.origin for any http(s) URL (property)', () => {
    const anyCase = (url: string, mask: number) => [...url].map((ch, i) => ((mask >> (i % 31)) & 1 ? ch.toUpperCase() : ch)).join('');
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
        fc.integer(),
        fc.option(fc.integer({ min: 1, max: 65535 })),
        (url, mask, port) => {
          const withPort = port === null ? url : url.replace(/^(https?:\/\/[^/?#]+)/, `$1:${port}`);
          for (const candidate of [withPort, anyCase(withPort, mask)]) {
            let expected: string | undefined;
            try {
              expected = new URL(candidate).origin;
            } catch {
              expected = undefined;
            }
            expect(originOf(candidate)).toBe(expected);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('equals URL.origin for hosts made of the pieces the fast path has to judge (property)', () => {
    const piece = fc.constantFrom('a', 'z', '1', '0', '-', '.', 'xn--', 'xn--bcher-kva', '255', ':', ':80', ':443', ':0', '');
    fc.assert(
      fc.property(
        fc.constantFrom('http://', 'https://'),
        fc.array(piece, { maxLength: 8 }),
        fc.constantFrom('', '/', '/x', '?q', '#f'),
        (scheme, pieces, rest) => {
          const url = `${scheme}${pieces.join('')}${rest}`;
          let expected: string | undefined;
          try {
            const parsed = new URL(url);
            expected = parsed.hostname === '' ? undefined : parsed.origin;
          } catch {
            expected = undefined;
          }
          expect(originOf(url)).toBe(expected);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('equals URL.origin (http(s) with a host, else undefined) for any string (property)', () => {
    const whatwg = (input: string): string | undefined => {
      try {
        const parsed = new URL(input);
        return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '' ? parsed.origin : undefined;
      } catch {
        return undefined;
      }
    };
    const prefix = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'mailto:', 'data:', '//', '', ' https://', '\u00a0https://');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(prefix, fc.string()).map(([p, rest]) => p + rest),
        ),
        (input) => {
          expect(originOf(input)).toBe(whatwg(input));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        originOf(input);
        originOf(`http://${input}`);
      }),
    );
    for (const input of [null, undefined, 42, {}, 'http://[', 'http://%zz/', 'https://a..b/', '\u0000']) {
      expect(() => originOf(input as unknown as string)).not.toThrow();
    }
  });

  it('places robots.txt at the root of the origin', () => {
    expect(robotsTxtUrl('https://example.com:8443')).toBe('https://example.com:8443/robots.txt');
  });
});
