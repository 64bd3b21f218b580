/**
 * Errors of `@heed/crawlee`. Each is its own class, so callers test with `instanceof`, and each
 * message says what was wrong and what to do about it. All extend `HeedError` (an `Error`), the
 * base class of every Heed package's errors.
 */

import { HeedError } from '@heed/parser';
import type { SkipEvent } from './report/skip-events.js';

// One option error for every package (defined in @heed/parser, re-exported here).
export { HeedError, InvalidOptionsError } from '@heed/parser';

/** `RobotsPlugin.attach()` was given something that is not a Crawlee crawler. */
export class UnsupportedCrawlerError extends HeedError {
  override readonly name: string = 'UnsupportedCrawlerError';
  /** @param message replaces the default message (subclasses). */
  constructor(what: string, message?: string) {
    super(
      message ??
        `RobotsPlugin.attach() needs a Crawlee 3 or 4 crawler (BasicCrawler, HttpCrawler, CheerioCrawler, ` +
          `JSDOMCrawler, PlaywrightCrawler or PuppeteerCrawler); got ${what}. Pass the crawler instance ` +
          `itself, before calling crawler.run().`,
    );
  }
}

/**
 * The crawler is a Crawlee crawler of a release the plugin does not support. `found` is the release
 * of the crawler's `@crawlee/basic` (else of the `@crawlee/core` found), `supported` the range that is.
 */
export class UnsupportedCrawleeVersionError extends UnsupportedCrawlerError {
  override readonly name: string = 'UnsupportedCrawleeVersionError';
  constructor(
    readonly found: string,
    readonly supported: string,
    detail?: string,
  ) {
    super(
      `Crawlee ${found}`,
      `RobotsPlugin.attach() supports Crawlee ${supported}; found Crawlee ${found}${detail ? ` (${detail})` : ''}. ` +
        `Install a supported release, e.g. npm install @crawlee/cheerio@^3.18 (crawler package and @crawlee/core at the same version).`,
    );
  }
}

/** The same crawler was attached twice: its checks would run (and be reported) twice. */
export class AlreadyAttachedError extends HeedError {
  override readonly name: string = 'AlreadyAttachedError';
  constructor() {
    super('RobotsPlugin is already attached to this crawler; keep the plugin returned by the first attach().');
  }
}

/**
 * `context.sendRequest()` was asked for a URL robots.txt disallows for this crawler (the URL itself,
 * or a redirect it led to, or the URL a got hook rewrote it to): nothing was sent. `skip` holds the
 * deciding line and rule. Call APIs on purpose? Attach with `checkSendRequest: false`.
 */
export class RobotsDisallowedError extends HeedError {
  override readonly name: string = 'RobotsDisallowedError';
  /** The URL that was not requested. */
  readonly url: string;
  constructor(
    /** Why: origin, deciding line and rule (or robots.txt status), as `onSkip` receives it. */
    readonly skip: SkipEvent,
  ) {
    super(
      `sendRequest() did not request ${skip.url}: ${skip.message}. ` +
        'To send requests robots.txt does not govern (an API you call on purpose), attach with checkSendRequest: false.',
    );
    this.url = skip.url;
  }
}

/**
 * Two crawlers with a plugin each would read one request queue at once (the second attached while
 * the first is attached and not yet run, or running): whichever crawler takes a request, one
 * plugin's user-agent would decide for both. Give each crawler its own queue. Crawlers run one
 * after the other on one queue need nothing: the later takes the queue over.
 */
export class SharedRequestQueueError extends HeedError {
  override readonly name: string = 'SharedRequestQueueError';
  constructor(
    /** The queue's name or id as Crawlee reports it (`default` for the default queue). */
    readonly queueName: string,
  ) {
    super(
      `RobotsPlugin: the request queue "${queueName}" is already read by another crawler with a RobotsPlugin attached; ` +
        'a request taken from a shared queue would be judged for the wrong user-agent. Give each crawler its own queue: ' +
        "new CheerioCrawler({ requestQueue: await RequestQueue.open('news'), ... }), one name per crawler.",
    );
  }
}

/**
 * The crawler's `proxyConfiguration` names a proxy Heed cannot fetch through (`socks5://`): Heed reads
 * robots.txt, tdmrep.json and sitemaps through the crawler's proxies, over HTTP proxies only, and
 * reading them from the machine's own address instead would read the rules a site serves to
 * another place than the pages come from. Refused at `attach()` rather than every origin read as
 * unreachable. The message names the scheme, never the URL (it may carry a password).
 */
export class UnsupportedProxyError extends HeedError {
  override readonly name: string = 'UnsupportedProxyError';
  constructor(
    /** The proxy URL's scheme as found: `socks5:`. */
    readonly scheme: string,
  ) {
    super(
      `RobotsPlugin: the crawler's proxyConfiguration names a ${scheme}// proxy; Heed fetches robots.txt and sitemaps ` +
        "through the crawler's proxies, and only through http:// or https:// ones. Use an HTTP proxy (most SOCKS " +
        'providers offer one on another port).',
    );
  }
}
