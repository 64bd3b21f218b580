/**
 * How a compiled rule is laid out in {@link RuleMatcher}'s typed arrays: the numbers of each rule,
 * and its flags. Shared by the matcher and the structures it builds over its rules.
 */

/** Numbers per rule in the matcher's spans. */
export const SPAN = 6;
/**
 * Offsets in a rule's span: its line, where its prefix and tail are in the text, flags. The line is
 * the rule's own, not its row's: a verdict reads it with the flags, and a broad crawl's warm check
 * would otherwise fetch the table's rows from memory for it.
 */
export const LINE = 0;
export const START = 1;
export const PREFIX_END = 2;
export const TAIL_START = 3;
export const END = 4;
export const FLAGS = 5;

/** The pattern ends in `$` (that is not made void by a `*` before it). */
export const ANCHORED = 1;
/** The pattern has a `*`: its segments follow the prefix. */
export const STAR = 2;
/** Google's `index.html` alternative of an `allow`. */
export const ALTERNATIVE = 4;
/** An `allow`, or an empty pattern (Google's `disallow()` needs a priority above 0). */
export const ALLOWS = 8;
/** The pattern's trailing `$` was cut off (whether it anchors or not): it counts in the priority. */
export const DOLLAR = 16;
/**
 * Without the shared search, a `*` rule's flags hold, from this bit up, where its segments start in
 * the matcher's one list of them: a rule is at most 500 KiB, so its segments fit.
 */
export const PIECES_SHIFT = 5;

/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
export const ASCII = 128;
/** `second` of a rule whose byte after `/` is not ASCII: no canonical path has it. */
export const NO_PATH = 0xff;
