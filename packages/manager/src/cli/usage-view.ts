/**
 * `--purpose`: the usage verdict of a URL for each declared purpose, and the evidence that decided
 * it (signal, file and line or tdmrep.json rule), for people and for machines.
 */
import type { UsageReport } from '../usage/index.js';
import type { Style } from './output.js';

/** Lines under a URL's verdict: one per purpose. */
export function formatUsage(report: UsageReport, purposes: readonly string[], style: Style): string[] {
  const width = Math.max(...purposes.map((p) => p.length));
  const out = purposes.map((purpose) => {
    const decision = report.decision(purpose);
    const name = purpose.padEnd(width);
    if (decision === undefined) return `  usage ${name}  ${style.dim('unknown')}: no signal states a preference for ${purpose}`;
    const label = decision.preference === 'disallow' ? style.red('DISALLOWED') : style.green('allowed');
    return `  usage ${name}  ${style.bold(label)} by ${decision.description}`;
  });
  for (const note of report.notes) out.push(`  ${style.cyan('note')} ${note}`);
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
