/**
 * `heed audit <records.jsonl> --snapshots <dir>`: proves (or disproves) a crawl afterwards. Every
 * record is judged again against the snapshot it names (`audit/audit.ts`); the result lists each
 * violation by line, then a summary per origin. Exit 0 when clean, 1 on any violation.
 *
 * Everything shown comes from files someone else may have written: every string is escaped
 * ({@link escapeText}) before it is written, so no byte of them reaches the terminal raw (no
 * control sequence, no bidirectional override).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError, type CliOptions } from './args.js';
import { audit, MAX_FINDINGS, VIOLATIONS, type AuditReport, type Finding } from './audit/audit.js';
import type { CommandResult } from './lint-command.js';
import { escapeJson, plural, type Style } from './output.js';
import { InputError } from './source.js';

/** Bytes between two progress lines. */
export const PROGRESS_EVERY_BYTES = 64 * 1024 * 1024;

/** Where progress lines go (stderr), and how often. */
export interface Progress {
  write(text: string): unknown;
  readonly everyBytes?: number;
}

export async function auditCommand(file: string, options: CliOptions, style: Style, progress?: Progress): Promise<CommandResult> {
  const snapshots = options.snapshots;
  if (snapshots === undefined)
    throw new UsageError('audit needs --snapshots <dir>: the snapshot directory the crawl wrote (records.snapshots).');
  const size = await sizeOf(file, 'records file', 'file or dataset');
  await sizeOf(snapshots, 'snapshot directory', 'directory');
  const every = progress?.everyBytes ?? PROGRESS_EVERY_BYTES;
  let next = every;
  const report = await audit(file, snapshots, (bytes, records) => {
    if (progress === undefined || bytes < next || bytes >= size) return;
    next = bytes + every;
    progress.write(`heed audit: ${mib(bytes)} of ${mib(size)} read, ${plural(records, 'record')}\n`);
  });
  const exitCode = report.violations > 0 ? 1 : 0;
  const stdout = options.json
    ? `${escapeJson(JSON.stringify(jsonOf(file, snapshots, report), null, 2))}\n`
    : human(file, snapshots, report, style);
  return { exitCode, stdout };
}

function jsonOf(file: string, snapshots: string, report: AuditReport): Record<string, unknown> {
  return {
    file,
    snapshots,
    clean: report.violations === 0,
    records: report.records,
    requests: report.requests,
    skips: report.skips,
    snapshotsVerified: report.snapshotsVerified,
    violations: report.violations,
    findings: report.findings,
    findingsOmitted: report.findingsOmitted,
    origins: report.origins,
    originsOmitted: report.originsOmitted,
  };
}

function human(file: string, snapshots: string, report: AuditReport, style: Style): string {
  const out: string[] = [];
  out.push(
    `${style.bold(escapeText(file))} against ${escapeText(snapshots)}: ${plural(report.records, 'record')} ` +
      `(${plural(report.requests, 'request')} that left, ${plural(report.skips, 'skip')}), ` +
      `${plural(report.origins.length, 'origin')}, ${plural(report.snapshotsVerified, 'snapshot')} verified`,
  );
  const violations = report.findings.filter(isViolation);
  const notes = report.findings.filter((f) => !isViolation(f));
  if (violations.length > 0) {
    out.push('', style.red(`Violations (${report.violations}):`));
    for (const finding of violations) out.push(`  line ${finding.line}: ${style.red(finding.kind)} ${escapeText(finding.detail)}`);
  }
  if (notes.length > 0) {
    out.push('', style.yellow(`Notes (${notes.length}):`));
    for (const finding of notes) out.push(`  line ${finding.line}: ${style.yellow(finding.kind)} ${escapeText(finding.detail)}`);
  }
  if (report.findingsOmitted > 0) out.push(`  … and ${report.findingsOmitted} more findings (only the first ${MAX_FINDINGS} are listed)`);
  out.push('', 'Origins:');
  for (const o of report.origins) {
    const reasons = Object.entries(o.skipsByReason)
      .map(([reason, n]) => `${escapeText(reason)} ${n}`)
      .join(', ');
    out.push(
      `  ${escapeText(o.origin)}: robots.txt ${plural(o.versions, 'version')}, ${plural(o.requests, 'request')}, ${plural(o.skips, 'skip')}${reasons ? ` (${reasons})` : ''}`,
    );
  }
  if (report.originsOmitted > 0)
    out.push(`  (${report.originsOmitted} origins past the first ${report.origins.length - 1} are summed in the last row)`);
  out.push(
    '',
    report.violations === 0
      ? style.green('Clean: every request that left was allowed by the snapshot it names.')
      : style.red(`${plural(report.violations, 'violation')}.`),
  );
  return `${out.join('\n')}\n`;
}

function isViolation(finding: Finding): boolean {
  return (VIOLATIONS as readonly string[]).includes(finding.kind);
}

/**
 * `text` safe for a terminal: C0 and C1 controls, DEL, line and paragraph separators and the
 * bidirectional marks and overrides shown as `\u{…}` escapes, and the backslash doubled so an
 * escape in the file cannot pass for one of ours.
 */
export function escapeText(text: string): string {
  return text.replace(/[\\\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\\' ? '\\\\' : `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
  );
}

/** The bytes of `path`: a file's, or with `file or dataset` a folder's files' together (a local dataset of records). */
async function sizeOf(path: string, what: string, kind: 'file' | 'directory' | 'file or dataset'): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot read the ${what} ${escapeText(path)}: ${code === 'ENOENT' ? 'it does not exist' : (code ?? String(error))}.`,
    );
  }
  if (kind === 'file or dataset' && info.isDirectory()) {
    const names = await readdir(path);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(path, name)).catch(() => undefined))?.size ?? 0));
    return sizes.reduce((sum, bytes) => sum + bytes, 0);
  }
  if (kind !== 'directory' && !info.isFile()) throw new InputError(`the ${what} ${escapeText(path)} is not a file.`);
  if (kind === 'directory' && !info.isDirectory()) throw new InputError(`the ${what} ${escapeText(path)} is not a directory.`);
  return info.size;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}
