/**
 * A rule set switches to its hot form (packages/parser/src/hot-rules.ts) after HOT_AFTER checks.
 * Both forms must give the same verdict and deciding line for every path: a cold object (fresh,
 * fewer checks than HOT_AFTER) and a hot one (warmed up) are compared on random rule sets — small
 * ones, large ones that are bucketed, ones with enough `*` rules to share segment searches, long
 * paths — and on the real-file corpus.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type ParseOptions, type RobotsTxt } from '@heed/parser';
import { HOT_AFTER } from '../../packages/parser/src/match.js';

const AGENT = 'HeedBot';

function heated(body: string | Uint8Array, options?: ParseOptions): RobotsTxt {
  const robots = parseRobotsTxt(body, options);
  for (let i = 0; i < HOT_AFTER; i++) robots.isAllowed('/', AGENT);
  return robots;
}

/** Verdict and deciding line of every path, from cold objects (a fresh one before it heats up). */
function coldAnswers(body: string | Uint8Array, paths: readonly string[], options?: ParseOptions): string[] {
  const answers: string[] = [];
  let robots = parseRobotsTxt(body, options);
  paths.forEach((path, i) => {
    if (i % (HOT_AFTER - 1) === 0) robots = parseRobotsTxt(body, options);
    const { allowed, line } = robots.explain(path, AGENT);
    answers.push(`${allowed}@${line}`);
  });
  return answers;
}

function hotAnswers(body: string | Uint8Array, paths: readonly string[], options?: ParseOptions): string[] {
  const robots = heated(body, options);
  return paths.map((path) => {
    const { allowed, line } = robots.explain(path, AGENT);
    return `${allowed}@${line}`;
  });
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

describe('the hot form of a rule set', () => {
  it('switches on after HOT_AFTER checks and answers as the compact form did (small rule sets)', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 80 }), (rules, paths) => {
        const body = file(rules);
        expect(hotAnswers(body, paths)).toEqual(coldAnswers(body, paths));
      }),
      { numRuns: 300 },
    );
  });

  it('answers as the compact form did with the RFC reading of escapes', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 40 }), (rules, paths) => {
        const body = file(rules);
        const options = { decodeUnreservedEscapes: true };
        expect(hotAnswers(body, paths, options)).toEqual(coldAnswers(body, paths, options));
      }),
      { numRuns: 100 },
    );
  });

  it('answers as the compact form did for large, bucketed rule sets with shared segment searches and long paths', () => {
    const longPath = path.map((p) => p + 'a/b_c?d=e&'.repeat(30));
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 300, maxLength: 400 }),
        fc.array(fc.oneof(path, longPath), { minLength: 1, maxLength: 60 }),
        (rules, paths) => {
          const body = file(rules);
          // Paths that share the rules' literal prefixes, so the buckets are really visited.
          const fromRules = rules.slice(0, 40).map((r) =>
            r
              .slice(r.indexOf(':') + 2)
              .replace(/\$$/, '')
              .replace(/\*/g, 'zz'),
          );
          const all = [...paths, ...fromRules, ...fromRules.map((p) => p + '/tail?q=1')];
          expect(hotAnswers(body, all)).toEqual(coldAnswers(body, all));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answers as the compact form did when rules without a second byte meet many distinct second bytes', () => {
    // 60 `/*…` rules and 60 second bytes: the per-byte candidate lists would copy the 60 rules 60
    // times, so the hot form keeps one list and checks the second byte per rule.
    const bytes = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'].slice(0, 60);
    const rules = [
      ...bytes.map((c, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /${c}z`),
      ...Array.from({ length: 60 }, (_, i) => `${i % 3 ? 'Disallow' : 'Allow'}: /*q${i}${i % 4 ? '' : '$'}`),
    ];
    const body = file(rules);
    const paths = bytes.flatMap((c, i) => [`/${c}z`, `/${c}zz/q${i}`, `/${c}y/q${i}`, `/x/q${i}`]);
    expect(hotAnswers(body, paths)).toEqual(coldAnswers(body, paths));
  });

  it('answers as the compact form did on real files', () => {
    const fullCorpus = fileURLToPath(new URL('../../../shared/corpus/real-robots/', import.meta.url));
    const sample = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
    const dir = process.env.HEED_CORPUS_SAMPLE !== '1' && existsSync(fullCorpus) ? fullCorpus : sample;
    const names = readdirSync(dir)
      .filter((name) => name !== 'README.md')
      .sort();
    let compared = 0;
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(dir + name));
      const robots = parseRobotsTxt(bytes);
      const paths = ['/', '/index.html', '/search?q=x&page=2', '/a_b/c.php?x=1', '/' + 'a/'.repeat(200)];
      for (const group of robots.groups) {
        for (const { pattern } of group.rules.slice(0, 20)) {
          const literal = pattern.replace(/\$$/, '').replace(/\*/g, 'x');
          paths.push(literal, `${literal}/more?y=1`, literal.replace(/\/[^/]*$/, '/'));
        }
      }
      expect(hotAnswers(bytes, paths), name).toEqual(coldAnswers(bytes, paths));
      compared += paths.length;
    }
    expect(compared).toBeGreaterThan(names.length * 5);
  });
});
