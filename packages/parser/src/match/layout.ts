/**
 * How a compiled rule is laid out in {@link RuleMatcher}'s typed arrays: the numbers of each rule,
 * and its flags. Shared by the matcher and the structures it builds over its rules.
 */

/** Numbers per rule in the matcher's spans. */
export const SPAN = 6;
/** Offsets in a rule's span: its directive row, where its prefix and tail are in the text, flags. */
export const ROW = 0;
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
/**
 * Without the shared search, a `*` rule's flags hold, from this bit up, where its segments start in
 * the matcher's one list of them: a rule is at most 500 KiB, so its segments fit.
 */
export const PIECES_SHIFT = 4;

/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
export const ASCII = 128;
/** `second` of a rule whose byte after `/` is not ASCII: no canonical path has it. */
export const NO_PATH = 0xff;
