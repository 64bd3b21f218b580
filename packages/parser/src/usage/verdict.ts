/**
 * The usage verdict of one URL: for each category, allow, disallow or unknown, with the statement
 * (signal and line) that decided. Statements combine as draft-ietf-aipref-vocab's "Combining
 * Preferences" says: any disallow → disallow; else any allow → allow; else unknown. Among equal
 * answers the first line in the file is the one reported.
 */
import type { ProductTokens } from '../user-agent.js';
import type { UsageStatement } from './statement.js';
import type { UsagePreference, UsageSignal } from './vocabulary.js';

/** The statement that decided one category. */
export interface UsageDecision {
  readonly preference: 'allow' | 'disallow';
  readonly signal: UsageSignal;
  /** 1-based robots.txt line; 0 for a statement from an HTTP header. */
  readonly line: number;
  /** The statement's value as written, e.g. `/ai-ok/ train-ai=y` or `search=yes, ai-train=no`. */
  readonly value: string;
  /** The dictionary key as written (`ai-train` for Content-Signal's train-ai). */
  readonly label: string;
}

/** A statement that applied to the URL, without its parsed dictionary (verdicts print as JSON). */
export interface AppliedStatement {
  readonly signal: UsageSignal;
  readonly line: number;
  readonly value: string;
  /** For Content-Usage lines: the path as written (`""` when none). */
  readonly path?: string;
}

/**
 * Why the verdict says what it says:
 * - `stated`: at least one category has a preference;
 * - `none-stated`: no statement applies to the URL (or none states a known category): all unknown;
 * - `crawl-disallowed`: the URL may not be crawled, and usage preferences apply only to what may
 *   be (draft-ietf-aipref-attach): all unknown. Such a URL is not fetched in the first place.
 */
export type UsageReason = 'stated' | 'none-stated' | 'crawl-disallowed';

/** The usage verdict of one URL for one crawler. Plain data plus `preference()`; prints as JSON. */
export class UsageVerdict {
  readonly reason: UsageReason;
  /** Category → the deciding statement, for every category with a preference (allow or disallow). */
  readonly decisions: Readonly<Record<string, UsageDecision>>;

  constructor(
    /** The product token the verdict is for, or the list of tokens (a frozen copy of the list asked with). */
    readonly productToken: ProductTokens,
    /** The path, parameters and query that were compared, in canonical form. */
    readonly path: string,
    /** Whether the URL may be crawled (Allow/Disallow). */
    readonly crawlAllowed: boolean,
    /** Every statement that applied to the URL, in file order. */
    readonly statements: readonly AppliedStatement[],
    decisions: Readonly<Record<string, UsageDecision>>,
  ) {
    this.decisions = decisions;
    this.reason = !crawlAllowed ? 'crawl-disallowed' : Object.keys(decisions).length > 0 ? 'stated' : 'none-stated';
  }

  /** The preference for a usage category (`train-ai`, `search`, `ai-input`, `ai-use`, ...). */
  preference(category: string): UsagePreference {
    return Object.hasOwn(this.decisions, category) ? (this.decisions[category] as UsageDecision).preference : 'unknown';
  }

  /** The statement that decided `category`, when one did. */
  decision(category: string): UsageDecision | undefined {
    return Object.hasOwn(this.decisions, category) ? this.decisions[category] : undefined;
  }
}

/** Combines statements, most restrictively, into category → deciding statement. */
export function combineStatements(statements: readonly UsageStatement[]): Record<string, UsageDecision> {
  const decisions: Record<string, UsageDecision> = {};
  const ordered = [...statements].sort((a, b) => a.line - b.line);
  for (const statement of ordered) {
    for (const [category, stated] of statement.preferences) {
      const current = Object.hasOwn(decisions, category) ? decisions[category] : undefined;
      if (current !== undefined && (current.preference === 'disallow' || stated.preference === 'allow')) continue;
      decisions[category] = {
        preference: stated.preference,
        signal: statement.signal,
        line: statement.line,
        value: statement.value,
        label: stated.label,
      };
    }
  }
  return decisions;
}

/** The statement without its parsed dictionary. */
export function appliedStatement(statement: UsageStatement): AppliedStatement {
  const { signal, line, value, path } = statement;
  return path === undefined ? { signal, line, value } : { signal, line, value, path };
}
