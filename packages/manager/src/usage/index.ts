/**
 * `RobotsManager#usage(url, { productToken, purposes })`: the AI-usage verdict of a URL from robots.txt
 * (`Content-Usage`, `Content-Signal`, read by the parser) and, when a declared purpose is one TDMRep
 * speaks for (`train-ai`, `ai-input`), the origin's `/.well-known/tdmrep.json`. Without such a
 * purpose the file is never fetched.
 */
import type { ProductTokens, RobotsTxt } from '@heed/parser';
import { TDM_CATEGORIES } from '../tdmrep/index.js';
import { robotsEvidence, tdmrepEvidence } from './evidence.js';
import type { FetchContext } from '../fetch/fetch-context.js';
import type { TdmRepReading } from './tdmrep-file.js';
import { UsageReport, type UsageEvidence } from './verdict.js';

export { UsageReport } from './verdict.js';
export type { UsageEvidence, UsageEvidenceSignal, UsageSource, PurposeCheck } from './verdict.js';
export { tdmrepKind, TDMREP_CACHE, TDMREP_PATH, type TdmRepReading } from './tdmrep-file.js';

/** What `usage()` is asked. */
export interface UsageQuery {
  /**
   * The product token, or a list of tokens, robots.txt groups are matched by (a list: the groups of
   * every named token, `*` only when none is named).
   * @default the manager's `productToken`
   */
  readonly productToken?: ProductTokens;
  /**
   * What the crawl is for: `train-ai`, `search`, `ai-input`, `ai-use`. tdmrep.json is read only
   * when one of them is `train-ai` or `ai-input`. Default: none (robots.txt only).
   */
  readonly purposes?: readonly string[];
  /** What the caller lends for the fetches this call causes (robots.txt, tdmrep.json): see `RobotsManager.decide()`. */
  readonly fetch?: FetchContext;
}

/** Whether any of `purposes` is one a TDM reservation speaks for. */
export function needsTdmRep(purposes: readonly string[] | undefined): boolean {
  return purposes !== undefined && purposes.some((p) => (TDM_CATEGORIES as readonly string[]).includes(p));
}

/**
 * The combined verdict. `robots` is the origin's parsed robots.txt (`undefined` when it has none in
 * force: 404, unreachable), `origin` the URL's origin, `tdmrep` loads the origin's tdmrep.json.
 */
export async function usageReport(
  url: string,
  origin: string,
  robots: RobotsTxt | undefined,
  tokens: ProductTokens,
  purposes: readonly string[] | undefined,
  tdmrep: (origin: string) => Promise<TdmRepReading>,
): Promise<UsageReport> {
  const evidence: UsageEvidence[] = [];
  const notes: string[] = [];
  if (robots !== undefined) evidence.push(...robotsEvidence(robots.usage(url, tokens), `${origin}/robots.txt`));
  if (needsTdmRep(purposes)) {
    const entry = await tdmrep(origin);
    if (entry.matcher !== undefined) evidence.push(...tdmrepEvidence(entry.matcher.verdict(url), entry.url));
    if (entry.note !== undefined) notes.push(entry.note);
  }
  return new UsageReport(url, evidence, notes);
}
