/**
 * What the plugin needs from a robots manager: the part of `RobotsManager` (`@heed/manager`) it
 * calls. Typed as a `Pick` so any `RobotsManager` fits as is, and so tests or other setups can hand
 * in anything with the same methods. Several crawlers may share one.
 */
import type { RobotsManager } from '@heed/manager';

/**
 * The subset of `RobotsManager` the plugin calls: `decide()` for every URL (its verdicts are used
 * as they are; `rule()` only for a skip). `usage` is needed only with the `purposes` option
 * (attach() says so when it is missing). `crawlClock` shares crawl-delay and `Retry-After` with
 * every process on the same store; without it each crawler keeps its own clock. `decideCached` is
 * optional: with it, links of origins already known are judged without a promise each; without it,
 * every URL goes through `decide()`. `keepSnapshotsIn` and `snapshotsWritten` are needed only with
 * `records.snapshots` (attach() says so when they are missing).
 */
export type RobotsManagerLike = Pick<RobotsManager, 'decide' | 'sitemaps' | 'crawlDelay' | 'prefetch' | 'close'> &
  Partial<Pick<RobotsManager, 'usage' | 'crawlClock' | 'decideCached' | 'keepSnapshotsIn' | 'snapshotsWritten'>>;
