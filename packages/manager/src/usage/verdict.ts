/**
 * The usage verdict of one URL from every signal Heed reads, combined: robots.txt (`Content-Usage`,
 * `Content-Signal`), `/.well-known/tdmrep.json`, and, once the page is fetched, its response headers
 * and meta tags (added by the crawler with `withPage()`). Each piece of evidence names its signal,
 * where it was stated (file and line, tdmrep.json rule, header, meta tag) and the value as written.
 *
 * Combining follows draft-ietf-aipref-vocab's rule, extended across signals: per category, any
 * `disallow` → disallow; else any `allow` → allow; else unknown. The first disallowing evidence in
 * source order (robots.txt, tdmrep.json, headers, meta tags) is the one reported.
 */
import type { UsagePreference } from '@heed/parser';

/** Where a preference was stated. */
export type UsageSource = 'robots.txt' | 'tdmrep.json' | 'header' | 'meta';

/**
 * The signal that stated it: `content-usage` and `content-signal` (robots.txt lines or response
 * headers), `tdmrep` (a tdmrep.json rule), `tdm-reservation` (header or meta tag), `noai` and
 * `noimageai` (robots meta tag or `X-Robots-Tag`).
 */
export type UsageEvidenceSignal = 'content-usage' | 'content-signal' | 'tdmrep' | 'tdm-reservation' | 'noai' | 'noimageai';

/** One stated preference for one category, and where it was stated. */
export interface UsageEvidence {
  readonly category: string;
  readonly preference: 'allow' | 'disallow';
  readonly signal: UsageEvidenceSignal;
  readonly source: UsageSource;
  /** The file (robots.txt or tdmrep.json URL), the header name, or the meta tag's name. */
  readonly where: string;
  /** robots.txt: the 1-based line; tdmrep.json: the 0-based rule index. */
  readonly line?: number;
  /** The statement as written: `train-ai=n`, `{"location":"/x/*","tdm-reservation":1}`, `noai`. */
  readonly value: string;
  /** One line fit for a log: `Content-Usage "train-ai=n" at https://a.example/robots.txt line 4`. */
  readonly description: string;
}

/** What a crawl with declared purposes does with a URL. */
export interface PurposeCheck {
  /** Every declared purpose is allowed (or unknown, with `unknown: 'allow'`). */
  readonly allowed: boolean;
  /** The first declared purpose that is disallowed, and the evidence that decided it. */
  readonly purpose?: string;
  readonly evidence?: UsageEvidence | undefined;
}

/** The usage verdict of one URL across all signals. Plain data plus methods; prints as JSON. */
export class UsageReport {
  /** Category → the deciding evidence, for every category with a preference. */
  readonly decisions: Readonly<Record<string, UsageEvidence>>;

  constructor(
    /** The URL as given. */
    readonly url: string,
    /** Everything stated about the URL, in source order. */
    readonly evidence: readonly UsageEvidence[],
    /** Sources that were asked but could not answer (`tdmrep.json unreachable`), for explanations. */
    readonly notes: readonly string[] = [],
  ) {
    const decisions: Record<string, UsageEvidence> = {};
    for (const item of evidence) {
      const current = Object.hasOwn(decisions, item.category) ? decisions[item.category] : undefined;
      if (current !== undefined && (current.preference === 'disallow' || item.preference === 'allow')) continue;
      decisions[item.category] = item;
    }
    this.decisions = decisions;
  }

  /** The combined preference for a category (`train-ai`, `search`, `ai-input`, ...). */
  preference(category: string): UsagePreference {
    return Object.hasOwn(this.decisions, category) ? (this.decisions[category] as UsageEvidence).preference : 'unknown';
  }

  /** The evidence that decided `category`, when some did. */
  decision(category: string): UsageEvidence | undefined {
    return Object.hasOwn(this.decisions, category) ? this.decisions[category] : undefined;
  }

  /** This verdict with more evidence (a fetched page's headers and meta tags) after its own. */
  with(evidence: readonly UsageEvidence[], notes: readonly string[] = []): UsageReport {
    if (evidence.length === 0 && notes.length === 0) return this;
    return new UsageReport(this.url, [...this.evidence, ...evidence], [...this.notes, ...notes]);
  }

  /**
   * Whether a crawl for `purposes` may use the URL: no purpose `disallow`, and, when `unknown` is
   * `'disallow'`, none unknown either.
   */
  check(purposes: readonly string[], unknown: 'allow' | 'disallow' = 'allow'): PurposeCheck {
    for (const purpose of purposes) {
      const evidence = this.decision(purpose);
      if (evidence?.preference === 'disallow') return { allowed: false, purpose, evidence };
      if ((evidence?.preference ?? 'unknown') === 'unknown' && unknown === 'disallow') return { allowed: false, purpose };
    }
    return { allowed: true };
  }

  toJSON(): Record<string, unknown> {
    return { url: this.url, decisions: this.decisions, evidence: this.evidence, ...(this.notes.length > 0 ? { notes: this.notes } : {}) };
  }
}
