/**
 * Evidence from the sources the manager reads: a robots.txt usage verdict (the parser's) and a
 * tdmrep.json verdict, turned into {@link UsageEvidence} with the file and line they came from.
 */
import type { UsageVerdict } from '@heed/parser';
import type { TdmRepVerdict } from '../tdmrep/index.js';
import type { UsageEvidence } from './verdict.js';

const SIGNAL_NAMES = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' } as const;

/** Every category the robots.txt verdict decided, with its line at `robotsTxtUrl`. */
export function robotsEvidence(verdict: UsageVerdict, robotsTxtUrl: string): UsageEvidence[] {
  return Object.entries(verdict.decisions).map(([category, decision]) => ({
    category,
    preference: decision.preference,
    signal: decision.signal,
    source: 'robots.txt',
    where: robotsTxtUrl,
    line: decision.line,
    value: decision.value,
    description: `${SIGNAL_NAMES[decision.signal]} "${decision.value}" at ${robotsTxtUrl} line ${decision.line}`,
  }));
}

/** The categories a tdmrep.json rule decided, with its index in the file at `fileUrl`. */
export function tdmrepEvidence(verdict: TdmRepVerdict, fileUrl: string): UsageEvidence[] {
  const rule = verdict.rule;
  if (rule === undefined) return [];
  const evidence: UsageEvidence[] = [];
  const value = JSON.stringify({
    location: rule.location,
    'tdm-reservation': rule.reservation ?? null,
    ...(rule.policy === undefined ? {} : { 'tdm-policy': rule.policy }),
  });
  for (const [category, preference] of Object.entries(verdict.preferences)) {
    if (preference === 'unknown') continue;
    evidence.push({
      category,
      preference,
      signal: 'tdmrep',
      source: 'tdmrep.json',
      where: fileUrl,
      line: rule.index,
      value,
      description: `tdm-reservation ${rule.reservation} for "${rule.location}" at ${fileUrl} rule ${rule.index}`,
    });
  }
  return evidence;
}
