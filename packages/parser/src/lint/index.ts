/**
 * `lint()`: what a robots.txt file really says, as diagnostics with line numbers. It reads the same
 * line records and groups as the parser (one tokenizer), with Google's reading as the reference,
 * and flags where other crawlers (RFC 9309 parsers, naive ones) would read the file differently.
 *
 * Families of checks, one module each: whole-file content and encoding (`content.ts`), line syntax
 * (`lines.ts`), directives in their groups (`rules.ts`), the AI-usage lines (`usage.ts`), rules that
 * never decide (`conflicts.ts`) and long file lists (`directories.ts`).
 */
import { defineOptions, option, type OptionsInput } from '../options/index.js';
import { MAX_BODY_BYTES } from '../table.js';
import { DEFAULT_MAX_BYTES } from '../tokenize.js';
import { checkConflicts } from './conflicts.js';
import { checkEncoding, checkNotRobotsTxt } from './content.js';
import { lintContext } from './context.js';
import { ALL_DIAGNOSTIC_CODES, type Diagnostic, type Severity } from './diagnostics.js';
import { checkFileLists, FILES_PER_DIRECTORY } from './directories.js';
import { checkLines } from './lines.js';
import { checkRules } from './rules.js';
import { checkUsage } from './usage.js';

export { ALL_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES } from './diagnostics.js';
export type { Diagnostic, DiagnosticCode, Severity } from './diagnostics.js';

/** The options of {@link lint}. */
const LINT_OPTIONS = defineOptions(
  'lint()',
  {
    /**
     * Bytes a crawler reads; content past it is reported as ignored.
     * @default 512,000 (500 KiB, Google's limit)
     */
    maxBytes: option.number({ default: DEFAULT_MAX_BYTES, min: 0, max: MAX_BODY_BYTES, unit: 'bytes' }),
    /**
     * Codes to leave out of the result.
     * @default none
     */
    ignore: option.list({ values: ALL_DIAGNOSTIC_CODES, item: 'diagnostic code' }),
    /**
     * How many single-file rules in one directory are reported as `files-instead-of-directory`.
     * @default 10
     */
    filesPerDirectory: option.number({ default: FILES_PER_DIRECTORY, min: 2, integer: true }),
  },
  { example: "{ ignore: ['missing-user-agent'] }" },
);

/** Options of {@link lint}. */
export type LintOptions = OptionsInput<typeof LINT_OPTIONS>;

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Lints a robots.txt body. A `Uint8Array` is read as the exact bytes served; a string is UTF-8
 * encoded first. Returns the diagnostics sorted by line, then severity. Never throws for any body
 * (throws `InvalidOptionsError` for bad options).
 */
export function lint(input: string | Uint8Array, options?: LintOptions): Diagnostic[] {
  const { maxBytes, ignore, filesPerDirectory } = LINT_OPTIONS.resolve(options);
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
  const ignored = new Set<string>(ignore);
  const kept = ignored.size === 0 ? out : out.filter((item) => !ignored.has(item.code));
  return kept.sort(
    (a, b) => a.line - b.line || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.column ?? 0) - (b.column ?? 0),
  );
}
