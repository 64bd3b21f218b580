/**
 * The seam between `RobotsPlugin.attach()` and the Crawlee majors: one adapter per major
 * (`v3.ts`, `v4/adapter.ts`), each given the same parts, so a part added to the plugin reaches
 * both majors or fails to compile on one.
 */
import type { RobotsGuard } from '../guard.js';
import type { ResolvedOptions } from '../options.js';
import type { Skips } from '../report/skips.js';
import type { SitemapFeeder } from '../sitemaps/feeder.js';
import type { PublicCrawler } from './crawler-internals.js';
import type { QueueHooks } from './queue.js';

/** What the plugin made for one crawler, handed to the adapter of the crawler's major. */
export interface AdapterParts {
  readonly crawler: PublicCrawler;
  readonly options: ResolvedOptions;
  readonly guard: RobotsGuard;
  readonly skips: Skips;
  readonly queue: QueueHooks;
  readonly feeder: SitemapFeeder | undefined;
}

/** Installs every hook of the plugin on the crawler of `parts`. */
export type Adapter = (parts: AdapterParts) => Promise<void>;
