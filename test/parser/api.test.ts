import { describe, expect, it } from 'vitest';
import { HeedError, InvalidOptionsError, decidingLineOfPacked, parseRobotsTxt, productToken } from '@heed/parser';
import { tokenize } from '../../packages/parser/src/tokenize.js';

const FILE = [
  'Sitemap: https://example.com/sitemap-1.xml', // 1
  'User-agent: HeedBot', // 2
  'User-agent: OtherBot', // 3
  'Crawl-delay: 2.5', // 4
  'Disallow: /private/', // 5
  'Allow: /private/open', // 6
  '', // 7
  'User-agent: *', // 8
  'Crawl-delay: 10', // 9
  'Disallow: /*.pdf$', // 10
  'Host: example.com', // 11
  'Clean-param: ref /articles/', // 12
  'Sitemap: https://example.com/sitemap-2.xml.gz', // 13
  '',
  'User-agent: heedbot', // 15
  'Disallow: /also-merged', // 16
].join('\n');

describe('RobotsTxt', () => {
  const robots = parseRobotsTxt(FILE);

  it('lists every sitemap in order, wherever it stands', () => {
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap-1.xml', 'https://example.com/sitemap-2.xml.gz']);
  });

  it('keeps groups with their agents, rules and lines', () => {
    expect(robots.groups.map((group) => group.agents.map((agent) => agent.token))).toEqual([['HeedBot', 'OtherBot'], ['*'], ['heedbot']]);
    expect(robots.groups[0]?.rules.map((rule) => [rule.directive, rule.pattern, rule.line])).toEqual([
      ['disallow', '/private/', 5],
      ['allow', '/private/open', 6],
    ]);
  });

  it('exposes other key: value lines', () => {
    expect(robots.others.map((other) => [other.key.toLowerCase(), other.value, other.line])).toEqual([
      ['crawl-delay', '2.5', 4],
      ['crawl-delay', '10', 9],
      ['host', 'example.com', 11],
      ['clean-param', 'ref /articles/', 12],
    ]);
  });

  it('answers crawl-delay from the group that applies', () => {
    expect(robots.crawlDelay('HeedBot')).toBe(2.5);
    expect(robots.crawlDelay('SomeoneElse')).toBe(10);
  });

  it('merges every group naming the agent and ignores * for it', () => {
    expect(robots.isAllowed('https://example.com/also-merged', 'HeedBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/doc.pdf', 'HeedBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/doc.pdf', 'SomeoneElse')).toBe(false);
  });

  it('explains the deciding rule, its line and the groups that applied', () => {
    const verdict = robots.explain('https://example.com/private/secret', 'HeedBot');
    expect(verdict).toMatchObject({ allowed: false, reason: 'rule', line: 5, matchedBy: 'product-token', path: '/private/secret' });
    expect(verdict.rule).toMatchObject({ directive: 'disallow', pattern: '/private/' });
    expect(verdict.groups.map((group) => group.line)).toEqual([2, 15]);

    expect(robots.explain('https://example.com/private/open/x', 'HeedBot')).toMatchObject({ allowed: true, line: 6 });
    expect(robots.explain('https://example.com/public', 'HeedBot')).toMatchObject({ allowed: true, reason: 'no-matching-rule', line: 0 });
    expect(parseRobotsTxt('User-agent: a\nDisallow: /').explain('https://x.com/', 'b')).toMatchObject({
      allowed: true,
      reason: 'no-group',
      matchedBy: 'none',
    });
  });

  it('reads bytes as bytes and text as UTF-8', () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9]);
    expect(parseRobotsTxt(latin1).isAllowed('https://example.com/caf%E9', 'x')).toBe(false);
    expect(parseRobotsTxt(latin1).isAllowed('https://example.com/café', 'x')).toBe(true);
    expect(parseRobotsTxt('User-agent: *\nDisallow: /café').isAllowed('https://example.com/caf%C3%A9', 'x')).toBe(false);
  });

  it('reports a body cut at maxBytes', () => {
    const big = parseRobotsTxt('User-agent: *\nDisallow: /a\n'.repeat(10), { maxBytes: 30 });
    expect(big.truncated).toBe(true);
    expect(big.byteLength).toBe(270);
  });

  it('rejects bad options with a message that says what to do', () => {
    expect(() => parseRobotsTxt('', { maxbytes: 5 } as never)).toThrow(InvalidOptionsError);
    expect(() => parseRobotsTxt('', { maxbytes: 5 } as never)).toThrow(
      /Invalid option "maxbytes" of parseRobotsTxt\(\): unknown option; did you mean "maxBytes"\? The options are maxBytes,/,
    );
    expect(() => parseRobotsTxt('', { maxBytes: -1 })).toThrow(/expected a number of bytes from 0 to 8,388,608/);
    expect(() => parseRobotsTxt('', { acceptTypos: 'yes' } as never)).toThrow(/true or false/);
    expect(() => parseRobotsTxt('', 'strict' as never)).toThrow(
      /Invalid option "options" of parseRobotsTxt\(\): expected an options object, e\.g\. \{ implicitRobotsTxtAllow: true \}, got "strict"\./,
    );
  });

  it('never throws on odd URLs and user-agents', () => {
    for (const url of ['', ' ', '://', 'http://', 'http://[::1', '\u0000', '%', '?a#b', 'javascript:alert(1)', '\ud800']) {
      // Not a URL with a path: nothing in the file can name it, so it is allowed, and explain() agrees.
      const verdict = robots.explain(url, 'HeedBot');
      expect(robots.isAllowed(url, 'HeedBot'), JSON.stringify(url)).toBe(verdict.allowed);
      if (verdict.line === 0) expect(verdict.allowed, JSON.stringify(url)).toBe(true);
    }
    expect(robots.isAllowed('https://example.com/private/', '')).toBe(true);
    expect(robots.isAllowed('https://example.com/private/', undefined as never)).toBe(true);
  });
});

