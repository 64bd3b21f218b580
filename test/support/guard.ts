/**
 * A real guard (`createGuard`) for tests that drive the plugin's parts without a crawler: its options
 * resolved from `input` with `manager`, its own stats, skips reported nowhere, and, as the plugin has
 * one unless `crawlDelay: false`, a crawl-delay scheduler: `scheduler`, else one capped at the
 * options' `maxCrawlDelaySecs`.
 */
import { CrawlDelayScheduler } from '../../packages/crawlee/src/politeness/scheduler.js';
import { createGuard } from '../../packages/crawlee/src/guard/guard.js';
import { resolveOptions } from '../../packages/crawlee/src/options.js';
import { Skips } from '../../packages/crawlee/src/report/skips.js';
import { PluginStats } from '../../packages/crawlee/src/report/stats.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';

export function testGuard(manager: RobotsManagerLike, input: Record<string, unknown>, scheduler?: CrawlDelayScheduler) {
  const options = resolveOptions({ ...input, manager });
  const stats = new PluginStats();
  const skips = new Skips(
    stats,
    undefined,
    async () => {},
    () => {},
  );
  const crawlDelays = options.crawlDelay ? (scheduler ?? new CrawlDelayScheduler(options.maxCrawlDelaySecs * 1000)) : undefined;
  const quiet = () => {};
  const guard = createGuard(options, manager, stats, skips, crawlDelays, { debug: quiet, info: quiet, warning: quiet, error: quiet });
  return {
    guard,
    stats,
    skips,
    options,
    /** The guard's crawl-delay scheduler; a test of a guard without one (`crawlDelay: false`) that asks for it fails. */
    get scheduler(): CrawlDelayScheduler {
      if (crawlDelays === undefined)
        throw new Error('testGuard: this guard has no crawl-delay scheduler (it was made with crawlDelay: false).');
      return crawlDelays;
    },
  };
}
