/**
 * `robotsTxtLines`: the text of the line a verdict or a lint diagnostic names, for tools that quote
 * it (the `heed` command does). Its numbering must be the parser's, whatever the line ends are.
 */
import { describe, expect, it } from 'vitest';
import { lint, parseRobotsTxt, robotsTxtLines } from '@heed/parser';

describe('robotsTxtLines', () => {
  it('numbers lines as verdicts and diagnostics do, across CR, LF and CRLF, a BOM, comments and blank lines', () => {
    const body = '\uFEFF# rules for all\r\nUser-agent: *\r\rDisallow: /private\nDisalow: /typo\n';
    const lines = robotsTxtLines(body);
    expect(lines).toEqual(['# rules for all', 'User-agent: *', '', 'Disallow: /private', 'Disalow: /typo']);
    const verdict = parseRobotsTxt(body).explain('https://a.example/private/x', 'HeedBot');
    expect(lines[verdict.line - 1]).toBe('Disallow: /private');
    const typo = lint(body).find((d) => d.code === 'typo-accepted-by-google');
    expect(typo).toBeDefined();
    expect(lines[(typo?.line ?? 0) - 1]).toBe('Disalow: /typo');
  });

  it('reads bytes as the parser does: invalid UTF-8 replaced, the first 500 KiB only', () => {
    expect(robotsTxtLines(new Uint8Array([0x41, 0xff, 0x0a, 0x42]))).toEqual(['A\uFFFD', 'B']);
    const long = `${'Disallow: /x\n'.repeat(50_000)}`;
    expect(robotsTxtLines(long).length).toBeLessThan(50_000);
  });
});
