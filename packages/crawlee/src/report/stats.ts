/**
 * What the plugin did, counted: URLs allowed and skipped (by reason and by stage), the robots.txt
 * status of each origin met, sitemap URLs enqueued. `summary()` is the one line logged at the end
 * of `crawler.run()`.
 */
import type { Verdict } from '@heed/manager';
import { SKIP_REASONS, SKIP_STAGES, type SkipEvent, type SkipReason, type SkipStage } from './skip-events.js';
import { SeenSkips, skipSummary } from './skip-log.js';

/** A snapshot of the plugin's counters (`plugin.stats`). */
export interface RobotsPluginStats {
  /** Requests the before-fetch check let through. */
  readonly allowed: number;
  /** All skips, whatever the reason. */
  readonly skipped: number;
  readonly skippedByReason: Readonly<Record<SkipReason, number>>;
  readonly skippedByStage: Readonly<Record<SkipStage, number>>;
  /**
   * Origins met, by the status their robots.txt record rests on: the HTTP status (`'200'`, `'404'`,
   * `'503'`) or, with none (network error), the record status (`'unreachable'`). The last status of
   * the last {@link MAX_COUNTED_ORIGINS} origins met is kept: an origin met again after that many
   * new ones counts again.
   */
  readonly robotsByStatus: Readonly<Record<string, number>>;
  /** Sitemap files read (robots.txt `Sitemap:` lines and nested index entries). */
  readonly sitemapsRead: number;
  /**
   * Sitemap files not fetched, or whose redirect was not followed: robots.txt of the file's (or the
   * hop's) origin disallows it, or a redirect leaves the site (the cross-host rule). Each is also
   * logged as a warning.
   */
  readonly sitemapsSkipped: number;
  /** URLs from sitemaps that were handed to the queue (after filters and robots rules). */
  readonly sitemapUrlsEnqueued: number;
  /** Requests put back into the queue to honour an origin's crawl-delay. */
  readonly crawlDelayDeferrals: number;
  /**
   * `usage` skips by the signal that decided (`content-usage`, `content-signal`, `tdmrep`,
   * `tdm-reservation`, `noai`, `noimageai`, or `unknown` for `unknownUsage: 'disallow'`). Empty
   * without `purposes`.
   */
  readonly usageSkipsBySignal: Readonly<Record<string, number>>;
  /** Pages whose answer said `crawler-charged` (pay-per-crawl, with `maxCrawlPrice`). */
  readonly pagesCharged: number;
}

/**
 * Origins whose last robots.txt status the stats keep (a bound on memory in a broad crawl), the first met
 * forgotten first: an origin is counted once however many of its URLs are checked, unless it comes
 * back after this many new origins.
 */
export const MAX_COUNTED_ORIGINS = 10_000;

const REASONS: readonly SkipReason[] = SKIP_REASONS;
const STAGES: readonly SkipStage[] = SKIP_STAGES;

/** The mutable counters behind {@link RobotsPluginStats}. */
export class PluginStats {
  allowed = 0;
  sitemapsRead = 0;
  sitemapsSkipped = 0;
  sitemapUrlsEnqueued = 0;
  crawlDelayDeferrals = 0;
  pagesCharged = 0;
  /** The first few distinct `crawler-charged` prices, for the summary. */
  private readonly chargedPrices: string[] = [];
  private readonly byReason = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;
  private readonly byStage = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<SkipStage, number>;
  private readonly bySignal: Record<string, number> = {};
  /** Distinct skipped URLs (by URL and reason), for the summary and the skip log. */
  private readonly seen = new SeenSkips();
  /** origin → status label of the last record seen for it; the origins met first are forgotten first. */
  private readonly originStatus = new Map<string, string>();
  /** label → origins counted with it (forgotten origins stay counted: they were met). */
  private readonly byStatus: Record<string, number> = {};
  /**
   * The origin and record noted last: a crawl checks runs of links of one origin, whose verdicts
   * share their record, so the next one is noted with two comparisons. Only a new origin can make
   * the counts forget one, and a new origin replaces these.
   */
  private lastOrigin = '';
  private lastRecord: Verdict['record'] | undefined;

