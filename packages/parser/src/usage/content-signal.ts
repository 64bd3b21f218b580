/**
 * `Content-Signal` (Cloudflare's Content Signals Policy, contentsignals.org): a robots.txt line
 * `Content-Signal: search=yes, ai-input=no, ai-train=no` that states preferences for every path
 * its group may crawl (it has no path), and the response header of the same name.
 *
 * The value is read as an RFC 9651 Dictionary, like Content-Usage: every published example is one
 * (`key=token` pairs separated by commas), and one strict reading for both signals keeps their
 * lint and their verdicts alike.
 */
import { byteStringToText } from '../bytes.js';
import { readStatement, type ParsedStatement } from './statement.js';
import { CONTENT_SIGNAL_VOCABULARY } from './vocabulary.js';

/** Parses the value of a `Content-Signal:` robots.txt line (a byte string). */
export function parseContentSignal(valueBytes: string, line: number): ParsedStatement {
  return readStatement(CONTENT_SIGNAL_VOCABULARY, valueBytes, { line, value: byteStringToText(valueBytes) });
}
