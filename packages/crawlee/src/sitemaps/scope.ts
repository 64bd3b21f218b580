/**
 * Which sitemaps are read and which of their URLs are kept — one rule, relative to the origin whose
 * robots.txt named the sitemaps ("the site"), by the `enqueueStrategy` (Crawlee's strategies,
 * default `'same-hostname'`):
 *
 * - the sitemap files the site's robots.txt names are read wherever they are hosted (the site
 *   vouches for them: the sitemaps protocol's cross-submission);
 * - a nested sitemap (an index entry) outside the site is not fetched;
 * - a page URL outside the site is kept only when it comes from a sitemap file on its own host and
 *   that host's robots.txt names the file (cross-submission again: the host vouches for it); a URL
 *   on a third host is dropped without asking, so one sitemap cannot fan out to many robots.txt;
 * - then the `globs`/`regexps` and the `filter` function decide, as in `enqueueLinks`.
 */
import * as crawleeCore from '@crawlee/core';
import { filterUrl } from './enqueue-strategy.js';
import type { ResolvedSitemapOptions, SitemapEnqueueStrategy } from '../options.js';

/** Whether `url` belongs to the site of `siteUrl` under `strategy`. */
export function inScope(url: string, siteUrl: string, strategy: SitemapEnqueueStrategy): boolean {
  return filterUrl(url, siteUrl, strategy).allowed;
}

type PatternFilter = (requests: { url: string }[], patterns: readonly object[]) => unknown[];

/**
 * Crawlee's pattern filter of `enqueueLinks`: `filterRequestsByPatterns` on 3.x, renamed
 * `filterRequestOptionsByPatterns` on 4.x (same arguments for URLs, same answers). Read off the
 * module namespace, so loading this module never fails on the release that lacks the other name.
 */
const filterByPatterns = ((crawleeCore as unknown as Record<string, unknown>)['filterRequestsByPatterns'] ??
  (crawleeCore as unknown as Record<string, unknown>)['filterRequestOptionsByPatterns']) as PatternFilter;

/** The `globs`, `regexps` and `filter` of the `sitemaps` options as one predicate. */
export function sitemapUrlFilter(options: ResolvedSitemapOptions): (url: string, sitemapUrl: string) => boolean {
  const patterns = [
    ...(options.globs.length ? crawleeCore.constructGlobObjectsFromGlobs(options.globs) : []),
    ...(options.regexps.length ? crawleeCore.constructRegExpObjectsFromRegExps(options.regexps) : []),
  ];
  return (url, sitemapUrl) => {
    if (patterns.length > 0 && filterByPatterns([{ url }], patterns).length === 0) return false;
    return options.filter ? options.filter(url, sitemapUrl) === true : true;
  };
}
