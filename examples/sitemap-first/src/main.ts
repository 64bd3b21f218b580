#!/usr/bin/env node
/** `node dist/main.js [--user-agent <header>] [-- <site URL>...]`: crawls what the sitemaps of the demo site's origins (default) or the given sites list. */
import { log, LogLevel } from '@crawlee/cheerio';
import { formatSkips, parseExampleArgs, runExample, startDemoSite } from '@heed/demo-site';
import { crawlSitemapsFirst } from './sitemap-first.js';

const args = parseExampleArgs(process.argv.slice(2), {
  name: 'node dist/main.js',
  summary: 'Crawls what the sitemaps of the given sites (default: the demo site) list, robots.txt obeyed.',
  urls: true,
});
const given = args.urls;

log.setLevel(LogLevel.WARNING);
await runExample(async () => {
  const site = given.length === 0 ? await startDemoSite() : undefined;
  try {
    const sites = given.length > 0 ? given : Object.values(site!.origins).map((origin) => `${origin}/`);
    const summary = await crawlSitemapsFirst(sites, { userAgent: args.userAgent });
    console.log(`Sites: ${sites.join(', ')}\n`);
    console.log(`${summary.stats.sitemapsRead} sitemap files read; ${summary.stats.sitemapUrlsEnqueued} URLs enqueued from them.`);
    console.log(`${summary.sitemapPages.length} pages crawled from sitemaps:`);
    for (const url of summary.sitemapPages) console.log(`  ${url}`);
    for (const line of formatSkips(summary.skipped, { verb: 'kept out' })) console.log(line);
  } finally {
    await site?.close();
  }
});
