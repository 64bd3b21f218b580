#!/usr/bin/env node
/** `node dist/main.js [--user-agent <header>] [-- <start URL>...]`: crawls the demo site (default) or the given URLs in Chromium, then prints what Heed kept it from. */
import { formatSkips, parseExampleArgs, runExample, startDemoSite } from '@heed/demo-site';
import { crawlWithBrowser } from './crawl.js';

const args = parseExampleArgs(process.argv.slice(2), {
  name: 'node dist/main.js',
  summary: "Crawls in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with a PlaywrightCrawler and Heed attached.",
  urls: true,
});

await runExample(async () => {
  const site = args.urls.length === 0 ? await startDemoSite() : undefined;
  try {
    const summary = await crawlWithBrowser(args.urls.length > 0 ? args.urls : site!.expected.startUrls.slice(0, 1), {
      userAgent: args.userAgent,
    });
    console.log(`\n${summary.pages.length} pages opened in Chromium.`);
    // A link a nofollow page did not follow may be crawled from another page: it is listed apart.
    const neverFetched = summary.skipped.filter((skip) => skip.reason !== 'nofollow');
    const notFollowed = summary.skipped.filter((skip) => skip.reason === 'nofollow');
    for (const line of formatSkips(neverFetched, { verb: 'never fetched' })) console.log(line);
    if (notFollowed.length > 0) for (const line of formatSkips(notFollowed, { verb: 'not followed (nofollow)' })) console.log(line);
  } finally {
    await site?.close();
  }
});
