/**
 * `lint()`: one small robots.txt per diagnostic (test/parser/lint-cases/, as data) with exactly the
 * findings expected; plus the promises users rely on: it never throws, it agrees with the parser
 * about rules that "never decide", and it runs over the real-world corpus.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DIAGNOSTIC_CODES,
  InvalidOptionsError,
  lint,
  parseRobotsTxt,
  type Diagnostic,
  type DiagnosticCode,
  type LintOptions,
} from '@heed/parser';
import { ALL_DIAGNOSTIC_CODES } from '../../packages/parser/src/lint/index.js';

interface Expected {
  code: DiagnosticCode;
  line: number;
  column?: number;
  related?: number[];
  says?: string;
}
interface LintCase {
  file: string;
  options?: LintOptions;
  expect: Expected[];
}

const dir = fileURLToPath(new URL('./lint-cases/', import.meta.url));
const { cases } = JSON.parse(readFileSync(dir + 'expected.json', 'utf8')) as { cases: LintCase[] };
const read = (file: string): Uint8Array => new Uint8Array(readFileSync(dir + file));

describe('lint cases (test/parser/lint-cases)', () => {
  it.each(cases.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    const found = lint(read(c.file), c.options);
    expect(found.map((d) => `${d.code}@${d.line}`).sort()).toEqual(c.expect.map((e) => `${e.code}@${e.line}`).sort());
    for (const e of c.expect) {
      const d = found.find((item) => item.code === e.code && item.line === e.line) as Diagnostic;
      expect(d.severity).toBe(DIAGNOSTIC_CODES[e.code].severity);
      if (e.column !== undefined) expect(d.column).toBe(e.column);
      if (e.related !== undefined) expect(d.related).toEqual(e.related);
      if (e.says !== undefined) expect(d.message).toContain(e.says);
    }
  });

  it('has a case for every diagnostic code', () => {
    const covered = new Set(cases.flatMap((c) => c.expect.map((e) => e.code)));
    expect(ALL_DIAGNOSTIC_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it('lists every case file', () => {
    const listed = new Set(cases.map((c) => c.file));
    expect(readdirSync(dir).filter((file) => file !== 'expected.json' && !listed.has(file))).toEqual([]);
  });
});

describe('lint()', () => {
  it('gives every diagnostic a stable kebab-case code, a severity, a 1-based line and a message', () => {
    for (const c of cases) {
      for (const d of lint(read(c.file), c.options)) {
        expect(d.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(['error', 'warning', 'info']).toContain(d.severity);
        expect(d.line).toBeGreaterThanOrEqual(1);
        if (d.column !== undefined) expect(d.column).toBeGreaterThanOrEqual(1);
        expect(d.message.length).toBeGreaterThan(20);
      }
    }
  });

  it('sorts by line, then severity, then column', () => {
    const found = lint('Disallow: /early\nUser-agent: *\nDISALLOW: tmp # note\n');
    expect(found.map((d) => [d.line, d.code])).toEqual([
      [1, 'rule-before-user-agent'],
      [3, 'path-without-leading-slash'],
      [3, 'uppercase-key'],
      [3, 'end-of-line-comment'],
    ]);
  });

  it('reads strings as text and Uint8Arrays as bytes, with the same line numbers', () => {
    const text = 'User-agent: *\nDisallow: /café\nDisallow: tmp\n';
    expect(lint(text)).toEqual(lint(new TextEncoder().encode(text)));
  });

  it('leaves out the codes in `ignore`', () => {
    const body = 'User-agent: *\r\nCrawl-delay: 5\r\nDisallow: /x\r\n';
    expect(lint(body).map((d) => d.code)).toEqual(['dos-line-endings', 'crawl-delay']);
    expect(lint(body, { ignore: ['dos-line-endings'] }).map((d) => d.code)).toEqual(['crawl-delay']);
  });

  it('says nothing per line about a page that is not robots.txt', () => {
    const page = '<html><head><title>404</title></head>\n<body>Disallow: nothing</body></html>\n';
    expect(lint(page).map((d) => d.code)).toEqual(['html-content']);
  });

  it('rejects options it cannot honour, naming the option', () => {
    expect(() => lint('', { maxBytes: -1 })).toThrow(InvalidOptionsError);
    expect(() => lint('', { ignore: ['no-such-code' as DiagnosticCode] })).toThrow(
      /"no-such-code" is not a diagnostic code\. The diagnostic codes are 'rule-before-user-agent', /,
    );
    expect(() => lint('', { filesPerDirectory: 1 })).toThrow(/filesPerDirectory/);
    expect(() => lint('', { maxbytes: 10 } as LintOptions)).toThrow(/Invalid option "maxbytes" of lint\(\): unknown option/);
  });

  it('never throws, whatever the body', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'User-agent: *',
        'user-agent: bot',
        'Disallow: /',
        'Allow: /a*',
        'Disallow: /a$',
        'Sitemap: x',
        'Crawl-delay: 1',
        '# c',
        '',
      ),
      fc.string({ maxLength: 40 }),
      fc
        .tuple(
          fc.constantFrom('Allow', 'Disallow', 'Dissalow', 'User-agent', 'Sitemap', 'Noindex'),
          fc.constantFrom(':', ' ', ''),
          fc.string({ maxLength: 20 }),
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, eol) => {
        expect(Array.isArray(lint(lines.join(eol)))).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(Array.isArray(lint(bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(() => lint(null as unknown as string)).not.toThrow();
  });

  it('agrees with the parser: a rule reported as never deciding never decides', () => {
    // Small rule sets over a tiny alphabet make covering rules frequent; every URL built from a
    // reported rule's pattern must be decided by some other line.
    const pattern = fc
      .array(fc.constantFrom('/', 'a', 'b', '*'), { minLength: 1, maxLength: 4 })
      .chain((chars) => fc.constantFrom('', '$').map((end) => '/' + chars.join('') + end));
    const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern);
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 2, maxLength: 8 }),
        fc.array(fc.constantFrom('', 'a', 'b', '/', 'ab'), { minLength: 3, maxLength: 3 }),
        (rules, fillers) => {
          const body = ['User-agent: *', ...rules.map(([key, path]) => `${key}: ${path}`)].join('\n');
          const robots = parseRobotsTxt(body);
          for (const d of lint(body)) {
            if (d.code !== 'shadowed-rule' && d.code !== 'redundant-rule' && d.code !== 'equal-length-conflict') continue;
            const [, path] = rules[d.line - 2] as [string, string];
            for (const filler of fillers) {
              const url = 'https://example.com' + path.replace(/\$$/, '').replace(/\*/g, filler);
              expect(robots.explain(url, 'bot').line).not.toBe(d.line);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

