/**
 * Progress of a long sitemap read: a sitemap of a million URLs takes minutes to read, and the crawl
 * log would say nothing until it ends. Every {@link PROGRESS_EVERY_URLS} URLs an origin's sitemaps
 * have given, one info line says how many so far and from which file.
 */

/** URLs between two progress lines of one origin. */
export const PROGRESS_EVERY_URLS = 10_000;

/** The progress line once `kept` URLs of `origin` have been read (the last from `sitemapUrl`), else `undefined`. */
export function sitemapProgress(origin: string, kept: number, sitemapUrl: string): string | undefined {
  if (kept === 0 || kept % PROGRESS_EVERY_URLS !== 0) return undefined;
  return `RobotsPlugin: ${origin}: ${kept.toLocaleString('en-US')} sitemap URLs read so far (now reading ${sitemapUrl})`;
}
