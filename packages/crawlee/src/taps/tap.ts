/**
 * The seam between `RobotsPlugin.attach()` and the Crawlee majors: one tap per major (`v3/`,
 * `v4/`), each given the same parts, so a part added to the plugin reaches both majors or fails to
 * compile on one. A tap only finds each door on its release and crawler kind, asks the door's
 * checkpoint (`guard/checkpoints.ts`) and the crawl clock, and ends a skip the way its release does.
 */
import type { RobotsGuard } from '../guard/guard.js';
import type { CrawlDelayScheduler } from '../politeness/scheduler.js';
import type { SitemapFeeder } from '../sitemaps/feeder.js';
import type { PublicCrawler, RequestQueueLike } from './crawler-shape.js';
import type { QueueHooks } from './request-queue.js';

/** What the plugin made for one crawler, handed to the tap of the crawler's major. */
export interface TapParts {
  readonly crawler: PublicCrawler;
  readonly guard: RobotsGuard;
  readonly queue: QueueHooks;
  readonly feeder: SitemapFeeder | undefined;
}

/** Installs every hook of the plugin on the crawler of `parts`. */
export type Tap = (parts: TapParts) => Promise<void>;

/**
 * What `attach()` asks of a major before and while it builds the parts: the one place that knows
 * how that major's crawlers are shaped. `plugin.ts` picks one ({@link pickTap}) and never branches
 * on the major itself.
 */
export interface MajorTap {
  readonly major: 3 | 4;
  /** The first member `crawler` lacks that the tap cannot work without, or `undefined`. */
  missingMember(crawler: object): string | undefined;
  /** Why the tap cannot guard `crawler` although it is a crawler of its major (an error message), or `undefined`. */
  refuses(crawler: object): string | undefined;
  /** The queue the crawler reads, as the queue wrappers see it. */
  requestQueue(crawler: PublicCrawler): Promise<RequestQueueLike>;
  /** Scopes of `enqueueLinks` travel in an AsyncLocalStorage (the major's `enqueueLinks` reaches the queue through `crawler.addRequests`). */
  readonly asyncScopes: boolean;
  /** This process's crawl-delay clock for `crawler` (a major whose request manager paces domains takes their delays). */
  crawlDelays(crawler: PublicCrawler, maxDelaySecs: number): Promise<CrawlDelayScheduler>;
  /** Crawlee's skip path, which calls the user's `onSkippedRequest`, when the release has one. */
  skipNotifier(crawler: PublicCrawler): ((url: string) => Promise<void>) | undefined;
  /** Requests waiting in the crawler's queue, when the release tells. */
  pendingCount(crawler: PublicCrawler): number | undefined;
  /** Installs every hook. */
  readonly attach: Tap;
}
