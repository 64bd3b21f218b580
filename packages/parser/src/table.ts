/**
 * The parsed form a `RobotsTxt` keeps: a directive table. One string holds the values of the
 * directive lines back to back (keys of unknown lines and raw spellings of patterns too, where they
 * are needed), and an `Int32Array` holds four numbers per directive. Comments, blank lines and key
 * spellings are dropped, so a parsed 2 KB file costs about the bytes of its values, and no object is
 * made per line. Groups, rules and sitemaps as objects are built from the table only when asked for.
 */
import { escapeBytes } from './escape.js';
import { classifyKeyAt, scanLines, type PreparedBody } from './tokenize.js';
import type { DirectiveKind } from './types.js';

/** Directive kinds as stored in the table. */
export const KIND = { 'user-agent': 0, allow: 1, disallow: 2, sitemap: 3, 'crawl-delay': 4, other: 5 } as const;
const KIND_NAMES: readonly DirectiveKind[] = ['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'other'];

/** Numbers per directive in {@link DirectiveTable.rows}. */
export const ROW = 4;
/**
 * Row layout: `[line * 8 + kind, rawStart, start, end]`. `[start, end)` is the value (for rules, the
 * normalised pattern). `[rawStart, start)` is the pattern as written when it differs from the
 * normalised one, and the key for `crawl-delay` and other keys; otherwise `rawStart === start`.
 */
export interface DirectiveTable {
  readonly text: string;
  readonly rows: Int32Array;
  readonly count: number;
}

const NEEDS_ESCAPING = /[%\x80-\xff]/;

/** Scans a prepared body into a directive table. */
export function buildTable(prepared: PreparedBody, options: { acceptTypos: boolean; acceptMissingColon: boolean }): DirectiveTable {
  const { body } = prepared;
  const parts: string[] = [];
  const rows: number[] = [];
  let length = 0;
  scanLines(prepared, options.acceptMissingColon, (scan) => {
    if (scan.kind !== 'directive') return;
    const { directive } = classifyKeyAt(body, scan.keyStart, scan.keyEnd, options.acceptTypos);
    const kind = KIND[directive];
    const value = body.slice(scan.valueStart, scan.valueEnd);
    const rawStart = length;
    if (kind === KIND.allow || kind === KIND.disallow) {
      if (NEEDS_ESCAPING.test(value)) {
        const normalized = escapeBytes(value);
        if (normalized !== value) {
          parts.push(value);
          length += value.length;
        }
        rows.push(scan.line * 8 + kind, rawStart, length, length + normalized.length);
        parts.push(normalized);
        length += normalized.length;
        return;
      }
    } else if (kind === KIND['crawl-delay'] || kind === KIND.other) {
      const key = body.slice(scan.keyStart, scan.keyEnd);
      parts.push(key);
      length += key.length;
    }
    rows.push(scan.line * 8 + kind, rawStart, length, length + value.length);
    parts.push(value);
    length += value.length;
  });
  return { text: parts.join(''), rows: Int32Array.from(rows), count: rows.length / ROW };
}

/** The pieces of row `i` of a table. */
export interface TableRow {
  readonly line: number;
  readonly directive: DirectiveKind;
  /** The value; for rules, the normalised pattern (byte string). */
  readonly value: string;
  /** For rules: the pattern as written. For crawl-delay and other keys: the key. Else the value. */
  readonly raw: string;
}

/** Reads row `i` as strings (for the object views; the matcher reads the numbers directly). */
export function readRow(table: DirectiveTable, i: number): TableRow {
  const { rows, text } = table;
  const at = i * ROW;
  const head = rows[at] as number;
  const kind = head & 7;
  const rawStart = rows[at + 1] as number;
  const start = rows[at + 2] as number;
  const value = text.slice(start, rows[at + 3]);
  return { line: head >>> 3, directive: KIND_NAMES[kind] as DirectiveKind, value, raw: rawStart === start ? value : text.slice(rawStart, start) };
}
