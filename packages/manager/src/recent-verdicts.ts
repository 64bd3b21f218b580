/**
 * The verdicts `decideCached()` gave last, by URL: a crawl checks the same URLs again and again (a
 * site's menu and footer links on every page, each link again right before its fetch), and a URL
 * judged before by the same record and token has the same verdict. A verdict is reused only while
 * its origin's entry is the one that made it: a record fetched or read again since makes a new
 * entry, with a new record view, so an older verdict never answers for newer rules.
 */
import type { ProductTokens } from '@heed/parser';
import type { RobotsRules } from './loader/robots-file.js';
import type { Verdict } from './verdict.js';

/** URLs remembered at most; the whole memory is dropped when it is full (no recency kept per check). */
const MAX_URLS = 4_096;
/** Longer URLs are judged each time: remembering them would cost more memory than judging them costs time. */
const MAX_URL_LENGTH = 512;

export class RecentVerdicts {
  private readonly byUrl = new Map<string, Verdict>();

  /**
   * The verdict last given for `url` and `token`, if any. It still holds only while the fresh entry
   * of its origin is the one that made it ({@link madeBy}).
   */
  lastFor(url: string, token: ProductTokens): Verdict | undefined {
    const known = this.byUrl.get(url);
    return known === undefined || known.productToken !== token ? undefined : known;
  }

  /** Remembers `verdict`, given for `url` (an absolute http(s) URL whose origin's entry made it). */
  remember(url: string, verdict: Verdict): void {
    if (url.length > MAX_URL_LENGTH) return;
    if (this.byUrl.size >= MAX_URLS) this.byUrl.clear();
    this.byUrl.set(url, verdict);
  }
}

/**
 * Whether the entry whose parsed form is `value` made `verdict`: its record view is one per entry,
 * the same view is the same entry, the same rules.
 */
export function madeBy(verdict: Verdict, value: RobotsRules): boolean {
  return value.record === verdict.record;
}
