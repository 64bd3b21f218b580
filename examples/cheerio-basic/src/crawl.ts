/**
 * The smallest useful crawler with Heed: a CheerioCrawler that follows links within the start
 * page's hostname, with `RobotsPlugin.attach()` keeping it off every URL robots.txt disallows.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { RobotsPlugin, type RobotsPluginStats, type SkipEvent } from '@heed/crawlee';

/** Options of {@link crawlWithHeed}. */
export interface CheerioBasicOptions {
  /** Your crawler's User-Agent; its product token (`HeedDemoBot`) selects the robots.txt group. Required. */
  readonly userAgent: string;
  /** Most pages fetched. Default: `50`. */
  readonly maxRequestsPerCrawl?: number;
}

/** What the crawl did. */
export interface CheerioBasicSummary {
  /** URLs handed to the request handler, in crawl order. */
  readonly pages: readonly string[];
  /** Every URL Heed kept the crawler from, with why. */
  readonly skipped: readonly SkipEvent[];
  /** Heed's counters: allowed, skipped by reason, robots.txt statuses, sitemap URLs. */
  readonly stats: RobotsPluginStats;
  /** Crawlee's failed-request count: skips never count as failures. */
  readonly failedRequests: number;
}

export async function crawlWithHeed(startUrls: readonly string[], options: CheerioBasicOptions): Promise<CheerioBasicSummary> {
  const pages: string[] = [];
  const skipped: SkipEvent[] = [];

  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 50,
      // Fetch pages with the User-Agent robots.txt is read for (Crawlee sends a browser's by default).
      preNavigationHooks: [
        (_context, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': options.userAgent }),
      ],
      async requestHandler({ request, enqueueLinks, log }) {
        pages.push(request.loadedUrl ?? request.url);
        log.info(`crawled ${request.loadedUrl ?? request.url}`);
        await enqueueLinks(); // Heed checks each link before it reaches the queue.
      },
    },
    // In-memory storage, so runs (and tests running side by side) never share a queue on disk.
    new Configuration({ persistStorage: false }),
  );

  // The one line that matters.
  const robots = await RobotsPlugin.attach(crawler, { userAgent: options.userAgent, onSkip: (event) => void skipped.push(event) });

  await crawler.run([...startUrls]);
  await robots.sitemapsDone();
  const summary = { pages, skipped, stats: robots.stats, failedRequests: crawler.stats.state.requestsFailed };
  await robots.close();
  return summary;
}
