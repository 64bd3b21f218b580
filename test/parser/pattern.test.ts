/**
 * `pathPattern()`: one robots.txt pattern on its own, matched by the Allow/Disallow engine (for
 * formats that borrow the pattern language but not robots.txt's precedence, such as TDMRep).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '@heed/parser';
import { pathPattern, pathPatternList } from '../../packages/parser/src/pattern.js';

describe('pathPattern()', () => {
  it('matches prefixes, * runs and a trailing $, on path and query', () => {
    expect(pathPattern('/a').matches('https://example.com/abc')).toBe(true);
    expect(pathPattern('/a$').matches('https://example.com/abc')).toBe(false);
    expect(pathPattern('/*.pdf$').matches('https://example.com/x/y.pdf')).toBe(true);
    expect(pathPattern('/*.pdf$').matches('https://example.com/x/y.pdf?v=2')).toBe(false);
    expect(pathPattern('/a?b').matches('/a?b=1')).toBe(true);
    expect(pathPattern('/café').matches('https://example.com/caf%C3%A9/menu')).toBe(true);
  });

  it('decodes unreserved escapes on request, as RFC 9309 reads them', () => {
    expect(pathPattern('/%7Ea').matches('https://example.com/~a')).toBe(false);
    expect(pathPattern('/%7Ea', { decodeUnreservedEscapes: true }).matches('https://example.com/~a')).toBe(true);
  });

  it('agrees with a Disallow rule of the same pattern, for any pattern and path', () => {
    const piece = fc.constantFrom('/', 'a', 'b', '*', '$', '%41', 'A', 'é', '?', '=', '.pdf');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.array(piece, { maxLength: 6 }), (patternPieces, pathPieces) => {
        const pattern = '/' + patternPieces.join('');
        const url = 'https://example.com/' + pathPieces.join('').replace(/[$*]/g, '');
        const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${pattern}\n`);
        expect(pathPattern(pattern).matches(url)).toBe(!robots.isAllowed(url, 'HeedBot'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('pathPatternList()', () => {
  it('answers with the first pattern in the order given, not the longest', () => {
    const list = pathPatternList(['/a', '/a/b/c', '/*.pdf$', '/a']);
    expect(list.firstMatch('https://example.com/a/b/c')).toBe(0);
    expect(list.firstMatch('https://example.com/x.pdf')).toBe(2);
    expect(list.firstMatch('https://example.com/b')).toBe(-1);
    expect(pathPatternList([]).firstMatch('https://example.com/')).toBe(-1);
  });

  it('agrees with its patterns asked one by one, for any list and path: small, bucketed (over 256 patterns) and hot', () => {
    const piece = fc.constantFrom('/', 'a', 'b', '*', '$', '%7E', '~', 'é', '?', '=', '.pdf');
    const pattern = fc.array(piece, { maxLength: 5 }).map((pieces) => '/' + pieces.join(''));
    fc.assert(
      fc.property(
        fc.array(pattern, { maxLength: 12 }),
        fc.nat({ max: 300 }),
        fc.array(piece, { maxLength: 8 }),
        fc.boolean(),
        (patterns, filler, pathPieces, decode) => {
          // Filler patterns that never match push the list past the bucketing threshold.
          const all = [...Array.from({ length: filler }, (_, i) => `/zz${i}/never`), ...patterns];
          const url = 'https://example.com/' + pathPieces.join('').replace(/[$*]/g, '');
          const options = { decodeUnreservedEscapes: decode };
          const expected = all.findIndex((p) => pathPattern(p, options).matches(url));
          const list = pathPatternList(all, options);
          expect(list.firstMatch(url)).toBe(expected);
          // A crawler asks the same list again and again: no check may change a later answer.
          for (let i = 0; i < 64; i++) list.firstMatch(url);
          expect(list.firstMatch(url)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
