/**
 * A rule as the matcher compiles it: where its pattern is in the directive text, how to read it
 * (anchored, where its first `*` is) and where it stands in Google's precedence.
 */
import { decodeUnreserved } from '../escape.js';
import { HAS_RAW, HAS_STAR, KIND, LINE_SHIFT, rowEnd, rowHead, rowStart, type DirectiveTable } from '../table.js';

const KIND_ALLOW = KIND.allow;

/** Where a rule's pattern is, and how to read it. */
export interface Shape {
  readonly alternative: boolean;
  readonly start: number;
  /** End of the pattern without its anchoring `$`. */
  readonly end: number;
  readonly anchored: boolean;
  /** Position of the first `*` in [start, end), or -1. */
  readonly firstStar: number;
  readonly priority: number;
  readonly allow: boolean;
  readonly line: number;
}

/**
 * The shapes of the rules at `indices` of the table (`text`, `rows`), in the order given, each
 * `allow: …/index.htm[l]` followed by its alternative: Google's `allow: /dir/index.html` also
 * allows `/dir/` itself, as `allow: /dir/$` would. The alternative is shorter than the pattern, so
 * it only decides when the pattern does not match.
 */
export function shapesOf(text: string, rows: Int32Array, indices: readonly number[]): Shape[] {
  const shapes: Shape[] = [];
  for (const row of indices) {
    shapes.push(shapeOf(text, rows, row, false));
    if ((rowHead(rows, row) & 7) !== KIND_ALLOW) continue;
    const start = rowStart(text, rows, row);
    const end = rowEnd(rows, row);
    const slash = text.lastIndexOf('/', end - 1);
    if (slash >= start && slash + 10 <= end && text.startsWith('/index.htm', slash)) shapes.push(shapeOf(text, rows, row, true));
  }
  return shapes;
}

/** Where the pattern at `row` (or its `index.html` alternative) is in `text`, and how to read it. */
function shapeOf(text: string, rows: Int32Array, row: number, alternative: boolean): Shape {
  const head = rowHead(rows, row);
  const start = rowStart(text, rows, row);
  let end = rowEnd(rows, row);
  const allow = (head & 7) === KIND_ALLOW;
  const line = head >>> LINE_SHIFT;
  if (alternative) {
    end = text.lastIndexOf('/', end - 1) + 1;
    const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
    return {
      alternative,
      start,
      end,
      anchored: true,
      firstStar: star !== -1 && star < end ? star : -1,
      priority: end - start + 1,
      allow,
      line,
    };
  }
  const priority = end - start;
  let anchored = false;
  if (priority > 0 && text.charCodeAt(end - 1) === 0x24) {
    end--;
    // `/a*$`: a trailing `*` makes the anchor always true.
    anchored = !(head & HAS_STAR && end > start && text.charCodeAt(end - 1) === 0x2a);
  }
  const star = head & HAS_STAR ? text.indexOf('*', start) : -1;
  return { alternative, start, end, anchored, firstStar: star !== -1 && star < end ? star : -1, priority, allow, line };
}

/** The chosen rows with their patterns decoded (RFC 9309 reading), as a small table of their own. */
export function decodedView(table: DirectiveTable, rowIndices: readonly number[]): { text: string; rows: Int32Array; indices: number[] } {
  const parts: string[] = [];
  const rows: number[] = [];
  let length = 0;
  for (const row of rowIndices) {
    const pattern = decodeUnreserved(table.text.slice(rowStart(table.text, table.rows, row), rowEnd(table.rows, row)));
    rows.push(rowHead(table.rows, row) & ~HAS_RAW, length + pattern.length);
    parts.push(pattern);
    length += pattern.length;
  }
  return { text: parts.join(''), rows: new Int32Array(rows), indices: rowIndices.map((_, i) => i) };
}

/** Precedence: longer first, `allow` before `disallow`, then file order. */
export function byPrecedence(a: Shape, b: Shape): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.allow !== b.allow) return a.allow ? -1 : 1;
  return a.line - b.line;
}
