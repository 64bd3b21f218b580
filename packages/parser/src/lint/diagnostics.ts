/**
 * The linter's vocabulary: every diagnostic code, its severity and what it means. Codes are stable
 * (tools and CI scripts match on them); messages may improve between versions.
 */

/** How bad a finding is. */
export type Severity =
  /** Crawlers read the file differently from what it says (a rule ignored, a path that never matches). */
  | 'error'
  /** Works, but probably not as meant (a rule that never decides, a directive Google ignores). */
  | 'warning'
  /** Style: harmless to Google, occasionally confusing to simpler parsers. */
  | 'info';

/** The catalogue: code → severity and a one-line summary (for `--help`, the README and tools). */
export const DIAGNOSTIC_CODES = {
  // Errors: crawlers do not read the file the way it is written.
  'rule-before-user-agent': {
    severity: 'error',
    summary: 'allow/disallow/content-usage before any user-agent line: belongs to no group, ignored',
  },
  'path-without-leading-slash': { severity: 'error', summary: 'a rule path that starts with neither `/` nor `*`: it never matches' },
  'several-paths-on-one-line': {
    severity: 'error',
    summary: 'several paths on one allow/disallow line: read as one path that never matches',
  },
  'reversed-syntax': { severity: 'error', summary: '`User-agent: *` then `Disallow: <bot name>`: the bot name is read as a path' },
  'html-content': { severity: 'error', summary: 'an HTML page served as robots.txt: crawlers find no rules in it' },
  'binary-content': { severity: 'error', summary: 'binary content (compressed, an image, NUL bytes...) served as robots.txt' },
  'content-past-limit': { severity: 'error', summary: 'the file is larger than 500 KiB: the rest is ignored' },
  'line-too-long': { severity: 'error', summary: 'a line longer than 16,663 bytes: Google cuts it there' },
  'unknown-key-typo': { severity: 'error', summary: 'an unknown key that looks like a misspelt known key: ignored by every crawler' },
  'typo-accepted-by-google': { severity: 'error', summary: 'a misspelt key Google accepts: works for Google, ignored by others' },
  'missing-colon': { severity: 'error', summary: 'a key without a colon: only Google reads it, and only with exactly one value word' },
  'sitemap-not-absolute-url': { severity: 'error', summary: 'a sitemap that is not an absolute http(s) URL: ignored' },
  'invalid-utf8': { severity: 'error', summary: 'bytes that are not valid UTF-8: paths with them never match what crawlers send' },
  'usage-invalid-dictionary': {
    severity: 'error',
    summary: 'a Content-Usage/Content-Signal value that is not an RFC 9651 dictionary (or states nothing): every preference unknown',
  },
  'usage-uppercase-key': {
    severity: 'error',
    summary: 'a key with capitals in a Content-Usage/Content-Signal value: the whole line fails, every preference unknown',
  },
  'usage-wrong-value': {
    severity: 'error',
    summary: '`yes`/`no` in Content-Usage, `y`/`n` in Content-Signal, or another value: that preference is unknown',
  },
  // Warnings: read as written, but probably not as meant.
  'shadowed-rule': {
    severity: 'warning',
    summary: 'a rule that never decides: a longer rule with the opposite verdict always matches too',
  },
  'equal-length-conflict': { severity: 'warning', summary: 'allow and disallow of equal length that match the same URLs: the allow wins' },
  'empty-group-at-end': { severity: 'warning', summary: 'user-agent lines with no rules at the end of the file: allows everything' },
  'crawl-delay': { severity: 'warning', summary: 'crawl-delay: Google ignores it; Bing, Yandex and others honour it' },
  'files-instead-of-directory': { severity: 'warning', summary: 'a long list of single files that one directory rule would cover' },
  'space-in-path': { severity: 'warning', summary: 'white space inside a path: URLs never contain it, the rule never matches past it' },
  'invalid-line': { severity: 'warning', summary: 'a line that is neither a comment nor key: value: ignored' },
  'utf16-encoding': { severity: 'warning', summary: 'UTF-16 text with a byte-order mark: Google finds no rules in it (Heed decodes it)' },
  'unsupported-directive': { severity: 'warning', summary: 'noindex/nofollow in robots.txt: no major crawler supports them there' },
  'usage-unknown-category': { severity: 'warning', summary: 'a Content-Usage/Content-Signal key that names no usage category: ignored' },
  'content-signal-outside-group': {
    severity: 'warning',
    summary: 'Content-Signal before any user-agent line: Heed applies it to every group, RFC 9309 readers drop it',
  },
  'usage-splits-agent-list': {
    severity: 'warning',
    summary: 'a Content-Usage/Content-Signal line between user-agent lines: usage readers end the group there, Google does not',
  },
  'usage-path-disallowed': {
    severity: 'warning',
    summary: 'a Content-Usage path its group disallows anyway: preferences apply only to what may be crawled',
  },
  // Info: style, and rules that change nothing.
  'redundant-rule': { severity: 'info', summary: 'a rule that never decides: another rule with the same verdict always wins' },
  'unknown-key': { severity: 'info', summary: 'a key RFC 9309 and Google do not know (host, clean-param, ...): ignored by most crawlers' },
  'end-of-line-comment': {
    severity: 'info',
    summary: 'a comment after a directive: fine for RFC 9309 parsers, read as part of the value by some others',
  },
  'leading-whitespace': { severity: 'info', summary: 'a line that starts with white space' },
  'uppercase-key': {
    severity: 'info',
    summary: 'a key written in capitals (DISALLOW): keys are case-insensitive, but simple parsers compare them as written',
  },
  'dos-line-endings': { severity: 'info', summary: 'CR LF line ends: fine for RFC 9309 parsers, a stray CR for naive ones' },
  'byte-order-mark': {
    severity: 'info',
    summary: 'a UTF-8 byte-order mark at the start: Google skips it, naive parsers read it as part of the first key',
  },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

/** A stable, kebab-case diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** Every code, in catalogue order (errors, then warnings, then info). */
export const ALL_DIAGNOSTIC_CODES = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];

