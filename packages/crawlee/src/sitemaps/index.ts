/**
 * Sitemaps from robots.txt. `fetch.ts` streams a file's bytes (gunzip included, bounded),
 * `parse.ts` turns them into entries as they arrive (`parse-xml.ts`, `parse-text.ts`), `read.ts`
 * walks indexes, `scope.ts` says which files and URLs belong to the site, `budget.ts` bounds the
 * work of all origins together. The feeder that puts URLs into the crawler's queue is
 * `../sitemap-feeder.ts`.
 */
export { readSitemaps, type ReadSitemapsOptions, type ReadSitemapsHooks } from './read.js';
export { parseSitemapStream, parseSitemapChunks, SitemapParser } from './parse.js';
export { sitemapBytes, type SitemapFetchOptions } from './fetch.js';
export { SitemapBudget, Clock, Countdown, type SitemapBudgetLimits } from './budget.js';
export { inScope, sitemapUrlFilter } from './scope.js';
export type { SitemapEntry, SitemapUrl } from './types.js';
