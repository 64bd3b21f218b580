/** What the fleet hands a worker process (as JSON in argv[2]) and what the worker reports back (IPC). */

export interface WorkerTask {
  readonly index: number;
  readonly redisUrl: string;
  /** Prefix of every Redis key, unique per fleet run so old records of a shared Redis are not reused. */
  readonly keyPrefix: string;
  readonly userAgent: string;
  readonly startUrls: readonly string[];
  readonly maxRequestsPerCrawl: number;
}

export interface WorkerReport {
  readonly index: number;
  readonly pid: number;
  readonly pages: readonly string[];
  /** Distinct URLs Heed skipped. */
  readonly skippedUrls: readonly string[];
  /** Skips in all: a URL linked from three pages is skipped three times. */
  readonly skips: number;
  /** robots.txt fetches this worker's manager made. */
  readonly robotsFetches: number;
  /** Origins whose record this worker read from Redis instead of fetching it. */
  readonly storeHits: number;
  readonly failedRequests: number;
}
