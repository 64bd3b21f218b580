/**
 * Sitemap-first discovery: the crawler follows no links. It is given each site's home page only to
 * introduce the origin; Heed then reads the `Sitemap:` lines of that origin's robots.txt (indexes,
 * gzip, XML and text), drops what robots.txt disallows, and feeds the rest to the queue with the
 * label `sitemap` — so the router can tell those pages apart.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { RobotsPlugin, type RobotsPluginStats, type SkipEvent } from '@heed/crawlee';

/** Options of {@link crawlSitemapsFirst}. */
export interface SitemapFirstOptions {
  /** Your crawler's User-Agent; its product token selects the robots.txt group. Required. */
  readonly userAgent: string;
  /** Keep only sitemap URLs matching one of these globs (Crawlee glob syntax). Default: keep all. */
  readonly globs?: readonly string[];
  /** Most sitemap URLs enqueued per origin. Default: `1_000`. */
  readonly maxUrlsPerOrigin?: number;
  /** Most pages fetched. Default: `100`. */
  readonly maxRequestsPerCrawl?: number;
}

/** What the crawl did. */
export interface SitemapFirstSummary {
  /** Pages that came from a sitemap (label `sitemap`). */
  readonly sitemapPages: readonly string[];
  /** Pages that were start URLs (the home pages). */
  readonly startPages: readonly string[];
  /** Sitemap (and start) URLs Heed kept out, with why. */
  readonly skipped: readonly SkipEvent[];
  readonly stats: RobotsPluginStats;
  readonly failedRequests: number;
}

export const SITEMAP_LABEL = 'sitemap';

/** Crawls what the sitemaps of `sites` list. `sites`: home pages or any URL of each origin. */
export async function crawlSitemapsFirst(sites: readonly string[], options: SitemapFirstOptions): Promise<SitemapFirstSummary> {
  const sitemapPages: string[] = [];
  const startPages: string[] = [];
  const skipped: SkipEvent[] = [];

  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 100,
      preNavigationHooks: [
        (_context, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': options.userAgent }),
      ],
      // No enqueueLinks: every page beyond the start URLs comes from a sitemap.
      async requestHandler({ request, $ }) {
        const url = request.loadedUrl ?? request.url;
        (request.label === SITEMAP_LABEL ? sitemapPages : startPages).push(url);
        void $('title').text(); // … extract what you need here.
      },
    },
    new Configuration({ persistStorage: false }),
  );

  const robots = await RobotsPlugin.attach(crawler, {
    userAgent: options.userAgent,
    sitemaps: {
      label: SITEMAP_LABEL,
      maxUrlsPerOrigin: options.maxUrlsPerOrigin ?? 1_000,
      ...(options.globs === undefined ? {} : { globs: options.globs }),
    },
    onSkip: (event) => void skipped.push(event),
  });

  // The crawler stays up until every sitemap has been read and its URLs handled.
  await crawler.run([...sites]);
  await robots.sitemapsDone();
  const summary = { sitemapPages, startPages, skipped, stats: robots.stats, failedRequests: crawler.stats.state.requestsFailed };
  await robots.close();
  return summary;
}
