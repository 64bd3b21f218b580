/**
 * `heed lint <file|url>` and `heed lint --summary <dir|file>`.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DIAGNOSTIC_CODES, lint, printable, type Diagnostic, type DiagnosticCode } from '@heed/parser';
import { UsageError, type CliOptions } from './args.js';
import { lineTexts, plural, quoteLine, type Style } from './output.js';
import { describeRecord, InputError, loadRobots, READ_LIMIT, readBounded, readProblem } from './source.js';

/** Every lint code, in the catalogue's order (the order of the summary table's ties). */
const ALL_DIAGNOSTIC_CODES = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];

export interface CommandResult {
  readonly exitCode: 0 | 1;
  readonly stdout: string;
}

function checkIgnore(ignore: readonly string[]): DiagnosticCode[] {
  const known = new Set<string>(ALL_DIAGNOSTIC_CODES);
  for (const code of ignore)
    if (!known.has(code)) throw new UsageError(`--ignore: unknown diagnostic code "${code}"; run heed lint --help for the list.`);
  return ignore as DiagnosticCode[];
}

export async function lintCommand(operand: string, options: CliOptions, style: Style): Promise<CommandResult> {
  const ignore = checkIgnore(options.ignore);
  if (options.summary) return lintSummary(operand, options, ignore);
  const loaded = await loadRobots(operand, options);
  const record = loaded.record;
  // A URL that did not answer 2xx has no robots.txt to lint; what crawlers do instead is the finding.
  if (record !== undefined && record.status !== 'ok') {
    const unreachable = record.status === 'unreachable';
    const note = describeRecord(record);
    if (options.json) {
      const json = {
        source: loaded.name,
        httpStatus: record.httpStatus ?? null,
        status: record.status,
        note,
        diagnostics: [],
        counts: { error: unreachable ? 1 : 0, warning: 0, info: 0 },
      };
      return { exitCode: unreachable ? 1 : 0, stdout: JSON.stringify(json, null, 2) + '\n' };
    }
    return {
      exitCode: unreachable ? 1 : 0,
      stdout: `${style.bold(printable(loaded.name))}\n  ${unreachable ? style.red('error') : style.cyan('note')} ${note}\n`,
    };
  }
  const body = loaded.body ?? new Uint8Array();
  const diagnostics = lintRead(
    {
      body,
      truncated: loaded.truncated,
      ...(loaded.size === undefined ? {} : { size: loaded.size }),
      from: record === undefined ? 'file' : 'response',
    },
    ignore,
  );
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  const exitCode = counts.error > 0 ? 1 : 0;
  if (options.json) {
    const texts = lineTexts(body);
    const json = {
      source: loaded.name,
      ...(record === undefined ? {} : { httpStatus: record.httpStatus ?? null }),
      diagnostics: diagnostics.map((d) => ({ ...d, text: texts.get(d.line) ?? '' })),
      counts,
    };
    return { exitCode, stdout: JSON.stringify(json, null, 2) + '\n' };
  }
  return { exitCode, stdout: formatDiagnostics(printable(loaded.name), body, diagnostics, counts, style) };
}

/**
 * The diagnostics of a body read up to the limit crawlers read. A body cut there usually ends in
 * the start of a line (`Disallo`): that fragment is what crawlers read, but not what the author
 * wrote, so it is not linted as a mistake. The body is linted up to its last line break and the
 * cut is reported once, on the fragment's line, quoting what crawlers make of it. Verdicts
 * (`explain`, `check`) still read the fragment, exactly as Google does.
 */
export function lintRead(
  read: { readonly body: Uint8Array; readonly truncated: boolean; readonly size?: number; readonly from: 'file' | 'response' },
  ignore: readonly DiagnosticCode[],
): Diagnostic[] {
  const { body, truncated } = read;
  if (!truncated) return lint(body, { ignore });
  const lastBreak = Math.max(body.lastIndexOf(0x0a), body.lastIndexOf(0x0d));
  const whole = lastBreak === -1 ? body : body.subarray(0, lastBreak + 1);
  const diagnostics = lint(whole, { ignore: [...ignore, 'content-past-limit'] });
  if (ignore.includes('content-past-limit')) return diagnostics;
  const lines = [...lineTexts(body)];
  const last = body[body.length - 1];
  const fragment = last !== 0x0a && last !== 0x0d ? lines[lines.length - 1] : undefined;
  const lastLine = lines[lines.length - 1]?.[0] ?? 0;
  const what = read.from === 'file' ? 'file' : 'body';
  const size =
    read.size === undefined
      ? `The ${what} is larger than ${READ_LIMIT.toLocaleString('en-US')} bytes`
      : `The ${what} is ${read.size.toLocaleString('en-US')} bytes`;
  const limit = `crawlers read only the first ${(READ_LIMIT / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB (${READ_LIMIT.toLocaleString('en-US')} bytes)`;
  const where =
    fragment === undefined
      ? `so everything from line ${lastLine + 1} on is ignored`
      : `and the limit falls inside line ${fragment[0]}: crawlers read only its start, ${JSON.stringify(visible(fragment[1]))}, and nothing after it`;
  diagnostics.push({
    code: 'content-past-limit',
    severity: DIAGNOSTIC_CODES['content-past-limit'].severity,
    line: fragment?.[0] ?? Math.max(1, lastLine),
    message: `${size}; ${limit}, ${where}. Shorten it: one directory rule or a \`*\` pattern replaces many single-path rules.`,
  });
  return diagnostics;
}

