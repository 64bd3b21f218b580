/**
 * The options of `RobotsPlugin.attach()`, each declared once: its field in the option tables below,
 * with its TSDoc, default and check; the types, the known keys and the defaults derive from the
 * tables. Validation happens at attach time so that a typo fails before the first request, with the
 * option's name and what to do.
 */
import { checkUserAgent, proxyUrlCheck, signatureField } from '@heed/manager';
import {
  defineOptions,
  describeValue,
  InvalidOptionsError,
  option,
  USAGE_CATEGORIES,
  type Fail,
  type OptionField,
  type OptionsInput,
  type ProductTokens,
  type ResolvedOptions as ResolvedTable,
} from '@heed/parser';
import type { RobotsManagerLike } from './manager-contract.js';
import type { SkipEvent } from './report/skip-events.js';
import { checkRecords, type RecordsOptions, type ResolvedRecordsOptions } from './records/records-options.js';
import { LOG_SKIPS_MODES, type LogSkipsMode } from './report/skip-log.js';
import { MAX_TIMER_MS } from './timers.js';

const WHERE = 'RobotsPlugin.attach()';

/** Which sitemap URLs are kept, relative to the sitemap's own URL — Crawlee's `EnqueueStrategy` values. */
export type SitemapEnqueueStrategy = 'all' | 'same-hostname' | 'same-domain' | 'same-origin';
const STRATEGIES: readonly SitemapEnqueueStrategy[] = ['all', 'same-hostname', 'same-domain', 'same-origin'];

/** A duration set as a Node.js timer, in seconds: past the timer's limit a timer fires at once. */
const TIMER_SECS = { min: 0.001, max: MAX_TIMER_MS / 1000, unit: 'seconds', why: 'the longest a Node.js timer waits, about 24.8 days' };
/** A byte bound on what sitemap reading holds: at least a few URLs' worth. */
const HELD_BYTES = { min: 65_536, max: 1_073_741_824, integer: true, unit: 'bytes' };
const NO_GLOBS: readonly string[] = Object.freeze([]);
const NO_REGEXPS: readonly RegExp[] = Object.freeze([]);

/**
 * The longest crawl-delay obeyed. Each deferred request waits in a Node.js timer, and requests of
 * one origin wait in turn: a day keeps a long queue's waits far below the timer's 24.8-day limit
 * (past it a timer fires at once, a re-queue loop instead of a wait).
 */
const MAX_CRAWL_DELAY_SECS = 86_400;

/**
 * Options of the sitemap feeder (`sitemaps` option). Which files are read and which URLs kept follows
 * one rule, relative to the site whose robots.txt named the sitemaps: the files its robots.txt names
 * are read wherever they are hosted; a nested sitemap outside the site (by `enqueueStrategy`) is not
 * fetched; a page URL outside the site is kept only when it comes from a sitemap on its own host that
 * this host's robots.txt names (the sitemaps protocol's cross-submission). Sitemap work is bounded per plugin
 * (`maxConcurrency`, `maxBufferedBytes`, `maxHeldBytes`), per origin (`maxFilesPerOrigin`,
 * `maxTimePerOriginSecs`, `maxUrlsPerOrigin`, `maxHeldBytesPerOrigin`) and per file (`maxBytes`,
 * `timeoutSecs`, `stallSecs`).
 */
