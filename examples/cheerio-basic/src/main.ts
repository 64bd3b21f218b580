#!/usr/bin/env node
/** `node dist/main.js [--user-agent <header>] [-- <start URL>...]`: crawls the demo site (default) or the given URLs, then prints what Heed kept it from. */
import { formatSkips, parseExampleArgs, runExample, startDemoSite } from '@heed/demo-site';
import { crawlWithHeed } from './crawl.js';

const args = parseExampleArgs(process.argv.slice(2), {
  name: 'node dist/main.js',
  summary: 'Crawls with a CheerioCrawler and Heed attached, then lists the URLs robots.txt kept it from and the links it did not follow.',
  urls: true,
});

await runExample(async () => {
  const site = args.urls.length === 0 ? await startDemoSite() : undefined;
  try {
    const summary = await crawlWithHeed(args.urls.length > 0 ? args.urls : site!.expected.startUrls.slice(0, 1), {
      userAgent: args.userAgent,
    });
    console.log(`\n${summary.pages.length} pages crawled, ${summary.failedRequests} failed.`);
    // A link a nofollow page did not follow may be crawled from another page: it is listed apart.
    const neverFetched = summary.skipped.filter((skip) => skip.reason !== 'nofollow');
    const notFollowed = summary.skipped.filter((skip) => skip.reason === 'nofollow');
    for (const line of formatSkips(neverFetched, { verb: 'never fetched' })) console.log(line);
    if (notFollowed.length > 0) for (const line of formatSkips(notFollowed, { verb: 'not followed (nofollow)' })) console.log(line);
  } finally {
    await site?.close();
  }
});
