/** A PlaywrightCrawler with Heed on Debian's Chromium, sub-resources blocked: `crawlWithBrowser(startUrls, { userAgent })`. */
export { crawlWithBrowser, CHROMIUM_ARGS, type PlaywrightExampleOptions, type PlaywrightExampleSummary } from './crawl.js';
