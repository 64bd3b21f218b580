/**
 * What the docs' option tables say of each option: the reference's tables of `attach()`'s options,
 * of `sitemaps` and of `records`, and the package README's shorter one. `npm run docs` writes
 * those tables from these rows and from the defaults of the option tables (`PLUGIN_OPTIONS`,
 * `SITEMAP_OPTIONS`, `RECORDS_OPTIONS`): a default the code gives as a literal (`true`, `60`,
 * `'summary'`) is written from the code, so a changed default changes the docs; `default` here
 * only says what a literal cannot. An ordinary test run fails when a table differs from these rows
 * or an option has none (test/crawlee/options-docs.test.ts). Read by the docs and their test only:
 * nothing of the package imports it.
 */

/** One row of an option table. */
export interface OptionRow {
  /** The options the row is about: one, or a few described together (`globs` / `regexps`). */
  readonly options: readonly string[];
  /** The default as the table words it, when it is not the code's default as a literal (`none`, `{}` (on)). */
  readonly default?: string;
  /** What the code's literal default means, written after it in brackets (`24 h` after `86_400`). */
  readonly defaultNote?: string;
  /** What the option does, as the table says it (Markdown). */
  readonly what: string;
}

/** The reference's table of `RobotsPlugin.attach()`'s options, in its order. */
export const PLUGIN_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['userAgent'],
    default: '— (required)',
    what: "your crawler's user-agent, at most 512 bytes; its product token (`MyBot`) selects the robots.txt group, the full string is sent when the plugin fetches robots.txt (own manager) and sitemaps. A header starting like a browser's (`Mozilla/5.0 (compatible; MyBot/1.0)`) is refused unless `productToken` is given",
  },
  {
    options: ['productToken'],
    default: 'the product token of `userAgent`',
    what: "the token that selects the robots.txt group when the header does not start with it (`'MyBot'`), or a list of 1 to 16 (`['MyBot-News', 'MyBot']`, see [A crawler known by several product tokens](#a-crawler-known-by-several-product-tokens)); each letters, `-` and `_`, and it must appear in `userAgent`. Also the names read in `<meta name=\"…\">` and `X-Robots-Tag: …:`",
  },
  {
    options: ['manager'],
    default: "`new RobotsManager({ userAgent, productToken })`, logging through the crawler's log",
    what: 'a shared `RobotsManager`; one the plugin creates is closed by `robots.close()`',
  },
  {
    options: ['checkRedirects'],
    what: 'check each redirect target before following it (HTTP and browser crawlers); in browsers also the navigations of popups and `target=_blank` pages. `false` turns off the check, not the wait: a hop is a request to its origin and still waits for its crawl-delay',
  },
  {
    options: ['checkSendRequest'],
    what: 'check the URLs `context.sendRequest()` requests (the URL, got-hook rewrites, redirect hops); a disallowed one rejects with `RobotsDisallowedError`. `false` for crawlers that call APIs on purpose',
  },
  {
    options: ['blockSubresources'],
    what: 'browsers and JSDOMCrawler: do not request sub-resources robots.txt disallows (browsers: scripts, images, XHR, frames, service-worker fetches, the WebSockets of pages and workers; JSDOM: stylesheets, frames, scripts; see [What it checks](#what-it-checks-and-where))',
  },
  { options: ['sitemaps'], default: '`{}` (on)', what: 'sitemap options below, or `false` to turn sitemaps off' },
  {
    options: ['crawlDelay'],
    what: "honour `Crawl-delay` per origin (other origins are not held back): pages, redirect hops and sitemap files alike, counted from when each request leaves; and pause an origin after a `429`/`503` for its `Retry-After` (5 s without one). Shared by every process when the manager's store is a `RedisStore`",
  },
  {
    options: ['maxCrawlDelaySecs'],
    what: 'larger crawl-delays are cut to this; 0 to 86,400 (one day: each wait is a Node.js timer, which cannot wait past 24.8 days); also caps a `Retry-After` pause',
  },
  { options: ['metaRobots'], what: "read robots meta tags and `X-Robots-Tag`; `nofollow` keeps the page's links out" },
  { options: ['honorRelNofollow'], what: 'do not enqueue `rel="nofollow"` (`ugc`, `sponsored`) links' },
  { options: ['onSkip'], default: 'none', what: '`(event: SkipEvent) => void | Promise<void>` for every skip' },
  {
    options: ['identifyPages'],
    what: "send page requests under `userAgent`, so the site sees the name whose robots.txt group Heed obeys (RFC 9309 §2.2.1); `false` leaves pages to Crawlee (its generated browser header). See [Pages go out under your bot's name](#pages-go-out-under-your-bots-name-identifypages)",
  },
  {
    options: ['signature'],
    default: 'off',
    what: "Web Bot Auth: `{ key, signatureAgent, validitySecs? }` signs every request the crawl sends (pages, each redirect hop for its own host, `sendRequest()`, Heed's robots.txt, tdmrep.json, sitemap and URL-list fetches) with your bot's Ed25519 key (`heed keys generate`); every crawler kind on Crawlee 3 and 4 (browsers on Chromium), WebSocket handshakes included. See [Signed requests](#signed-requests-web-bot-auth)",
  },
  {
    options: ['maxCrawlPrice'],
    default: 'none',
    what: "pay-per-crawl: the most you pay per page, `'USD 0.01'`, offered as `crawler-max-price` with each signed page request (needs `signature`); a charge (`crawler-charged`) is counted in `stats.pagesCharged`, a `402` is a `payment-required` skip with its `crawler-price`",
  },
  { options: ['logSummary'], what: 'one summary line at the end of each `crawler.run()`' },
  {
    options: ['logSkips'],
    what: "a line per skipped URL, each URL once per reason, with the deciding line and the stage: `'each'` at info level, `'summary'` at debug level, `false` none (see [What the log says](#what-the-log-says))",
  },
  { options: ['prefetchBatchSize'], what: "requests looked ahead so their origins' robots.txt are fetched in parallel; 1 to 10,000" },
  {
    options: ['purposes'],
    default: 'none',
    what: "what the crawl is for, a list of usage categories (`readonly UsageCategory[]`): any of `'train-ai'`, `'search'`, `'ai-input'`, `'ai-use'`; see [What the crawl is for](#what-the-crawl-is-for-ai-usage-preferences). None: nothing of it is read, and no tdmrep.json is fetched",
  },
  {
    options: ['records'],
    default: 'off',
    what: '`{ file, snapshots, dataset, onRecord, maxBufferBytes, flushSecs }`: a record of every request that left and every skip, and the robots.txt snapshots they name, for `heed audit`; see [Crawl records](#crawl-records-proving-what-you-crawled)',
  },
  {
    options: ['unknownUsage'],
    what: "a declared purpose no signal speaks about: `'allow'` it, or `'disallow'` (only content whose owner said yes)",
  },
];

