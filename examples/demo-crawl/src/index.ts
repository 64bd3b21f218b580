/**
 * The demo crawl of Heed's first command: `runDemoCrawl()` starts the bundled demo site, crawls it
 * with a CheerioCrawler and Heed, prints progress and a summary, and returns the summary.
 */
export { runDemoCrawl, type DemoCrawlOptions } from './demo-crawl.js';
export { fetchProblemText, formatSummary, skipWhy } from './summary.js';
export type { CrawledPage, DemoCrawlSummary, OriginRobots, SkippedUrl, SkipReasonName } from './summary.js';
export { compareWithCrawlee, comparisonTable, type ComparisonRow } from './compare.js';