describe('packedRules and decidingLineOfPacked', () => {
  const SMALL = 'User-agent: *\nDisallow: /private/\nAllow: /private/press-kit$\nDisallow: /*.pdf$\n';

  it('has no packed rules before the second check of the token: the first walks the rules, nothing is compiled', () => {
    const robots = parseRobotsTxt(SMALL);
    expect(robots.packedRules('HeedBot')).toBeUndefined();
    expect(robots.decidingLine('https://example.com/private/x', 'HeedBot')).toBe(-2);
    expect(robots.packedRules('HeedBot')).toBeUndefined();
    expect(robots.decidingLine('https://example.com/a.pdf', 'HeedBot')).toBe(-4);
    const packed = robots.packedRules('HeedBot');
    expect(packed).toBeTypeOf('string');
    // The same agent, however the token is written; not another one, which was never checked.
    expect(robots.packedRules('heedbot')).toBe(packed);
    expect(robots.packedRules(['HeedBot'])).toBe(packed);
    expect(robots.packedRules('OtherBot')).toBeUndefined();
    expect(decidingLineOfPacked(packed as string, 'https://example.com/private/press-kit')).toBe(3);
    expect(decidingLineOfPacked(packed as string, 'https://example.com/private/press-kit/')).toBe(-2);
    expect(decidingLineOfPacked(packed as string, 'https://example.com/public')).toBe(0);
  });

  it('reads the URL as the file does: unreserved escapes decoded and /robots.txt allowed when parsed so', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\n', { decodeUnreservedEscapes: true, implicitRobotsTxtAllow: true });
    robots.decidingLine('https://example.com/', 'HeedBot');
    robots.decidingLine('https://example.com/', 'HeedBot');
    const packed = robots.packedRules('HeedBot') as string;
    expect(decidingLineOfPacked(packed, 'https://example.com/robots.txt')).toBe(0);
    expect(decidingLineOfPacked(packed, 'https://example.com/%72obots.txt')).toBe(0);
    expect(decidingLineOfPacked(packed, 'https://example.com/x')).toBe(-2);
    const google = parseRobotsTxt('User-agent: *\nDisallow: /\n');
    google.decidingLine('/', 'HeedBot');
    google.decidingLine('/', 'HeedBot');
    expect(decidingLineOfPacked(google.packedRules('HeedBot') as string, 'https://example.com/robots.txt')).toBe(-2);
  });

  it('gives lines beyond 65,535 (a line takes two 16-bit units)', () => {
    const robots = parseRobotsTxt('User-agent: *\n' + '#\n'.repeat(70_000) + 'Disallow: /deep\nAllow: /deep/open\n');
    robots.decidingLine('/', 'HeedBot');
    robots.decidingLine('/', 'HeedBot');
    const packed = robots.packedRules('HeedBot') as string;
    expect(decidingLineOfPacked(packed, 'https://example.com/deep/x')).toBe(-70_002);
    expect(decidingLineOfPacked(packed, 'https://example.com/deep/open')).toBe(70_003);
  });

  it('finds a `*` segment right after a false start on its first character', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*ab\nDisallow: /x*??q$\n');
    robots.decidingLine('/', 'HeedBot');
    robots.decidingLine('/', 'HeedBot');
    const packed = robots.packedRules('HeedBot') as string;
    expect(decidingLineOfPacked(packed, '/aab')).toBe(-2);
    expect(decidingLineOfPacked(packed, '/x-???q')).toBe(-3);
    expect(decidingLineOfPacked(packed, '/x-?q')).toBe(0);
  });

  it('packs a rule set with a `*` segment longer than 16 characters, and finds it in a path', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /a*0123456789abcdefg*z\n');
    robots.decidingLine('/', 'HeedBot');
    expect(robots.decidingLine('/a-0123456789abcdefg-z', 'HeedBot')).toBe(-2);
    const packed = robots.packedRules('HeedBot') as string;
    expect(decidingLineOfPacked(packed, '/a-0123456789abcdefg-z')).toBe(-2);
    expect(decidingLineOfPacked(packed, '/a-0123456789abcdef-g-z')).toBe(0);
    expect(decidingLineOfPacked(packed, '/a-0123456789abcdefg')).toBe(0);
  });

  it('refuses a string that is not a packed rule set, saying what to pass', () => {
    for (const foreign of [
      '',
      'User-agent: *',
      'Disallow: /',
      '\u5204',
      '\u5204\u0000\u0005',
      undefined as unknown as string,
      42 as unknown as string,
    ]) {
      expect(() => decidingLineOfPacked(foreign, 'https://example.com/')).toThrow(InvalidOptionsError);
      expect(() => decidingLineOfPacked(foreign, 'https://example.com/')).toThrow(/robots\.packedRules\(productToken\)/);
    }
    expect(() => decidingLineOfPacked('', '/')).toThrow(HeedError);
  });

  it('never throws on odd URLs', () => {
    const robots = parseRobotsTxt(SMALL);
    robots.decidingLine('/', 'HeedBot');
    robots.decidingLine('/', 'HeedBot');
    const packed = robots.packedRules('HeedBot') as string;
    for (const url of ['', '\u0000', 'not a url', '//x', 'https://[::1', '/\ud800', 'https://example.com/' + 'a*'.repeat(100_000)])
      expect(decidingLineOfPacked(packed, url)).toBe(robots.decidingLine(url, 'HeedBot'));
  });
});

