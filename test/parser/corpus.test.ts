/**
 * Crash-and-sanity run over real robots.txt files: the 4,231 files of ../shared/corpus/real-robots
 * (next to the repository) when they are there, else the 41-file sample kept in
 * test/fixtures/real-robots-sample. Every file must parse from its exact bytes without throwing,
 * and answer isAllowed/explain for a few URLs consistently: the same verdict from both, and a
 * deciding line that holds the deciding rule. HEED_CORPUS_SAMPLE=1 forces the sample (what a clean
 * clone runs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type RobotsTxt } from '@heed/parser';

const fullCorpus = fileURLToPath(new URL('../../../shared/corpus/real-robots/', import.meta.url));
const sample = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
const useFull = process.env.HEED_CORPUS_SAMPLE !== '1' && existsSync(fullCorpus);
const dir = useFull ? fullCorpus : sample;
// Paths as a reader finds them from the repository root (`../shared/corpus/real-robots`), not this machine's.
const shown = (path: string): string => relative(fileURLToPath(new URL('../../', import.meta.url)), path);
const files = readdirSync(dir)
  .filter((name) => name !== 'README.md')
  .sort();

if (!useFull) {
  const why =
    process.env.HEED_CORPUS_SAMPLE === '1' ? 'HEED_CORPUS_SAMPLE=1 is set' : `the full corpus was NOT found at ${shown(fullCorpus)}`;
  console.warn(`corpus.test.ts: ${why}; running on the ${files.length}-file sample in ${shown(sample)} instead.`);
}

const ORIGIN = 'https://example.com';
const AGENTS = ['HeedBot', 'Googlebot', 'bingbot', '*', ''];
const FIXED_PATHS = [
  '/',
  '/robots.txt',
  '/index.html',
  '/search?q=robots',
  '/wp-admin/admin-ajax.php',
  '/caf%c3%a9/',
  '/' + 'a/'.repeat(999) + 'a',
];

/** The file's lines as Google splits them (LF, CRLF, CR), each decoded as UTF-8 like the parser does. */
function linesOf(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = bytes[i];
    if (i < bytes.length && byte !== 0x0a && byte !== 0x0d) continue;
    lines.push(decoder.decode(bytes.subarray(start, i)));
    if (byte === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  return lines;
}

/** URLs built from the file's own rules, so that rules actually decide. */
function pathsFromRules(robots: RobotsTxt): string[] {
  const paths: string[] = [];
  for (const group of robots.groups.slice(0, 3)) {
    for (const rule of group.rules.slice(0, 3)) {
      const path = rule.pattern.replace(/\$$/, '').replace(/\*/g, 'x');
      paths.push(path.startsWith('/') ? path : '/' + path, path + '/deeper?x=1');
    }
  }
  return paths;
}

/** Checks one file; returns what is wrong with it (empty when all is well). */
function check(name: string): string[] {
  const bytes = new Uint8Array(readFileSync(dir + name));
  const problems: string[] = [];
  let robots: RobotsTxt;
  try {
    robots = parseRobotsTxt(bytes);
  } catch (error) {
    return [`parse threw ${String(error)}`];
  }
  if (robots.byteLength !== bytes.length) problems.push(`byteLength ${robots.byteLength} ≠ ${bytes.length}`);
  if (!robots.sitemaps.every((sitemap) => typeof sitemap === 'string' && sitemap.length > 0))
    problems.push('a sitemap is not a non-empty string');
  const lines = robots.truncated ? undefined : linesOf(bytes);
  for (const path of [...FIXED_PATHS, ...pathsFromRules(robots)]) {
    for (const agent of AGENTS) {
      try {
        const allowed = robots.isAllowed(ORIGIN + path, agent);
        const verdict = robots.explain(ORIGIN + path, agent);
        if (allowed !== verdict.allowed) problems.push(`isAllowed ${allowed} ≠ explain ${verdict.allowed} for ${agent} ${path}`);
        if (verdict.line === 0) {
          if (!verdict.allowed) problems.push(`disallowed without a deciding line for ${agent} ${path}`);
        } else if (verdict.rule?.line !== verdict.line) {
          problems.push(`deciding line ${verdict.line} ≠ rule line ${verdict.rule?.line} for ${agent} ${path}`);
        } else if (lines !== undefined && !(lines[verdict.line - 1] ?? '').includes(verdict.rule.pattern)) {
          problems.push(`line ${verdict.line} does not hold the pattern ${JSON.stringify(verdict.rule.pattern)}`);
        }
        const delay = robots.crawlDelay(agent);
        if (delay !== undefined && !(delay >= 0 && Number.isFinite(delay))) problems.push(`crawl-delay ${delay} for ${agent}`);
      } catch (error) {
        problems.push(`threw ${String(error)} for ${agent} ${path}`);
      }
    }
  }
  return problems;
}

describe(`real robots.txt files (${useFull ? 'full corpus' : 'sample'}: ${files.length} files in ${shown(dir)})`, () => {
  it('finds the files', () => {
    expect(files.length).toBeGreaterThanOrEqual(useFull ? 4_000 : 40);
  });

  const batchSize = 250;
  const batches = Array.from({ length: Math.ceil(files.length / batchSize) }, (_, i) => files.slice(i * batchSize, (i + 1) * batchSize));
  it.each(batches.map((batch) => [`${batch[0]} … ${batch[batch.length - 1]}`, batch] as const))(
    '%s parse and answer consistently',
    (_label, batch) => {
      const failures = batch.flatMap((name) => check(name).map((problem) => `${name}: ${problem}`));
      expect(failures).toEqual([]);
    },
  );

  it('reads real files the way Google does (spot checks on the sample)', () => {
    // Files of the sample, with what Google's parser says about them.
    const at = (name: string) => parseRobotsTxt(new Uint8Array(readFileSync(sample + name)));
    // A BOM in front of the first user-agent line does not hide it.
    const bom = at('www.pistonheads.com');
    expect(bom.groups.length).toBeGreaterThan(0);
    expect(bom.groups[0]?.line).toBe(bom.groups[0]?.agents[0]?.line);
    // An empty file allows everything.
    expect(at('www.mobile88.com').explain(`${ORIGIN}/anything`, 'HeedBot')).toMatchObject({ allowed: true, reason: 'no-group' });
  });
});
