/**
 * `Verdict`: the manager's answer for one URL. It extends the parser's `RuleVerdict` (allowed,
 * reason, deciding line) with what only the manager knows: the URL's origin, the product token(s)
 * asked for and the state of the origin's record. What decided in detail (the rule, the groups) is
 * worked out only when asked (`explain()`): a crawler needs it for the URLs it skips, not for every
 * URL it checks.
 */
import type { ProductTokens, RobotsTxt, Rule, RuleDetail, RuleVerdict } from '@heed/parser';
import type { VerdictReason } from './policy.js';
import type { RobotsRecordStatus } from './record.js';

/** The state of the origin's robots.txt record a verdict rests on. */
export interface VerdictRecord {
  readonly status: RobotsRecordStatus;
  /** The HTTP status of the record's last fetch, when there was a response. */
  readonly httpStatus?: number;
  /** When the record was fetched (ms since the epoch; 0 for an invalid URL). */
  readonly fetchedAt: number;
  /** How old the record is now, in ms (read when asked). */
  readonly ageMs: number;
}

/** The verdict for one URL, with what decided it. */
export interface Verdict extends RuleVerdict<VerdictReason> {
  /** The URL as given. */
  readonly url: string;
  /** Its origin (`''` for an invalid URL). */
  readonly origin: string;
  /** The product token (or list of tokens) the rules were matched against. */
  readonly productToken: ProductTokens;
  /**
   * The origin's record: its status, the HTTP status of the last fetch, when that fetch was and
   * how old it is. For `invalid-url` verdicts a placeholder (`unavailable`, `fetchedAt: 0`).
   */
  readonly record: VerdictRecord;
  /**
   * The id of the robots.txt snapshot the verdict was made with: `sha256:<hex>` of the body whose
   * rules decided (of the last good copy for `stale-copy`), or of the empty body when the status
   * policy decided. With snapshots kept (`keepSnapshotsIn()`, or a store that keeps them), the
   * bytes can be read back and the verdict made again. `undefined` for `invalid-url` (and from a
   * manager of your own that keeps no snapshots).
   */
  readonly snapshot?: string | undefined;
  /**
   * The deciding rule, the groups that applied, how they were chosen and the path compared, when
   * rules (current or a stale copy) decided; `undefined` when the status policy decided (no rules
   * were read). Worked out on the first call from the parsed file the verdict was made with, then
   * kept.
   */
  explain(): RuleDetail | undefined;
  /**
   * The deciding rule alone (its directive, its pattern as written and as matched, its line), read
   * from the parsed file by {@link line}; `undefined` when no rule decided or the status policy did.
   * What a report of a skip needs: unlike {@link explain}, it builds no object for the file's
   * other lines, which the in-process cache would then hold for as long as it holds the file.
   */
  rule(): Rule | undefined;
}

/**
 * What to do once a verdict of a parsed file was explained: the manager counts the origin's file
 * again in its cache, as explaining built objects it keeps. Keyed by the file, so no verdict carries
 * a callback; the value is the manager's one function (called with the verdict's origin), so no
 * cached origin holds a closure of its own either.
 */
export const whenExplained = new WeakMap<RobotsTxt, (origin: string) => void>();

/**
 * A verdict as the manager hands it out. The parsed file and the worked-out detail are private
 * fields (`#`): they are not data of the verdict, so they stay out of its keys, JSON and equality.
 */
export class ManagerVerdict implements Verdict {
  readonly #robots: RobotsTxt | undefined;
  #detail: RuleDetail | undefined;

  constructor(
    readonly allowed: boolean,
    readonly reason: VerdictReason,
    readonly line: number,
    readonly url: string,
    readonly origin: string,
    readonly productToken: ProductTokens,
    readonly record: VerdictRecord,
    readonly snapshot: string | undefined,
    robots: RobotsTxt | undefined,
  ) {
    this.#robots = robots;
  }

  explain(): RuleDetail | undefined {
    if (this.#robots === undefined) return undefined;
    if (this.#detail === undefined) {
      const { rule, groups, matchedBy, path } = this.#robots.explain(this.url, this.productToken);
      this.#detail = rule === undefined ? { groups, matchedBy, path } : { rule, groups, matchedBy, path };
      whenExplained.get(this.#robots)?.(this.origin);
    }
    return this.#detail;
  }

  rule(): Rule | undefined {
    if (this.#robots === undefined || this.line === 0) return undefined;
    return this.#detail === undefined ? this.#robots.ruleAt(this.line) : this.#detail.rule;
  }
}

/** The record of an `invalid-url` verdict: no origin, nothing fetched. */
const INVALID_URL_RECORD: VerdictRecord = Object.freeze({ status: 'unavailable', fetchedAt: 0, ageMs: 0 });

/** The verdict for a URL that is not an absolute http(s) URL: not allowed, nothing to fetch rules from. */
export function invalidUrlVerdict(url: string, productToken: ProductTokens): Verdict {
  return new ManagerVerdict(false, 'invalid-url', 0, String(url), '', productToken, INVALID_URL_RECORD, undefined, undefined);
}
