/**
 * The first check of a rule set, answered without compiling it. Compiling (sorting the rules by
 * precedence, laying them out, indexing them by the byte after `/`) pays for itself over many
 * checks; a broad crawl checks many origins once, where a walk over the rules in file order costs
 * less than the compile. The answer is the matcher's: the rule of highest precedence (longest
 * pattern, `allow` before `disallow`, then the earlier line) among those that match, each pattern
 * read as `match.ts` reads it.
 */
import { byPrecedence, decodedView, shapesOf, type Shape } from './shape.js';
import type { DirectiveTable } from '../table.js';

/**
 * Rule sets up to this size are walked on their first check; larger ones are compiled at once (a
 * walk is a check without the index, and a hostile file's thousands of rules need the index).
 */
export const FIRST_CHECK_MAX_RULES = 256;

/** The deciding rule for `path` among the rules at `rowIndices` of `table`: its line and verdict, or `undefined` when none matches. */
export function firstCheck(
  table: DirectiveTable,
  rowIndices: readonly number[],
  decodeUnreservedEscapes: boolean,
  path: string,
): { readonly line: number; readonly allowed: boolean } | undefined {
  const source = decodeUnreservedEscapes ? decodedView(table, rowIndices) : { text: table.text, rows: table.rows, indices: rowIndices };
  let best: Shape | undefined;
  for (const shape of shapesOf(source.text, source.rows, source.indices)) {
    if (best !== undefined && byPrecedence(shape, best) >= 0) continue;
    if (matches(source.text, shape, path)) best = shape;
  }
  // An empty `disallow:` disallows nothing (Google's `disallow()` needs a pattern): it allows.
  return best === undefined ? undefined : { line: best.line, allowed: best.allow || best.priority === 0 };
}

/** Whether the pattern of `shape` matches `path`: its prefix starts the path, its `*` pieces follow in order, its anchored tail ends it. */
function matches(text: string, shape: Shape, path: string): boolean {
  const { start, end, anchored, firstStar } = shape;
  const prefixEnd = firstStar === -1 ? end : firstStar;
  const prefixLength = prefixEnd - start;
  if (path.length < prefixLength || !sameChars(path, 0, text, start, prefixLength)) return false;
  if (firstStar === -1) return !anchored || path.length === prefixLength;
  // Anchored: the piece after the last `*` must end the path (never empty: `*$` unanchors).
  const tailStart = anchored ? text.lastIndexOf('*', end - 1) + 1 : end;
  const limit = path.length - (end - tailStart);
  if (limit < prefixLength || !sameChars(path, limit, text, tailStart, end - tailStart)) return false;
  let position = prefixLength;
  const piecesEnd = anchored ? tailStart - 1 : end;
  for (const piece of text.slice(prefixEnd + 1, Math.max(prefixEnd + 1, piecesEnd)).split('*')) {
    if (piece.length === 0) continue;
    const found = path.indexOf(piece, position);
    if (found === -1) return false;
    position = found + piece.length;
  }
  return position <= limit;
}

/** Whether `path` at `at` holds the `length` characters of `text` at `from`. */
function sameChars(path: string, at: number, text: string, from: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (path.charCodeAt(at + k) !== text.charCodeAt(from + k)) return false;
  return true;
}
