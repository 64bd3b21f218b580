/**
 * `pathPattern()`: one robots.txt pattern on its own, matched by the Allow/Disallow engine (for
 * formats that borrow the pattern language but not robots.txt's precedence, such as TDMRep).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '@heed/parser';
import { pathPattern } from '@heed/parser/internal';

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