export const SITEMAP_OPTIONS = defineOptions(WHERE, {
  /**
   * Which sitemap URLs belong to the site, compared with the URL of the origin whose robots.txt named
   * the sitemaps (the way Crawlee's `enqueueLinks` compares links with the page): nested sitemaps
   * outside it are not fetched, page URLs outside it are kept only when they come from a sitemap on
   * their own host that this host's robots.txt names.
   * @default `'same-hostname'`
   */
  enqueueStrategy: option.choice({ default: 'same-hostname', values: STRATEGIES }),
  /**
   * Keep only URLs matching one of these globs (Crawlee glob syntax).
   * @default keep all
   */
  globs: option.custom({ default: NO_GLOBS, check: checkGlobs }),
  /**
   * Keep only URLs matching one of these regular expressions.
   * @default keep all
   */
  regexps: option.custom({ default: NO_REGEXPS, check: checkRegExps }),
  /**
   * Keep only URLs for which this returns `true`. Runs after the strategy, globs and regexps.
   * @default none
   */
  filter: option.function<(url: string, sitemapUrl: string) => boolean>({ signature: '(url, sitemapUrl) => boolean' }),
  /**
   * Most URLs enqueued from the sitemaps of one origin: 0 to 100,000,000.
   * @default `10_000`
   */
  maxUrlsPerOrigin: option.number({ default: 10_000, min: 0, max: 100_000_000, integer: true }),
  /**
   * Most bytes read from one sitemap file once its `Content-Encoding` is decoded, and again out of
   * a gzipped file (the protocol's limit is 50 MB): 0 to 1,073,741,824. Files are streamed, so this
   * bounds time, not memory.
   * @default `52_428_800`
   */
  maxBytes: option.number({ default: 50 * 1024 * 1024, min: 0, max: 1_073_741_824, integer: true, unit: 'bytes' }),
  /**
   * How deep sitemap indexes are followed, 0 to 10: 0 reads only the files named in robots.txt.
   * @default `2`
   */
  maxDepth: option.number({ default: 2, min: 0, max: 10, integer: true }),
  /**
   * Most sitemap files fetched for one origin (indexes included), 0 to 100,000, so an index listing
   * thousands of slow or broken files cannot keep the crawl waiting.
   * @default `100`
   */
  maxFilesPerOrigin: option.number({ default: 100, min: 0, max: 100_000, integer: true }),
  /**
   * Most time spent reading one origin's sitemaps, in seconds (0.001 to 2,147,483.647, a Node.js
   * timer's limit): fetching, parsing and waiting for a fetch slot, but not waiting for room in the
   * crawler's queue (the crawl then has work). When it runs out the origin's reading stops and the
   * URLs read so far are still enqueued, so a crawl never waits on sitemaps longer.
   * @default `120`
   */
  maxTimePerOriginSecs: option.number({ default: 120, ...TIMER_SECS }),
  /**
   * Most sitemap files read at the same time, all origins together (1 to 64): with each file
   * streamed, this bounds the bytes in flight and being decompressed.
   * @default `4`
   */
  maxConcurrency: option.number({ default: 4, min: 1, max: 64, integer: true }),
  /**
   * Most bytes of parsed sitemap URLs waiting for room in the crawler's queue, all origins together
   * (65,536 to 1,073,741,824); reading pauses while it is reached.
   * @default `16_777_216` (16 MiB)
   */
  maxBufferedBytes: option.number({ default: 16 * 1024 * 1024, ...HELD_BYTES }),
  /**
   * Most bytes one origin's sitemap reading holds to remember what it has seen (65,536 to
   * 1,073,741,824): the sitemap files queued or read, so each is read once, and the URLs read, so
   * their repeats are skipped. Beyond it, a sitemap location is dropped unread and a URL is not
   * remembered (a repeat of it then reaches the crawler's queue, which drops it); both are counted
   * and reported once. Files to read are also never queued beyond what `maxFilesPerOrigin` still
   * allows, so an index listing 700,000 sitemaps costs the few that can be read.
   * @default `16_777_216` (16 MiB)
   */
  maxHeldBytesPerOrigin: option.number({ default: 16 * 1024 * 1024, ...HELD_BYTES }),
  /**
   * The same as `maxHeldBytesPerOrigin`, all origins together (65,536 to 1,073,741,824): the
   * readings under way never hold more than this, however many origins they are for.
   * @default `134_217_728` (128 MiB)
   */
  maxHeldBytes: option.number({ default: 128 * 1024 * 1024, ...HELD_BYTES }),
  /**
   * `request.label` of enqueued sitemap URLs, so a router can tell them apart.
   * @default none
   */
  label: option.custom<string | undefined>({ default: undefined, check: checkLabel }),
  /**
   * Back-pressure: the feeder waits while the crawler has more than this many requests pending
   * (1 to 1,000,000), so a 50,000-URL sitemap does not flood the queue ahead of the pages.
   * @default `1_000`
   */
  maxPendingRequests: option.number({ default: 1_000, min: 1, max: 1_000_000, integer: true }),
  /**
   * Time to read one sitemap file, request to last byte, in seconds: 0.001 to 2,147,483.647 (a
   * Node.js timer's limit). Time spent waiting for room in the crawler's queue does not count.
   * @default `30`
   */
  timeoutSecs: option.number({ default: 30, ...TIMER_SECS }),
  /**
   * Time a sitemap file may go without a new entry, in seconds (0.001 to 2,147,483.647), from its
   * request on (waiting for room in the crawler's queue not counted): then it is cut, the entries
   * read before kept. Once two files of an origin in a row are cut that way, its remaining
   * sitemaps are not read, so a crawl whose pages are done waits at most about twice this past the
   * last entry of sitemaps that drip or hang. A server that takes longer than this to start
   * answering needs a larger value.
   * @default `5`
   */
  stallSecs: option.number({ default: 5, ...TIMER_SECS }),
  /**
   * Proxy sitemaps are fetched through, `http://user:pass@host:port`.
   * @default none (direct)
   */
  proxyUrl: option.custom<string | undefined>({ default: undefined, check: proxyUrlCheck }),
});

