/**
 * AI-usage verdicts, with the `purposes` option: the preferences a URL's robots.txt
 * (`Content-Usage`, `Content-Signal`) and tdmrep.json state, worked out once per URL for its
 * enqueue check, its check before the fetch and its response, and the skip a verdict calls for.
 */
import type { UsageReport } from '@heed/manager';
import { LRUCache } from 'lru-cache';
import type { RobotsManagerLike } from '../manager-contract.js';
import type { ResolvedOptions } from '../options.js';
import { usageSkipEvent, type SkipEvent, type SkipStage } from '../report/skip-events.js';

export class UsageVerdicts {
  /**
   * Usage verdicts of recent URLs. A verdict is reused for {@link USAGE_REUSE_MS} at most: a URL
   * fetched later is asked again, and obeys a robots.txt or tdmrep.json that changed meanwhile.
   */
  private readonly reports = new LRUCache<string, { report: UsageReport | undefined }>({
    max: USAGE_REUSE_ENTRIES,
    ttl: USAGE_REUSE_MS,
  });
  /** Usage verdicts being worked out, by URL: concurrent asks share one. */
  private readonly lookups = new Map<string, Promise<UsageReport | undefined>>();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly manager: RobotsManagerLike,
    private readonly warn: (message: string) => void,
  ) {}

  /** Whether usage preferences are read at all: only with declared `purposes`. */
  get active(): boolean {
    return this.options.purposes.length > 0;
  }

  /**
   * The usage verdict of `url` from robots.txt and tdmrep.json. Never throws: a failure is a
   * verdict with no evidence (every preference unknown), and is logged.
   */
  async report(url: string): Promise<UsageReport | undefined> {
    if (!this.active || this.manager.usage === undefined) return undefined;
    const known = this.reports.get(url);
    if (known !== undefined) return known.report;
    let lookup = this.lookups.get(url);
    if (lookup === undefined) {
      lookup = this.ask(url).finally(() => this.lookups.delete(url));
      this.lookups.set(url, lookup);
    }
    return lookup;
  }

  /** The usage verdict of `url` already worked out (for its checks), if it is still held; nothing is asked. */
  known(url: string): UsageReport | undefined {
    return this.reports.get(url)?.report;
  }

  private async ask(url: string): Promise<UsageReport | undefined> {
    try {
      const report = await this.manager.usage?.(url, { productToken: this.options.productToken, purposes: this.options.purposes });
      this.reports.set(url, { report });
      return report;
    } catch (error) {
      // Not kept: the next ask of the URL tries again.
      this.warn(
        `RobotsPlugin: reading the usage preferences of ${url} failed (${error instanceof Error ? error.message : String(error)}); they count as unknown`,
      );
      return undefined;
    }
  }

  /**
   * The skip event when a declared purpose is disallowed for `url` by robots.txt or tdmrep.json,
   * else `undefined`. Only an explicit `disallow` keeps a URL unfetched: with `unknownUsage:
   * 'disallow'`, an unknown preference is judged at the response, whose headers may still say yes.
   */
  async skipFor(url: string, stage: SkipStage, origin: string, referrer?: string): Promise<SkipEvent | undefined> {
    if (!this.active) return undefined;
    return this.skipOf(await this.report(url), url, stage, origin, referrer, 'allow');
  }

  /** The skip event a usage verdict calls for, if any (`unknown` as given, default the `unknownUsage` option). */
  skipOf(
    report: UsageReport | undefined,
    url: string,
    stage: SkipStage,
    origin: string,
    referrer?: string,
    unknown?: 'allow' | 'disallow',
  ): SkipEvent | undefined {
    const { purposes, productToken } = this.options;
    const unknownUsage = unknown ?? this.options.unknownUsage;
    if (report === undefined) {
      return unknownUsage === 'disallow'
        ? usageSkipEvent(url, origin, productToken, stage, { purpose: purposes[0] as string }, referrer)
        : undefined;
    }
    const check = report.check(purposes, unknownUsage);
    if (check.allowed) return undefined;
    return usageSkipEvent(
      url,
      origin,
      productToken,
      stage,
      { purpose: check.purpose as string, ...(check.evidence ? { evidence: check.evidence } : {}) },
      referrer,
    );
  }
}

/**
 * How long a URL's usage verdict is reused: long enough to cover its enqueue check, its check
 * before the fetch and its response in a crawl whose queue moves, short next to how long the
 * manager itself keeps a robots.txt or tdmrep.json (`Cache-Control: max-age`, else a day).
 */
const USAGE_REUSE_MS = 10 * 60_000;
/** URLs whose usage verdict is kept for reuse, at most (a bound on memory in a broad crawl). */
const USAGE_REUSE_ENTRIES = 10_000;
