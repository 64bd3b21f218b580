/**
 * What every family of checks reads: the tokenizer's line records, the groups the compiler builds
 * from them, and the raw bytes for the checks that look below the text (binary content, UTF-8).
 * Built once per `lint()` call.
 */
import { inputToByteString } from '../bytes.js';
import { collectDirectives, type Directives } from '../compile.js';
import { tokenize, type Tokenized, type TokenizedLine } from '../tokenize.js';

export interface LintContext {
  /** The input as a byte string (one char per byte), whole, before the size cut. */
  readonly bytes: string;
  readonly tokens: Tokenized;
  readonly lines: readonly TokenizedLine[];
  readonly directives: Directives;
  readonly maxBytes: number;
}

export function lintContext(input: string | Uint8Array, maxBytes: number): LintContext {
  const tokens = tokenize(input, { maxBytes });
  return { bytes: inputToByteString(input), tokens, lines: tokens.lines, directives: collectDirectives(tokens.lines), maxBytes };
}

/** 1-based column of the key in the line's text. */
export function keyColumn(record: TokenizedLine): number {
  const at = record.key === undefined ? -1 : record.text.indexOf(record.key);
  return at === -1 ? 1 : at + 1;
}

/** 1-based column of the value in the line's text (after the key). */
export function valueColumn(record: TokenizedLine): number {
  const value = record.value ?? '';
  const keyAt = keyColumn(record) - 1;
  const from = keyAt + (record.key?.length ?? 0);
  if (value.length === 0) return Math.min(record.text.length, from + 1) + 1;
  const at = record.text.indexOf(value, from);
  return at === -1 ? 1 : at + 1;
}

/** The canonical spelling of a known key, for messages. */
export const CANONICAL_KEY = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
  'crawl-delay': 'Crawl-delay',
  'content-usage': 'Content-Usage',
  'content-signal': 'Content-Signal',
} as const;
