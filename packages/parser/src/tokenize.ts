/**
 * The one tokenizer: bytes in, one {@link LineRecord} per physical line out, with the metadata the
 * linter needs. It reproduces google/robotstxt's `ParseRobotsTxt()` line splitting and
 * `GetKeyAndValueFrom()` key/value extraction byte for byte.
 */
import { byteStringToText, inputToByteString } from './bytes.js';
import type { DirectiveKind, LineEnding, LineKind, LineRecord } from './types.js';

/** Google keeps at most this many bytes of a line (`2083 * 8 - 1`); the rest is dropped. */
export const MAX_LINE_BYTES = 16_663;
/** Google's crawler reads 500 KiB of robots.txt; RFC 9309 asks for at least that much. */
export const DEFAULT_MAX_BYTES = 512_000;

const BOM = [0xef, 0xbb, 0xbf] as const;
const LF = 0x0a;
const CR = 0x0d;

/** A line record plus what the compiler needs and users do not: the value's exact bytes. */
export interface TokenizedLine extends LineRecord {
  /** The value as a byte string (one char per byte), for byte-exact pattern handling. */
  readonly valueBytes?: string;
}

export interface TokenizeOptions {
  /** See {@link ParseOptions.maxBytes}. */
  readonly maxBytes?: number;
  /** See {@link ParseOptions.acceptTypos}. */
  readonly acceptTypos?: boolean;
  /** See {@link ParseOptions.acceptMissingColon}. */
  readonly acceptMissingColon?: boolean;
}

export interface Tokenized {
  readonly lines: readonly TokenizedLine[];
  /** How many bytes of a UTF-8 byte-order mark (or a prefix of one) were skipped at the start. */
  readonly bomBytes: number;
  /** Size of the whole input in bytes, before the `maxBytes` cut. */
  readonly byteLength: number;
  /** The input was longer than `maxBytes`; the tail was not read. */
  readonly truncated: boolean;
}

/** Splits a robots.txt body into line records. Never throws. */
export function tokenize(input: string | Uint8Array, options: TokenizeOptions = {}): Tokenized {
  const maxBytes = validMaxBytes(options.maxBytes);
  const acceptTypos = options.acceptTypos !== false;
  const acceptMissingColon = options.acceptMissingColon !== false;

  let body = inputToByteString(input);
  const byteLength = body.length;
  const truncated = byteLength > maxBytes;
  if (truncated) body = body.slice(0, maxBytes);

  // Google skips any prefix of the BOM, byte by byte, and stops at the first byte that differs.
  let bomBytes = 0;
  while (bomBytes < BOM.length && body.charCodeAt(bomBytes) === BOM[bomBytes]) bomBytes++;

  const lines: TokenizedLine[] = [];
  const end = body.length;
  let start = bomBytes;
  let lineNumber = 0;
  let nextLf = body.indexOf('\n', start);
  let nextCr = body.indexOf('\r', start);
  for (;;) {
    if (nextLf !== -1 && nextLf < start) nextLf = body.indexOf('\n', start);
    if (nextCr !== -1 && nextCr < start) nextCr = body.indexOf('\r', start);
    let stop: number;
    if (nextLf === -1) stop = nextCr;
    else if (nextCr === -1) stop = nextLf;
    else stop = Math.min(nextLf, nextCr);

    if (stop === -1) {
      // The text after the last line end is a line too (Google emits it even when empty; an empty
      // one changes nothing, so it gets no record).
      if (start < end) lines.push(tokenizeLine(body, start, end, ++lineNumber, 'eof', acceptTypos, acceptMissingColon));
      break;
    }
    let ending: LineEnding = body.charCodeAt(stop) === LF ? 'lf' : 'cr';
    let next = stop + 1;
    if (ending === 'cr' && body.charCodeAt(next) === LF) {
      ending = 'crlf';
      next++;
    }
    lines.push(tokenizeLine(body, start, stop, ++lineNumber, ending, acceptTypos, acceptMissingColon));
    start = next;
  }
  return { lines, bomBytes, byteLength, truncated };
}

function validMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative number of bytes (got ${String(maxBytes)}); omit it for the 500 KiB default`);
  }
  return maxBytes;
}

function isSpace(code: number): boolean {
  // absl::ascii_isspace: space, \t, \n, \v, \f, \r.
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function trimSpace(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

function tokenizeLine(
  body: string,
  start: number,
  stop: number,
  line: number,
  ending: LineEnding,
  acceptTypos: boolean,
  acceptMissingColon: boolean,
): TokenizedLine {
  const byteLength = stop - start;
  const tooLong = byteLength > MAX_LINE_BYTES;
  let content = body.slice(start, tooLong ? start + MAX_LINE_BYTES : stop);
  const text = byteStringToText(content);
  const leadingWhitespace = content.length > 0 && isSpace(content.charCodeAt(0));

  // Google handles the line as a C string: a NUL byte ends it.
  const nul = content.indexOf('\0');
  if (nul !== -1) content = content.slice(0, nul);
  const hash = content.indexOf('#');
  const hasComment = hash !== -1;
  if (hasComment) content = content.slice(0, hash);
  content = trimSpace(content);

  const base = { line, offset: start, byteLength, text, keyTypo: false, missingColon: false, tooLong, hasComment, leadingWhitespace, ending };
  if (content.length === 0) return { ...base, kind: hasComment ? 'comment' : 'blank' };

  let separator = content.indexOf(':');
  let missingColon = false;
  if (separator === -1 && acceptMissingColon) {
    // Google accepts white space instead of the colon, but only between exactly two words.
    separator = firstSpace(content);
    if (separator !== -1) {
      let valueStart = separator;
      while (isSpace(content.charCodeAt(valueStart))) valueStart++;
      if (firstSpace(content, valueStart) !== -1) separator = -1;
      else missingColon = true;
    }
  }
  const invalid: LineKind = 'invalid';
  if (separator === -1) return { ...base, kind: invalid };
  const keyBytes = trimSpace(content.slice(0, separator));
  if (keyBytes.length === 0) return { ...base, kind: invalid, missingColon };
  const valueBytes = trimSpace(content.slice(separator + 1));
  const { directive, typo } = classifyKey(keyBytes, acceptTypos);
  return {
    ...base,
    kind: 'directive',
    directive,
    key: byteStringToText(keyBytes),
    value: byteStringToText(valueBytes),
    valueBytes,
    keyTypo: typo,
    missingColon,
  };
}

function firstSpace(text: string, from = 0): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09) return i;
  }
  return -1;
}

interface KeySpelling {
  readonly prefix: string;
  readonly directive: DirectiveKind;
  readonly typo: boolean;
}

// Order matters: it is the order of google/robotstxt's `Key::Parse()`.
const SPELLINGS: readonly KeySpelling[] = [
  { prefix: 'user-agent', directive: 'user-agent', typo: false },
  { prefix: 'useragent', directive: 'user-agent', typo: true },
  { prefix: 'user agent', directive: 'user-agent', typo: true },
  { prefix: 'allow', directive: 'allow', typo: false },
  { prefix: 'disallow', directive: 'disallow', typo: false },
  { prefix: 'dissallow', directive: 'disallow', typo: true },
  { prefix: 'dissalow', directive: 'disallow', typo: true },
  { prefix: 'disalow', directive: 'disallow', typo: true },
  { prefix: 'diasllow', directive: 'disallow', typo: true },
  { prefix: 'disallaw', directive: 'disallow', typo: true },
  { prefix: 'sitemap', directive: 'sitemap', typo: false },
  { prefix: 'site-map', directive: 'sitemap', typo: true },
];

/** The known key a written key stands for, the way Google reads it (case-insensitive prefix). */
export function classifyKey(key: string, acceptTypos = true): { directive: DirectiveKind; typo: boolean } {
  const lower = key.toLowerCase();
  for (const spelling of SPELLINGS) {
    if (spelling.typo && !acceptTypos) continue;
    if (lower === spelling.prefix) return { directive: spelling.directive, typo: spelling.typo };
    if (acceptTypos && lower.startsWith(spelling.prefix)) return { directive: spelling.directive, typo: true };
  }
  if (lower === 'crawl-delay') return { directive: 'crawl-delay', typo: false };
  return { directive: 'other', typo: false };
}
