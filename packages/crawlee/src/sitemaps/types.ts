/** The values the sitemap modules pass around. */

/** One entry of a sitemap file. */
export interface SitemapEntry {
  /** `url`: a page to crawl; `sitemap`: a nested sitemap (an index entry). */
  readonly kind: 'url' | 'sitemap';
  /** An absolute http(s) URL, normalized. */
  readonly loc: string;
}

/** A page URL read from a sitemap, with the file it came from. */
export interface SitemapUrl {
  readonly url: string;
  readonly sitemapUrl: string;
}
