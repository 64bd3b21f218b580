/**
 * The lines of a robots.txt body as text, numbered exactly as verdicts (`Explanation.line`,
 * `Rule.line`) and lint diagnostics number them, so a tool can quote the line one of them names.
 * It reads the tokenizer's line records: the same split (CR, LF, CRLF, a BOM prefix skipped) and
 * the same 500 KiB cut as parsing.
 */
import { tokenize } from './tokenize.js';

/**
 * Every line of `body` (comments and blank lines too) as UTF-8 text, invalid sequences replaced:
 * `lines[n - 1]` is line `n`. Never throws.
 */
export function robotsTxtLines(body: string | Uint8Array): readonly string[] {
  return tokenize(body).lines.map((line) => line.text);
}