/** Options of the sitemap feeder (`sitemaps` option): see {@link SITEMAP_OPTIONS}. */
export type SitemapOptions = OptionsInput<typeof SITEMAP_OPTIONS>;
/** Sitemap options with every default filled in. */
export type ResolvedSitemapOptions = ResolvedTable<typeof SITEMAP_OPTIONS>;

/** The `sitemaps` option: `false` turns the feeder off, `true` or an object reads sitemaps. */
const SITEMAPS_FIELD: OptionField<SitemapOptions | boolean, ResolvedSitemapOptions | false, ResolvedSitemapOptions> = option.object(
  SITEMAP_OPTIONS,
  { orFalse: true, expected: 'false (off) or an object of sitemap options' },
);

/** The `records` option: off when absent or `false`; an object of {@link RecordsOptions} resolved with its defaults. */
const RECORDS_FIELD: OptionField<RecordsOptions | false, ResolvedRecordsOptions | undefined, undefined> = {
  kind: 'custom',
  default: undefined,
  read: (value, at) => checkRecords(value, at.name, at.fail),
};

/** The options of `RobotsPlugin.attach()` (exported for the test that keeps the docs' tables equal to it). */
export const PLUGIN_OPTIONS = defineOptions(WHERE, {
  // Documented on RobotsPluginOptions, where it is required.
  userAgent: option.custom({ check: checkUserAgentText }),
  /**
   * The product token that selects the robots.txt group, when it is not the first token of
   * `userAgent`: `'MyBot'` for `'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)'`.
   * Or a list, for a crawler known by several tokens: with `['MyBot-News', 'MyBot']` the groups of
   * every listed token that robots.txt names apply together (merged; google/robotstxt's reading),
   * the `*` groups only when none is named; `<meta name="MyBot-News">`, `<meta name="MyBot">` and
   * `X-Robots-Tag: MyBot-News: …` all apply, and so does their `noai`. Each token: letters, `-` and
   * `_` only, and it must appear in `userAgent`; a list holds 1 to 16 tokens.
   * @default the product token of `userAgent` (`'MyBot'` for `'MyBot/1.0 (+https://example.com/bot)'`)
   */
  productToken: option.custom<ProductTokens | undefined>({ default: undefined, check: (value) => value as ProductTokens }),
  /**
   * The `RobotsManager` to ask. Share one between crawlers (and its store between processes) so each
   * origin's robots.txt is fetched once; it is asked with this crawler's `productToken` on every call.
   * @default a new `RobotsManager({ userAgent, productToken })`, closed by `plugin.close()`
   */
  manager: option.custom<RobotsManagerLike | undefined>({ default: undefined, check: checkManager }),
  /**
   * Check each redirect target before following it (HTTP and browser crawlers). In browsers also
   * the navigations of popups and `target=_blank` pages the crawled page opens. `false` turns off
   * the check, not the wait: a hop is a request to its origin and still waits for its crawl-delay.
   * @default `true`
   */
  checkRedirects: option.boolean({ default: true }),
  /**
   * Check the URLs `context.sendRequest()` asks for in a request handler (the URL, a URL a got
   * `beforeRequest` hook rewrote it to, each redirect hop): a disallowed one rejects the call with
   * `RobotsDisallowedError` and nothing is sent. `false` for crawlers that call APIs on purpose.
   * @default `true`
   */
  checkSendRequest: option.boolean({ default: true }),
  /**
   * Browser crawlers and JSDOMCrawler: do not request the sub-resources a page loads (browsers:
   * scripts, images, XHR, frames, service-worker fetches, and the WebSockets of pages and workers;
   * JSDOM: stylesheets, frames, scripts) that robots.txt disallows for this user-agent, as Google's
   * renderer does not. `false` fetches them unchecked (each new origin of a sub-resource, a CDN
   * say, costs a robots.txt fetch when checked).
   * @default `true`
   */
  blockSubresources: option.boolean({ default: true }),
  /**
   * Send page requests under `userAgent`, so the site sees the name whose robots.txt group Heed
   * obeys (RFC 9309 §2.2.1): the `User-Agent` header of HTTP, Cheerio and JSDOM crawlers' requests
   * (JSDOM's stylesheets and scripts too), the page's user-agent in Playwright and Puppeteer (and
   * the `User-Agent` header of the popups and `target=_blank` pages it opens), instead of Crawlee's
   * generated browser one. A `User-Agent` of your own (in `request.headers`, a navigation hook's
   * got options, a browser's `launchContext.userAgent`) is kept. `false` leaves pages to Crawlee:
   * for a site that serves bots other content than browsers when that is what you study, or when
   * you set the header yourself in a way the plugin cannot see.
   * @default `true`
   */
  identifyPages: option.boolean({ default: true }),
  /**
   * Web Bot Auth: sign every request the crawl sends with your bot's Ed25519 key, so sites can
   * verify who crawls (`Signature-Agent`, `Signature-Input`, `Signature`, each redirect hop signed
   * for its own host): pages and their redirect hops, a browser's sub-resources and popups,
   * `context.sendRequest()`, and Heed's own robots.txt, tdmrep.json, sitemap and `requestsFromUrl`
   * fetches. `{ key, signatureAgent, validitySecs }`: `key` the path of the private JWK
   * `heed keys generate` writes (or the JWK), `signatureAgent` the URL of your key directory. Every
   * crawler kind on Crawlee 3 and 4 (browsers on Chromium, the WebSocket handshakes of pages,
   * workers and jsdom included). A
   * manager of your own
   * (`manager`) signs its fetches with its own `signature` option.
   * @default off (unsigned)
   */
  signature: signatureField(),
  /**
   * Pay-per-crawl: the most you agree to pay per page, e.g. `'USD 0.01'` (a currency code and an
   * amount), sent as `crawler-max-price` with every signed page request (sites charge only crawlers
   * they can verify: it needs `signature`). A page the site charged for answers `crawler-charged`,
   * counted in `stats.pagesCharged` and named in the summary; a page that asks more answers `402`, a
   * `payment-required` skip with its `crawler-price`.
   * @default none (no price offered)
   */
  maxCrawlPrice: option.custom<string | undefined>({ default: undefined, check: crawlPriceCheck }),
  /**
   * Read `Sitemap:` lines of each new origin's robots.txt into the queue; `false` turns it off.
   * @default `{}` (on)
   */
  sitemaps: SITEMAPS_FIELD,
  /**
   * Honour `Crawl-delay`: consecutive fetches of one origin at least that far apart, other origins
   * unaffected. `false` ignores it.
   * @default `true`
   */
  crawlDelay: option.boolean({ default: true }),
  /**
   * Largest crawl-delay obeyed, in seconds (0 to 86,400, one day); larger values are cut to it.
   * @default `60`
   */
  maxCrawlDelaySecs: option.number({ default: 60, min: 0, max: MAX_CRAWL_DELAY_SECS, unit: 'seconds', why: 'one day' }),
  /**
   * Read `<meta name="robots">`, `<meta name="<token>">` and `X-Robots-Tag`; `nofollow`/`none` keeps
   * the page's links out of the queue, and all directives are given to the request handler.
   * @default `true`
   */
  metaRobots: option.boolean({ default: true }),
  /**
   * Do not enqueue links marked `rel="nofollow"`.
   * @default `false` (Google treats it as a hint)
   */
  honorRelNofollow: option.boolean({ default: false }),
  /**
   * Called for every URL the plugin keeps from being fetched or enqueued.
   * @default none
   */
  onSkip: option.function<(event: SkipEvent) => void | Promise<void>>({ signature: '(event) => void' }),
  /**
   * Log one summary line at the end of each `crawler.run()`.
   * @default `true`
   */
  logSummary: option.boolean({ default: true }),
  /**
   * A line per skipped URL, through the crawler's log, each URL once (per reason) however often it
   * comes up, with why and where: `RobotsPlugin: skipped https://x/private/a (robots.txt line 3:
   * Disallow: /private/, stage enqueue, from https://x/)`. `'each'` logs them at info level;
   * `'summary'` at debug level (shown with `CRAWLEE_LOG_LEVEL=DEBUG`), leaving the counts to the
   * summary line; `false` logs none.
   * @default `'summary'`
   */
  logSkips: option.custom<LogSkipsMode>({ default: 'summary', check: checkLogSkips }),
  /**
   * How many requests of a batch are looked ahead so that their origins' robots.txt are fetched in
   * parallel before the batch is checked: a whole number from 1 to 10,000.
   * @default `100`
   */
  prefetchBatchSize: option.number({ default: 100, min: 1, max: 10_000, integer: true }),
  /**
   * What the crawl is for, as usage categories: `'train-ai'` (training AI models), `'ai-input'`
   * (input to a model at answer time, RAG), `'search'` (a search index), `'ai-use'`. A URL whose
   * preference for any of them is `disallow` (robots.txt `Content-Usage`/`Content-Signal`, the
   * origin's `/.well-known/tdmrep.json` for `train-ai` and `ai-input`) is never fetched: skipped at
   * enqueue and before the fetch with reason `usage`. A fetched page whose response headers
   * (`Content-Usage`, `Content-Signal`, `tdm-reservation: 1`, `X-Robots-Tag: noai`) or meta tags
   * (`robots`/your token `noai`, `tdm-reservation`) say `disallow` never reaches the request
   * handler (a skip at stage `response`).
   * @default none — nothing of this is read, tdmrep.json is never fetched, and the crawl is what it is without the option
   */
  purposes: option.list({
    values: USAGE_CATEGORIES,
    item: 'usage category',
    items: 'usage categories',
    example: `e.g. purposes: ['train-ai'] (known: ${USAGE_CATEGORIES.map((c) => `'${c}'`).join(', ')})`,
  }),
  /**
   * What a declared purpose with no stated preference (`unknown`) means: `'allow'` (the drafts'
   * reading: no statement is no restriction) or `'disallow'` (only content whose owner said yes).
   * Judged once the response is in (its headers and meta tags may say yes): such a URL is fetched,
   * and a page still unknown is kept from the handler (a `usage` skip at stage `response`).
   * @default `'allow'`
   */
  unknownUsage: option.choice({ default: 'allow', values: ['allow', 'disallow'] }),
  /**
   * Keep a record of the crawl, to prove afterwards what was fetched under which rules: a JSON
   * Lines `file` with one object per request that left (every door: before the fetch, rewrites,
   * redirect hops, popups, sub-resources, `sendRequest()`, Heed's own sitemap fetches) and per
   * skip, each naming the robots.txt snapshot its verdict was made with; and a `snapshots`
   * directory holding every robots.txt body the manager accepted, once, with when and where it was
   * seen. `heed audit <file> --snapshots <dir>` judges every record again. See
   * {@link RecordsOptions} for the fields and when records are flushed.
   * @default off
   */
  records: RECORDS_FIELD,
});

