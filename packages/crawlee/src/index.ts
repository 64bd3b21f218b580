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
 * pages' links out of the queue and tell the handler about `noindex`. With `purposes`
 * (`['train-ai']`, ...), AI-usage preferences (robots.txt `Content-Usage`/`Content-Signal`,
 * tdmrep.json, response headers, `noai` meta tags) keep disallowed URLs unfetched and disallowed
 * pages away from the handler, each skip explained. With `records`, every request that left and
 * every skip is written to a JSON Lines file naming the robots.txt snapshot it was judged by, for
 * `heed audit` to check afterwards.
 *
 * This file is the whole public API (the "Exports" section of docs/reference.md lists the same names).
 */
export { RobotsPlugin, type AnyCrawler, type RobotsCrawlingContext } from './plugin.js';
export type { RobotsPluginOptions, SitemapOptions, SitemapEnqueueStrategy } from './options.js';
export type { RobotsManagerLike } from './manager-contract.js';
export {
  HeedError,
  InvalidOptionsError,
  UnsupportedCrawlerError,
  UnsupportedCrawleeVersionError,
  AlreadyAttachedError,
  RobotsDisallowedError,
  SharedRequestQueueError,
  UnsupportedProxyError,
} from './errors.js';
export type { SkipEvent, SkipReason, SkipStage, UsageSkip } from './report/skip-events.js';
export { SKIP_REASONS, SKIP_STAGES } from './report/skip-events.js';
export type { CrawlRecord, PassDoor, PassReason, RecordStage } from './records/crawl-record.js';
export { PASS_DOORS } from './records/crawl-record.js';
export type { RecordsOptions } from './records/records-options.js';
export type { RobotsPluginStats } from './report/stats.js';
export type { RobotsDirectives, MetaTag } from './page-signals/meta-robots.js';
export type { UsageReport, UsageEvidence } from '@heed/manager';
