/**
 * The one tokenizer: bytes in, one {@link LineRecord} per physical line out, with the metadata the
 * linter needs. It reproduces google/robotstxt's `ParseRobotsTxt()` line splitting and
 * `GetKeyAndValueFrom()` key/value extraction byte for byte.
 */
import { byteStringToText, inputToByteString, isAscii } from './bytes.js';
import { DIRECTIVE_KINDS, KIND, type DirectiveKind } from './directive-kinds.js';
import type { LineEnding, LineKind, LineRecord } from './types.js';

/** Google keeps at most this many bytes of a line (`2083 * 8 - 1`); the rest is dropped. */
export const MAX_LINE_BYTES = 16_663;
/** Google's crawler reads 500 KiB of robots.txt; RFC 9309 asks for at least that much. */
export const DEFAULT_MAX_BYTES = 512_000;

const BOM = [0xef, 0xbb, 0xbf] as const;
const LF = 0x0a;

/** A line record plus what the compiler needs and users do not: the value's exact bytes. */
export interface TokenizedLine extends LineRecord {
  /** The value as a byte string (one char per byte), for byte-exact pattern handling. */
  readonly valueBytes?: string | undefined;
}

export interface TokenizeOptions {
  /** Bytes read; see `parseRobotsTxt()`'s `maxBytes`. */
  readonly maxBytes?: number | undefined;
  /** Accept Google's key typos; see `parseRobotsTxt()`'s `acceptTypos`. */
  readonly acceptTypos?: boolean | undefined;
  /** Accept white space for the colon; see `parseRobotsTxt()`'s `acceptMissingColon`. */
  readonly acceptMissingColon?: boolean | undefined;
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

/** A body prepared for scanning: cut at `maxBytes`, BOM prefix measured. */
export interface PreparedBody {
  /** The body as a byte string (one char per byte). */
  readonly body: string;
  readonly bomBytes: number;
  readonly byteLength: number;
  readonly truncated: boolean;
  /** Every byte is below 0x80. */
  readonly ascii: boolean;
}

/** Turns any input into a byte string, cut at `maxBytes`, with its BOM prefix measured. */
export function prepareBody(input: string | Uint8Array, maxBytesOption?: number): PreparedBody {
  const maxBytes = validMaxBytes(maxBytesOption);
  let body = inputToByteString(input);
  const byteLength = body.length;
  const truncated = byteLength > maxBytes;
  if (truncated) body = body.slice(0, maxBytes);
  // Google skips any prefix of the BOM, byte by byte, and stops at the first byte that differs.
  let bomBytes = 0;
  while (bomBytes < BOM.length && body.charCodeAt(bomBytes) === BOM[bomBytes]) bomBytes++;
  return { body, bomBytes, byteLength, truncated, ascii: isAscii(body) };
}

/**
 * What the scanner knows of the current line, as offsets into the body. One object is reused for
 * every line, so a consumer that only needs a few lines (the rule compiler) allocates nothing for
 * the others; a consumer that keeps lines (the record builder) copies what it needs.
 */
export interface LineScan {
  line: number;
  /** Offset of the line's first byte. */
  start: number;
  /** Length of the line in bytes, before the cut. */
  byteLength: number;
  kind: LineKind;
  /** Key: [keyStart, keyEnd), for directives. */
  keyStart: number;
  keyEnd: number;
  /** Value: [valueStart, valueEnd), for directives. */
  valueStart: number;
  valueEnd: number;
  missingColon: boolean;
  hasComment: boolean;
  leadingWhitespace: boolean;
  ending: LineEnding;
}

/**
 * Walks the lines of a prepared body, the way google/robotstxt's `ParseRobotsTxt()` splits them
 * (LF, CR and CRLF ends, lines cut at 16,663 bytes) and `GetKeyAndValueFrom()` splits each line.
 */
export function scanLines(prepared: PreparedBody, acceptMissingColon: boolean, visit: (scan: LineScan) => void): void {
  const { body } = prepared;
  const scan: LineScan = {
    line: 0,
    start: 0,
    byteLength: 0,
    kind: 'blank',
    keyStart: 0,
    keyEnd: 0,
    valueStart: 0,
    valueEnd: 0,
    missingColon: false,
    hasComment: false,
    leadingWhitespace: false,
    ending: 'lf',
  };
  const finders: Finders = { nul: new NextFinder(body, '\0'), hash: new NextFinder(body, '#'), colon: new NextFinder(body, ':') };
  const lf = new NextFinder(body, '\n');
  const cr = new NextFinder(body, '\r');
  const end = body.length;
  let start = prepared.bomBytes;
  let lineNumber = 0;
  for (;;) {
    const nextLf = lf.next(start);
    const nextCr = cr.next(start);
    const stop = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    if (stop === -1) {
      // The text after the last line end is a line too (Google emits it even when empty; an empty
      // one changes nothing, so it is not visited).
      if (start < end) {
        scanLine(body, start, end, ++lineNumber, 'eof', acceptMissingColon, finders, scan);
        visit(scan);
      }
      return;
    }
    let ending: LineEnding = body.charCodeAt(stop) === LF ? 'lf' : 'cr';
    let next = stop + 1;
    if (ending === 'cr' && body.charCodeAt(next) === LF) {
      ending = 'crlf';
      next++;
    }
    scanLine(body, start, stop, ++lineNumber, ending, acceptMissingColon, finders, scan);
    visit(scan);
    start = next;
  }
}

/** Splits a robots.txt body into line records. Never throws. */
export function tokenize(input: string | Uint8Array, options: TokenizeOptions = {}): Tokenized {
  const prepared = prepareBody(input, options.maxBytes);
  const acceptTypos = options.acceptTypos !== false;
  const { body } = prepared;
  const lines: TokenizedLine[] = [];
  scanLines(prepared, options.acceptMissingColon !== false, (scan) => {
    let directive: DirectiveKind | undefined;
    let key: string | undefined;
    let valueBytes: string | undefined;
    let keyTypo = false;
    if (scan.kind === 'directive') {
      const known = classifyKeyAt(body, scan.keyStart, scan.keyEnd, acceptTypos);
      directive = known.directive;
      keyTypo = known.typo;
      key = byteStringToText(body.slice(scan.keyStart, scan.keyEnd));
      valueBytes = body.slice(scan.valueStart, scan.valueEnd);
    }
    lines.push(
      new Line(
        body,
        scan.line,
        scan.start,
        scan.byteLength,
        scan.kind,
        directive,
        key,
        valueBytes,
        keyTypo,
        scan.missingColon,
        scan.hasComment,
        scan.leadingWhitespace,
        scan.ending,
      ),
    );
  });
  return { lines, bomBytes: prepared.bomBytes, byteLength: prepared.byteLength, truncated: prepared.truncated };
}

function validMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative number of bytes (got ${String(maxBytes)}); omit it for the 500 KiB default`);
  }
  return maxBytes;
}

/**
 * `indexOf` with a memory: lines are read front to back, so each character's next position is
 * searched for once per occurrence, and a line never scans past its end into the rest of the body.
 */
export class NextFinder {
  private position: number;

  constructor(
    private readonly body: string,
    private readonly char: string,
  ) {
    this.position = body.indexOf(char);
  }

  /** The first position ≥ `from` of the character, or -1. `from` must not decrease between calls. */
  next(from: number): number {
    if (this.position !== -1 && this.position < from) this.position = this.body.indexOf(this.char, from);
    return this.position;
  }
}

interface Finders {
  readonly nul: NextFinder;
  readonly hash: NextFinder;
  readonly colon: NextFinder;
}

function isSpace(code: number): boolean {
  // absl::ascii_isspace: space, \t, \n, \v, \f, \r.
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * A line record. A class, so that every record shares one shape, and `text` is decoded only when
 * somebody (the linter) reads it: parsing a 500 KiB file allocates little more than the values.
 */
class Line implements TokenizedLine {
  constructor(
    private readonly body: string,
    readonly line: number,
    readonly offset: number,
    readonly byteLength: number,
    readonly kind: LineKind,
    readonly directive: DirectiveKind | undefined,
    readonly key: string | undefined,
    readonly valueBytes: string | undefined,
    readonly keyTypo: boolean,
    readonly missingColon: boolean,
    readonly hasComment: boolean,
    readonly leadingWhitespace: boolean,
    readonly ending: LineEnding,
  ) {}

  get tooLong(): boolean {
    return this.byteLength > MAX_LINE_BYTES;
  }

  get text(): string {
    return byteStringToText(this.body.slice(this.offset, this.offset + Math.min(this.byteLength, MAX_LINE_BYTES)));
  }

  get value(): string | undefined {
    return this.valueBytes === undefined ? undefined : byteStringToText(this.valueBytes);
  }

  toJSON(): LineRecord {
    // The getters (text, value) are not own properties: JSON.stringify would leave them out.
    return {
      line: this.line,
      offset: this.offset,
      byteLength: this.byteLength,
      text: this.text,
      kind: this.kind,
      directive: this.directive,
      key: this.key,
      value: this.value,
      keyTypo: this.keyTypo,
      missingColon: this.missingColon,
      tooLong: this.tooLong,
      hasComment: this.hasComment,
      leadingWhitespace: this.leadingWhitespace,
      ending: this.ending,
    };
  }
}

function scanLine(
  body: string,
  start: number,
  stop: number,
  line: number,
  ending: LineEnding,
  acceptMissingColon: boolean,
  finders: Finders,
  scan: LineScan,
): void {
  const byteLength = stop - start;
  scan.line = line;
  scan.start = start;
  scan.byteLength = byteLength;
  scan.ending = ending;
  scan.missingColon = false;
  // Work on indices into the body: [from, to) is the part of the line still in play.
  let to = byteLength > MAX_LINE_BYTES ? start + MAX_LINE_BYTES : stop;
  let from = start;
  scan.leadingWhitespace = from < to && isSpace(body.charCodeAt(from));
  // Google handles the line as a C string: a NUL byte ends it.
  const nul = finders.nul.next(from);
  if (nul !== -1 && nul < to) to = nul;
  const hash = finders.hash.next(from);
  scan.hasComment = hash !== -1 && hash < to;
  if (scan.hasComment) to = hash;
  while (from < to && isSpace(body.charCodeAt(from))) from++;
  while (to > from && isSpace(body.charCodeAt(to - 1))) to--;
  if (from === to) {
    scan.kind = scan.hasComment ? 'comment' : 'blank';
    return;
  }

  let separator = finders.colon.next(from);
  if (separator >= to) separator = -1;
  if (separator === -1 && acceptMissingColon) {
    // Google accepts white space instead of the colon, but only between exactly two words.
    separator = firstSpace(body, from, to);
    if (separator !== -1) {
      let valueStart = separator;
      while (isSpace(body.charCodeAt(valueStart))) valueStart++;
      if (firstSpace(body, valueStart, to) !== -1) separator = -1;
      else scan.missingColon = true;
    }
  }
  let keyEnd = separator;
  while (keyEnd > from && isSpace(body.charCodeAt(keyEnd - 1))) keyEnd--;
  if (separator === -1 || keyEnd === from) {
    scan.kind = 'invalid';
    return;
  }
  let valueStart = separator + 1;
  while (valueStart < to && isSpace(body.charCodeAt(valueStart))) valueStart++;
  scan.kind = 'directive';
  scan.keyStart = from;
  scan.keyEnd = keyEnd;
  scan.valueStart = valueStart;
  scan.valueEnd = to;
}

function firstSpace(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
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
  // Not Google keys, recognised exactly: crawl-delay (Google ignores it, other crawlers honour it) and
  // the AI-usage preferences (they never change what may be crawled).
  { prefix: 'crawl-delay', directive: 'crawl-delay', typo: false },
  { prefix: 'content-usage', directive: 'content-usage', typo: false },
  { prefix: 'content-signal', directive: 'content-signal', typo: false },
];

/** The spellings by their (lower-case) first byte, in {@link SPELLINGS} order: a key is compared with its few candidates only. */
const SPELLINGS_BY_FIRST: readonly (readonly KeySpelling[] | undefined)[] = (() => {
  const table: KeySpelling[][] = [];
  for (const spelling of SPELLINGS) (table[spelling.prefix.charCodeAt(0)] ??= []).push(spelling);
  return Array.from({ length: 128 }, (_, code) => table[code]);
})();

/** Case-insensitive (ASCII) comparison of body[from, from + word.length) with a lower-case word. */
function startsWithWord(body: string, from: number, to: number, word: string): boolean {
  if (to - from < word.length) return false;
  for (let i = 0; i < word.length; i++) {
    let code = body.charCodeAt(from + i);
    if (code >= 0x41 && code <= 0x5a) code |= 0x20;
    if (code !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Bit set in {@link keyKindAt}'s answer when the key was read through Google's leniency. */
export const KEY_TYPO = 8;

/**
 * The known key body[from, to) stands for, the way Google reads keys (case-insensitive prefix), as
 * a number: the directive's index in {@link DIRECTIVE_KINDS}, plus {@link KEY_TYPO}. A number, because the parser asks this for every line.
 */
export function keyKindAt(body: string, from: number, to: number, acceptTypos: boolean): number {
  let first = body.charCodeAt(from);
  if (first >= 0x41 && first <= 0x5a) first |= 0x20;
  const candidates = first < 0x80 ? SPELLINGS_BY_FIRST[first] : undefined;
  if (candidates === undefined) return KIND.other;
  for (const spelling of candidates) {
    if (spelling.typo && !acceptTypos) continue;
    if (!startsWithWord(body, from, to, spelling.prefix)) continue;
    const kind = KIND[spelling.directive];
    if (to - from === spelling.prefix.length) return spelling.typo ? kind | KEY_TYPO : kind;
    // Only Google's keys are read by prefix ("Disallowed:"); the others are matched exactly.
    if (acceptTypos && kind <= KIND.sitemap) return kind | KEY_TYPO;
  }
  return KIND.other;
}

/** The known key body[from, to) stands for, the way Google reads keys (case-insensitive prefix). */
export function classifyKeyAt(body: string, from: number, to: number, acceptTypos = true): { directive: DirectiveKind; typo: boolean } {
  const kind = keyKindAt(body, from, to, acceptTypos);
  return { directive: DIRECTIVE_KINDS[kind & 7] as DirectiveKind, typo: (kind & KEY_TYPO) !== 0 };
}

/** The known key a written key stands for, the way Google reads it (case-insensitive prefix). */
export function classifyKey(key: string, acceptTypos = true): { directive: DirectiveKind; typo: boolean } {
  return classifyKeyAt(key, 0, key.length, acceptTypos);
}
