/**
 * `Content-Usage` (draft-ietf-aipref-attach): a robots.txt rule `Content-Usage: [path SP] usage-pref`
 * inside a group, and an HTTP response header carrying the same dictionary for that response.
 *
 * The rule value is split as the attach draft says: when it starts with `/` the path runs up to
 * the first SP or HTAB and the dictionary is the rest; otherwise there is no path and the whole
 * value is the dictionary (the tokenizer has already cut the value at `#`, CR and LF).
 */
import { escapeBytes } from '../escape.js';
import { readStatement, type ParsedStatement } from './statement.js';
import { CONTENT_USAGE_VOCABULARY } from './vocabulary.js';
import { byteStringToText } from '../bytes.js';

/** The parts of a Content-Usage rule value (a byte string). */
export function splitContentUsage(valueBytes: string): { path: string; dictionary: string; offset: number } {
  if (valueBytes.charCodeAt(0) !== 0x2f) return { path: '', dictionary: valueBytes, offset: 0 };
  let end = 1;
  while (end < valueBytes.length && valueBytes.charCodeAt(end) !== 0x20 && valueBytes.charCodeAt(end) !== 0x09) end++;
  let start = end;
  while (start < valueBytes.length && (valueBytes.charCodeAt(start) === 0x20 || valueBytes.charCodeAt(start) === 0x09)) start++;
  return { path: valueBytes.slice(0, end), dictionary: valueBytes.slice(start), offset: start };
}

/** Parses the value of a `Content-Usage:` robots.txt line (a byte string). */
export function parseContentUsageRule(valueBytes: string, line: number): ParsedStatement & { readonly normalizedPath: string } {
  const { path, dictionary, offset } = splitContentUsage(valueBytes);
  const parsed = readStatement(
    CONTENT_USAGE_VOCABULARY,
    dictionary,
    { line, value: byteStringToText(valueBytes), path: byteStringToText(path) },
    offset,
  );
  // Paths are matched as Allow/Disallow patterns are: high bytes and escapes normalised.
  return { ...parsed, normalizedPath: escapeBytes(path) };
}
