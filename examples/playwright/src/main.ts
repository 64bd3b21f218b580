#!/usr/bin/env node
/** `node dist/main.js [-- <start URL>]`: crawls the demo site (default) or the given URL in Chromium, then prints Heed's summary. */
import { DEMO_USER_AGENT, startDemoSite } from '@heed/demo-site';
import { crawlWithBrowser } from './crawl.js';

const startUrl = process.argv.slice(2).find((arg) => arg !== '--');
const site = startUrl === undefined ? await startDemoSite() : undefined;
try {
  const summary = await crawlWithBrowser([startUrl ?? site!.expected.startUrls[0]!], { userAgent: DEMO_USER_AGENT });
  const skips = new Map<string, { message: string; count: number }>();
  for (const skip of summary.skipped) {
    const key = `[${skip.stage}] ${skip.url}`;
    skips.set(key, { message: skip.message, count: (skips.get(key)?.count ?? 0) + 1 });
  }
  console.log(`\n${summary.pages.length} pages opened in Chromium; ${skips.size} URLs skipped (${summary.skipped.length} times):`);
  for (const [key, { message, count }] of skips) console.log(`  ${key}${count > 1 ? ` ×${count}` : ''}  ${message}`);
} finally {
  await site?.close();
}
