/**
 * The parsed form a `RobotsTxt` keeps: a directive table. One string holds the values of the
 * directive lines back to back (keys of unknown lines and raw spellings of patterns too, where they
 * are needed), and an `Int32Array` holds four numbers per directive. Comments, blank lines and key
 * spellings are dropped, so a parsed 2 KB file costs about the bytes of its values, and no object is
 * made per line. Groups, rules and sitemaps as objects are built from the table only when asked for.
 */
import { escapeBytes } from './escape.js';
import { keyKindAt, NextFinder, scanLines, type PreparedBody } from './tokenize.js';
import { DIRECTIVE_KINDS, KIND, type DirectiveKind } from './directive-kinds.js';

/** Directive kinds as stored in the table (three bits of a row head). */
export { KIND };

/** Numbers per directive in {@link DirectiveTable.rows}. */
export const ROW = 2;
/** Bit of the row head: the value contains a `*`. */
export const HAS_STAR = 8;
/** Bit of the row head: the row's text starts with a raw part and a `\n` before the value. */
export const HAS_RAW = 16;
/** Row heads are `line << LINE_SHIFT | flags | kind`. */
export const LINE_SHIFT = 5;

/**
 * Row layout: `[line << 5 | hasRaw << 4 | hasStar << 3 | kind, end]`. The rows' text is laid out
 * back to back, so a row's text starts where the previous row's ends. It is the value (for rules,
 * the normalised pattern), preceded, when `hasRaw`, by a raw part and a `\n` (a byte no value can
 * hold): the pattern as written where it differs from the normalised one, and the key of
 * `crawl-delay`, `content-usage`, `content-signal` and other lines. Line numbers fit because bodies are at most 8 MiB
 * ({@link MAX_BODY_BYTES}).
 */
export interface DirectiveTable {
  readonly text: string;
  readonly rows: Int32Array;
  readonly count: number;
  /** The file has `content-usage` or `content-signal` lines: only then is a usage verdict worked out. */
  readonly hasUsage: boolean;
}

/** The head (line, flags, kind) of row `i`. */
export function rowHead(rows: Int32Array, i: number): number {
  return rows[i * ROW] as number;
}

/** Where the value of row `i` ends in the table text. */
export function rowEnd(rows: Int32Array, i: number): number {
  return rows[i * ROW + 1] as number;
}

/** Where the value of row `i` starts in the table text. */
export function rowStart(text: string, rows: Int32Array, i: number): number {
  const previous = i === 0 ? 0 : (rows[i * ROW - 1] as number);
  return (rows[i * ROW] as number) & HAS_RAW ? text.indexOf('\n', previous) + 1 : previous;
}

const NEEDS_ESCAPING = /[%\x80-\xff]/;

/** The largest `maxBytes` accepted: keeps line numbers and row indices within packed integers. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Scans a prepared body into a directive table. */
export function buildTable(prepared: PreparedBody, options: { acceptTypos: boolean; acceptMissingColon: boolean }): DirectiveTable {
  const { body } = prepared;
  const ascii = prepared.ascii;
  const parts: string[] = [];
  const rows: number[] = [];
  const stars = new NextFinder(body, '*');
  const percents = new NextFinder(body, '%');
  const { acceptTypos } = options;
  let length = 0;
  let hasUsage = false;
  scanLines(prepared, options.acceptMissingColon, (scan) => {
    if (scan.kind !== 'directive') return;
    const kind = keyKindAt(body, scan.keyStart, scan.keyEnd, acceptTypos) & 7;
    const { valueStart, valueEnd } = scan;
    let value = body.slice(valueStart, valueEnd);
    let raw = 0;
    let star = stars.next(valueStart);
    star = star !== -1 && star < valueEnd ? HAS_STAR : 0;
    if (kind === KIND.allow || kind === KIND.disallow) {
      // Only a `%` or a byte ≥ 0x80 can make the normalised pattern differ from the written one.
      const percent = percents.next(valueStart);
      if (ascii ? percent !== -1 && percent < valueEnd : NEEDS_ESCAPING.test(value)) {
        const normalized = escapeBytes(value);
        if (normalized !== value) {
          parts.push(value, '\n');
          length += value.length + 1;
          value = normalized;
          raw = HAS_RAW;
        }
      }
    } else if (kind >= KIND['crawl-delay']) {
      // crawl-delay, other keys and the usage lines keep their key as written (for `others`).
      if (kind >= KIND['content-usage']) hasUsage = true;
      const key = body.slice(scan.keyStart, scan.keyEnd);
      parts.push(key, '\n');
      length += key.length + 1;
      raw = HAS_RAW;
    }
    rows.push((scan.line << LINE_SHIFT) | raw | star | kind, length + value.length);
    parts.push(value);
    length += value.length;
  });
  return { text: parts.join(''), rows: new Int32Array(rows), count: rows.length / ROW, hasUsage };
}

/** The pieces of row `i` of a table. */
export interface TableRow {
  readonly line: number;
  readonly directive: DirectiveKind;
  /** The value; for rules, the normalised pattern (byte string). */
  readonly value: string;
  /** For rules: the pattern as written. For crawl-delay, usage lines and other keys: the key. Else the value. */
  readonly raw: string;
}

/** Reads row `i` as strings (for the object views; the matcher reads the numbers directly). */
export function readRow(table: DirectiveTable, i: number): TableRow {
  const { rows, text } = table;
  const head = rowHead(rows, i);
  const start = rowStart(text, rows, i);
  const value = text.slice(start, rowEnd(rows, i));
  const raw = head & HAS_RAW ? text.slice(i === 0 ? 0 : rows[i * ROW - 1], start - 1) : value;
  return { line: head >>> LINE_SHIFT, directive: DIRECTIVE_KINDS[head & 7] as DirectiveKind, value, raw };
}
