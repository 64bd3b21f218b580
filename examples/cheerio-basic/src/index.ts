/** The smallest useful CheerioCrawler with Heed attached: `crawlWithHeed(startUrls, { userAgent })`. */
export { crawlWithHeed, type CheerioBasicOptions, type CheerioBasicSummary } from './crawl.js';
