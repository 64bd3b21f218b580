/**
 * @heed/demo-site: a small website on loopback ports with every robots.txt situation Heed handles,
 * so the demo crawl, the examples and the tests have something real to crawl without a network.
 *
 * Four origins (see {@link ExpectedOutcome.robots} for each one's situation):
 * - `shop`: robots.txt 200 with wildcard and `$` rules, a group for `HeedDemoBot`, a sitemap index
 *   (XML + gzipped XML), meta robots nofollow/noindex, a redirect into a disallowed area, cross-origin links;
 * - `blog`: robots.txt 301 → /site/robots.txt, a crawl-delay, a text sitemap;
 * - `docs`: no robots.txt (404), pages with X-Robots-Tag headers;
 * - `mirror`: robots.txt 503.
 *
 * `startDemoSite()` also returns `expected`, the outcome a correct crawl produces, so tests and the
 * demo assert against one description instead of repeating it.
 */
export { startDemoSite, DemoSiteStartError, type DemoSite } from './server.js';
export {
  expectedOutcome,
  type DemoCrawlOutcome,
  type Discovery,
  type ExpectedOutcome,
  type ExpectedPolicy,
  type ExpectedReason,
  type ExpectedRobots,
  type ExpectedUrl,
  type ExpectedVerdict,
} from './expected.js';
export { DEMO_BOT, DEMO_USER_AGENT, OTHER_BOT, OTHER_USER_AGENT, BLOG_CRAWL_DELAY_SECONDS } from './robots-files.js';
export {
  exampleUsage,
  MissingPrerequisiteError,
  parseExampleArgs,
  runExample,
  usageError,
  type ExampleArgs,
  type ExampleCommand,
} from './cli.js';
export { distinctSkips, formatSkips, skippedHeading, type DistinctSkip, type FormatSkipsOptions, type SkipLike } from './skips.js';
export { DEMO_ORIGIN_NAMES, type DemoOriginName, type DemoOrigins, type DemoRequest, type DemoSiteOptions } from './types.js';
