/**
 * What the plugin needs from a robots manager: the part of `RobotsManager` (`@heed/manager`) it
 * calls. Typed as a `Pick` so any `RobotsManager` fits as is, and so tests or other setups can hand
 * in anything with the same methods. Several crawlers may share one.
 */
import type { RobotsManager, Verdict } from '@heed/manager';

/** The manager's answer for one URL and one product token or list of tokens (`RobotsManager.check()`). */
export type RobotsVerdict = Verdict;

/**
 * The subset of `RobotsManager` the plugin calls. `usage` is needed only with the `purposes`
 * option (attach() says so when it is missing). `decide` is optional: with it, an allowed URL
 * costs the cheap check and `check()` runs only for a skip; without it, every URL goes to `check()`.
 */
export type RobotsManagerLike = Pick<RobotsManager, 'check' | 'sitemaps' | 'crawlDelay' | 'prefetch' | 'close'> &
  Partial<Pick<RobotsManager, 'usage' | 'decide'>>;
