/**
 * A line when the end of a crawl waits on sitemaps: the queue is empty and the crawl ends only once
 * the sitemaps still being read are enqueued (or given up, `maxTimePerOriginSecs`). Without a word
 * that looks like a hung crawler. After {@link FIRST_REPORT_MS} of such waiting, and every
 * {@link REPORT_EVERY_MS} after, one line names the origins whose sitemaps are being read.
 */

/** Shorter waits for sitemaps are normal: no line. */
export const FIRST_REPORT_MS = 5_000;
/** Then a line this often while the wait lasts. */
export const REPORT_EVERY_MS = 15_000;
/** Origins a line names; the rest are counted. */
const NAMED_ORIGINS = 3;
/**
 * A gap between two questions longer than this means the crawl had work again in between (the
 * crawler asks every fraction of a second while it idles): the next wait starts afresh.
 */
const CONTINUOUS_MS = 3_000;

export class EndWait {
  /** When the crawl started waiting on sitemaps alone (0: it is not). */
  private since = 0;
  private nextReportAt = 0;
  private lastAsked = 0;

  constructor(
    private readonly info: ((message: string) => void) | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Called each time the crawl asks whether it may end with its queue empty: `origins` are those
   * whose sitemaps are still being read (none: it may end).
   */
  note(origins: readonly string[]): void {
    if (origins.length === 0 || this.info === undefined) {
      this.since = 0;
      return;
    }
    const now = this.now();
    const continuous = now - this.lastAsked <= CONTINUOUS_MS;
    this.lastAsked = now;
    if (this.since === 0 || !continuous) {
      this.since = now;
      this.nextReportAt = now + FIRST_REPORT_MS;
      return;
    }
    if (now < this.nextReportAt) return;
    this.nextReportAt = now + REPORT_EVERY_MS;
    const named = origins.slice(0, NAMED_ORIGINS).join(', ');
    const more = origins.length > NAMED_ORIGINS ? ` and ${origins.length - NAMED_ORIGINS} more` : '';
    this.info(
      `RobotsPlugin: the queue is empty; the crawl has waited ${Math.round((now - this.since) / 1000)} s for the sitemaps of ${named}${more}, still being read (sitemaps.maxTimePerOriginSecs bounds it)`,
    );
  }
}
