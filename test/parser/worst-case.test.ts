/**
 * Worst-case inputs: thousands of `*`, 10k rules on one prefix, 16 KB lines, 2,000-char
 * URLs, 500 KiB of backtracking bait. Each must complete with the right answer; how fast is the
 * benchmarks' business (test/bench/parser.bench.mjs), not a test's, so nothing here is timed.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '@heed/parser';
import { MAX_LINE_BYTES, tokenize } from '../../packages/parser/src/tokenize.js';

const ORIGIN = 'https://example.com';
const UA = 'HeedBot';
const at = (path: string) => ORIGIN + path;

describe('thousands of *', () => {
  it('5,000 stars then a literal: matches only paths that contain the literal', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*'.repeat(5_000)}needle\n`);
    expect(robots.isAllowed(at('/' + 'a'.repeat(1_999)), UA)).toBe(true);
    expect(robots.isAllowed(at('/' + 'a'.repeat(1_000) + 'needle' + 'a'.repeat(993)), UA)).toBe(false);
    expect(robots.explain(at('/needle'), UA)).toMatchObject({ allowed: false, line: 2 });
  });

  it('2,000 × "*a" then "b": a 2,000-char path of a\'s is allowed, one ending in b is not', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(2_000)}*b\n`);
    expect(robots.isAllowed(at('/' + 'a'.repeat(1_999)), UA)).toBe(true);
    expect(robots.isAllowed(at('/' + 'a'.repeat(2_000) + 'b'), UA)).toBe(false);
    // One a too few: the pattern needs 2,000 of them before the b.
    expect(robots.isAllowed(at('/' + 'a'.repeat(1_999) + 'b'), UA)).toBe(true);
  });

  it('stars and a $ anchor: "/*…*$" matches everything, "/*…*a$" only paths ending in a', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*'.repeat(3_000)}a$\nAllow: /${'*'.repeat(4_000)}$\n`);
    // The allow is longer, matches every path, and so decides everywhere.
    expect(robots.explain(at('/' + 'a'.repeat(1_999)), UA)).toMatchObject({ allowed: true, line: 3 });
    const disallowOnly = parseRobotsTxt(`User-agent: *\nDisallow: /${'*'.repeat(3_000)}a$\n`);
    expect(disallowOnly.isAllowed(at('/' + 'b'.repeat(1_998) + 'a'), UA)).toBe(false);
    expect(disallowOnly.isAllowed(at('/' + 'a'.repeat(1_998) + 'b'), UA)).toBe(true);
  });

  it('a user-agent line of thousands of stars is not the * group', () => {
    const robots = parseRobotsTxt(`User-agent: ${'*'.repeat(3_000)}\nDisallow: /\n`);
    expect(robots.isAllowed(at('/page'), UA)).toBe(true);
  });
});

describe('10k rules on one prefix', () => {
  const count = 10_000;
  const header = ['User-agent: *', 'Allow: /shop/item-5000/open']; // lines 1, 2
  const rules = Array.from({ length: count }, (_, i) => `Disallow: /shop/item-${i}`); // lines 3 … 10,002
  const robots = parseRobotsTxt([...header, ...rules].join('\n'));
  const lineOf = (i: number) => i + 3;

  it('finds the rule that decides, and its line', () => {
    expect(robots.explain(at('/shop/item-1234'), UA)).toMatchObject({ allowed: false, line: lineOf(1234) });
    // /shop/item-99999 starts with item-9, item-99, item-999 and item-9999: the longest wins.
    expect(robots.explain(at('/shop/item-99999?x=1'), UA)).toMatchObject({ allowed: false, line: lineOf(9999) });
    expect(robots.explain(at('/shop/item-5000/open/now'), UA)).toMatchObject({ allowed: true, line: 2 });
    expect(robots.explain(at('/shop/item-'), UA)).toMatchObject({ allowed: true, line: 0 });
    expect(robots.explain(at('/shop/other'), UA)).toMatchObject({ allowed: true, line: 0 });
  });

  it('answers 2,000-char URLs under the prefix', () => {
    expect(robots.explain(at('/shop/item-7' + 'x'.repeat(1_990)), UA)).toMatchObject({ allowed: false, line: lineOf(7) });
    expect(robots.isAllowed(at('/shop/' + 'x'.repeat(1_994)), UA)).toBe(true);
  });

  it('10k wildcard rules on one prefix, each anchored', () => {
    const starred = parseRobotsTxt(['User-agent: *', ...Array.from({ length: count }, (_, i) => `Disallow: /shop/*-${i}$`)].join('\n'));
    expect(starred.explain(at('/shop/red-shoes-4321'), UA)).toMatchObject({ allowed: false, line: 4323 });
    expect(starred.isAllowed(at('/shop/red-shoes-4321/reviews'), UA)).toBe(true);
    expect(starred.isAllowed(at('/shop/' + 'x-'.repeat(997) + 'y'), UA)).toBe(true);
  });

  it('10k groups: the group naming the agent is found at the end', () => {
    const groups = Array.from({ length: count }, (_, i) => `User-agent: bot${'abcdefghij'[i % 10]}${i}\nDisallow: /${i}`);
    const many = parseRobotsTxt([...groups, 'User-agent: HeedBot', 'Disallow: /private'].join('\n'));
    expect(many.explain(at('/private/x'), UA)).toMatchObject({ allowed: false, line: 2 * count + 2, matchedBy: 'product-token' });
    expect(many.isAllowed(at('/1'), UA)).toBe(true);
  });
});

describe('16 KB lines', () => {
  it('a 16,000-byte pattern matches a path that long and no shorter one', () => {
    const long = '/' + 'p'.repeat(15_999);
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${long}\nDisallow: /after\n`);
    expect(robots.isAllowed(at(long + '/x'), UA)).toBe(false);
    expect(robots.isAllowed(at(long.slice(0, -1)), UA)).toBe(true);
    expect(robots.explain(at('/after'), UA)).toMatchObject({ allowed: false, line: 3 });
  });

  it(`a line longer than ${MAX_LINE_BYTES} bytes is cut there, and the next line is read as usual`, () => {
    const body = `User-agent: *\nDisallow: /${'q'.repeat(40_000)}\nDisallow: /after\n`;
    const { lines } = tokenize(body);
    expect(lines[1]).toMatchObject({ line: 2, tooLong: true });
    expect(lines[2]).toMatchObject({ line: 3, tooLong: false, value: '/after' });
    const robots = parseRobotsTxt(body);
    const rule = robots.groups[0]?.rules[0];
    expect(rule?.pattern.length).toBeLessThan(MAX_LINE_BYTES);
    expect(rule?.pattern.length).toBeGreaterThan(MAX_LINE_BYTES - 20);
    // The cut pattern still matches the long path it starts.
    expect(robots.isAllowed(at('/' + 'q'.repeat(40_000)), UA)).toBe(false);
    expect(robots.isAllowed(at('/' + 'q'.repeat(100)), UA)).toBe(true);
    expect(robots.explain(at('/after'), UA)).toMatchObject({ allowed: false, line: 3 });
  });

  it('16 KB user-agent, comment and unknown lines are read without harm', () => {
    const body = [
      `User-agent: ${'x'.repeat(16_000)}`,
      `# ${'c'.repeat(16_000)}`,
      `Unknown: ${'u'.repeat(16_000)}`,
      'User-agent: *',
      'Disallow: /d',
    ].join('\n');
    const robots = parseRobotsTxt(body);
    expect(robots.explain(at('/d'), UA)).toMatchObject({ allowed: false, line: 5 });
    expect(robots.others.some((other) => other.value.length === 16_000)).toBe(true);
  });

  it('a 500 KiB body of one line without a line end', () => {
    const robots = parseRobotsTxt('Disallow: /' + 'z'.repeat(511_000));
    expect(robots.groups).toHaveLength(0);
    expect(robots.isAllowed(at('/zzz'), UA)).toBe(true);
  });
});

describe('2,000-char URLs', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /*%C3%A9*$\nDisallow: /a%2F\nAllow: /*?\n');

  it('of escapes, non-ASCII, and garbage', () => {
    expect(robots.explain(at('/' + 'é'.repeat(1_000)), UA)).toMatchObject({ allowed: false, line: 2 });
    expect(robots.isAllowed(at('/a%2f' + '%2f'.repeat(665)), UA)).toBe(false);
    expect(robots.isAllowed(at('/' + '%'.repeat(1_999)), UA)).toBe(true);
    expect(robots.isAllowed('%'.repeat(2_000), UA)).toBe(true);
    // Not URLs at all: no rule can name them.
    expect(robots.explain('\u0000'.repeat(2_000), UA)).toMatchObject({ allowed: true, line: 0 });
    expect(robots.explain('http://' + '['.repeat(2_000), UA)).toMatchObject({ allowed: true, line: 0 });
  });

  it('with a 2,000-char query', () => {
    expect(robots.explain(at('/page?' + 'q=1&'.repeat(500)), UA)).toMatchObject({ allowed: true, line: 4 });
  });
});

describe('500 KiB of backtracking bait', () => {
  // Patterns like /*a*a*a*a*a*a*a*a*a*b, varied, until the file is 500 KiB.
  const patterns: { directive: 'Allow' | 'Disallow'; pattern: string }[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let size = 'User-agent: *\n'.length;
  while (size < 500_000) {
    const stars = 5 + Math.floor(random() * 25);
    const pattern = '/' + '*a'.repeat(stars) + '*b';
    const directive = random() < 0.2 ? 'Allow' : 'Disallow';
    patterns.push({ directive, pattern });
    size += directive.length + 2 + pattern.length + 1;
  }
  const body = 'User-agent: *\n' + patterns.map((p) => `${p.directive}: ${p.pattern}`).join('\n') + '\n';
  const robots = parseRobotsTxt(body);
  /** For a path every pattern matches: the longest decides, allow on a tie, then the first line. */
  const longest = Math.max(...patterns.map((p) => p.pattern.length));
  const candidates = patterns.map((p, i) => ({ ...p, line: i + 2 })).filter((p) => p.pattern.length === longest);
  const winner = candidates.find((p) => p.directive === 'Allow') ?? candidates[0];

  it('is read whole (it is below the 500 KiB limit)', () => {
    expect(robots.truncated).toBe(false);
    expect(robots.groups[0]?.rules).toHaveLength(patterns.length);
  });

  it("a 2,000-char path of a's matches none of them", () => {
    expect(robots.explain(at('/' + 'a'.repeat(1_999)), UA)).toMatchObject({ allowed: true, line: 0 });
    expect(robots.explain(at('/' + 'ab'.repeat(999) + 'a'), UA)).toMatchObject({
      allowed: winner?.directive === 'Allow',
      line: winner?.line,
    });
    expect(robots.isAllowed(at('/' + 'a/'.repeat(999) + 'a'), UA)).toBe(true);
  });

  it('a path that matches all of them is decided by the longest (allow on a tie, then the first)', () => {
    expect(robots.explain(at('/' + 'a'.repeat(1_998) + 'b'), UA)).toMatchObject({
      allowed: winner?.directive === 'Allow',
      line: winner?.line,
    });
  });
});

describe('bodies beyond the limits', () => {
  it('a 2 MB body is cut at 500 KiB: rules after the cut do not count', () => {
    const filler = `# ${'f'.repeat(98)}\n`.repeat(5_200); // 520,000 bytes
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n${filler.repeat(3)}`);
    expect(robots.truncated).toBe(true);
    expect(robots.byteLength).toBeGreaterThan(2_000_000);
    expect(robots.isAllowed(at('/early'), UA)).toBe(false);
    expect(robots.isAllowed(at('/late'), UA)).toBe(true);
  });

  it('100k line ends of every kind', () => {
    const robots = parseRobotsTxt('\n'.repeat(50_000) + '\r'.repeat(50_000) + 'User-agent: *\r\nDisallow: /x');
    expect(robots.explain(at('/x'), UA)).toMatchObject({ allowed: false, line: 100_002 });
  });

  it('30k user-agent lines in one group (420 KB)', () => {
    const robots = parseRobotsTxt('User-agent: a\n'.repeat(30_000) + 'User-agent: HeedBot\nDisallow: /');
    expect(robots.groups).toHaveLength(1);
    expect(robots.isAllowed(at('/'), UA)).toBe(false);
  });
});
