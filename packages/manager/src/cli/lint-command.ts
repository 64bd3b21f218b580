/**
 * `heed lint <file|url>` and `heed lint --summary <dir>`.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ALL_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES, lint, type Diagnostic, type DiagnosticCode } from '@heed/parser';
import { UsageError, type CliOptions } from './args.js';
import { lineTexts, plural, quoteLine, type Style } from './output.js';
import { DEFAULT_USER_AGENT, describeRecord, loadRobots } from './source.js';

export interface CommandResult {
  readonly exitCode: 0 | 1;
  readonly stdout: string;
}

function checkIgnore(ignore: readonly string[]): DiagnosticCode[] {
  const known = new Set<string>(ALL_DIAGNOSTIC_CODES);
  for (const code of ignore) if (!known.has(code)) throw new UsageError(`--ignore: unknown diagnostic code "${code}"; run heed lint --help for the list.`);
  return ignore as DiagnosticCode[];
}

export async function lintCommand(operand: string, options: CliOptions, style: Style): Promise<CommandResult> {
  const ignore = checkIgnore(options.ignore);
  if (options.summary) return lintSummary(operand, options, ignore);
  const loaded = await loadRobots(operand, options.userAgent ?? DEFAULT_USER_AGENT, options.timeoutMs);
  const record = loaded.record;
  // A URL that did not answer 2xx has no robots.txt to lint; what crawlers do instead is the finding.
  if (record !== undefined && record.status !== 'ok') {
    const unreachable = record.status === 'unreachable';
    const note = describeRecord(record);
    if (options.json) {
      const json = { source: loaded.name, httpStatus: record.httpStatus ?? null, status: record.status, note, diagnostics: [], counts: { error: unreachable ? 1 : 0, warning: 0, info: 0 } };
      return { exitCode: unreachable ? 1 : 0, stdout: JSON.stringify(json, null, 2) + '\n' };
    }
    return { exitCode: unreachable ? 1 : 0, stdout: `${style.bold(loaded.name)}\n  ${unreachable ? style.red('error') : style.cyan('note')} ${note}\n` };
  }
  const body = loaded.body ?? new Uint8Array();
  const diagnostics = lint(body, { ignore });
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
  return { exitCode, stdout: formatDiagnostics(loaded.name, body, diagnostics, counts, style) };
}

function formatDiagnostics(name: string, body: Uint8Array, diagnostics: readonly Diagnostic[], counts: Record<'error' | 'warning' | 'info', number>, style: Style): string {
  const texts = lineTexts(body);
  const out: string[] = [];
  const severityLabel = { error: style.red('error'), warning: style.yellow('warning'), info: style.cyan('info') };
  for (const d of diagnostics) {
    const where = `${name}:${d.line}${d.column === undefined ? '' : `:${d.column}`}`;
    out.push(`${style.bold(where)} ${severityLabel[d.severity]} ${style.dim(d.code)}`);
    out.push(`  ${d.message}`);
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

/** `--summary <dir>`: for each code, how many files have it. The README's "in the wild" table. */
async function lintSummary(directory: string, options: CliOptions, ignore: DiagnosticCode[]): Promise<CommandResult> {
  let names: string[];
  try {
    names = (await readdir(directory, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  } catch (error) {
    throw new UsageError(`cannot read the directory "${directory}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  const filesWith = new Map<DiagnosticCode, number>();
  let withErrors = 0;
  let clean = 0;
  const started = performance.now();
  for (const name of names) {
    // Synchronous: thousands of small files read one after another, no concurrency to gain.
    const body = readFileSync(join(directory, name));
    const diagnostics = lint(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { ignore });
    if (diagnostics.length === 0) clean++;
    if (diagnostics.some((d) => d.severity === 'error')) withErrors++;
    for (const code of new Set(diagnostics.map((d) => d.code))) filesWith.set(code, (filesWith.get(code) ?? 0) + 1);
  }
  const elapsedMs = Math.round(performance.now() - started);
  const files = names.length;
  const rows = ALL_DIAGNOSTIC_CODES.map((code) => ({ code, severity: DIAGNOSTIC_CODES[code].severity, files: filesWith.get(code) ?? 0 }));
  const percent = (count: number) => (files === 0 ? '0.0' : ((100 * count) / files).toFixed(1));
  if (options.json) {
    const json = { directory, files, filesWithErrors: withErrors, cleanFiles: clean, elapsedMs, codes: rows.map((row) => ({ ...row, percent: Number(percent(row.files)) })) };
    return { exitCode: 0, stdout: JSON.stringify(json, null, 2) + '\n' };
  }
  const out = [
    `| Diagnostic | Severity | Files | % of files | What it means |`,
    `|---|---|---:|---:|---|`,
    ...[...rows].sort((a, b) => b.files - a.files || ALL_DIAGNOSTIC_CODES.indexOf(a.code) - ALL_DIAGNOSTIC_CODES.indexOf(b.code)).map((row) => `| \`${row.code}\` | ${row.severity} | ${row.files.toLocaleString('en-US')} | ${percent(row.files)} | ${DIAGNOSTIC_CODES[row.code].summary.replace(/\|/g, '\\|')} |`),
    '',
    `${files.toLocaleString('en-US')} files linted in ${(elapsedMs / 1000).toFixed(1)} s: ${withErrors.toLocaleString('en-US')} (${percent(withErrors)} %) with at least one error, ${clean.toLocaleString('en-US')} (${percent(clean)} %) with no diagnostic at all.`,
  ];
  return { exitCode: 0, stdout: out.join('\n') + '\n' };
}
