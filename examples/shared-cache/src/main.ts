#!/usr/bin/env node
/**
 * `node dist/main.js [--user-agent <header>] [--storage <dir>]`: runs two crawlers (HeedDemoBot, or the given
 * User-Agent, and HeedOtherBot) over the demo
 * site twice, sharing one manager and a KeyValueStore in <dir> (default ./storage), and prints how
 * many robots.txt fetches each run made: one per origin the first time, none the second.
 */
import { log, LogLevel } from '@crawlee/core';
import { distinctSkips, OTHER_USER_AGENT, parseExampleArgs, runExample, skippedHeading, startDemoSite } from '@heed/demo-site';
import { runSharedCache, type SharedCacheRun } from './shared-cache.js';

const args = parseExampleArgs(process.argv.slice(2), {
  name: 'node dist/main.js',
  summary: 'Runs two crawlers over the demo site twice, sharing one RobotsManager whose records persist in a KeyValueStore.',
  urls: false,
  flags: { storage: { value: 'dir', help: 'where the KeyValueStore keeps the records (default: ./storage)' } },
});
const storageDir = args.flags['storage'] ?? './storage';

function report(title: string, run: SharedCacheRun, names: ReadonlyMap<string, string>): void {
  console.log(`\n${title}: ${run.robotsFetches} robots.txt fetches, ${run.storeHits} records read from the KeyValueStore`);
  for (const origin of run.origins)
    console.log(
      `  ${(names.get(origin.origin) ?? '').padEnd(6)} ${origin.origin}  robots.txt HTTP ${origin.httpStatus ?? '-'} → ${origin.policy}`,
    );
  for (const crawler of run.crawlers) {
    const skipped = skippedHeading(distinctSkips(crawler.skipped).length, crawler.skipped.length);
    console.log(`  ${crawler.userAgent.split(' ')[0]}: ${crawler.pages.length} pages crawled, ${skipped}`);
  }
}

log.setLevel(LogLevel.WARNING);
await runExample(async () => {
  const site = await startDemoSite();
  try {
    const userAgents = [args.userAgent, OTHER_USER_AGENT];
    const names = new Map(Object.entries(site.origins).map(([name, origin]) => [origin, name]));
    console.log(
      `Two crawlers (${userAgents.map((agent) => agent.split(' ')[0]).join(', ')}) share one RobotsManager; records persist in ${storageDir}`,
    );
    report('Run 1', await runSharedCache(site.expected.startUrls, { storageDir, userAgents }), names);
    report('Run 2 (same storage, new manager)', await runSharedCache(site.expected.startUrls, { storageDir, userAgents }), names);
    const robotsRequests = site.requests.filter((request) => request.path.endsWith('robots.txt')).length;
    console.log(`\nThe demo site saw ${robotsRequests} robots.txt requests in all.`);
  } finally {
    await site.close();
  }
});
