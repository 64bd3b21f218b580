/**
 * Byte classes (a byte's code & 31): the cheap test that a pattern cannot match a path, because the
 * pattern holds a byte of a class the path lacks. Compiled rules carry the classes they need; a
 * check asks the path's.
 */

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

/**
 * The ASCII bytes of each byte class, as one-character strings, `*` left out (see {@link byteClasses}).
 * A pattern is ASCII (escaped), so it needs class `c` only by holding one of these bytes, which the
 * path must then hold too.
 */
const CLASS_BYTES: readonly (readonly string[])[] = Array.from({ length: 32 }, (_, c) =>
  [c, c + 32, c + 64, c + 96].filter((code) => code !== 0x2a).map((code) => String.fromCharCode(code)),
);

/** Paths shorter than this have their byte classes read in one pass. */
const CLASSES_READ_AT_ONCE = 128;

/**
 * Which byte classes the path of the check in progress has. A long path's are found out class by
 * class as questions need them, each with native searches for its few bytes, never in JavaScript:
 * hostile files need classes most paths lack, so a question is usually settled by searches that
 * stop at the first byte found or run at native speed to the end. One per matcher; checks are
 * synchronous.
 */
export class PathClasses {
  private path = '';
  /** The classes asked about so far, and those of them the path has. */
  private known = 0;
  private present = 0;

  /** Starts on a new path; nothing of it is read until a question needs it. */
  reset(path: string): this {
    this.path = path;
    this.known = 0;
    this.present = 0;
    return this;
  }

  /** Whether the path has every byte class in `mask`. */
  covers(mask: number): boolean {
    let unknown = mask & ~this.known;
    if (unknown !== 0 && this.path.length < CLASSES_READ_AT_ONCE) {
      // A short path is read at once: one pass costs less than a search per class.
      this.known = -1;
      this.present = byteClasses(this.path, 0, this.path.length);
      unknown = 0;
    }
    while (unknown !== 0) {
      const bit = unknown & -unknown;
      unknown ^= bit;
      this.known |= bit;
      if (this.has(31 - Math.clz32(bit))) this.present |= bit;
      else return false;
    }
    return (mask & ~this.present) === 0;
  }

  private has(byteClass: number): boolean {
    for (const byte of CLASS_BYTES[byteClass] as readonly string[]) if (this.path.includes(byte)) return true;
    return false;
  }
}
