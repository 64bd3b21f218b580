/**
 * robots.txt verdicts for one attached crawler: the manager asked for a URL with the crawler's
 * product token(s), every verdict counted, and on first sight of an allowed origin what the crawl
 * needs of it learnt (its crawl-delay; for pages, its sitemaps). A manager that fails (a store
 * error, a bug) gives a {@link CheckFailure}: the URL is not known to be allowed, so it is skipped.
 */
import { originOf, type Verdict } from '@heed/manager';
import type { RobotsManagerLike } from '../manager-contract.js';
import type { ResolvedOptions } from '../options.js';
import type { CrawlClock } from '../politeness/crawl-clock.js';
import type { CheckFailure } from '../report/skip-events.js';
import type { PluginStats } from '../report/stats.js';

/**
 * What a URL is checked for, which decides what is learnt about its origin: a page entering the
 * queue or about to be fetched (`page`) starts its sitemaps and crawl-delay; a redirect target only
 * its crawl-delay (it is fetched, but the crawl did not choose its origin), and so does a sitemap
 * file Heed fetches itself (`sitemap`); a sub-resource nothing (a CDN's sitemaps are not the crawl's
 * business).
 */
export type UrlUse = 'page' | 'redirect' | 'sitemap' | 'subresource';

/** Told of each origin a page of the crawl is allowed on: the sitemap feeder reads its sitemaps. */
export interface PageOriginListener {
  originSeen(origin: string, url: string): void;
}

export class Verdicts {
  /** Told of the origins of allowed pages (see {@link tellPageOrigins}). */
  private pageOrigins: PageOriginListener | undefined;
  /**
   * The origin {@link pageOrigins} was told of last: links come in runs of one origin, and telling
   * it again changes nothing (it was the listener's most recent origin, and only another origin
   * could have made it forget it).
   */
  private lastPageOrigin = '';

  constructor(
    private readonly options: ResolvedOptions,
    private readonly manager: RobotsManagerLike,
    private readonly stats: PluginStats,
    private readonly clock: CrawlClock | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Tells `listener` of each origin a page of the crawl is allowed on. The sitemap feeder listens:
   * it is made after the verdicts, because its own fetches are judged by them.
   */
  tellPageOrigins(listener: PageOriginListener): void {
    this.pageOrigins = listener;
    this.lastPageOrigin = '';
  }

  /**
   * The manager's verdict for `url`, or a {@link CheckFailure} when the manager failed: not
   * allowed either way. Never rejects. `use`: see {@link UrlUse}.
   */
  async verdict(url: string, use: UrlUse = 'page'): Promise<Verdict | CheckFailure> {
    let verdict: Verdict;
    try {
      verdict = await this.manager.decide(url, this.options.productToken);
    } catch (error) {
      // Without a verdict the URL is not known to be allowed: never fetch it on a guess. This is
      // Heed failing, not the site: it is reported as such, not as an unreachable robots.txt.
      const message = error instanceof Error ? error.message : String(error);
      this.warn(`RobotsPlugin: checking ${url} failed (${message}); the URL is skipped`);
      return { allowed: false, url, origin: safeOrigin(url), productToken: this.options.productToken, error: message };
    }
    if (use !== 'subresource') this.note(verdict, url, use === 'page');
    return verdict;
  }

  /**
   * The manager's verdict for a page `url` when it has one at hand (its origin's record in memory
   * and fresh), counted and learnt from as {@link verdict}'s; else `undefined`, and the caller asks
   * {@link verdict}, which waits for the record and reports a failure.
   */
  atHand(url: string, use: UrlUse = 'page'): Verdict | undefined {
    if (this.manager.decideCached === undefined) return undefined;
    let verdict: Verdict | undefined;
    try {
      verdict = this.manager.decideCached(url, this.options.productToken);
    } catch {
      // decide() meets the same error and it is reported there, once, as `check-failed`.
      return undefined;
    }
    if (verdict !== undefined && use !== 'subresource') this.note(verdict, url, use === 'page');
    return verdict;
  }

  /** Fetches the robots.txt of every origin of `urls` in parallel (one request per origin). */
  async prefetch(urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    try {
      await this.manager.prefetch(urls);
    } catch {
      // prefetch is an optimisation: each URL is still checked on its own.
    }
  }

  /** Counts the verdict of a URL about to be fetched or enqueued, and learns about its origin when it is allowed. */
  private note(verdict: Verdict, url: string, readSitemaps: boolean): void {
    this.stats.noteVerdict(verdict);
    if (!verdict.allowed || !verdict.origin) return;
    const { origin } = verdict;
    if (readSitemaps && origin !== this.lastPageOrigin && this.pageOrigins !== undefined) {
      this.lastPageOrigin = origin;
      this.pageOrigins.originSeen(origin, url);
    }
    void this.clock?.learnDelay(origin, url);
  }
}

/**
 * The origin of `url` as the manager keys it (`originOf()`, the one implementation), or `''` when
 * it has none (not an absolute http(s) URL): for skip events of URLs the manager never keyed.
 */
export function safeOrigin(url: string): string {
  return originOf(url) ?? '';
}
