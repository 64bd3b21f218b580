/**
 * The `Content-Usage` and `Content-Signal` HTTP response headers: the same dictionaries as the
 * robots.txt lines, stated for one response (draft-ietf-aipref-attach, "Content-Usage HTTP Header
 * Field"; Content Signals). Several header lines of one name are one field, joined with `, ` (RFC
 * 9110 §5.3), which is how Node hands them over and how RFC 9651 parses a Dictionary split across
 * lines. The statement's `line` is 0: it came from no file.
 */
import { readStatement, type UsageStatement } from './statement.js';
import { VOCABULARIES, type UsageSignal } from './vocabulary.js';

/** Longest header value read (a real one is a few dozen bytes). Longer: it states nothing. */
const MAX_HEADER_CHARS = 16 * 1024;

/**
 * Reads a `Content-Usage` or `Content-Signal` response header value (or several, one field).
 * Never throws: a value that does not parse states nothing (`invalid: true`).
 */
export function parseUsageHeader(signal: UsageSignal, value: string | readonly string[]): UsageStatement {
  const text = typeof value === 'string' ? value : value.join(', ');
  if (text.length > MAX_HEADER_CHARS)
    return readStatement(VOCABULARIES[signal], '=', { line: 0, value: `${text.slice(0, 64)}…` }).statement;
  return readStatement(VOCABULARIES[signal], text, { line: 0, value: text }).statement;
}