/** The reference's table of the `sitemaps` options. */
export const SITEMAP_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['enqueueStrategy'],
    what: "which hosts belong to the site, relative to the origin whose robots.txt named the sitemaps (Crawlee's strategies: `'all'`, `'same-hostname'`, `'same-domain'`, `'same-origin'`); see the cross-host rule below",
  },
  { options: ['globs', 'regexps'], default: 'none', what: 'keep URLs matching any of them (as in `enqueueLinks`)' },
  { options: ['filter'], default: 'none', what: '`(url, sitemapUrl) => boolean`, after the above' },
  { options: ['maxUrlsPerOrigin'], what: "URLs enqueued from one origin's sitemaps at most (0 – 100,000,000)" },
  {
    options: ['maxBytes'],
    what: 'bytes read from one sitemap file once its `Content-Encoding` is decoded (compressed input at most 64 KiB more), and again out of a gzipped file (0 – 1 GiB); files are streamed, so this bounds time, not memory',
  },
  { options: ['maxDepth'], what: 'levels of sitemap indexes followed below the files robots.txt names (0 – 10)' },
  { options: ['maxFilesPerOrigin'], what: 'sitemap files (indexes included) fetched for one origin at most (0 – 100,000)' },
  {
    options: ['maxTimePerOriginSecs'],
    what: "seconds spent reading one origin's sitemaps (fetching, parsing, waiting for a fetch slot or a crawl-delay; not waiting for room in the crawler's queue); then the URLs read so far are enqueued and the rest dropped. With a long `Crawl-delay`, raise it to read more files",
  },
  {
    options: ['maxConcurrency'],
    what: "sitemap files read at once, **all origins together** (1 – 64); a file waiting for its origin's crawl-delay holds its slot, so that nothing else of the origin goes first",
  },
  {
    options: ['maxBufferedBytes'],
    what: "bytes of parsed URLs waiting for room in the crawler's queue, **all origins together** (64 KiB – 1 GiB); reading pauses while it is full",
  },
  {
    options: ['maxHeldBytesPerOrigin'],
    what: "bytes one origin's sitemap reading holds to remember what it has seen: sitemap files queued or read (each read once) and URLs read (repeats skipped), 64 KiB – 1 GiB. Beyond it a sitemap location is dropped unread, a URL not remembered (a repeat then reaches the crawler's queue, which drops it); both counted and reported once",
  },
  { options: ['maxHeldBytes'], what: 'the same, **all origins together** (64 KiB – 1 GiB)' },
  { options: ['label'], default: 'none', what: '`request.label` of sitemap requests, for your router' },
  { options: ['maxPendingRequests'], what: 'back-pressure: wait while the crawler has this many requests pending (1 – 1,000,000)' },
  {
    options: ['timeoutSecs'],
    what: "seconds to read one sitemap file, request to last byte (waiting for the crawler's queue, for a robots.txt or for a crawl-delay not counted)",
  },
  {
    options: ['stallSecs'],
    what: "seconds one sitemap file may go without a new entry (from its request on; waiting for the crawler's queue, for a robots.txt or for a crawl-delay not counted) before it is cut, its entries kept; after two such files in a row the origin's remaining sitemaps are not read. A server slower than this to start answering needs more",
  },
  {
    options: ['proxyUrl'],
    default: 'none',
    what: "proxy sitemaps are fetched through: `http://` or `https://` (`http://user:pass@host:port`), the same rule as the manager's `proxyUrl`",
  },
];

