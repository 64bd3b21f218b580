/**
 * Human output: colour only for a terminal (and never with NO_COLOR set), and a robots.txt line
 * quoted with its number and a caret under the column that matters. What a robots.txt, a server or
 * a file says is printed through `printable` (@heed/parser), the one escaping of everything Heed
 * prints that it did not write itself: a line quoted here, a diagnostic's message, a fetch's error.
 */
import { printable, robotsTxtLines } from '@heed/parser';

export interface Style {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
}

const paint = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

/**
 * Whether to colour: `--color`/`--no-color` win; else a TTY without `NO_COLOR` (no-color.org: set
 * and not empty), or `FORCE_COLOR` set to something other than `0`.
 */
export function useColor(flag: boolean | undefined, stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== '') return true;
  return stream.isTTY === true;
}

export function makeStyle(color: boolean): Style {
  if (!color) return { red: plain, yellow: plain, green: plain, cyan: plain, bold: plain, dim: plain };
  return { red: paint(31, 39), yellow: paint(33, 39), green: paint(32, 39), cyan: paint(36, 39), bold: paint(1, 22), dim: paint(2, 22) };
}

/** The lines of a robots.txt body, numbered the way the parser numbers them. */
export function lineTexts(body: string | Uint8Array): Map<number, string> {
  return new Map(robotsTxtLines(body).map((text, index) => [index + 1, text]));
}

/** Widest part of a line shown; longer lines are shown around the column. */
const WINDOW = 100;

/**
 * `   12 | Disallow: private` and, with a column, a caret line under it. Control characters are
 * shown escaped (`\x1b`); the caret counts the escapes before its column.
 */
export function quoteLine(texts: ReadonlyMap<number, string>, line: number, column: number | undefined, style: Style): string[] {
  const raw = texts.get(line);
  if (raw === undefined) return [];
  let text = printable(raw);
  let caret = column === undefined ? undefined : printable(raw.slice(0, Math.max(0, Math.min(column - 1, raw.length)))).length;
  if (text.length > WINDOW) {
    const start = Math.max(0, Math.min((caret ?? 0) - WINDOW / 2, text.length - WINDOW));
    const head = start > 0 ? '…' : '';
    const tail = start + WINDOW < text.length ? '…' : '';
    if (caret !== undefined) caret = caret - start + head.length;
    text = head + text.slice(start, start + WINDOW) + tail;
  }
  const gutter = String(line).padStart(5);
  const out = [`${style.dim(`${gutter} |`)} ${text}`];
  if (caret !== undefined) out.push(`${style.dim(`${' '.repeat(gutter.length)} |`)} ${' '.repeat(caret)}${style.red('^')}`);
  return out;
}

export const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** JSON text with the characters JSON.stringify leaves raw but a terminal acts on (C1, separators, bidi) escaped as `\uXXXX`. */
export function escapeJson(json: string): string {
  return json.replace(
    /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}