/** Options of `RobotsPlugin.attach()`: see {@link PLUGIN_OPTIONS} for each. `userAgent` is required. */
export interface RobotsPluginOptions extends OptionsInput<typeof PLUGIN_OPTIONS> {
  /**
   * The user-agent of this crawler, e.g. `'HeedBot/1.0 (+https://example.com/bot)'`, at most 512
   * bytes. Its product token (`HeedBot`) selects the robots.txt group; when the plugin creates the
   * manager, the full string is the `User-Agent` header of robots.txt and sitemap fetches. A header
   * that starts like a browser's (`Mozilla/5.0 (compatible; MyBot/1.0)`) is refused unless
   * `productToken` names the bot's token. Required.
   */
  readonly userAgent: string;
}

/** Plugin options with every default filled in. */
export interface ResolvedOptions extends Omit<ResolvedTable<typeof PLUGIN_OPTIONS>, 'userAgent' | 'productToken'> {
  readonly userAgent: string;
  /** The product token (or frozen list of tokens) matched against robots.txt groups and meta tags. */
  readonly productToken: ProductTokens;
}

/** Checks `input` and fills in the defaults. Throws `InvalidOptionsError` naming the first fault. */
export function resolveOptions(input: unknown): ResolvedOptions {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    // Refused here rather than read as "no options": the message shows the one option required.
    throw new InvalidOptionsError(
      'options',
      `expected an object like { userAgent: 'MyBot/1.0 (+https://…)' }, got ${describeValue(input)}.`,
      WHERE,
    );
  }
  const resolved = PLUGIN_OPTIONS.resolve(input);
  // The manager's check: one rule for what a user-agent may be, whoever creates the manager.
  const identity = checkUserAgent(resolved.userAgent, resolved.productToken);
  if (!identity.ok) throw new InvalidOptionsError(identity.option, identity.problem, WHERE);
  if (resolved.purposes.length > 0 && resolved.manager !== undefined && typeof resolved.manager.usage !== 'function') {
    throw new InvalidOptionsError(
      'manager',
      'has no usage() method, which purposes needs; pass a RobotsManager from @heed/manager 0.2 or later.',
      WHERE,
    );
  }
  if (
    resolved.records?.snapshots !== undefined &&
    resolved.manager !== undefined &&
    typeof resolved.manager.keepSnapshotsIn !== 'function'
  ) {
    throw new InvalidOptionsError(
      'records',
      'snapshots needs a manager with keepSnapshotsIn(); pass a RobotsManager from @heed/manager 0.2 or later, or leave records.snapshots out.',
      WHERE,
    );
  }
  return { ...resolved, userAgent: resolved.userAgent, productToken: identity.productToken };
}

