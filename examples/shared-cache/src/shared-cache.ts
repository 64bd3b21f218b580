/**
 * Two crawlers with different user-agents share one `RobotsManager`, and the manager keeps its
 * records in a persistent Crawlee `KeyValueStore`. Each origin's robots.txt is fetched once for
 * both crawlers (they run at the same time: the second waits on the first one's fetch), each
 * crawler obeys its own group of the file, and a later run over the same storage directory
 * fetches no robots.txt at all.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { KeyValueStore } from '@crawlee/core';
import { MemoryStorage } from '@crawlee/memory-storage';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { KeyValueStoreStore, RobotsManager } from '@heed/manager';

/** Options of {@link runSharedCache}. */
export interface SharedCacheOptions {
  /** Where the robots.txt records are kept between runs (Crawlee's storage directory layout). Required. */
  readonly storageDir: string;
  /** User-Agents of the two crawlers. Required: at least one. */
  readonly userAgents: readonly string[];
  /** Name of the key-value store holding the records. Default: `'heed-robots'`. */
  readonly storeName?: string;
  /** Most pages per crawler. Default: `50`. */
  readonly maxRequestsPerCrawl?: number;
}

/** What one crawler of the run did. */
export interface CrawlerRun {
  readonly userAgent: string;
  readonly pages: readonly string[];
  readonly skipped: readonly SkipEvent[];
  readonly failedRequests: number;
}

/** What one run did. */
export interface SharedCacheRun {
  readonly crawlers: readonly CrawlerRun[];
  /** robots.txt fetches the shared manager made, for all crawlers together. */
  readonly robotsFetches: number;
  /** Origins whose record came from the key-value store instead of the network. */
  readonly storeHits: number;
  /** Origins the manager knows, with the HTTP status of their robots.txt. */
  readonly origins: readonly { readonly origin: string; readonly httpStatus?: number; readonly policy: string }[];
}

/** One run: both crawlers at once over `startUrls`, sharing one manager and the stored records. */
export async function runSharedCache(startUrls: readonly string[], options: SharedCacheOptions): Promise<SharedCacheRun> {
  const [firstAgent] = options.userAgents;
  if (firstAgent === undefined) throw new TypeError('runSharedCache: give at least one user-agent in "userAgents".');

  // A fresh storage client each run reads the records the last run left in storageDir.
  const storageClient = new MemoryStorage({ localDataDirectory: options.storageDir, persistStorage: true });
  const keyValueStore = await KeyValueStore.open(options.storeName ?? 'heed-robots', { storageClient });
  // One manager for every crawler: its User-Agent is the header robots.txt is fetched with; each
  // crawler's checks name their own product token.
  const manager = new RobotsManager({ userAgent: firstAgent, store: new KeyValueStoreStore({ store: keyValueStore }) });

  try {
    const crawlers = await Promise.all(
      options.userAgents.map((userAgent) => crawl(startUrls, userAgent, manager, options.maxRequestsPerCrawl ?? 50)),
    );
    const stats = manager.stats();
    return {
      crawlers,
      robotsFetches: stats.fetches.total,
      storeHits: stats.cache.storeHits,
      origins: stats.origins.map((origin) => ({
        origin: origin.origin,
        ...(origin.httpStatus === undefined ? {} : { httpStatus: origin.httpStatus }),
        policy: origin.policy,
      })),
    };
  } finally {
    await manager.close();
    // Writes to disk happen in the background: wait for them, so the next run finds every record.
    await storageClient.teardown();
  }
}

async function crawl(
  startUrls: readonly string[],
  userAgent: string,
  manager: RobotsManager,
  maxRequestsPerCrawl: number,
): Promise<CrawlerRun> {
  const pages: string[] = [];
  const skipped: SkipEvent[] = [];
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl,
      // The demo shop links to a PDF that one of the bots may fetch: accept it, do not parse it for links.
      additionalMimeTypes: ['application/pdf'],
      preNavigationHooks: [(_context, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent })],
      async requestHandler({ request, contentType, enqueueLinks }) {
        pages.push(request.loadedUrl ?? request.url);
        if (contentType.type === 'text/html') await enqueueLinks({ strategy: 'all' });
      },
    },
    // Each crawler its own in-memory queue; only the robots.txt records are persisted and shared.
    new Configuration({ persistStorage: false }),
  );
  const robots = await RobotsPlugin.attach(crawler, {
    userAgent,
    manager,
    logSummary: false,
    onSkip: (event) => void skipped.push(event),
  });
  await crawler.run([...startUrls]);
  await robots.sitemapsDone();
  await robots.close(); // leaves the shared manager open: the plugin did not create it
  return { userAgent, pages, skipped, failedRequests: crawler.stats.state.requestsFailed };
}
