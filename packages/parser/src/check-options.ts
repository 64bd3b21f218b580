/**
 * Option validation for every Heed package, in one module: `parseRobotsTxt()`, `lint()`,
 * `RobotsManager`, the stores and `RobotsPlugin.attach()` check their options with these helpers,
 * so a value is described, a range is worded and a default is named the same way everywhere.
 *
 * The rules: an unknown key is an error (a typo must not be ignored), with a "did you mean" when
 * the caller gives a suggester (`@heed/manager/internal`'s `didYouMean`; this package has no
 * dependencies); numbers are finite (`NaN` and `Infinity` are refused unless an option documents
 * `Infinity` as "never") and within a stated range; a time set as a timer is at most
 * {@link MAX_TIMER_MS}; a proxy is an `http://` or `https://` URL (what got-scraping, which both
 * robots.txt and sitemap fetches use, supports).
 *
 * Internal: reached through `@heed/parser/internal`, not part of the public API.
 */
import { InvalidOptionsError } from './errors.js';

/** The longest a Node.js timer waits (2^31 - 1 ms, about 24.8 days); a longer delay fires after 1 ms instead. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Who checks: named in every message, and how unknown keys are answered. */
export interface OptionScope {
  /** What takes the options, e.g. `'RobotsPlugin.attach()'`. */
  readonly where: string;
  /** Put before every option name: `'sitemaps.'` for a nested object. Default: none. */
  readonly prefix?: string;
  /** The known key an unknown one was probably meant to be, for "did you mean". Default: no suggestion. */
  readonly suggest?: (key: string, known: readonly string[]) => string | undefined;
}

/** A range a number option must fall in. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  /** Only whole numbers. Default: `false`. */
  readonly integer?: boolean;
  /** Named in the message: `'milliseconds'`, `'bytes'`, `'seconds'`. */
  readonly unit?: string;
  /** Why the bound is what it is, named in the message. */
  readonly why?: string;
  /** `Infinity` is accepted (for an option that documents it as "never"). Default: `false`. */
  readonly allowInfinity?: boolean;
}

/** A value as an error message shows it: strings quoted (and cut), objects by kind. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object';
  const primitive = value as number | boolean | bigint | symbol;
  return String(primitive);
}

/** A plain options object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws for the first key of `value` that is not in `known`, naming the known ones. */
export function checkKnownKeys(value: object, known: readonly string[], scope: OptionScope): void {
  const prefix = scope.prefix ?? '';
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = scope.suggest?.(key, known);
    throw new InvalidOptionsError(
      `${prefix}${key}`,
      `unknown option${hint === undefined ? '.' : `; did you mean "${prefix}${hint}"?`} The options are ${known.join(', ')}.`,
      scope.where,
    );
  }
}

/** The error for `option` in `scope`: the one constructor every check throws through. */
export function optionError(option: string, problem: string, scope: OptionScope): InvalidOptionsError {
  return new InvalidOptionsError(`${scope.prefix ?? ''}${option}`, problem, scope.where);
}

const format = (n: number): string => n.toLocaleString('en-US');

/**
 * A number option within `range`, or `fallback` when absent. Non-numbers, `NaN`, `Infinity`
 * (unless allowed) and values out of range fail naming the range and the default.
 */
export function numberOption<F extends number | undefined>(
  value: unknown,
  option: string,
  fallback: F,
  range: NumberRange,
  scope: OptionScope,
): number | F {
  if (value === undefined) return fallback;
  if (range.allowInfinity === true && value === Infinity) return value;
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= range.min &&
    value <= range.max &&
    (range.integer !== true || Number.isInteger(value))
  )
    return value;
  const what = `${range.integer === true ? 'a whole number' : 'a number'}${range.unit === undefined ? '' : ` of ${range.unit}`}`;
  const to = range.max === Number.MAX_SAFE_INTEGER ? ' upward' : ` to ${format(range.max)}`;
  throw optionError(
    option,
    `expected ${what} from ${format(range.min)}${to}${range.why === undefined ? '' : ` (${range.why})`}${range.allowInfinity === true ? ', or Infinity' : ''}, got ${describe(value)}${fallback === undefined ? '' : `; the default is ${format(fallback)}`}.`,
    scope,
  );
}

/** A time in milliseconds that is set as a timer: from 1 to {@link MAX_TIMER_MS}. */
export function timerOption<F extends number | undefined>(value: unknown, option: string, fallback: F, scope: OptionScope): number | F {
  return numberOption(
    value,
    option,
    fallback,
    { min: 1, max: MAX_TIMER_MS, unit: 'milliseconds', why: 'the longest a Node.js timer waits, about 24.8 days' },
    scope,
  );
}

/** `true` or `false`, or `fallback` when absent. */
export function booleanOption(value: unknown, option: string, fallback: boolean, scope: OptionScope): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw optionError(option, `expected true or false, got ${describe(value)}; the default is ${String(fallback)}.`, scope);
  return value;
}

/** A function, or `undefined` when absent; `signature` shows what is expected, e.g. `'(event) => void'`. */
export function functionOption<T extends (...args: never[]) => unknown>(
  value: unknown,
  option: string,
  signature: string,
  scope: OptionScope,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw optionError(option, `expected a function ${signature}, got ${describe(value)}.`, scope);
  return value as T;
}

/** One of `choices`, or `fallback` when absent. */
export function choiceOption<T extends string>(value: unknown, option: string, fallback: T, choices: readonly T[], scope: OptionScope): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    const quoted = choices.map((choice) => `'${choice}'`);
    const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted.join('');
    throw optionError(option, `expected ${list}, got ${describe(value)}; the default is '${fallback}'.`, scope);
  }
  return value as T;
}

/**
 * A proxy URL, or `undefined` when absent: `http://` or `https://` (with credentials if any), the
 * schemes got-scraping proxies through. Robots.txt and sitemap fetches take the same.
 */
export function proxyUrlOption(value: unknown, option: string, scope: OptionScope): string | undefined {
  if (value === undefined) return undefined;
  let ok = false;
  try {
    ok = typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok)
    throw optionError(
      option,
      `expected an http:// or https:// proxy URL, e.g. "http://user:pass@proxy.example:8000", got ${describe(value)}.`,
      scope,
    );
  return value as string;
}
