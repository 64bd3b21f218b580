/**
 * TDMRep (`/.well-known/tdmrep.json`, W3C community group report): parsing a hostile body, and the
 * first matching rule in array order deciding `train-ai` and `ai-input` for a URL. What a hostile
 * file costs is counted here (compiles, checks); its timings are in test/stress/growth.stress.ts.
 */
import fc from 'fast-check';
import { hostileTdmRepBody } from '../support/hostile-values.js';
import { describe, expect, it, vi } from 'vitest';
import { RuleMatcher } from '../../packages/parser/src/match.js';
import { MAX_TDMREP_BYTES, MAX_TDMREP_RULES, parseTdmRep, TdmRepMatcher } from '../../packages/manager/src/tdmrep/index.js';

const verdict = (body: string, url: string) => new TdmRepMatcher(parseTdmRep(body)).verdict(url);

describe('parseTdmRep()', () => {
  it('reads the rules of the report, in order, with reservation and policy', () => {
    const file = parseTdmRep(
      '[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}, {"location": "/free/*", "tdm-reservation": 0}]',
    );
    expect(file).toEqual({
      rules: [
        { index: 0, location: '/', reservation: 1, policy: 'https://example.com/policy.json' },
        { index: 1, location: '/free/*', reservation: 0 },
      ],
      problems: [],
    });
  });

  it('reads bytes as served, with or without a BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFF[{"location": "/é", "tdm-reservation": 1}]');
    expect(parseTdmRep(bytes).rules).toEqual([{ index: 0, location: '/é', reservation: 1 }]);
  });

  it('skips rules it cannot read and says why, keeping the others', () => {
    const file = parseTdmRep(
      '[42, {"tdm-reservation": 1}, {"location": "no-slash", "tdm-reservation": 1}, {"location": "/a", "tdm-reservation": "1"}, {"location": "/b", "tdm-reservation": 2, "tdm-policy": 7}]',
    );
    expect(file.rules).toEqual([
      { index: 3, location: '/a', reservation: undefined },
      { index: 4, location: '/b', reservation: undefined },
    ]);
    expect(file.problems).toEqual([
      'rule 0: not an object; skipped',
      'rule 1: "location" must be a path pattern starting with "/" (got nothing); skipped',
      'rule 2: "location" must be a path pattern starting with "/" (got "no-slash"); skipped',
      'rule 3: "tdm-reservation" must be 0 or 1 (got "1"); read as unset',
      'rule 4: "tdm-reservation" must be 0 or 1 (got 2); read as unset',
      'rule 4: "tdm-policy" is not a URL string; ignored',
    ]);
  });

  it('reads a single top-level object (seen in the wild) as one rule for "/"', () => {
    const file = parseTdmRep('{"tdm-reservation": 1, "tdm-policy": "https://example.com/p"}');
    expect(file.rules).toEqual([{ index: 0, location: '/', reservation: 1, policy: 'https://example.com/p' }]);
    expect(file.problems).toHaveLength(1);
  });

  it('refuses what is not a rule list: HTML error pages, JSON of another shape, garbage', () => {
    for (const body of ['<!doctype html><title>Not found</title>', '{"hello": 1}', '"text"', 'null', '', '[']) {
      const file = parseTdmRep(body);
      expect(file.rules, body).toEqual([]);
      expect(file.problems.length, body).toBe(1);
    }
  });

  it('is bounded: a body over 64 KiB is refused whole, and at most 1,000 rules are kept', () => {
    const big = `[${Array.from({ length: 3_000 }, (_, i) => `{"location": "/p${i}/", "tdm-reservation": 1}`).join(',')}]`;
    expect(big.length).toBeGreaterThan(MAX_TDMREP_BYTES);
    expect(parseTdmRep(big)).toEqual({ rules: [], problems: [expect.stringContaining('no rule is read')] });
    const many = `[${Array.from({ length: 1_500 }, () => '{"location":"/","tdm-reservation":1}').join(',')}]`;
    expect(many.length).toBeLessThan(MAX_TDMREP_BYTES);
    const file = parseTdmRep(many);
    expect(file.rules).toHaveLength(MAX_TDMREP_RULES);
    expect(file.problems).toEqual(['1500 rules; only the first 1000 are read']);
  });

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 4 }), fc.uint8Array({ maxLength: 200 })), (body) => {
        const file = parseTdmRep(body);
        expect(Array.isArray(file.rules)).toBe(true);
        new TdmRepMatcher(file).verdict('https://example.com/a/b?c');
      }),
      { numRuns: 500 },
    );
    // Deep nesting is just JSON: bounded by the size limit.
    expect(parseTdmRep('['.repeat(30_000) + ']'.repeat(30_000)).rules).toEqual([]);
  });

  it('keeps the rules around a value nested 30,000 deep (60 KB): the reservation stands, the odd rule is skipped', () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const third = '['.repeat(10_000) + ']'.repeat(10_000);
    const body = `[{"location":"/","tdm-reservation":1},{"location":${third}},{"location":"/b","tdm-reservation":${third}},{"location":"/c","tdm-reservation":0,"tdm-policy":{"a":${third}}}]`;
    expect(body.length).toBeLessThanOrEqual(MAX_TDMREP_BYTES);
    const file = parseTdmRep(body);
    expect(file.rules).toEqual([
      { index: 0, location: '/', reservation: 1 },
      { index: 2, location: '/b', reservation: undefined },
      { index: 3, location: '/c', reservation: 0 },
    ]);
    expect(file.problems).toEqual([
      'rule 1: "location" must be a path pattern starting with "/" (got an array); skipped',
      'rule 2: "tdm-reservation" must be 0 or 1 (got an array); read as unset',
      'rule 3: "tdm-policy" is not a URL string; ignored',
    ]);
    // Within the size limit, as the hostile file was: the rule before the odd one decides.
    const hostile = `[{"location":"/","tdm-reservation":1},{"location":${deep}}]`;
    expect(hostile.length).toBeLessThanOrEqual(MAX_TDMREP_BYTES);
    expect(new TdmRepMatcher(parseTdmRep(hostile)).verdict('https://example.com/page').preferences['train-ai']).toBe('disallow');
  });

  it('never throws on hostile shapes: deep nesting anywhere, long strings, odd types, up to the size limit (timed: test/stress/growth.stress.ts)', () => {
    const body = hostileTdmRepBody;
    fc.assert(
      fc.property(body, (text) => {
        const file = parseTdmRep(text);
        new TdmRepMatcher(file).verdict('https://example.com/a/b?c');
        expect(Array.isArray(file.rules)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('TdmRepMatcher', () => {
  const body = JSON.stringify([
    { location: '/open/', 'tdm-reservation': 0 },
    { location: '/*.pdf$', 'tdm-reservation': 1, 'tdm-policy': 'https://example.com/policy' },
    { location: '/news/*', 'tdm-reservation': 1 },
    { location: '/', 'tdm-reservation': 0 },
  ]);

  it('takes the first matching rule in array order, not the longest', () => {
    expect(verdict(body, 'https://example.com/open/report.pdf')).toMatchObject({
      rule: { index: 0 },
      preferences: { 'train-ai': 'allow', 'ai-input': 'allow' },
    });
    expect(verdict(body, 'https://example.com/docs/report.pdf')).toMatchObject({
      rule: { index: 1, policy: 'https://example.com/policy' },
      preferences: { 'train-ai': 'disallow', 'ai-input': 'disallow' },
    });
    expect(verdict(body, 'https://example.com/news/today')).toMatchObject({ rule: { index: 2 }, preferences: { 'train-ai': 'disallow' } });
    expect(verdict(body, 'https://example.com/about')).toMatchObject({ rule: { index: 3 }, preferences: { 'train-ai': 'allow' } });
  });

  it('anchors with $ and matches case-sensitively, by path and query', () => {
    expect(verdict(body, 'https://example.com/docs/report.pdf?x=1').rule?.index).toBe(3);
    expect(verdict(body, 'https://example.com/docs/REPORT.PDF').rule?.index).toBe(3);
    expect(verdict('[{"location": "/a?b", "tdm-reservation": 1}]', 'https://example.com/a?b=1').preferences['train-ai']).toBe('disallow');
  });

  it('decodes escapes of unreserved characters, and of nothing else, before comparing', () => {
    const file = '[{"location": "/%7Euser/", "tdm-reservation": 1}, {"location": "/a%2Fb", "tdm-reservation": 1}]';
    expect(verdict(file, 'https://example.com/~user/page').preferences['train-ai']).toBe('disallow');
    expect(verdict(file, 'https://example.com/a/b').rule).toBeUndefined();
    expect(verdict(file, 'https://example.com/a%2fb').rule?.index).toBe(1);
  });

  it('says unknown where no rule matches, or the matching rule has no valid reservation', () => {
    expect(verdict('[{"location": "/x/", "tdm-reservation": 1}]', 'https://example.com/y')).toEqual({
      preferences: { 'train-ai': 'unknown', 'ai-input': 'unknown' },
    });
    expect(
      verdict('[{"location": "/", "tdm-reservation": "yes"}, {"location": "/", "tdm-reservation": 1}]', 'https://example.com/y'),
    ).toMatchObject({ rule: { index: 0 }, preferences: { 'train-ai': 'unknown' } });
    expect(verdict('', 'https://example.com/y').preferences['train-ai']).toBe('unknown');
  });

  it('compiles a file into one matcher: 1,000 hostile `*` locations are one Allow/Disallow rule set, asked once a check (timed: test/stress/growth.stress.ts)', () => {
    const location = (i: number) => `/*a*a*a*a*a*a*a*a*a*a*a*${i % 10}b`;
    const url = `https://example.com/${'a'.repeat(2_000)}`;
    const body = JSON.stringify(Array.from({ length: 1_000 }, (_, i) => ({ location: location(i), 'tdm-reservation': 1 })));
    expect(body.length).toBeLessThanOrEqual(MAX_TDMREP_BYTES);
    // The engine the robots.txt rules use: one matcher per rule cost ~2,000 times as much a check.
    const compiled = vi.spyOn(RuleMatcher, 'fromTable');
    const asked = vi.spyOn(RuleMatcher.prototype, 'match');
    try {
      const matcher = new TdmRepMatcher(parseTdmRep(body));
      expect(compiled).toHaveBeenCalledTimes(1);
      expect(compiled.mock.calls[0]?.[1]).toHaveLength(1_000);
      for (let i = 0; i < 10; i++) {
        expect(matcher.verdict(url).rule).toBeUndefined();
        expect(matcher.verdict(`${url}${i}b`).rule?.index).toBe(i);
      }
      // Twenty checks: twenty questions to the one rule set, and nothing compiled again.
      expect(asked).toHaveBeenCalledTimes(20);
      expect(compiled).toHaveBeenCalledTimes(1);
    } finally {
      compiled.mockRestore();
      asked.mockRestore();
    }
  });
});