/** One finding of {@link lint}. */
export interface Diagnostic {
  /** Stable kebab-case code, e.g. `path-without-leading-slash`. */
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** 1-based line the finding is on (for whole-file findings, the line where it shows first). */
  readonly line: number;
  /** 1-based column in the line's text (UTF-16 units), where it helps to point at a spot. */
  readonly column?: number;
  /** What is wrong and what to write instead. */
  readonly message: string;
  /** Other lines involved: the rule that shadows this one, the files a directory rule would cover... */
  readonly related?: readonly number[];
}

/** Builds a diagnostic with the catalogue's severity. */
export function diagnostic(
  code: DiagnosticCode,
  line: number,
  message: string,
  extra: { column?: number; related?: readonly number[] } = {},
): Diagnostic {
  const result: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { code, severity: DIAGNOSTIC_CODES[code].severity, line, message };
  if (extra.column !== undefined) result.column = extra.column;
  if (extra.related !== undefined && extra.related.length > 0) result.related = extra.related;
  return result;
}

/**
 * `rule-before-user-agent` for a line of `key: value` above the first `User-agent:` line. `reader`:
 * who ignores it (`crawler` for allow/disallow, `reader` for usage lines any AI-preference reader parses).
 */
export function ruleBeforeUserAgent(
  record: { readonly line: number; readonly key?: string | undefined; readonly value?: string | undefined },
  reader: string,
): Diagnostic {
  return diagnostic(
    'rule-before-user-agent',
    record.line,
    `\`${record.key}: ${record.value}\` comes before any \`User-agent:\` line, so it belongs to no group and every ${reader} ignores it. Put \`User-agent: *\` (or the crawler's name) above it.`,
    { column: 1 },
  );
}
