/**
 * @heed/crawlee — the robots.txt layer for Crawlee crawlers. One call,
 * `await RobotsPlugin.attach(crawler, { userAgent })`, and no URL that robots.txt disallows for your
 * user-agent is fetched: not when enqueued (links, other origins, start URLs, sitemaps), not right
 * before the fetch, not as a redirect target. Every skip is explained (URL, origin, user-agent,
 * deciding line and rule or robots.txt status) and reported to Crawlee's `onSkippedRequest` as
 * `robotsTxt`, never as a failed request. robots.txt follows RFC 9309 as Google reads it (see
 * `@heed/parser`); fetching, the status-code policy and caching are `@heed/manager`'s. Beyond
 * robots.txt: `Sitemap:` lines feed the queue, `Crawl-delay` is honoured per origin, and robots meta
 * tags / `X-Robots-Tag` (Google's page-level companion, not part of RFC 9309) keep `nofollow`
 * pages' links out of the queue and tell the handler about `noindex`.
 */
export { RobotsPlugin, type AnyCrawler, type RobotsCrawlingContext } from './plugin.js';
export type { RobotsPluginOptions, SitemapOptions, SitemapEnqueueStrategy, ResolvedOptions, ResolvedSitemapOptions } from './options.js';
export { InvalidOptionsError, UnsupportedCrawlerError, UnsupportedCrawleeVersionError, AlreadyAttachedError } from './errors.js';
export type { SkipEvent, SkipReason, SkipStage } from './skips.js';
export type { RobotsPluginStats } from './stats.js';
export { robotsDirectives, NO_DIRECTIVES, type RobotsDirectives, type MetaTag } from './meta-robots.js';
export { signalsFromHtml, type PageSignals } from './page-signals.js';
export { readSitemaps, parseSitemapStream, type ReadSitemapsOptions, type ReadSitemapsHooks, type SitemapUrl, type SitemapEntry } from './sitemaps/index.js';
export { CrawlDelayScheduler } from './crawl-delay.js';
export type { RobotsManagerLike, RobotsVerdict, VerdictReason } from './manager-contract.js';
