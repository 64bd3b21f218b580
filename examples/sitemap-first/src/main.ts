#!/usr/bin/env node
/** `node dist/main.js [-- <site URL>...]`: crawls what the sitemaps of the demo site's origins (default) or the given sites list. */
import { log, LogLevel } from '@crawlee/cheerio';
import { DEMO_USER_AGENT, formatSkips, startDemoSite } from '@heed/demo-site';
import { crawlSitemapsFirst } from './sitemap-first.js';

log.setLevel(LogLevel.WARNING);
const given = process.argv.slice(2).filter((arg) => arg !== '--');
const site = given.length === 0 ? await startDemoSite() : undefined;
try {
  const sites = given.length > 0 ? given : Object.values(site!.origins).map((origin) => `${origin}/`);
  const summary = await crawlSitemapsFirst(sites, { userAgent: DEMO_USER_AGENT });
  console.log(`Sites: ${sites.join(', ')}\n`);
  console.log(`${summary.stats.sitemapsRead} sitemap files read; ${summary.stats.sitemapUrlsEnqueued} URLs enqueued from them.`);
  console.log(`${summary.sitemapPages.length} pages crawled from sitemaps:`);
  for (const url of summary.sitemapPages) console.log(`  ${url}`);
  for (const line of formatSkips(summary.skipped, { verb: 'kept out' })) console.log(line);
} finally {
  await site?.close();
}
