/** Discover pages from the sitemaps robots.txt lists, and nothing else: `crawlSitemapsFirst(sites, { userAgent })`. */
export { crawlSitemapsFirst, SITEMAP_LABEL, type SitemapFirstOptions, type SitemapFirstSummary } from './sitemap-first.js';
