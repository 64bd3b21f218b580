#!/usr/bin/env node
/**
 * `node dist/main.js [--user-agent <header>] [--workers 3]`: starts the demo site, then a fleet of crawler processes sharing
 * robots.txt records through Redis (REDIS_URL, or a redis-server started for the run), and prints
 * how many robots.txt fetches the whole fleet made: one per origin.
 */
import { parseExampleArgs, runExample, skippedHeading, startDemoSite, usageError, type ExampleCommand } from '@heed/demo-site';
import { runFleet } from './fleet.js';

const command: ExampleCommand = {
  name: 'node dist/main.js',
  summary:
    'Crawls the demo site with a fleet of processes sharing robots.txt records through Redis (REDIS_URL, or a redis-server started for the run).',
  urls: false,
  flags: { workers: { value: 'count', help: 'how many crawler processes (default: 3)' } },
};
const args = parseExampleArgs(process.argv.slice(2), command);
const workers = args.flags['workers'] === undefined ? 3 : Number(args.flags['workers']);
if (!Number.isInteger(workers) || workers < 1)
  usageError(command, `--workers needs a whole number, at least 1, got "${args.flags['workers']}"`);

await runExample(async () => {
  const site = await startDemoSite();
  try {
    const startUrls = [site.url('shop', '/'), site.url('blog', '/'), site.url('docs', '/')];
    console.log(`Starting ${workers} worker processes; they crawl the demo site from ${startUrls.length} entry points at once.`);
    const fleet = await runFleet({ startUrls, userAgent: args.userAgent, workers });
    console.log(`Records shared through ${fleet.redisUrl}${fleet.startedRedis ? ' (a redis-server started for this run)' : ''}\n`);
    for (const worker of fleet.workers) {
      console.log(
        `  worker ${worker.index} (pid ${worker.pid}): ${worker.pages.length} pages, ${skippedHeading(worker.skippedUrls.length, worker.skips)}, ` +
          `${worker.robotsFetches} robots.txt fetches, ${worker.storeHits} records read from Redis`,
      );
    }
    const origins = Object.keys(site.origins);
    console.log(`\nThe whole fleet fetched robots.txt ${fleet.robotsFetches} times for ${origins.length} origins. The demo site's log:`);
    for (const name of origins) {
      const paths = site.expected.robots[name as keyof typeof site.origins].fetchPaths;
      const requests = site.requests.filter((request) => request.origin === name && paths.includes(request.path));
      console.log(`  ${name.padEnd(6)} ${requests.map((request) => `${request.path} ${request.status}`).join(', ')}`);
    }
  } finally {
    await site.close();
  }
});
