/**
 * The Crawlee 3.13+ adapter: the crawler's request queue wrapped (enqueue filter, check before the
 * fetch, crawl-delay, sitemaps), the request-handling and summary hooks; HTTP crawlers the got
 * redirect hook and JSDOM's sub-resource check; browser crawlers request interception; pages under
 * the bot's name; the crawl clock at send and `Retry-After` pauses.
 */
import type { Adapter } from './adapter.js';
import { attachBasicHooks } from './basic.js';
import { attachBrowserHooks } from './browser.js';
import { crawlerKind, turnOffCrawleeRobotsCheck } from './crawler-internals.js';
import { attachHttpHooks } from './http.js';
import { attachPageIdentity } from './identify.js';
import { attachJsdomHooks } from './jsdom.js';
import { attachPoliteness } from '../politeness/attach.js';

export const attachV3: Adapter = async ({ crawler, options, guard, skips, queue, feeder }) => {
  turnOffCrawleeRobotsCheck(crawler);
  const kind = crawlerKind(crawler);
  if (kind === 'http') {
    attachHttpHooks(crawler, guard);
    attachJsdomHooks(crawler, guard);
  }
  if (kind === 'browser') attachBrowserHooks(crawler, guard);
  await attachBasicHooks(crawler, guard, skips, queue, feeder);
  // After the hook that marks a page's crawl-delay slot started: the browser's user-agent takes a
  // round trip to the browser, which belongs with the page's own sending (whose true start the
  // browser's interception reports), not between the slot and its start.
  if (options.identifyPages) attachPageIdentity(crawler, options.userAgent);
  attachPoliteness(crawler, guard);
};