function formatDiagnostics(
  name: string,
  body: Uint8Array,
  diagnostics: readonly Diagnostic[],
  counts: Record<'error' | 'warning' | 'info', number>,
  style: Style,
): string {
  const texts = lineTexts(body);
  const out: string[] = [];
  const severityLabel = { error: style.red('error'), warning: style.yellow('warning'), info: style.cyan('info') };
  for (const d of diagnostics) {
    const where = `${name}:${d.line}${d.column === undefined ? '' : `:${d.column}`}`;
    out.push(`${style.bold(where)} ${severityLabel[d.severity]} ${style.dim(d.code)}`);
    // A message quotes the file (a key, a value): escaped like the lines quoted under it.
    out.push(`  ${printable(d.message)}`);
    out.push(...quoteLine(texts, d.line, d.column, style));
    if (d.related !== undefined) {
      const shown = d.related.slice(0, 3);
      for (const line of shown) out.push(...quoteLine(texts, line, undefined, style));
      if (d.related.length > shown.length) out.push(style.dim(`        … and ${d.related.length - shown.length} more related line(s)`));
    }
    out.push('');
  }
  const total = diagnostics.length;
  const summary =
    total === 0
      ? style.green(`${name}: no problems found.`)
      : `${name}: ${[counts.error > 0 ? style.red(plural(counts.error, 'error')) : plural(0, 'error'), plural(counts.warning, 'warning'), `${counts.info} info`].join(', ')}.`;
  out.push(summary);
  return out.join('\n') + '\n';
}

/**
 * `--summary <dir>`: for each code, how many files have it. The "in the wild" table of packages/parser/docs/reference.md. A
 * single file is summarised on its own. Exits 1 when a file has an error, like `lint` of one file.
 */
async function lintSummary(operand: string, options: CliOptions, ignore: DiagnosticCode[]): Promise<CommandResult> {
  let directory = operand;
  let names: string[];
  try {
    if ((await stat(operand)).isDirectory()) {
      names = (await readdir(operand, { withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
        .sort();
    } else {
      directory = dirname(operand);
      names = [basename(operand)];
    }
  } catch (error) {
    throw new InputError(
      `cannot read "${operand}" for lint --summary (a directory of robots.txt files, or one file): ${readProblem(error)}.`,
    );
  }
  const filesWith = new Map<DiagnosticCode, number>();
  let withErrors = 0;
  let clean = 0;
  const started = performance.now();
  for (const name of names) {
    // One after another: thousands of small files, each read at most up to the limit.
    const read = await readBounded(join(directory, name));
    const diagnostics = lintRead({ ...read, body: read.bytes, from: 'file' }, ignore);
    if (diagnostics.length === 0) clean++;
    if (diagnostics.some((d) => d.severity === 'error')) withErrors++;
    for (const code of new Set(diagnostics.map((d) => d.code))) filesWith.set(code, (filesWith.get(code) ?? 0) + 1);
  }
  const elapsedMs = Math.round(performance.now() - started);
  const files = names.length;
  const exitCode = withErrors > 0 ? 1 : 0;
  const rows = ALL_DIAGNOSTIC_CODES.map((code) => ({ code, severity: DIAGNOSTIC_CODES[code].severity, files: filesWith.get(code) ?? 0 }));
  const percent = (count: number) => (files === 0 ? '0.0' : ((100 * count) / files).toFixed(1));
  if (options.json) {
    const json = {
      directory,
      files,
      filesWithErrors: withErrors,
      cleanFiles: clean,
      elapsedMs,
      codes: rows.map((row) => ({ ...row, percent: Number(percent(row.files)) })),
    };
    return { exitCode, stdout: JSON.stringify(json, null, 2) + '\n' };
  }
  const out = [
    `| Diagnostic | Severity | Files | % of files | What it means |`,
    `|---|---|---:|---:|---|`,
    ...[...rows]
      .sort((a, b) => b.files - a.files || ALL_DIAGNOSTIC_CODES.indexOf(a.code) - ALL_DIAGNOSTIC_CODES.indexOf(b.code))
      .map(
        (row) =>
          `| \`${row.code}\` | ${row.severity} | ${row.files.toLocaleString('en-US')} | ${percent(row.files)} | ${DIAGNOSTIC_CODES[row.code].summary.replace(/\|/g, '\\|')} |`,
      ),
    '',
    `${files.toLocaleString('en-US')} ${files === 1 ? 'file' : 'files'} linted in ${(elapsedMs / 1000).toFixed(1)} s: ${withErrors.toLocaleString('en-US')} (${percent(withErrors)} %) with at least one error, ${clean.toLocaleString('en-US')} (${percent(clean)} %) with no diagnostic at all.`,
  ];
  return { exitCode, stdout: out.join('\n') + '\n' };
}

/** A line's start as shown in a message: at most 60 characters, control characters escaped. */
function visible(text: string): string {
  const shown = printable(text);
  return shown.length > 60 ? `${shown.slice(0, 60)}…` : shown;
}
