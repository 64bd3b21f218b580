#!/usr/bin/env node
/** `node dist/main.js [-- <start URL>]`: crawls the demo site (default) or the given URL, then prints Heed's summary. */
import { DEMO_USER_AGENT, formatSkips, startDemoSite } from '@heed/demo-site';
import { crawlWithHeed } from './crawl.js';

const startUrl = process.argv.slice(2).find((arg) => arg !== '--');
const site = startUrl === undefined ? await startDemoSite() : undefined;
try {
  const summary = await crawlWithHeed([startUrl ?? site!.expected.startUrls[0]!], { userAgent: DEMO_USER_AGENT });
  console.log(`\n${summary.pages.length} pages crawled, ${summary.failedRequests} failed.`);
  for (const line of formatSkips(summary.skipped)) console.log(line);
} finally {
  await site?.close();
}
