/** Every example prints its skips through one formatter: distinct URLs, each with how many times it was skipped. */
import { describe, expect, it } from 'vitest';
import { distinctSkips, formatSkips, skippedHeading } from '../../examples/demo-site/src/index.js';

const skip = (url: string, stage = 'enqueue', reason = 'rules') => ({ url, reason, stage, message: `disallowed: ${url}` });

describe('formatSkips', () => {
  it('lists each URL once, with its count and every stage it was caught at, under "N URLs skipped (M times)"', () => {
    const skips = [
      skip('https://a.example/cart'),
      skip('https://a.example/cart'),
      skip('https://a.example/x'),
      skip('https://a.example/cart', 'sitemap'),
      skip('https://a.example/cart'),
      skip('https://a.example/x'),
      skip('https://a.example/cart'),
    ];
    const lines = formatSkips(skips.slice(0, 6));
    expect(lines).toEqual([
      '2 URLs skipped (6 times):',
      '  https://a.example/cart  disallowed: https://a.example/cart ×4  [enqueue, sitemap]',
      '  https://a.example/x     disallowed: https://a.example/x ×2  [enqueue]',
    ]);
  });

  it('gives one number when every URL was skipped once, and none listed when nothing was', () => {
    expect(formatSkips([skip('https://a.example/a')])[0]).toBe('1 URL skipped:');
    expect(formatSkips([])).toEqual(['0 URLs skipped']);
    expect(formatSkips([skip('https://a.example/a'), skip('https://a.example/a')], { verb: 'kept out' })[0]).toBe(
      '1 URL kept out (2 times):',
    );
  });

  it('keeps a URL skipped for two reasons as two entries (a rule, then an unreachable robots.txt)', () => {
    const distinct = distinctSkips([skip('https://a.example/a'), skip('https://a.example/a', 'enqueue', 'unreachable')]);
    expect(distinct.map((entry) => entry.skip.reason)).toEqual(['rules', 'unreachable']);
    expect(skippedHeading(3, 7)).toBe('3 URLs skipped (7 times)');
  });
});
