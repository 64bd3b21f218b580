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

/** Candidate lists are indexed by the byte after `/`; a canonical path is ASCII. */
export const ASCII = 128;
/** `second` of a rule whose byte after `/` is not ASCII: no canonical path has it. */
export const NO_PATH = 0xff;

/**
 * The byte classes (code & 31) of the bytes of text[start, end), `*` left out: the same function
 * reads a pattern (whose `*` is no byte) and a path, and a pattern's classes must all be in the
 * path's for it to match.
 */
export function byteClasses(text: string, start: number, end: number): number {
  let mask = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x2a) mask |= 1 << (code & 31);
  }
  return mask;
}

/** Bytes of the path read at a time by {@link PathClasses}. */
const CLASS_CHUNK = 64;

/**
 * The byte classes of the path of the check in progress, read only as far as a question needs:
 * whether the path has every class a mask needs is usually settled by its first bytes, and only a
 * class the path lacks makes the whole path be read. One per matcher; checks are synchronous.
 */
export class PathClasses {
  private path = '';
  private read = 0;
  private classes = 0;

  /** Starts on a new path. */
  reset(path: string): this {
    this.path = path;
    this.read = 0;
    this.classes = 0;
    return this;
  }

  /** Whether the path has every byte class in `mask`. */
  covers(mask: number): boolean {
    while ((mask & ~this.classes) !== 0) {
      if (this.read >= this.path.length) return false;
      const end = Math.min(this.path.length, this.read + CLASS_CHUNK);
      this.classes |= byteClasses(this.path, this.read, end);
      this.read = end;
    }
    return true;
  }
}
