/**
 * Google's robotstxt-spec-test conformance suite and the specification's examples, as data
 * (test/conformance/*.jsonl, copied from shared/conformance) and Heed's own cases (heed-cases.jsonl:
 * the RFC 9309 options, URL canonicalisation, byte handling): verdict and deciding line, also from
 * the packed form of the compiled rules where they have one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decidingLineOfPacked, parseRobotsTxt, type ParseOptions } from '@heed/parser';

interface ConformanceCase {
  id: string;
  robots?: string;
  robots_b64?: string;
  ua: string;
  url: string;
  expected: 'ALLOWED' | 'DISALLOWED';
  matching_line: number;
  canonical_url?: string;
  canonical_expected?: 'ALLOWED' | 'DISALLOWED';
  canonical_matching_line?: number;
  /** Parse options (Heed's own cases: the RFC readings). */
  options?: ParseOptions;
}

const dir = fileURLToPath(new URL('../conformance/', import.meta.url));
const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

function load(file: string): ConformanceCase[] {
  return readFileSync(dir + file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as ConformanceCase);
}

function body(c: ConformanceCase): string | Uint8Array {
  return c.robots_b64 !== undefined ? new Uint8Array(Buffer.from(c.robots_b64, 'base64')) : (c.robots ?? '');
}

describe.each(files)('%s', (file) => {
  const cases = load(file);
  let packedCases = 0;
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    // Heed canonicalises the URL first, as a crawler sends it; where the suite's URL is not in that
    // form the case says what the canonical URL must give.
    const url = c.canonical_url ?? c.url;
    const expected = c.canonical_expected ?? c.expected;
    const line = c.canonical_matching_line ?? c.matching_line;
    const robots = parseRobotsTxt(body(c), c.options);
    // The verdict in one number (the manager's check), first from a walk of the rules, then compiled.
    const signedLine = expected === 'ALLOWED' ? line : -line;
    const fresh = parseRobotsTxt(body(c), c.options);
    expect(fresh.decidingLine(url, c.ua), 'first check').toBe(signedLine);
    expect(fresh.decidingLine(url, c.ua), 'compiled').toBe(signedLine);
    // The manager's warm check, from the one string of the compiled rules.
    const packed = fresh.packedRules(c.ua);
    if (packed !== undefined) {
      packedCases++;
      expect(decidingLineOfPacked(packed, url), 'packed').toBe(signedLine);
    }
    // The deciding rule read by its line (a skip report's), before explain() builds the groups.
    const ruleAtLine = robots.ruleAt(robots.decide(url, c.ua).line);
    const verdict = robots.explain(url, c.ua);
    expect(ruleAtLine).toEqual(verdict.rule);
    expect({ allowed: verdict.allowed, line: verdict.line }).toEqual({ allowed: expected === 'ALLOWED', line });
    expect(robots.isAllowed(url, c.ua)).toBe(verdict.allowed);
    // The crawler's check (no group or rule objects) gives the same verdict, reason and line.
    expect(robots.decide(url, c.ua)).toEqual({ allowed: verdict.allowed, reason: verdict.reason, line: verdict.line });
    // After many checks (a crawler's) the answer must not change.
    for (let i = 0; i < 100; i++) robots.decide('/', c.ua);
    expect(robots.decide(url, c.ua)).toEqual({ allowed: verdict.allowed, reason: verdict.reason, line: verdict.line });
  });
  // Run after the cases (vitest runs a file's tests in order): most of them have small rule sets.
  it('checked most cases from the packed form too', () => expect(packedCases).toBeGreaterThan(cases.length / 2));
});
