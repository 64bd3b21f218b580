/**
 * The error hierarchy of every Heed package, defined once here (the package without dependencies)
 * and re-exported by `@heed/manager` and `@heed/crawlee`, so `instanceof` works whichever package
 * an error came through.
 *
 * Every Heed error extends {@link HeedError}, which extends `Error` (never `TypeError` or
 * `RangeError`): callers tell Heed's errors apart by class and by their own fields (`option`,
 * `code`, `url`), not by the built-in class, and one `catch (e) { if (e instanceof HeedError) … }`
 * sees them all.
 */

/** The base class of every error a Heed package throws. */
export class HeedError extends Error {
  override readonly name: string = 'HeedError';
}

/**
 * An option was unknown, missing, of the wrong type or out of range: thrown when the object that
 * takes it is created (`parseRobotsTxt()`, `lint()`, `new RobotsManager()`, a store,
 * `RobotsPlugin.attach()`), never later. The message names the option and says what it expects.
 */
export class InvalidOptionsError extends HeedError {
  override readonly name: string = 'InvalidOptionsError';
  /** The option at fault, as a dotted path (`sitemaps.maxDepth`), or the unknown key. */
  readonly option: string;
  /** What is wrong and what to do, without the option's name (the message has both). */
  readonly problem: string;

  /** @param where what took the option, e.g. `'RobotsPlugin.attach()'`; it is named in the message. */
  constructor(option: string, problem: string, where?: string) {
    super(`Invalid option "${option}"${where === undefined ? '' : ` of ${where}`}: ${problem}`);
    this.option = option;
    this.problem = problem;
  }
}
