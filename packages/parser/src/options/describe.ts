/**
 * The wording of option errors, shared by every option table so a value is described, a range is
 * worded and a near miss is suggested the same way in every Heed package.
 */

/** A value as an error message shows it: strings quoted (and cut), objects by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object';
  const primitive = value as number | boolean | bigint | symbol;
  return String(primitive);
}

/** A number as messages write it: `86,400`, `8,388,608`. */
export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: the choices a message offers. */
export function listChoices(choices: readonly string[]): string {
  const quoted = choices.map((choice) => `'${choice}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted.join('');
}

/** A near miss is at most this many edits away: one typo and one slip (`maxDepht`, `crawlDelays`). */
const MAX_EDITS = 2;

/**
 * "Did you mean": the first of `known` fewest edits from `key` (ignoring case, at most
 * {@link MAX_EDITS}), or `undefined`. Written out here rather than taken from a package because
 * the parser has no dependencies and every Heed package words its option errors through it.
 */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const target = key.toLowerCase();
  let best: string | undefined;
  let bestEdits = MAX_EDITS + 1;
  for (const candidate of known) {
    const edits = editDistance(target, candidate.toLowerCase(), bestEdits);
    if (edits < bestEdits) {
      best = candidate;
      bestEdits = edits;
      if (edits === 0) break;
    }
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or `limit` as soon as it is known to be at least that. */
function editDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) >= limit) return limit;
  // One row of the edit matrix at a time: row[j] is the distance of a[0, i) and b[0, j).
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const substitute = (row[j - 1] as number) + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      const cell = Math.min(substitute, (row[j] as number) + 1, (next[j - 1] as number) + 1);
      next.push(cell);
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin >= limit) return limit;
    row = next;
  }
  return Math.min(row[b.length] as number, limit);
}
