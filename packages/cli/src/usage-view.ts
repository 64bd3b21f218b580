/**
 * `--purpose`: the usage verdict of a URL for each declared purpose, and the evidence that decided
 * it (signal, file and line or tdmrep.json rule), for people and for machines.
 */
import { UsageReport, type UsageEvidence } from '@heed/manager';
import { printable, type UsageVerdict } from '@heed/parser';
import type { Style } from './output.js';

const SIGNAL_NAMES = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' } as const;

/**
 * The usage report of one robots.txt file alone (`explain` reads no tdmrep.json), worded as the
 * manager's `usage()` words robots.txt evidence, so `explain` and `check` print the same lines.
 */
export function robotsTxtUsage(url: string, verdict: UsageVerdict | undefined, robotsTxt: string): UsageReport {
  const evidence: UsageEvidence[] = Object.entries(verdict?.decisions ?? {}).map(([category, decision]) => ({
    category,
    preference: decision.preference,
    signal: decision.signal,
    source: 'robots.txt',
    where: robotsTxt,
    line: decision.line,
    value: decision.value,
    description: `${SIGNAL_NAMES[decision.signal]} "${decision.value}" at ${robotsTxt} line ${decision.line}`,
  }));
  return new UsageReport(url, evidence);
}

/** Lines under a URL's verdict: one per purpose. */
export function formatUsage(report: UsageReport, purposes: readonly string[], style: Style): string[] {
  const width = Math.max(...purposes.map((p) => p.length));
  const out = purposes.map((purpose) => {
    const decision = report.decision(purpose);
    const name = purpose.padEnd(width);
    if (decision === undefined) return `  usage ${name}  ${style.dim('unknown')}: no signal states a preference for ${purpose}`;
    const label = decision.preference === 'disallow' ? style.red('DISALLOWED') : style.green('allowed');
    // Quotes what a site stated (a header, a robots.txt line, tdmrep.json).
    return `  usage ${name}  ${style.bold(label)} by ${printable(decision.description)}`;
  });
  for (const note of report.notes) out.push(`  ${style.cyan('note')} ${printable(note)}`);
  return out;
}

/** Whether every purpose is allowed or unknown (the exit code's question). */
export function usageAllowed(report: UsageReport, purposes: readonly string[]): boolean {
  return report.check(purposes).allowed;
}

/** The JSON form: per purpose, the preference and its deciding evidence. */
export function usageJson(report: UsageReport, purposes: readonly string[]): Record<string, unknown> {
  return {
    usageAllowed: usageAllowed(report, purposes),
    usage: Object.fromEntries(
      purposes.map((purpose) => {
        const decision = report.decision(purpose);
        return [purpose, { preference: report.preference(purpose), ...(decision === undefined ? {} : { decidedBy: decision }) }];
      }),
    ),
    ...(report.notes.length === 0 ? {} : { usageNotes: report.notes }),
  };
}
