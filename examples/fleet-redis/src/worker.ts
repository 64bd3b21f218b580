#!/usr/bin/env node
/**
 * One worker of the fleet: a CheerioCrawler with Heed whose manager keeps its records in Redis.
 * Started by `runFleet()` with its task as JSON in argv[2]; reports through IPC and exits.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { log, LogLevel } from '@crawlee/core';
import { RobotsPlugin } from '@heed/crawlee';
import { RedisStore, RobotsManager } from '@heed/manager';
import type { WorkerReport, WorkerTask } from './worker-protocol.js';

log.setLevel(LogLevel.WARNING);
const task = JSON.parse(process.argv[2] ?? '{}') as WorkerTask;

const store = new RedisStore({ url: task.redisUrl, keyPrefix: task.keyPrefix });
const manager = new RobotsManager({ userAgent: task.userAgent, store });
const pages: string[] = [];
const skipped = new Set<string>();
let skips = 0;

const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: task.maxRequestsPerCrawl,
    preNavigationHooks: [(_context, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': task.userAgent })],
    async requestHandler({ request, enqueueLinks }) {
      pages.push(request.loadedUrl ?? request.url);
      await enqueueLinks({ strategy: 'all' });
    },
  },
  new Configuration({ persistStorage: false }),
);
const robots = await RobotsPlugin.attach(crawler, {
  userAgent: task.userAgent,
  manager,
  logSummary: false,
  onSkip: (event) => {
    skipped.add(event.url);
    skips++;
  },
});

try {
  await crawler.run([...task.startUrls]);
  await robots.sitemapsDone();
  const stats = manager.stats();
  const report: WorkerReport = {
    index: task.index,
    pid: process.pid,
    pages,
    skippedUrls: [...skipped],
    skips,
    robotsFetches: stats.fetches.total,
    storeHits: stats.cache.storeHits,
    failedRequests: crawler.stats.state.requestsFailed,
  };
  await new Promise<void>((resolve) => process.send?.(report, () => resolve()) ?? resolve());
} finally {
  await robots.close();
  await manager.close();
  await store.close();
}