  /** Counts `event`; `true` when its URL was not skipped for this reason before. */
  countSkip(event: SkipEvent): boolean {
    this.byReason[event.reason]++;
    this.byStage[event.stage]++;
    if (event.usage !== undefined) {
      const signal = event.usage.evidence?.signal ?? 'unknown';
      this.bySignal[signal] = (this.bySignal[signal] ?? 0) + 1;
    }
    return this.seen.note(event);
  }

  /** Notes the robots.txt record an origin's verdict rests on. */
  noteVerdict(verdict: Verdict): void {
    if (!verdict.origin) return;
    const { record } = verdict;
    if (record === this.lastRecord && verdict.origin === this.lastOrigin) return;
    this.lastOrigin = verdict.origin;
    this.lastRecord = record;
    const label = record.httpStatus !== undefined ? String(record.httpStatus) : record.status;
    const previous = this.originStatus.get(verdict.origin);
    if (previous === label) return;
    if (previous !== undefined) this.byStatus[previous] = (this.byStatus[previous] ?? 1) - 1;
    else if (this.originStatus.size >= MAX_COUNTED_ORIGINS) this.originStatus.delete(this.originStatus.keys().next().value as string);
    this.byStatus[label] = (this.byStatus[label] ?? 0) + 1;
    this.originStatus.set(verdict.origin, label);
  }

  /** Notes a page the site charged for, at `price` (its `crawler-charged` header). */
  noteCharged(price: string): void {
    this.pagesCharged++;
    if (this.chargedPrices.length < 3 && !this.chargedPrices.includes(price)) this.chargedPrices.push(price.slice(0, 200));
  }

  snapshot(): RobotsPluginStats {
    const robotsByStatus: Record<string, number> = {};
    for (const [label, count] of Object.entries(this.byStatus)) if (count > 0) robotsByStatus[label] = count;
    const skippedByReason = { ...this.byReason };
    return {
      allowed: this.allowed,
      skipped: REASONS.reduce((sum, r) => sum + skippedByReason[r], 0),
      skippedByReason,
      skippedByStage: { ...this.byStage },
      robotsByStatus,
      sitemapsRead: this.sitemapsRead,
      sitemapsSkipped: this.sitemapsSkipped,
      sitemapUrlsEnqueued: this.sitemapUrlsEnqueued,
      crawlDelayDeferrals: this.crawlDelayDeferrals,
      usageSkipsBySignal: { ...this.bySignal },
      pagesCharged: this.pagesCharged,
    };
  }

  /**
   * The one summary line, e.g. `robots.txt: 12 allowed; 3 URLs never fetched (rules 2, unreachable 1),
   * 4 links not followed (nofollow); robots.txt of 2 origins: 200×1, 503×1; 5 sitemap URLs enqueued
   * from 1 sitemap`. URLs are counted once each, however often they were skipped (`stats` counts every skip).
   */
  summary(): string {
    const s = this.snapshot();
    const statuses = Object.entries(s.robotsByStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}×${v}`);
    const origins = Object.values(s.robotsByStatus).reduce((a, b) => a + b, 0);
    return (
      `robots.txt: ${s.allowed} allowed; ${skipSummary(this.seen.byReason, this.seen.prices)}; ` +
      `robots.txt of ${origins} origin${origins === 1 ? '' : 's'}${statuses.length ? `: ${statuses.join(', ')}` : ''}; ` +
      `${s.sitemapUrlsEnqueued} sitemap URL${s.sitemapUrlsEnqueued === 1 ? '' : 's'} enqueued from ${s.sitemapsRead} sitemap${s.sitemapsRead === 1 ? '' : 's'}` +
      (s.sitemapsSkipped ? ` (${s.sitemapsSkipped} not fetched: robots.txt or the cross-host rule)` : '') +
      (s.crawlDelayDeferrals ? `; ${s.crawlDelayDeferrals} requests deferred by crawl-delay` : '') +
      (s.pagesCharged
        ? `; ${s.pagesCharged} page${s.pagesCharged === 1 ? '' : 's'} charged (crawler-charged ${this.chargedPrices.join(', ')})`
        : '')
    );
  }
}
