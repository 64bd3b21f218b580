/**
 * AI-usage preferences: `RobotsTxt#usage()` against the conformance data
 * (test/conformance/aipref-usage.jsonl, the cases' `usage` field), the RFC 9651 dictionary parser
 * against the RFC's own examples, several product tokens against google/robotstxt's semantics
 * (`AllowedByRobots()` with a vector of user agents), and the promise that files without usage
 * lines pay nothing for them. Hostile files are bounded here by counting the work done (crawl checks,
 * dictionaries parsed); their growth ratios are timed in test/stress/growth.stress.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { hostileDictionaryValue } from '../support/hostile-values.js';
import { describe, expect, it, vi } from 'vitest';
import { lint, parseRobotsTxt, UsageVerdict, type ParseOptions, type UsagePreference } from '@heed/parser';
import { RobotsTxt } from '../../packages/parser/src/robots-txt.js';
import { parseContentUsageRule } from '../../packages/parser/src/usage/content-usage.js';
import { parseUsageHeader } from '../../packages/parser/src/usage/header.js';
import { parseDictionary } from '../../packages/parser/src/usage/structured-fields.js';

// The same parser, with a count of the Content-Usage dictionaries it parses: a hostile file's cost is
// counted in work done, not timed. Test files share their worker (vitest.config.ts), so an earlier
// file may have loaded the parser's modules already, bound to the uncounted function: they are
// loaded afresh for this file, after the mock.
vi.hoisted(() => vi.resetModules());
vi.mock('../../packages/parser/src/usage/content-usage.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../packages/parser/src/usage/content-usage.js')>();
  return { ...real, parseContentUsageRule: vi.fn(real.parseContentUsageRule) };
});
const dictionariesParsed = vi.mocked(parseContentUsageRule);

interface UsageCase {
  id: string;
  robots: string;
  ua: string | string[];
  url: string;
  expected: 'ALLOWED' | 'DISALLOWED';
  matching_line: number;
  usage?: Record<string, { preference: UsagePreference; line?: number; signal?: string }>;
  usage_reason?: string;
  options?: ParseOptions;
}

const dir = fileURLToPath(new URL('../conformance/', import.meta.url));
const cases = readdirSync(dir)
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) =>
    readFileSync(dir + name, 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as UsageCase),
  )
  .filter((c) => c.usage !== undefined);

describe('usage conformance (test/conformance/*.jsonl, cases with `usage`)', () => {
  it('has cases for every behaviour the data covers', () => {
    const ids = new Set(cases.map((c) => c.id.split('#')[0]));
    for (const topic of [
      'longest-match',
      'same-path',
      'uppercase-key',
      'duplicates',
      'unknown-values',
      'attach-example',
      'content-signal-before-groups',
      'several-tokens',
      'usage-inside-agent-list',
      'usage-ends-agent-list',
      'usage-only-group',
      'merged-groups',
      'usage-before-user-agent',
    ]) {
      expect(ids).toContain(topic);
    }
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const robots = parseRobotsTxt(c.robots, c.options);
    for (const round of ['first', 'again']) {
      const verdict = robots.usage(c.url, c.ua);
      expect(verdict.crawlAllowed, round).toBe(c.expected === 'ALLOWED');
      if (c.usage_reason !== undefined) expect(verdict.reason, round).toBe(c.usage_reason);
      for (const [category, want] of Object.entries(c.usage ?? {})) {
        expect(verdict.preference(category), `${round}: ${category}`).toBe(want.preference);
        const decision = verdict.decision(category);
        if (want.preference === 'unknown') expect(decision).toBeUndefined();
        else
          expect({ line: decision?.line, signal: decision?.signal }, `${round}: ${category}`).toEqual({
            line: want.line,
            signal: want.signal,
          });
      }
      // explain() carries the same verdict.
      expect(robots.explain(c.url, c.ua).usage, round).toEqual(verdict);
      // Compiled state kept after many checks must not change the answer.
      for (let i = 0; i < 100; i++) robots.usage('/', c.ua);
    }
  });
});

describe('RobotsTxt#usage()', () => {
  const body = 'User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: search=yes\n';

  it('answers unknown for categories nobody states, and for any string', () => {
    const verdict = parseRobotsTxt(body).usage('https://example.com/', 'HeedBot');
    expect(verdict.preference('train-ai')).toBe('disallow');
    expect(verdict.preference('search')).toBe('allow');
    expect(verdict.preference('ai-input')).toBe('unknown');
    expect(verdict.preference('toString')).toBe('unknown');
    expect(verdict.preference('')).toBe('unknown');
  });

  it('prints as plain JSON data (CLI and logs), with the deciding line of each category', () => {
    const verdict = parseRobotsTxt(body).usage('https://example.com/a', 'HeedBot');
    expect(verdict).toBeInstanceOf(UsageVerdict);
    expect(JSON.parse(JSON.stringify(verdict))).toEqual({
      productToken: 'HeedBot',
      path: '/a',
      crawlAllowed: true,
      reason: 'stated',
      statements: [
        { signal: 'content-usage', line: 3, value: 'train-ai=n', path: '' },
        { signal: 'content-signal', line: 4, value: 'search=yes' },
      ],
      decisions: {
        'train-ai': { preference: 'disallow', signal: 'content-usage', line: 3, value: 'train-ai=n', label: 'train-ai' },
        search: { preference: 'allow', signal: 'content-signal', line: 4, value: 'search=yes', label: 'search' },
      },
    });
  });

  it('says none-stated, with every category unknown, for a file without usage lines', () => {
    const verdict = parseRobotsTxt('User-agent: *\nDisallow: /x\n').usage('https://example.com/a', 'HeedBot');
    expect(verdict.reason).toBe('none-stated');
    expect(verdict.preference('train-ai')).toBe('unknown');
  });

  it('honours the RFC 9309 options for Content-Usage paths as for Allow/Disallow', () => {
    const robots = parseRobotsTxt('User-agent: *\nAllow: /\nContent-Usage: /%41bc train-ai=n\n', { decodeUnreservedEscapes: true });
    expect(robots.usage('https://example.com/Abc', 'HeedBot').preference('train-ai')).toBe('disallow');
    expect(
      parseRobotsTxt('User-agent: *\nAllow: /\nContent-Usage: /%41bc train-ai=n\n')
        .usage('https://example.com/Abc', 'HeedBot')
        .preference('train-ai'),
    ).toBe('unknown');
  });

  it('leaves the crawl verdicts alone: usage lines change no isAllowed() answer (Google reads them as unknown keys)', () => {
    const line = fc.constantFrom(
      'User-agent: *',
      'User-agent: HeedBot',
      'User-agent: other',
      'Disallow: /a',
      'Allow: /a/b',
      'Disallow: /',
      'Allow: /*.html$',
      '',
    );
    const usageLine = fc.constantFrom(
      'Content-Usage: train-ai=n',
      'Content-Usage: /a train-ai=y',
      'Content-Signal: search=yes',
      'content-usage: /',
      'CONTENT-SIGNAL: x',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(line, usageLine), { maxLength: 14 }),
        fc.constantFrom('/', '/a', '/a/b', '/a/b.html', '/c'),
        fc.constantFrom('HeedBot', 'other', 'x'),
        (lines, path, ua) => {
          const withUsage = parseRobotsTxt(lines.join('\n'));
          // The same file with every usage line turned into an unknown key.
          const without = parseRobotsTxt(lines.map((l) => l.replace(/^content-(usage|signal)/i, 'X-Other')).join('\n'));
          expect(withUsage.explain(`https://example.com${path}`, ua)).toMatchObject({
            allowed: without.isAllowed(`https://example.com${path}`, ua),
            line: without.explain(`https://example.com${path}`, ua).line,
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('adds no usage field to explain() for files without usage lines', () => {
    const verdict = parseRobotsTxt('User-agent: *\nDisallow: /x\n').explain('https://example.com/x', 'HeedBot');
    expect('usage' in verdict).toBe(false);
  });

  it('answers a hostile file of 5,000 wildcard Content-Usage rules by its longest match (growth ratio: test/stress/growth.stress.ts)', () => {
    const file = `User-agent: *\nAllow: /\n${Array.from({ length: 5_000 }, (_, i) => `Content-Usage: /${'*a'.repeat(20)}*${i} train-ai=n\n`).join('')}`;
    const robots = parseRobotsTxt(file);
    // `/aaa…a12` matches the rules ending in 1, 2 and 12: the longest, rule 12 (line 15), decides.
    const lines = Array.from(
      { length: 20 },
      (_, i) => robots.usage(`https://example.com/${'a'.repeat(1_000)}${i}`, 'HeedBot').decision('train-ai')?.line,
    );
    expect(lines).toEqual(Array.from({ length: 20 }, (_, i) => 3 + i));
  });
});

describe('hostile files of usage lines (growth ratios: test/stress/growth.stress.ts)', () => {
  const file = (n: number) =>
    `User-agent: *\nUser-agent: a\nDisallow: /\n${Array.from({ length: n }, (_, i) => `Content-Usage: /x${i}/*a*a*a train-ai=n\n`).join('')}`;

  it('lint spends a bounded number of crawl checks: 4,000 or 8,000 usage lines, the same 256', () => {
    const explain = vi.spyOn(RobotsTxt.prototype, 'explain');
    const checksOf = (body: string) => {
      explain.mockClear();
      const found = lint(body);
      return { checks: explain.mock.calls.length, disallowedPaths: found.filter((d) => d.code === 'usage-path-disallowed').length };
    };
    // Each usage line is checked against the crawl rules (two agents, two checks) until the budget
    // of 256 is spent; past it the lines cost a scan each, not a crawl check.
    try {
      expect(checksOf(file(10))).toEqual({ checks: 20, disallowedPaths: 10 });
      expect(checksOf(file(4_000))).toEqual({ checks: 256, disallowedPaths: 128 });
      expect(checksOf(file(8_000))).toEqual({ checks: 256, disallowedPaths: 128 });
    } finally {
      explain.mockRestore();
    }
  });

  it("the first usage() of a crawler compiles paths only: one dictionary parsed, the deciding rule's, of 4,000 or 8,000", () => {
    const open = (n: number) => parseRobotsTxt(file(n).replace('Disallow: /', 'Allow: /'));
    for (const n of [4_000, 8_000]) {
      const robots = open(n);
      dictionariesParsed.mockClear();
      expect(robots.usage(`/x${n - 1}/aaa`, 'a').decision('train-ai')?.line).toBe(n + 3);
      expect(dictionariesParsed, `${n} rules`).toHaveBeenCalledTimes(1);
      // Parsed once: the next check of the rule reads it from the compiled state.
      robots.usage(`/x${n - 1}/aaa`, 'a');
      expect(dictionariesParsed, `${n} rules, again`).toHaveBeenCalledTimes(1);
    }
  });
});

describe('several product tokens (google/robotstxt AllowedByRobots with a vector of user agents)', () => {
  const body =
    'User-agent: mybot-news\nDisallow: /drafts/\nCrawl-delay: 2\n\nUser-agent: mybot\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\n';
  const robots = parseRobotsTxt(body);

  it('applies the groups of every named token, merged', () => {
    expect(robots.isAllowed('https://example.com/drafts/x', ['mybot-news', 'mybot'])).toBe(false);
    expect(robots.isAllowed('https://example.com/private/x', ['mybot-news', 'mybot'])).toBe(false);
    expect(robots.isAllowed('https://example.com/other', ['mybot-news', 'mybot'])).toBe(true);
    expect(robots.groupsFor(['mybot-news', 'mybot']).map((group) => group.line)).toEqual([1, 5]);
  });

  it('uses the * groups only when no listed token is named', () => {
    expect(robots.isAllowed('https://example.com/drafts/x', ['otherbot', 'mybot'])).toBe(true);
    expect(robots.explain('https://example.com/other', ['nobot', 'otherbot'])).toMatchObject({
      allowed: false,
      line: 10,
      matchedBy: 'wildcard',
      productToken: ['nobot', 'otherbot'],
    });
  });

  it('explains with the listed tokens and the merged groups', () => {
    expect(robots.explain('https://example.com/private/x', ['mybot-news', 'mybot'])).toMatchObject({
      allowed: false,
      line: 6,
      matchedBy: 'product-token',
      productToken: ['mybot-news', 'mybot'],
    });
  });

  it('takes the crawl-delay of the first merged group that sets one', () => {
    expect(robots.crawlDelay(['mybot', 'mybot-news'])).toBe(2);
    expect(robots.crawlDelay(['mybot'])).toBe(5);
  });

  it('reads a one-token list as the token, and an empty or odd list as no token', () => {
    const { productToken: list, ...fromList } = robots.explain('https://example.com/private/x', ['mybot']);
    const { productToken: token, ...fromToken } = robots.explain('https://example.com/private/x', 'mybot');
    expect(fromList).toEqual(fromToken);
    expect([list, token]).toEqual([['mybot'], 'mybot']);
    expect(robots.isAllowed('https://example.com/a', [])).toBe(false);
    expect(robots.isAllowed('https://example.com/a', [42, null] as unknown as string[])).toBe(false);
  });

  it('answers for the list as it is now, when the caller changes the array it passed before', () => {
    const tokens = ['mybot'];
    expect(robots.isAllowed('https://example.com/drafts/x', tokens)).toBe(true);
    tokens.push('mybot-news');
    expect(robots.isAllowed('https://example.com/drafts/x', tokens)).toBe(false);
  });

  it('names the list it was asked with in explain() and usage(), as it was then', () => {
    const tokens = ['mybot-news', 'mybot'];
    const explanation = robots.explain('https://example.com/drafts/x', tokens);
    const usage = robots.usage('https://example.com/drafts/x', tokens);
    tokens.push('otherbot');
    expect(explanation.productToken).toEqual(['mybot-news', 'mybot']);
    expect(usage.productToken).toEqual(['mybot-news', 'mybot']);
    expect(Object.isFrozen(explanation.productToken)).toBe(true);
  });

  it('reads a frozen list once: later checks with the same array answer from its compiled rules', () => {
    const fresh = parseRobotsTxt(body);
    let reads = 0;
    const tokens: string[] = [];
    Object.defineProperty(tokens, 0, { enumerable: true, get: () => (reads++, 'mybot-news') });
    tokens.push('mybot');
    Object.freeze(tokens);
    expect(fresh.decide('https://example.com/drafts/x', tokens)).toMatchObject({ allowed: false, line: 2 });
    const afterFirst = reads;
    for (let i = 0; i < 100; i++) fresh.decide('https://example.com/drafts/x', tokens);
    expect(reads).toBe(afterFirst);
    // Other tokens and lists in between still get their own verdicts; the frozen list its own.
    const other = Object.freeze(['mybot']);
    expect(fresh.decide('https://example.com/drafts/x', other).allowed).toBe(true);
    expect(fresh.decide('https://example.com/private/x', 'mybot-news').allowed).toBe(true);
    expect(fresh.decide('https://example.com/drafts/x', ['mybot']).allowed).toBe(true);
    expect(fresh.decide('https://example.com/drafts/x', tokens).allowed).toBe(false);
    expect(fresh.decide('https://example.com/drafts/x', other).allowed).toBe(true);
  });

  it('agrees, for any file, with the same file whose second token is renamed to the first (what merging means)', () => {
    const line = fc.constantFrom(
      'User-agent: a',
      'User-agent: b',
      'User-agent: *',
      'User-agent: c',
      'Disallow: /x',
      'Allow: /x/y',
      'Disallow: /',
      'Allow: /*.html$',
      'Disallow: /y$',
      '',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 16 }), fc.constantFrom('/', '/x', '/x/y', '/x/y.html', '/y', '/z'), (lines, path) => {
        const url = `https://example.com${path}`;
        const both = parseRobotsTxt(lines.join('\n')).explain(url, ['a', 'b']);
        const renamed = parseRobotsTxt(lines.map((l) => (l === 'User-agent: b' ? 'User-agent: a' : l)).join('\n')).explain(url, 'a');
        expect({ allowed: both.allowed, line: both.line, matchedBy: both.matchedBy }).toEqual({
          allowed: renamed.allowed,
          line: renamed.line,
          matchedBy: renamed.matchedBy,
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('RFC 9651 Dictionary parser (usage/structured-fields.ts)', () => {
  const ok = (input: string) => {
    const result = parseDictionary(input);
    if (!result.ok) throw new Error(`expected ${input} to parse: ${result.message}`);
    return Object.fromEntries(
      [...result.dictionary].map(([key, member]) => [
        key,
        member.kind === 'item' ? member.value.value : member.items.map((item) => item.value.value),
      ]),
    );
  };
  const fails = (input: string) => {
    const result = parseDictionary(input);
    return result.ok ? 'parsed' : result.error;
  };

  it('parses the RFC examples', () => {
    expect(ok('en="Applepie", da=:w4ZibGV0w6ZydGU=:')).toEqual({ en: 'Applepie', da: 'w4ZibGV0w6ZydGU=' });
    expect(ok('a=?0, b, c; foo=bar')).toEqual({ a: false, b: true, c: true });
    expect(ok('rating=1.5, feelings=(joy sadness)')).toEqual({ rating: 1.5, feelings: ['joy', 'sadness'] });
    expect(ok('a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid')).toEqual({ a: [1, 2], b: 3, c: 4, d: [5, 6] });
    expect(ok('')).toEqual({});
    expect(ok('  train-ai=y,search=n  ')).toEqual({ 'train-ai': 'y', search: 'n' });
    expect(ok('t=@1659578233, s=%"caf%c3%a9", n=-12.345')).toEqual({ t: 1659578233, s: 'café', n: -12.345 });
  });

  it('keeps the last of duplicate keys', () => {
    expect(ok('a=1, b=2, a=3')).toEqual({ a: 3, b: 2 });
  });

  it('fails the whole dictionary on an upper-case key, and says so', () => {
    expect(fails('Train-ai=n')).toBe('uppercase-key');
    expect(fails('train-AI=n')).toBe('uppercase-key');
    expect(fails('search=n, Train-ai=y')).toBe('uppercase-key');
    expect(fails('train-ai=n;Reason=x')).toBe('uppercase-key');
    expect(ok('train-ai=N')).toEqual({ 'train-ai': 'N' }); // an upper-case token value is fine
  });

  it('fails on what RFC 9651 rejects', () => {
    for (const input of [
      'a=1,',
      'a=1 b=2',
      'a=',
      '1a=1',
      'a="x',
      'a="\\x"',
      'a=(1 2',
      'a=:%%:',
      'a=?2',
      'a=1234567890123456',
      'a=1.2345',
      'a=1.',
      'a=@1.5',
      'a=%"Caf%C3"',
      'a=é',
    ]) {
      expect(fails(input), input).not.toBe('parsed');
    }
  });

  it('is bounded: long values and too many members fail, and hostile input stays linear', () => {
    expect(fails('a=' + 'b'.repeat(20_000))).toBe('too-long');
    expect(fails(Array.from({ length: 1_025 }, (_, i) => `k${i}=1`).join(','))).toBe('too-many');
    expect(ok(Array.from({ length: 1_024 }, (_, i) => `k${i}=1`).join(','))).toHaveProperty('k1023', 1);
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (input) => {
        expect(typeof parseDictionary(input).ok).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  });

  it('never throws on hostile values: its own syntax in any order, repeated up to and past the size limit (timed: test/stress/growth.stress.ts)', () => {
    const value = hostileDictionaryValue;
    fc.assert(
      fc.property(value, fc.boolean(), (input, asLines) => {
        const result = parseDictionary(input);
        const statement = parseUsageHeader('content-usage', asLines ? input.split(',') : input);
        expect(typeof result.ok).toBe('boolean');
        expect(statement.invalid || statement.preferences instanceof Map).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('lint of usage lines, beyond the case files', () => {
  it('says how to write a usage line that lost its colon, in full', () => {
    const found = lint('User-agent: *\nAllow: /\nContent-Usage /x train-ai=n\nContent-Signal search=yes\n');
    expect(found.map((d) => [d.line, d.code])).toEqual([
      [3, 'missing-colon'],
      [4, 'missing-colon'],
    ]);
    expect(found[0]?.message).toContain('Write `Content-Usage: /x train-ai=n`');
    expect(found[1]?.message).toContain('Heed reads the line anyway');
  });

  it('no longer calls Content-Usage and Content-Signal unknown keys, and still catches their misspellings', () => {
    const found = lint('User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: search=yes\nContent-Usages: train-ai=n\n');
    expect(found.map((d) => [d.line, d.code])).toEqual([[5, 'unknown-key-typo']]);
    expect(found[0]?.message).toContain('Did you mean `Content-Usage:`?');
  });
});
