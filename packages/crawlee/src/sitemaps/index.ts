/**
 * Sitemaps from robots.txt. `fetch.ts` streams a file's bytes (gunzip included, bounded),
 * `parse.ts` turns them into entries as they arrive (`parse-xml.ts`, `parse-text.ts`), `read.ts`
 * walks indexes, `scope.ts` says which files and URLs belong to the site, `budget.ts` bounds the
 * work of all origins together, `feeder.ts` puts the URLs into the crawler's queue. The package
 * exports none of it.
 */
export { readSitemaps, type ReadSitemapsOptions, type ReadSitemapsHooks } from './read.js';
export { parseSitemapStream } from './parse.js';
export type { SitemapEntry, SitemapUrl } from './types.js';