describe('productToken', () => {
  it.each([
    ['HeedBot/1.0 (+https://example.com/bot)', 'HeedBot'],
    ['Googlebot-News', 'Googlebot-News'],
    ['  my_bot 2', 'my_bot'],
    ['AB42bot', 'AB'],
    ['/1.0', ''],
  ])('%s → %s', (header, token) => expect(productToken(header)).toBe(token));
});

describe('tokenize', () => {
  it('records line metadata for every consumer', () => {
    const { lines, bomBytes } = tokenize('\uFEFF  Useragent: x # hi\r\nDisallow /a\r\n# only a comment\n\nbogus line here\n');
    expect(bomBytes).toBe(3);
    expect(lines.map((line) => [line.line, line.kind, line.directive, line.ending])).toEqual([
      [1, 'directive', 'user-agent', 'crlf'],
      [2, 'directive', 'disallow', 'crlf'],
      [3, 'comment', undefined, 'lf'],
      [4, 'blank', undefined, 'lf'],
      [5, 'invalid', undefined, 'lf'],
    ]);
    expect(lines[0]).toMatchObject({ keyTypo: true, hasComment: true, leadingWhitespace: true, value: 'x' });
    expect(lines[1]).toMatchObject({ missingColon: true, value: '/a' });
  });
});
