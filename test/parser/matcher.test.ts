/**
 * The matcher (packages/parser/src/match.ts) against Google's matching written the plain way: every
 * rule of the groups that apply tried as a wildcard pattern (dynamic programming, no shortcuts), the
 * longest match deciding, `allow` winning ties, then the earlier line, Google's `index.html`
 * alternative added. Verdict and deciding line must agree for every path, on random rule sets —
 * small ones, large ones that are bucketed, ones with enough `*` rules to share segment searches,
 * long paths — and on real files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type Group, type ParseOptions } from '@heed/parser';
import { decodeUnreserved } from '../../packages/parser/src/escape.js';
import { canonicalPath } from '../../packages/parser/src/url.js';

const AGENT = 'HeedBot';

/** Google's `Matches`: `*` is any run of bytes, a final `$` anchors at the end, else a prefix match. */
function globMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  // The literal prefix before the first `*` decides alone for most rules; the rest is a wildcard match.
  const star = body.indexOf('*');
  if (!path.startsWith(star === -1 ? body : body.slice(0, star))) return false;
  if (star === -1) return !anchored || path.length === body.length;
  // reach[j]: the pattern read so far matches path[0, j).
  let reach = Array.from({ length: path.length + 1 }, (_, j) => j === 0);
  for (const char of body) {
    const next = new Array<boolean>(path.length + 1).fill(false);
    let any = false;
    for (let j = 0; j <= path.length; j++) {
      if (char === '*') {
        any ||= reach[j] === true;
        next[j] = any;
      } else next[j] = j > 0 && reach[j - 1] === true && path[j - 1] === char;
    }
    reach = next;
  }
  return anchored ? reach[path.length] === true : reach.includes(true);
}

/** Verdict and deciding line for `url`, worked out from the parsed groups with {@link globMatches}. */
function reference(groups: readonly Group[], url: string, options?: ParseOptions): string {
  const decode = options?.decodeUnreservedEscapes === true;
  const canonical = canonicalPath(url);
  const path = decode ? decodeUnreserved(canonical) : canonical;
  let best: { pattern: string; allow: boolean; line: number } | undefined;
  for (const group of groups) {
    for (const rule of group.rules) {
      const pattern = decode ? decodeUnreserved(rule.normalizedPattern) : rule.normalizedPattern;
      const allow = rule.directive === 'allow';
      const candidates = [pattern];
      // Google: `allow: /dir/index.htm…` also allows `/dir/` itself, as `allow: /dir/$` would.
      const slash = pattern.lastIndexOf('/');
      if (allow && slash !== -1 && pattern.startsWith('/index.htm', slash)) candidates.push(`${pattern.slice(0, slash + 1)}$`);
      for (const candidate of candidates) {
        if (!globMatches(candidate, path)) continue;
        const wins =
          best === undefined ||
          candidate.length > best.pattern.length ||
          (candidate.length === best.pattern.length &&
            (allow ? !best.allow || rule.line < best.line : !best.allow && rule.line < best.line));
        if (wins) best = { pattern: candidate, allow, line: rule.line };
      }
    }
  }
  // A matching empty pattern decides but allows: Google's `disallow()` needs a priority above 0.
  return best === undefined ? 'true@0' : `${best.allow || best.pattern === ''}@${best.line}`;
}

/**
 * Verdict and deciding line of every path from one parsed file, asked as a crawler asks: many checks
 * in a row. Each is also asked as the first check of a file of its own, which walks the rules
 * instead of compiling them (match/first-check.ts): both must give the same verdict, line and reason.
 */
function answers(body: string | Uint8Array, paths: readonly string[], options?: ParseOptions): string[] {
  const robots = parseRobotsTxt(body, options);
  return paths.map((path) => {
    const { allowed, line, reason } = robots.explain(path, AGENT);
    const decision = robots.decide(path, AGENT);
    expect(`${decision.allowed}@${decision.line}`).toBe(`${allowed}@${line}`);
    const first = parseRobotsTxt(body, options).decide(path, AGENT);
    expect(`${first.allowed}@${first.line} ${first.reason}`, `first check of ${path}`).toBe(`${allowed}@${line} ${reason}`);
    return `${allowed}@${line}`;
  });
}

function expected(body: string | Uint8Array, paths: readonly string[], options?: ParseOptions): string[] {
  const groups = parseRobotsTxt(body, options).groupsFor(AGENT);
  return paths.map((path) => reference(groups, path, options));
}

const piece = fc.constantFrom('/', 'a', 'b', 'ab', '*', '.', '?', '=', '&', '_', '%2F', '%41', 'index.html', 'x-y', '~');
const pattern = fc
  .array(piece, { maxLength: 7 })
  .chain((pieces) => fc.boolean().map((anchored) => `/${pieces.join('')}${anchored ? '$' : ''}`));