/** `userAgent` is a string; what the string may be is the manager's rule, checked with `productToken`. */
function checkUserAgentText(value: unknown, _name: string, fail: Fail): string {
  if (typeof value === 'string') return value;
  const identity = checkUserAgent(value);
  return fail(identity.ok ? 'must be a string.' : identity.problem);
}

function checkManager(value: unknown, _name: string, fail: Fail): RobotsManagerLike | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') {
    return fail(`got the class ${value.name || '(anonymous)'} itself; pass an instance, e.g. manager: new RobotsManager({ userAgent }).`);
  }
  if (!isManager(value)) {
    return fail('expected a RobotsManager from @heed/manager (an object with decide(), sitemaps(), crawlDelay(), prefetch() and close()).');
  }
  return value;
}

function isManager(value: unknown): value is RobotsManagerLike {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['decide', 'sitemaps', 'crawlDelay', 'prefetch', 'close'].every((m) => typeof record[m] === 'function');
}

function checkLogSkips(value: unknown, _name: string, fail: Fail): LogSkipsMode {
  if ((LOG_SKIPS_MODES as readonly unknown[]).includes(value)) return value as LogSkipsMode;
  return fail(`expected 'each', 'summary' or false, got ${describeValue(value)}; the default is 'summary'.`);
}

function checkGlobs(value: unknown, _name: string, fail: Fail): readonly string[] {
  if (Array.isArray(value) && value.every((g) => typeof g === 'string' && g !== '')) return value as string[];
  return fail("expected an array of non-empty glob strings, e.g. ['https://example.com/blog/**'].");
}

function checkRegExps(value: unknown, _name: string, fail: Fail): readonly RegExp[] {
  if (Array.isArray(value) && value.every((r) => r instanceof RegExp)) return value;
  return fail('expected an array of RegExp objects, e.g. [/\\/blog\\//].');
}

function checkLabel(value: unknown, _name: string, fail: Fail): string | undefined {
  if (value === undefined || (typeof value === 'string' && value !== '')) return value;
  return fail(`expected a non-empty string your router handles, got ${describeValue(value)}.`);
}

/** A price as pay-per-crawl headers write it: a three-letter currency code and an amount, `USD 0.01`. */
function crawlPriceCheck(value: unknown, _name: string, fail: Fail): string {
  if (typeof value !== 'string' || !/^[A-Z]{3} \d{1,9}(\.\d{1,6})?$/.test(value))
    fail(`expected a currency code and an amount, e.g. "USD 0.01"; got ${describeValue(value)}.`);
  return value;
}