// The real-world corpus sits next to the repository on the machines that have it; elsewhere (a
// clean clone, CI, HEED_CORPUS_SAMPLE=1) the lint runs over the sample kept in test/fixtures and
// says so in one line, as corpus.test.ts does.
const fullCorpus = fileURLToPath(new URL('../../../shared/corpus/real-robots/', import.meta.url));
const sampleCorpus = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
const useFullCorpus = process.env.HEED_CORPUS_SAMPLE !== '1' && existsSync(fullCorpus);
const corpus = useFullCorpus ? fullCorpus : sampleCorpus;
const shown = (path: string): string => relative(fileURLToPath(new URL('../../', import.meta.url)), path);
if (!useFullCorpus) {
  const why =
    process.env.HEED_CORPUS_SAMPLE === '1' ? 'HEED_CORPUS_SAMPLE=1 is set' : `the full corpus was NOT found at ${shown(fullCorpus)}`;
  console.warn(`lint.test.ts: ${why}; linting the sample in ${shown(sampleCorpus)} instead.`);
}
describe(`lint over real robots.txt files (${useFullCorpus ? 'full corpus' : 'sample'} in ${shown(corpus)})`, () => {
  it('lints every file without throwing, with valid lines', () => {
    const files = readdirSync(corpus).filter((name) => name !== 'README.md');
    expect(files.length).toBeGreaterThanOrEqual(useFullCorpus ? 4000 : 40);
    for (const file of files) {
      const body = new Uint8Array(readFileSync(corpus + file));
      const found = lint(body);
      const lastLine = Math.max(1, body.length > 0 ? new TextDecoder('latin1').decode(body).split(/\r\n|\r|\n/).length : 1);
      for (const d of found) expect(d.line, `${file}: ${d.code}`).toBeLessThanOrEqual(lastLine);
    }
  });
});
