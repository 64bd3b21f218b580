/**
 * `lint()`: what a robots.txt file really says, as diagnostics with line numbers. It reads the same
 * line records and groups as the parser (one tokenizer), with Google's reading as the reference,
 * and flags where other crawlers (RFC 9309 parsers, naive ones) would read the file differently.
 *
 * Families of checks, one module each: whole-file content and encoding (`content.ts`), line syntax
 * (`lines.ts`), directives in their groups (`rules.ts`), the AI-usage lines (`usage.ts`), rules that
 * never decide (`conflicts.ts`) and long file lists (`directories.ts`).
 */
import { DEFAULT_MAX_BYTES } from '../tokenize.js';
import { checkConflicts } from './conflicts.js';
import { checkEncoding, checkNotRobotsTxt } from './content.js';
import { lintContext } from './context.js';
import { ALL_DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode, type Severity } from './diagnostics.js';
import { checkFileLists, FILES_PER_DIRECTORY } from './directories.js';
import { checkLines } from './lines.js';
import { checkRules } from './rules.js';
import { checkUsage } from './usage.js';

export { ALL_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES } from './diagnostics.js';
export type { Diagnostic, DiagnosticCode, Severity } from './diagnostics.js';

/** Options of {@link lint}. */
export interface LintOptions {
  /** Bytes a crawler reads; content past it is reported as ignored. Default: 512,000 (500 KiB, Google's limit). */
  readonly maxBytes?: number;
  /** Codes to leave out of the result. Default: none. */
  readonly ignore?: readonly DiagnosticCode[];
  /** How many single-file rules in one directory are reported as `files-instead-of-directory`. Default: 10. */
  readonly filesPerDirectory?: number;
}

/** Thrown by {@link lint} for options it cannot honour (never for any body). */
export class InvalidLintOptionsError extends TypeError {
  override readonly name = 'InvalidLintOptionsError';
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const KNOWN_CODES = new Set<string>(ALL_DIAGNOSTIC_CODES);
const KNOWN_OPTIONS = new Set(['maxBytes', 'ignore', 'filesPerDirectory']);

/**
 * Lints a robots.txt body. A `Uint8Array` is read as the exact bytes served; a string is UTF-8
 * encoded first. Returns the diagnostics sorted by line, then severity. Never throws for any body
 * (throws {@link InvalidLintOptionsError} for bad options).
 */
export function lint(input: string | Uint8Array, options: LintOptions = {}): Diagnostic[] {
  const { maxBytes, ignore, filesPerDirectory } = checkOptions(options);
  const body = typeof input === 'string' || input instanceof Uint8Array ? input : String(input ?? '');
  const context = lintContext(body, maxBytes);
  const out: Diagnostic[] = [];
  if (!checkNotRobotsTxt(context, out)) {
    checkEncoding(context, out);
    checkLines(context, out);
    checkRules(context, out);
    checkUsage(context, out);
    checkConflicts(context, out);
    checkFileLists(context, out, filesPerDirectory);
  }
  const kept = ignore.size === 0 ? out : out.filter((item) => !ignore.has(item.code));
  return kept.sort((a, b) => a.line - b.line || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.column ?? 0) - (b.column ?? 0));
}

function checkOptions(options: LintOptions | undefined): { maxBytes: number; ignore: ReadonlySet<string>; filesPerDirectory: number } {
  if (options === undefined || options === null) return { maxBytes: DEFAULT_MAX_BYTES, ignore: new Set(), filesPerDirectory: FILES_PER_DIRECTORY };
  if (typeof options !== 'object') throw new InvalidLintOptionsError(`lint options must be an object (got ${typeof options})`);
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new InvalidLintOptionsError(`Unknown lint option "${key}"; known options are: ${[...KNOWN_OPTIONS].join(', ')}`);
  }
  const { maxBytes = DEFAULT_MAX_BYTES, ignore = [], filesPerDirectory = FILES_PER_DIRECTORY } = options;
  if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) {
    throw new InvalidLintOptionsError(`lint option "maxBytes" must be a non-negative number (got ${String(maxBytes)}); omit it for the 500 KiB default`);
  }
  if (!Array.isArray(ignore)) throw new InvalidLintOptionsError('lint option "ignore" must be an array of diagnostic codes');
  for (const code of ignore) {
    if (!KNOWN_CODES.has(code)) throw new InvalidLintOptionsError(`lint option "ignore": unknown code "${String(code)}"; known codes are: ${ALL_DIAGNOSTIC_CODES.join(', ')}`);
  }
  if (typeof filesPerDirectory !== 'number' || !(filesPerDirectory >= 2)) {
    throw new InvalidLintOptionsError(`lint option "filesPerDirectory" must be a number of at least 2 (got ${String(filesPerDirectory)}); omit it for the default of 10`);
  }
  return { maxBytes, ignore: new Set(ignore), filesPerDirectory };
}
