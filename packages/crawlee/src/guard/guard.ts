/**
 * The parts that judge and pace the requests of one attached crawler, made once by `attach()` and
 * handed to every tap: the checkpoints (what each door decides), the crawl clock (when a request
 * may leave), the batch filter of the enqueue door, the notes kept per request, and the reports.
 */
import { Checkpoints } from './checkpoints.js';
import type { RobotsManagerLike } from '../manager-contract.js';
import type { ResolvedOptions } from '../options.js';
import { CrawlClock } from '../politeness/crawl-clock.js';
import type { CrawlDelayScheduler } from '../politeness/scheduler.js';
import type { Skips } from '../report/skips.js';
import type { PluginStats } from '../report/stats.js';
import { BatchFilter } from './batch-filter.js';
import { RequestNotes } from './request-notes.js';
import { UsageVerdicts } from './usage-verdicts.js';
import type { LogInternals } from '../taps/crawler-shape.js';
import { Verdicts } from './verdicts.js';

export interface RobotsGuard {
  /** The crawler's log as Heed writes to it: every line escaped (`report/crawler-log.ts`). */
  readonly log: LogInternals;
  /** The options in force, defaults filled in. */
  readonly options: ResolvedOptions;
  readonly checkpoints: Checkpoints;
  /** `undefined` with `crawlDelay: false`. */
  readonly clock: CrawlClock | undefined;
  readonly verdicts: Verdicts;
  readonly usage: UsageVerdicts;
  readonly filter: BatchFilter;
  readonly notes: RequestNotes;
  readonly skips: Skips;
  readonly stats: PluginStats;
}

/**
 * The guard of one crawler. `scheduler`: this process's crawl-delay clock (`undefined` with
 * `crawlDelay: false`); the manager's store adds the fleet's when it keeps one.
 */
export function createGuard(
  options: ResolvedOptions,
  manager: RobotsManagerLike,
  stats: PluginStats,
  skips: Skips,
  scheduler: CrawlDelayScheduler | undefined,
  log: LogInternals,
): RobotsGuard {
  const warn = (message: string) => log.warning(message);
  const clock =
    scheduler === undefined
      ? undefined
      : new CrawlClock(scheduler, manager.crawlClock?.(), (url) => manager.crawlDelay(url, options.productToken));
  const verdicts = new Verdicts(options, manager, stats, clock, warn);
  const usage = new UsageVerdicts(options, manager, warn);
  const checkpoints = new Checkpoints(options, verdicts, usage, clock);
  const filter = new BatchFilter(checkpoints, verdicts, skips, options.prefetchBatchSize);
  return { log, options, checkpoints, clock, verdicts, usage, filter, notes: new RequestNotes(), skips, stats };
}
