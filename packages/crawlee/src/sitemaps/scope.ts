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
import { constructGlobObjectsFromGlobs, constructRegExpObjectsFromRegExps, filterRequestsByPatterns } from '@crawlee/core';
import type { Request } from '@crawlee/core';
import { filterUrl } from '../attach/compat.js';
import type { ResolvedSitemapOptions, SitemapEnqueueStrategy } from '../options.js';

/** Whether `url` belongs to the site of `siteUrl` under `strategy`. */
export function inScope(url: string, siteUrl: string, strategy: SitemapEnqueueStrategy): boolean {
  return filterUrl(url, siteUrl, strategy).allowed;
}

/** The `globs`, `regexps` and `filter` of the `sitemaps` options as one predicate. */
export function sitemapUrlFilter(options: ResolvedSitemapOptions): (url: string, sitemapUrl: string) => boolean {
  const patterns = [
    ...(options.globs.length ? constructGlobObjectsFromGlobs(options.globs) : []),
    ...(options.regexps.length ? constructRegExpObjectsFromRegExps(options.regexps) : []),
  ];
  return (url, sitemapUrl) => {
    if (patterns.length > 0 && filterRequestsByPatterns([{ url } as Request], patterns).length === 0) return false;
    return options.filter ? options.filter(url, sitemapUrl) === true : true;
  };
}
