/**
 * Feeds sitemap URLs into the crawler's queue in the background. When an origin is first seen, its
 * robots.txt `Sitemap:` lines are read (via the manager, so robots.txt is not fetched again), the
 * sitemaps are walked (`sitemaps.ts`), the URLs filtered and bounded, and handed to the crawler in
 * batches — waiting while the crawler already has `maxPendingRequests` requests pending, so a huge
 * sitemap is read at the pace the crawl can take it. Robots rules are applied by the same enqueue
 * filter as every other request.
 */
import type { RobotsManagerLike } from './manager-contract.js';
import type { ResolvedSitemapOptions } from './options.js';
import { readSitemaps, sitemapUrlFilter, type SitemapUrl } from './sitemaps.js';
import type { PluginStats } from './stats.js';

export interface SitemapFeederDeps {
  readonly manager: RobotsManagerLike;
  /** Full user-agent header for sitemap fetches. */
  readonly userAgent: string;
  readonly stats: PluginStats;
  /** Puts URLs into the crawler's queue through the robots filter; resolves to how many were accepted. */
  readonly enqueue: (urls: readonly SitemapUrl[]) => Promise<number>;
  /** Requests the crawler has pending right now. */
  readonly pending: () => number;
  readonly warn: (message: string) => void;
}

const BATCH_SIZE = 100;
const BACKPRESSURE_POLL_MS = 200;

export class SitemapFeeder {
  private readonly originsSeen = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private abort = new AbortController();
  private closed = false;
  private readonly keep: (url: string, sitemapUrl: string) => boolean;

  constructor(
    private readonly options: ResolvedSitemapOptions,
    private readonly deps: SitemapFeederDeps,
  ) {
    this.keep = sitemapUrlFilter(options);
  }

  /** Starts reading the sitemaps of `origin` (once per origin); `url` is any URL of it. */
  originSeen(origin: string, url: string): void {
    if (this.originsSeen.has(origin) || this.closed) return;
    this.originsSeen.add(origin);
    const task = this.feed(origin, url).catch((error: unknown) => {
      this.deps.warn(`RobotsPlugin: reading the sitemaps of ${origin} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
  }

  /** No sitemap is being read or enqueued. */
  idle(): boolean {
    return this.running.size === 0;
  }

  /** Resolves once every sitemap task has ended. */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Stops the sitemap reading under way (at the next fetch or batch): the run it fed has ended
   * (`maxRequestsPerCrawl`, `crawler.stop()`), so nothing would crawl what it enqueues.
   */
  stopRunning(): void {
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Stops all sitemap reading for good. */
  close(): void {
    this.closed = true;
    this.abort.abort();
  }

  private async feed(origin: string, url: string): Promise<void> {
    const signal = this.abort.signal;
    const sitemapUrls = await this.deps.manager.sitemaps(url);
    if (sitemapUrls.length === 0) return;
    const { maxUrlsPerOrigin, maxBytes, maxDepth, maxFilesPerOrigin, timeoutMs, proxyUrl } = this.options;
    let enqueued = 0;
    let batch: SitemapUrl[] = [];
    const seen = new Set<string>();
    const flush = async () => {
      const current = batch;
      batch = [];
      await this.waitForRoom(signal);
      if (signal.aborted) return;
      const accepted = await this.deps.enqueue(current);
      this.deps.stats.sitemapUrlsEnqueued += accepted;
    };
    const entries = readSitemaps(
      sitemapUrls,
      { userAgent: this.deps.userAgent, maxBytes, maxDepth, maxFiles: maxFilesPerOrigin, timeoutMs, signal, ...(proxyUrl ? { proxyUrl } : {}) },
      {
        onSitemapRead: () => this.deps.stats.sitemapsRead++,
        onProblem: (message) => this.deps.warn(`RobotsPlugin: ${origin}: ${message}`),
      },
    );
    for await (const entry of entries) {
      if (signal.aborted) return;
      if (seen.has(entry.url) || !this.keep(entry.url, entry.sitemapUrl)) continue;
      seen.add(entry.url);
      batch.push(entry);
      enqueued++;
      if (batch.length >= Math.min(BATCH_SIZE, this.options.maxPendingRequests)) await flush();
      if (enqueued >= maxUrlsPerOrigin) {
        this.deps.warn(`RobotsPlugin: the sitemaps of ${origin} list more than ${maxUrlsPerOrigin} URLs (sitemaps.maxUrlsPerOrigin); the rest is not enqueued`);
        break;
      }
    }
    if (batch.length > 0) await flush();
  }

  private async waitForRoom(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.deps.pending() >= this.options.maxPendingRequests) {
      await new Promise((resolve) => setTimeout(resolve, BACKPRESSURE_POLL_MS).unref?.());
    }
  }
}