/** The reference's table of the `records` fields. */
export const RECORDS_OPTION_ROWS: readonly OptionRow[] = [
  { options: ['file'], default: 'none', what: 'the JSON Lines file records are appended to (created with its directory)' },
  {
    options: ['snapshots'],
    default: 'none',
    what: 'the directory every robots.txt the manager accepts is written to, once, named by its hash, with its sightings (`SnapshotDirectory` of `@heed/manager`)',
  },
  {
    options: ['dataset'],
    default: 'none',
    what: "the name of a Dataset of the crawler's own storage (`crawler.getDataset(name)`) records are pushed to in batches, so they land where the crawl's data lands: locally `storage/datasets/<name>/`, which `heed audit` reads as it reads a file, or the platform's named dataset",
  },
  {
    options: ['onRecord'],
    default: 'none',
    what: '`(record: CrawlRecord) => void`, called with every record as it is made (synchronously: keep it quick); one that throws is logged and not called again',
  },
  { options: ['maxBufferBytes'], what: 'bytes of records held before they are written or pushed (1,024 – 67,108,864)' },
  { options: ['flushSecs'], what: 'seconds a record waits in the buffer at most (0.001 – 60)' },
];

/**
 * The package README's table: the options most crawls set, said briefly. A row without a `default`
 * words it as the reference's row of the same option does, when that one words it.
 */
export const README_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['userAgent'],
    what: "your crawler's user-agent; its product token (`MyBot`) selects the robots.txt group, sent with robots.txt and sitemap requests, and with pages (`identifyPages`, default `true`)",
  },
  {
    options: ['productToken'],
    what: 'the token (or a list of 1 to 16) that selects the robots.txt group, when `userAgent` does not start with it',
  },
  {
    options: ['manager'],
    default: 'a new `RobotsManager`',
    what: 'a shared `RobotsManager` (several crawlers, a Redis store for a fleet)',
  },
  { options: ['logSkips'], what: "a line per skipped URL: `'each'` at info level, `'summary'` at debug level, `false` none" },
  { options: ['crawlDelay'], what: 'honour `Crawl-delay` per origin, and pause an origin after a `429`/`503` for its `Retry-After`' },
  { options: ['maxCrawlDelaySecs'], what: 'larger crawl-delays are cut to this' },
  { options: ['sitemaps'], what: 'sitemap options (bounds, filters, label), or `false` to turn sitemaps off' },
  { options: ['blockSubresources'], what: 'browsers and JSDOMCrawler: do not request sub-resources robots.txt disallows' },
  { options: ['checkSendRequest'], what: 'check `context.sendRequest()` URLs; `false` for crawlers that call APIs on purpose' },
  { options: ['onSkip'], what: '`(event: SkipEvent) => void | Promise<void>` for every skip' },
  {
    options: ['purposes'],
    what: "what the crawl is for (`'train-ai'`, `'search'`, `'ai-input'`, `'ai-use'`): reads AI-usage preferences",
  },
  {
    options: ['records'],
    what: "`{ file: 'crawl-records.jsonl', snapshots: 'robots-snapshots/' }`: a record of every request and skip, and the robots.txt each was judged by",
  },
];
