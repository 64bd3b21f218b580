/**
 * Which tdmrep.json rule applies to a URL, and what it means for AI usage. The TDMRep report:
 * locations are matched against the URL's path as robots.txt patterns (`*`, `$`), case-sensitively,
 * with escapes of unreserved characters decoded; "the most specific match is the first in
 * sequence", so the first matching rule in array order decides (not the longest).
 *
 * Meaning, for Heed's usage categories: `tdm-reservation: 1` reserves text and data mining, so
 * `train-ai` and `ai-input` are disallowed; `0` says the rights are not reserved (allowed); no
 * matching rule, or an unset reservation, says nothing (unknown). `search` is not TDM.
 */
import type { UsagePreference } from '@heed/parser';
import { pathPatternList, type PathPatternList } from '@heed/parser';
import type { TdmRepFile, TdmRepRule } from './parse.js';

/** The categories a TDM reservation speaks for. */
export const TDM_CATEGORIES = ['train-ai', 'ai-input'] as const;

/** The TDMRep verdict of one URL. */
export interface TdmRepVerdict {
  /** The rule that decided (the first whose location matches), if any. */
  readonly rule?: TdmRepRule;
  /** `train-ai` and `ai-input`: disallow (reserved), allow (not reserved) or unknown. */
  readonly preferences: Readonly<Record<(typeof TDM_CATEGORIES)[number], UsagePreference>>;
}

/**
 * A parsed tdmrep.json with its locations compiled once, into one matcher for the whole file: a
 * check reads the URL once and asks one rule set, so 1,000 hostile `*` locations cost about what
 * 1,000 Disallow rules cost (one matcher per rule cost about 9 ms a check for a 63 KB file).
 */
export class TdmRepMatcher {
  private readonly locations: PathPatternList;

  constructor(readonly file: TdmRepFile) {
    this.locations = pathPatternList(
      file.rules.map((rule) => rule.location),
      { decodeUnreservedEscapes: true },
    );
  }

  /** The verdict for `url` (any string; only its path and query are compared). */
  verdict(url: string): TdmRepVerdict {
    const found = this.file.rules[this.locations.firstMatch(url)];
    if (found === undefined) return { preferences: { 'train-ai': 'unknown', 'ai-input': 'unknown' } };
    const preference: UsagePreference = found.reservation === 1 ? 'disallow' : found.reservation === 0 ? 'allow' : 'unknown';
    return { rule: found, preferences: { 'train-ai': preference, 'ai-input': preference } };
  }
}