const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([key, value]) => `${key}: ${value}`);
const path = fc
  .array(fc.constantFrom('/', 'a', 'b', 'ab', '.', '?', '=', '&', '_', '%2F', '%41', 'A', 'index.html', 'x-y', '~'), { maxLength: 12 })
  .map((pieces) => `/${pieces.join('')}`);

function file(rules: readonly string[]): string {
  return `User-agent: *\n${rules.join('\n')}\n`;
}

describe('the matcher', () => {
  it('decides as Google does on small rule sets', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 80 }), (rules, paths) => {
        const body = file(rules);
        expect(answers(body, paths)).toEqual(expected(body, paths));
      }),
      { numRuns: 300 },
    );
  });

  it('decides as Google does for one `*` rule against short paths, where its pieces and its anchored tail may overlap', () => {
    const letters = fc.array(fc.constantFrom('a', 'b', 'ab', '*'), { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(''));
    const starRule = fc
      .tuple(fc.constantFrom('Allow', 'Disallow'), letters, fc.boolean())
      .map(([key, pattern, anchored]) => `${key}: /*${pattern}${anchored ? '$' : ''}`);
    const shortPath = fc.array(fc.constantFrom('a', 'b'), { maxLength: 6 }).map((pieces) => `/${pieces.join('')}`);
    fc.assert(
      fc.property(starRule, fc.array(shortPath, { minLength: 1, maxLength: 20 }), (rule, paths) => {
        const body = file([rule]);
        expect(answers(body, paths)).toEqual(expected(body, paths));
      }),
      { numRuns: 300 },
    );
  });

  it('decides as Google does with the RFC reading of escapes', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 40 }), (rules, paths) => {
        const body = file(rules);
        const options = { decodeUnreservedEscapes: true };
        expect(answers(body, paths, options)).toEqual(expected(body, paths, options));
      }),
      { numRuns: 100 },
    );
  });

  it('decides as Google does for large, bucketed rule sets with shared segment searches and long paths', () => {
    const longPath = path.map((p) => p + 'a/b_c?d=e&'.repeat(30));
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 300, maxLength: 400 }),
        fc.array(fc.oneof(path, longPath), { minLength: 1, maxLength: 30 }),
        (rules, paths) => {
          const body = file(rules);
          // Paths that share the rules' literal prefixes, so the buckets are really visited.
          const fromRules = rules.slice(0, 20).map((r) =>
            r
              .slice(r.indexOf(':') + 2)
              .replace(/\$$/, '')
              .replace(/\*/g, 'zz'),
          );
          const all = [...paths, ...fromRules, ...fromRules.map((p) => p + '/tail?q=1')];
          expect(answers(body, all)).toEqual(expected(body, all));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('decides as Google does for many `/*a*b*…` rules against long paths of runs', () => {
    // The shape of hostile files: enough `*` rules to share segment searches, few distinct segments,
    // paths long enough for next-occurrence tables, holding every letter, often in the wrong order,
    // so rules fail late, in their middle segments or in their last.
    const segment = fc.constantFrom('a', 'b', 'aa', 'ab', 'ba', 'bbb');
    const starRule = fc
      .tuple(fc.constantFrom('Allow', 'Disallow'), fc.array(segment, { minLength: 1, maxLength: 9 }), fc.boolean())
      .map(([key, segments, anchored]) => `${key}: /*${segments.join('*')}${anchored ? '$' : ''}`);
    const run = fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 1, max: 120 })).map(([c, n]) => c.repeat(n));
    const longRuns = fc
      .array(run, { minLength: 4, maxLength: 30 })
      .map((runs) => `/${runs.join('').repeat(Math.ceil(300 / runs.join('').length))}`);
    fc.assert(
      fc.property(
        fc.array(starRule, { minLength: 70, maxLength: 110 }),
        fc.array(longRuns, { minLength: 1, maxLength: 6 }),
        (rules, paths) => {
          const body = file(rules);
          const all = [
            ...paths,
            ...paths.map((p) =>
              p
                .split('')
                .reverse()
                .join('')
                .replace(/^(.*)\/$/, '/$1'),
            ),
          ];
          expect(answers(body, all)).toEqual(expected(body, all));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('decides as Google does for `*` rules needing many different bytes, on long paths checked in a row', () => {
    // Rules over a wide alphabet need many distinct sets of byte classes (past the matcher's limit
    // of mask partitions on some runs), and share prefixes, tails and sketches with other rules.
    // Long paths of different lengths in a row on one matcher: what one check learnt about its path
    // (missing segments, byte pairs, next-occurrence tables) must not leak into the next.
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123'.split(''));
    const segment = fc.array(letter, { minLength: 1, maxLength: 3 }).map((letters) => letters.join(''));
    const starRule = fc
      .tuple(
        fc.constantFrom('Allow', 'Disallow'),
        fc.constantFrom('/', '/a', '/ab'),
        fc.array(segment, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
      )
      .map(([key, prefix, segments, anchored]) => `${key}: ${prefix}*${segments.join('*')}${anchored ? '$' : ''}`);
    const longPath = fc.tuple(fc.array(segment, { minLength: 3, maxLength: 40 }), fc.integer({ min: 260, max: 1_200 })).map(
      ([pieces, length]) =>
        `/${pieces
          .join('')
          .repeat(Math.ceil(length / pieces.join('').length))
          .slice(0, length)}`,
    );
    fc.assert(
      fc.property(
        fc.array(starRule, { minLength: 70, maxLength: 160 }),
        fc.array(longPath, { minLength: 2, maxLength: 6 }),
        (rules, paths) => {
          const body = file(rules);
          const all = [...paths, ...paths.map((p) => `/ab${p.slice(1)}`), ...paths.slice(0, 2)];
          expect(answers(body, all)).toEqual(expected(body, all));
        },
      ),
      { numRuns: 20 },
    );
  });

  it('decides as Google does on long paths whose byte pairs a check indexes, before and after other paths', () => {
    // 80 distinct `*` rules (enough to share searches) whose last segments are nowhere in `abab…`:
    // their searches read the path over and over, so the check indexes the path's byte pairs and
    // answers from them. Those answers must be exact at the edges, and nothing one check learnt
    // about its path may answer for the next.
    const fillers = Array.from({ length: 80 }, (_, i) => `Disallow: /*b${'*a'.repeat(2 + (i % 23))}*${['bb', 'aa', 'bba', 'aab'][i % 4]}`);
    // `/*zz*ab*yx$`: each segment begins exactly where the search for it starts, at the path's end.
    const body = file([...fillers, 'Allow: /*b*a*a*c$', 'Allow: /*a*b*c*d', 'Allow: /*zz*ab*yx$']);
    const paths = [
      `/${'ab'.repeat(3_000)}zzabyx`,
      `/${'ab'.repeat(3_000)}c`,
      `/${'ba'.repeat(300)}c`,
      `/${'ab'.repeat(3_000)}cd`,
      `/${'b'.repeat(400)}${'a'.repeat(400)}`,
      `/${'ab'.repeat(3_000)}c`,
    ];
    expect(answers(body, paths)).toEqual(expected(body, paths));
  });

  it('decides as Google does when a long path holds a segment only at its very start or end', () => {
    // Many `*` rules that fail late (each reads the path again), then the one rule that matches
    // finds its segments exactly where a search starts, or exactly at the path's end.
    const fillers = Array.from({ length: 80 }, (_, i) => `Disallow: /*b${'*a'.repeat(2 + (i % 40))}*${i < 40 ? 'c' : 'cc'}`);
    const rules = [...fillers, 'Allow: /*b*c*a*a*a', 'Allow: /*e*f*g', 'Allow: /*x*y*k'];
    const body = file(rules);
    const paths = [`/b${'c'.repeat(600)}aaa`, `/ef${'h'.repeat(600)}g`, `/x${'y'.repeat(600)}k`];
    expect(answers(body, paths)).toEqual(['true@82', 'true@83', 'true@84']);
    expect(answers(body, paths)).toEqual(expected(body, paths));
  });

  it('decides as Google does when rules without a second byte meet many distinct second bytes', () => {
    // 60 `/*…` rules and 60 second bytes: the per-byte candidate lists would copy the 60 rules 60
    // times, so the matcher keeps one list and checks the second byte per rule.
    const bytes = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'].slice(0, 60);
    const rules = [
      ...bytes.map((c, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /${c}z`),
      ...Array.from({ length: 60 }, (_, i) => `${i % 3 ? 'Disallow' : 'Allow'}: /*q${i}${i % 4 ? '' : '$'}`),
    ];
    const body = file(rules);
    const paths = bytes.flatMap((c, i) => [`/${c}z`, `/${c}zz/q${i}`, `/${c}y/q${i}`, `/x/q${i}`]);
    expect(answers(body, paths)).toEqual(expected(body, paths));
  });

  it('decides as Google does on real files', () => {
    const sample = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
    const names = readdirSync(sample)
      .filter((name) => name !== 'README.md')
      .sort();
    let compared = 0;
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(sample + name));
      const robots = parseRobotsTxt(bytes);
      const paths = ['/', '/index.html', '/search?q=x&page=2', '/a_b/c.php?x=1', '/' + 'a/'.repeat(200)];
      for (const group of robots.groups) {
        for (const { pattern } of group.rules.slice(0, 20)) {
          const literal = pattern.replace(/\$$/, '').replace(/\*/g, 'x');
          paths.push(literal, `${literal}/more?y=1`, literal.replace(/\/[^/]*$/, '/'));
        }
      }
      expect(answers(bytes, paths), name).toEqual(expected(bytes, paths));
      compared += paths.length;
    }
    expect(compared).toBeGreaterThan(names.length * 5);
  });
});
