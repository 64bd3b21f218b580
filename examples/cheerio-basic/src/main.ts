#!/usr/bin/env node
/** `node dist/main.js [-- <start URL>]`: crawls the demo site (default) or the given URL, then prints Heed's summary. */
import { DEMO_USER_AGENT, startDemoSite } from '@heed/demo-site';
import { crawlWithHeed } from './crawl.js';

const startUrl = process.argv.slice(2).find((arg) => arg !== '--');
const site = startUrl === undefined ? await startDemoSite() : undefined;
try {
  const summary = await crawlWithHeed([startUrl ?? site!.expected.startUrls[0]!], { userAgent: DEMO_USER_AGENT });
  console.log(`\n${summary.pages.length} pages crawled, ${summary.skipped.length} URLs skipped:`);
  for (const skip of summary.skipped) console.log(`  ${skip.url}  ${skip.message}`);
} finally {
  await site?.close();
}
