/**
 * "Did you mean": the known option an unknown key was probably meant to be, for the unknown-option
 * errors of the manager, its stores and the plugin (passed to `checkKnownKeys` as `suggest`). It
 * lives here, not in the dependency-free parser, because it uses `leven` rather than a hand copy
 * of Levenshtein's algorithm.
 */
import { closestMatch } from 'leven';

/** The known key at most 2 edits from `key`, ignoring case (`crawlDelays` → `crawlDelay`), or `undefined`. */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const lower = known.map((candidate) => candidate.toLowerCase());
  const match = closestMatch(key.toLowerCase(), lower, { maxDistance: 2 });
  return match === undefined ? undefined : known[lower.indexOf(match)];
}
