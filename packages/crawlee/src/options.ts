/**
 * The options of `RobotsPlugin.attach()`, their defaults (all in this one module) and their
 * validation. Validation happens at attach time so that a typo fails before the first request,
 * with the option's name and what to do.
 */
import { checkUserAgent, didYouMean } from '@heed/manager/internal';
import { USAGE_CATEGORIES, type ProductTokens } from '@heed/parser';
import {
  booleanOption,
  checkKnownKeys,
  choiceOption,
  describe,
  functionOption,
  isRecord,
  MAX_TIMER_MS,
  numberOption,
  optionError,
  proxyUrlOption,
  type NumberRange,
  type OptionScope,
} from '@heed/parser/internal';
import type { RobotsManagerLike } from './manager-contract.js';
import type { SkipEvent } from './report/skip-events.js';

/** Which sitemap URLs are kept, relative to the sitemap's own URL — Crawlee's `EnqueueStrategy` values. */
export type SitemapEnqueueStrategy = 'all' | 'same-hostname' | 'same-domain' | 'same-origin';

/**
 * Options of the sitemap feeder (`sitemaps` option). Which files are read and which URLs kept follows
 * one rule, relative to the site whose robots.txt named the sitemaps: the files its robots.txt names
 * are read wherever they are hosted; a nested sitemap outside the site (by `enqueueStrategy`) is not
 * fetched; a page URL outside the site is kept only when it comes from a sitemap on its own host that
 * this host's robots.txt names (the sitemaps protocol's cross-submission). Sitemap work is bounded per plugin
 * (`maxConcurrentFetches`, `maxBufferedBytes`, `maxHeldBytes`), per origin (`maxFilesPerOrigin`,
 * `maxTimePerOriginMs`, `maxUrlsPerOrigin`, `maxHeldBytesPerOrigin`) and per file (`maxBytes`,
 * `timeoutMs`, `stallMs`).
 */
export interface SitemapOptions {
  /**
   * Which sitemap URLs belong to the site, compared with the URL of the origin whose robots.txt named
   * the sitemaps (the way Crawlee's `enqueueLinks` compares links with the page): nested sitemaps
   * outside it are not fetched, page URLs outside it are kept only when they come from a sitemap on
   * their own host that this host's robots.txt names.
   * @default `'same-hostname'`
   */
  readonly enqueueStrategy?: SitemapEnqueueStrategy;
  /**
   * Keep only URLs matching one of these globs (Crawlee glob syntax).
   * @default keep all
   */
  readonly globs?: readonly string[];
  /**
   * Keep only URLs matching one of these regular expressions.
   * @default keep all
   */
  readonly regexps?: readonly RegExp[];
  /**
   * Keep only URLs for which this returns `true`. Runs after the strategy, globs and regexps.
   * @default none
   */
  readonly filter?: (url: string, sitemapUrl: string) => boolean;
  /**
   * Most URLs enqueued from the sitemaps of one origin: 0 to 100,000,000.
   * @default `10_000`
   */
  readonly maxUrlsPerOrigin?: number;
  /**
   * Most bytes read from one sitemap file once its `Content-Encoding` is decoded, and again out of
   * a gzipped file (the protocol's limit is 50 MB): 0 to 1,073,741,824. Files are streamed, so this
   * bounds time, not memory.
   * @default `52_428_800`
   */
  readonly maxBytes?: number;
  /**
   * How deep sitemap indexes are followed, 0 to 10: 0 reads only the files named in robots.txt.
   * @default `2`
   */
  readonly maxDepth?: number;
  /**
   * Most sitemap files fetched for one origin (indexes included), 0 to 100,000, so an index listing
   * thousands of slow or broken files cannot keep the crawl waiting.
   * @default `100`
   */
  readonly maxFilesPerOrigin?: number;
  /**
   * Most time spent reading one origin's sitemaps, in milliseconds (1 to 2,147,483,647, a Node.js
   * timer's limit): fetching, parsing and waiting for a fetch slot, but not waiting for room in the
   * crawler's queue (the crawl then has work). When it runs out the origin's reading stops and the
   * URLs read so far are still enqueued, so a crawl never waits on sitemaps longer.
   * @default `120_000`
   */
  readonly maxTimePerOriginMs?: number;
  /**
   * Most sitemap files read at the same time, all origins together (1 to 64): with each file
   * streamed, this bounds the bytes in flight and being decompressed.
   * @default `4`
   */
  readonly maxConcurrentFetches?: number;
  /**
   * Most bytes of parsed sitemap URLs waiting for room in the crawler's queue, all origins together
   * (65,536 to 1,073,741,824); reading pauses while it is reached.
   * @default `16_777_216` (16 MiB)
   */
  readonly maxBufferedBytes?: number;
  /**
   * Most bytes one origin's sitemap reading holds to remember what it has seen (65,536 to
   * 1,073,741,824): the sitemap files queued or read, so each is read once, and the URLs read, so
   * their repeats are skipped. Beyond it, a sitemap location is dropped unread and a URL is not
   * remembered (a repeat of it then reaches the crawler's queue, which drops it); both are counted
   * and reported once. Files to read are also never queued beyond what `maxFilesPerOrigin` still
   * allows, so an index listing 700,000 sitemaps costs the few that can be read.
   * @default `16_777_216` (16 MiB)
   */
  readonly maxHeldBytesPerOrigin?: number;
  /**
   * The same as `maxHeldBytesPerOrigin`, all origins together (65,536 to 1,073,741,824): the
   * readings under way never hold more than this, however many origins they are for.
   * @default `134_217_728` (128 MiB)
   */
  readonly maxHeldBytes?: number;
  /**
   * `request.label` of enqueued sitemap URLs, so a router can tell them apart.
   * @default none
   */
  readonly label?: string;
  /**
   * Back-pressure: the feeder waits while the crawler has more than this many requests pending
   * (1 to 1,000,000), so a 50,000-URL sitemap does not flood the queue ahead of the pages.
   * @default `1_000`
   */
  readonly maxPendingRequests?: number;
  /**
   * Time to read one sitemap file, request to last byte, in milliseconds: 1 to 2,147,483,647 (a
   * Node.js timer's limit). Time spent waiting for room in the crawler's queue does not count.
   * @default `30_000`
   */
  readonly timeoutMs?: number;
  /**
   * Time a sitemap file may go without a new entry, in milliseconds (1 to 2,147,483,647), from its
   * request on (waiting for room in the crawler's queue not counted): then it is cut, the entries
   * read before kept. Once two files of an origin in a row are cut that way, its remaining
   * sitemaps are not read, so a crawl whose pages are done waits at most about twice this past the
   * last entry of sitemaps that drip or hang. A server that takes longer than this to start
   * answering needs a larger value.
   * @default `5_000`
   */
  readonly stallMs?: number;
  /**
   * Proxy sitemaps are fetched through, `http://user:pass@host:port`.
   * @default none (direct)
   */
  readonly proxyUrl?: string;
}

/** Options of `RobotsPlugin.attach()`. */
export interface RobotsPluginOptions {
  /**
   * The user-agent of this crawler, e.g. `'HeedBot/1.0 (+https://example.com/bot)'`, at most 512
   * bytes. Its product token (`HeedBot`) selects the robots.txt group; when the plugin creates the
   * manager, the full string is the `User-Agent` header of robots.txt and sitemap fetches. A header
   * that starts like a browser's (`Mozilla/5.0 (compatible; MyBot/1.0)`) is refused unless
   * `productToken` names the bot's token. Required.
   */
  readonly userAgent: string;
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
  readonly productToken?: ProductTokens;
  /**
   * The `RobotsManager` to ask. Share one between crawlers (and its store between processes) so each
   * origin's robots.txt is fetched once; it is asked with this crawler's `productToken` on every call.
   * @default a new `RobotsManager({ userAgent, productToken })`, closed by `plugin.close()`
   */
  readonly manager?: RobotsManagerLike;
  /**
   * Check each redirect target before following it (HTTP and browser crawlers). In browsers also
   * the navigations of popups and `target=_blank` pages the crawled page opens.
   * @default `true`
   */
  readonly checkRedirects?: boolean;
  /**
   * Check the URLs `context.sendRequest()` asks for in a request handler (the URL, a URL a got
   * `beforeRequest` hook rewrote it to, each redirect hop): a disallowed one rejects the call with
   * `RobotsDisallowedError` and nothing is sent. `false` for crawlers that call APIs on purpose.
   * @default `true`
   */
  readonly checkSendRequest?: boolean;
  /**
   * Browser crawlers and JSDOMCrawler: do not request the sub-resources a page loads (browsers:
   * scripts, images, XHR, frames, service-worker fetches, and WebSockets on Playwright 1.48+;
   * JSDOM: stylesheets, frames, scripts) that robots.txt disallows for this user-agent, as Google's
   * renderer does not. `false` fetches them unchecked (each new origin of a sub-resource, a CDN
   * say, costs a robots.txt fetch when checked).
   * @default `true`
   */
  readonly blockSubresources?: boolean;
  /**
   * Read `Sitemap:` lines of each new origin's robots.txt into the queue; `false` turns it off.
   * @default `{}` (on)
   */
  readonly sitemaps?: SitemapOptions | false;
  /**
   * Honour `Crawl-delay`: consecutive fetches of one origin at least that far apart, other origins
   * unaffected. `false` ignores it.
   * @default `true`
   */
  readonly crawlDelay?: boolean;
  /**
   * Largest crawl-delay obeyed, in seconds (0 to 86,400, one day); larger values are cut to it.
   * @default `60`
   */
  readonly maxCrawlDelaySecs?: number;
  /**
   * Read `<meta name="robots">`, `<meta name="<token>">` and `X-Robots-Tag`; `nofollow`/`none` keeps
   * the page's links out of the queue, and all directives are given to the request handler.
   * @default `true`
   */
  readonly metaRobots?: boolean;
  /**
   * Do not enqueue links marked `rel="nofollow"`.
   * @default `false` (Google treats it as a hint)
   */
  readonly honorRelNofollow?: boolean;
  /**
   * Called for every URL the plugin keeps from being fetched or enqueued.
   * @default none
   */
  readonly onSkip?: (event: SkipEvent) => void | Promise<void>;
  /**
   * Log one summary line at the end of each `crawler.run()`.
   * @default `true`
   */
  readonly logSummary?: boolean;
  /**
   * How many requests of a batch are looked ahead so that their origins' robots.txt are fetched in
   * parallel before the batch is checked: a whole number from 1 to 10,000.
   * @default `100`
   */
  readonly prefetchBatchSize?: number;

  // ---- purposes: AI-usage preferences ---------------------------------------------------------

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
  readonly purposes?: readonly string[];
  /**
   * What a declared purpose with no stated preference (`unknown`) means: `'allow'` (the drafts'
   * reading: no statement is no restriction) or `'disallow'` (only content whose owner said yes).
   * Judged once the response is in (its headers and meta tags may say yes): such a URL is fetched,
   * and a page still unknown is kept from the handler (a `usage` skip at stage `response`).
   * @default `'allow'`
   */
  readonly unknownUsage?: 'allow' | 'disallow';
}

/** Sitemap options with every default filled in. */
export interface ResolvedSitemapOptions {
  readonly enqueueStrategy: SitemapEnqueueStrategy;
  readonly globs: readonly string[];
  readonly regexps: readonly RegExp[];
  readonly filter: ((url: string, sitemapUrl: string) => boolean) | undefined;
  readonly maxUrlsPerOrigin: number;
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxFilesPerOrigin: number;
  readonly maxTimePerOriginMs: number;
  readonly maxConcurrentFetches: number;
  readonly maxBufferedBytes: number;
  readonly maxHeldBytesPerOrigin: number;
  readonly maxHeldBytes: number;
  readonly label: string | undefined;
  readonly maxPendingRequests: number;
  readonly timeoutMs: number;
  readonly stallMs: number;
  readonly proxyUrl: string | undefined;
}

/** Plugin options with every default filled in. */
export interface ResolvedOptions {
  readonly userAgent: string;
  /** The product token (or frozen list of tokens) matched against robots.txt groups and meta tags. */
  readonly productToken: ProductTokens;
  readonly manager: RobotsManagerLike | undefined;
  readonly checkRedirects: boolean;
  readonly checkSendRequest: boolean;
  readonly blockSubresources: boolean;
  readonly sitemaps: ResolvedSitemapOptions | false;
  readonly crawlDelay: boolean;
  readonly maxCrawlDelaySecs: number;
  readonly metaRobots: boolean;
  readonly honorRelNofollow: boolean;
  readonly onSkip: ((event: SkipEvent) => void | Promise<void>) | undefined;
  readonly logSummary: boolean;
  readonly prefetchBatchSize: number;
  /** Declared purposes; empty: usage preferences are not read. */
  readonly purposes: readonly string[];
  readonly unknownUsage: 'allow' | 'disallow';
}

export const SITEMAP_DEFAULTS: Omit<ResolvedSitemapOptions, 'filter' | 'label' | 'proxyUrl'> = {
  enqueueStrategy: 'same-hostname',
  globs: [],
  regexps: [],
  maxUrlsPerOrigin: 10_000,
  maxBytes: 50 * 1024 * 1024,
  maxDepth: 2,
  maxFilesPerOrigin: 100,
  maxTimePerOriginMs: 120_000,
  maxConcurrentFetches: 4,
  maxBufferedBytes: 16 * 1024 * 1024,
  maxHeldBytesPerOrigin: 16 * 1024 * 1024,
  maxHeldBytes: 128 * 1024 * 1024,
  maxPendingRequests: 1_000,
  timeoutMs: 30_000,
  stallMs: 5_000,
};

export const DEFAULTS = {
  checkRedirects: true,
  checkSendRequest: true,
  blockSubresources: true,
  crawlDelay: true,
  maxCrawlDelaySecs: 60,
  metaRobots: true,
  honorRelNofollow: false,
  logSummary: true,
  prefetchBatchSize: 100,
} as const;

const PLUGIN_KEYS: readonly string[] = [
  'userAgent',
  'productToken',
  'manager',
  'checkRedirects',
  'checkSendRequest',
  'blockSubresources',
  'sitemaps',
  'crawlDelay',
  'maxCrawlDelaySecs',
  'metaRobots',
  'honorRelNofollow',
  'onSkip',
  'logSummary',
  'prefetchBatchSize',
  'purposes',
  'unknownUsage',
];
const SITEMAP_KEYS: readonly string[] = [
  'enqueueStrategy',
  'globs',
  'regexps',
  'filter',
  'maxUrlsPerOrigin',
  'maxBytes',
  'maxDepth',
  'maxFilesPerOrigin',
  'label',
  'maxPendingRequests',
  'timeoutMs',
  'stallMs',
  'proxyUrl',
  'maxTimePerOriginMs',
  'maxConcurrentFetches',
  'maxBufferedBytes',
  'maxHeldBytesPerOrigin',
  'maxHeldBytes',
];
const SCOPE: OptionScope = { where: 'RobotsPlugin.attach()', suggest: didYouMean };
const SITEMAP_SCOPE: OptionScope = { ...SCOPE, prefix: 'sitemaps.' };
const STRATEGIES: readonly SitemapEnqueueStrategy[] = ['all', 'same-hostname', 'same-domain', 'same-origin'];

/** Checks `input` and fills in the defaults. Throws `InvalidOptionsError` naming the first fault. */
export function resolveOptions(input: unknown): ResolvedOptions {
  if (!isRecord(input)) {
    throw optionError('options', `expected an object like { userAgent: 'MyBot/1.0 (+https://…)' }, got ${describe(input)}.`, SCOPE);
  }
  checkKnownKeys(input, PLUGIN_KEYS, SCOPE);
  const userAgent = input['userAgent'];
  // The manager's check: one rule for what a user-agent may be, whoever creates the manager.
  const identity = checkUserAgent(userAgent, input['productToken']);
  if (!identity.ok) throw optionError(identity.option, identity.problem, SCOPE);
  if (typeof userAgent !== 'string') throw optionError('userAgent', 'must be a string.', SCOPE);
  const manager = input['manager'];
  if (typeof manager === 'function') {
    throw optionError(
      'manager',
      `got the class ${manager.name || '(anonymous)'} itself; pass an instance, e.g. manager: new RobotsManager({ userAgent }).`,
      SCOPE,
    );
  }
  if (manager !== undefined && !isManager(manager)) {
    throw optionError(
      'manager',
      'expected a RobotsManager from @heed/manager (an object with check(), sitemaps(), crawlDelay(), prefetch() and close()).',
      SCOPE,
    );
  }
  const purposes = resolvePurposes(input['purposes']);
  if (purposes.length > 0 && manager !== undefined && typeof (manager as { usage?: unknown }).usage !== 'function') {
    throw optionError(
      'manager',
      'has no usage() method, which purposes needs; pass a RobotsManager from @heed/manager 0.2 or later.',
      SCOPE,
    );
  }
  return {
    userAgent,
    productToken: identity.productToken,
    manager: manager,
    checkRedirects: booleanOption(input['checkRedirects'], 'checkRedirects', DEFAULTS.checkRedirects, SCOPE),
    checkSendRequest: booleanOption(input['checkSendRequest'], 'checkSendRequest', DEFAULTS.checkSendRequest, SCOPE),
    blockSubresources: booleanOption(input['blockSubresources'], 'blockSubresources', DEFAULTS.blockSubresources, SCOPE),
    sitemaps: resolveSitemaps(input['sitemaps']),
    crawlDelay: booleanOption(input['crawlDelay'], 'crawlDelay', DEFAULTS.crawlDelay, SCOPE),
    maxCrawlDelaySecs: numberOption(
      input['maxCrawlDelaySecs'],
      'maxCrawlDelaySecs',
      DEFAULTS.maxCrawlDelaySecs,
      { min: 0, max: MAX_CRAWL_DELAY_SECS, unit: 'seconds', why: 'one day' },
      SCOPE,
    ),
    metaRobots: booleanOption(input['metaRobots'], 'metaRobots', DEFAULTS.metaRobots, SCOPE),
    honorRelNofollow: booleanOption(input['honorRelNofollow'], 'honorRelNofollow', DEFAULTS.honorRelNofollow, SCOPE),
    onSkip: functionOption<NonNullable<ResolvedOptions['onSkip']>>(input['onSkip'], 'onSkip', '(event) => void', SCOPE),
    logSummary: booleanOption(input['logSummary'], 'logSummary', DEFAULTS.logSummary, SCOPE),
    prefetchBatchSize: numberOption(
      input['prefetchBatchSize'],
      'prefetchBatchSize',
      DEFAULTS.prefetchBatchSize,
      { min: 1, max: 10_000, integer: true },
      SCOPE,
    ),
    purposes,
    unknownUsage: choiceOption(input['unknownUsage'], 'unknownUsage', 'allow', ['allow', 'disallow'] as const, SCOPE),
  };
}

/** `purposes`: a list of the usage categories Heed knows, each once. */
function resolvePurposes(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const known = USAGE_CATEGORIES as readonly string[];
  const example = `e.g. purposes: ['train-ai'] (known: ${known.map((c) => `'${c}'`).join(', ')})`;
  if (!Array.isArray(value))
    throw optionError('purposes', `expected an array of usage categories, ${example}; got ${describe(value)}.`, SCOPE);
  for (const purpose of value) {
    if (typeof purpose !== 'string' || !known.includes(purpose)) {
      const hint = typeof purpose === 'string' ? didYouMean(purpose, known) : undefined;
      throw optionError(
        'purposes',
        `${describe(purpose)} is not a usage category${hint ? `; did you mean '${hint}'?` : ''} Use ${example}.`,
        SCOPE,
      );
    }
  }
  return Object.freeze([...new Set(value as string[])]);
}

function resolveSitemaps(value: unknown): ResolvedSitemapOptions | false {
  if (value === false) return false;
  if (value === undefined || value === true) return { ...SITEMAP_DEFAULTS, filter: undefined, label: undefined, proxyUrl: undefined };
  if (!isRecord(value)) {
    throw optionError('sitemaps', `expected false (off) or an object of sitemap options, got ${describe(value)}.`, SCOPE);
  }
  checkKnownKeys(value, SITEMAP_KEYS, SITEMAP_SCOPE);
  const globs = value['globs'] ?? [];
  if (!Array.isArray(globs) || !globs.every((g) => typeof g === 'string' && g !== '')) {
    throw optionError('globs', "expected an array of non-empty glob strings, e.g. ['https://example.com/blog/**'].", SITEMAP_SCOPE);
  }
  const regexps = value['regexps'] ?? [];
  if (!Array.isArray(regexps) || !regexps.every((r) => r instanceof RegExp)) {
    throw optionError('regexps', 'expected an array of RegExp objects, e.g. [/\\/blog\\//].', SITEMAP_SCOPE);
  }
  const label = value['label'];
  if (label !== undefined && (typeof label !== 'string' || label === '')) {
    throw optionError('label', `expected a non-empty string your router handles, got ${describe(label)}.`, SITEMAP_SCOPE);
  }
  const whole = (key: SitemapNumberKey, range: Omit<NumberRange, 'integer'>): number =>
    numberOption(value[key], key, SITEMAP_DEFAULTS[key], { ...range, integer: true }, SITEMAP_SCOPE);
  const timer = { min: 1, max: MAX_TIMER_MS, unit: 'milliseconds', why: 'the longest a Node.js timer waits, about 24.8 days' };
  return {
    enqueueStrategy: choiceOption(value['enqueueStrategy'], 'enqueueStrategy', SITEMAP_DEFAULTS.enqueueStrategy, STRATEGIES, SITEMAP_SCOPE),
    proxyUrl: proxyUrlOption(value['proxyUrl'], 'proxyUrl', SITEMAP_SCOPE),
    globs: globs as string[],
    regexps: regexps,
    filter: functionOption<NonNullable<ResolvedSitemapOptions['filter']>>(
      value['filter'],
      'filter',
      '(url, sitemapUrl) => boolean',
      SITEMAP_SCOPE,
    ),
    label: label,
    maxUrlsPerOrigin: whole('maxUrlsPerOrigin', { min: 0, max: 100_000_000 }),
    maxBytes: whole('maxBytes', { min: 0, max: 1_073_741_824, unit: 'bytes' }),
    maxDepth: whole('maxDepth', { min: 0, max: 10 }),
    maxFilesPerOrigin: whole('maxFilesPerOrigin', { min: 0, max: 100_000 }),
    maxTimePerOriginMs: whole('maxTimePerOriginMs', timer),
    maxConcurrentFetches: whole('maxConcurrentFetches', { min: 1, max: 64 }),
    maxBufferedBytes: whole('maxBufferedBytes', { min: 65_536, max: 1_073_741_824, unit: 'bytes' }),
    maxHeldBytesPerOrigin: whole('maxHeldBytesPerOrigin', { min: 65_536, max: 1_073_741_824, unit: 'bytes' }),
    maxHeldBytes: whole('maxHeldBytes', { min: 65_536, max: 1_073_741_824, unit: 'bytes' }),
    maxPendingRequests: whole('maxPendingRequests', { min: 1, max: 1_000_000 }),
    timeoutMs: whole('timeoutMs', timer),
    stallMs: whole('stallMs', timer),
  };
}

type SitemapNumberKey = {
  [K in keyof typeof SITEMAP_DEFAULTS]: (typeof SITEMAP_DEFAULTS)[K] extends number ? K : never;
}[keyof typeof SITEMAP_DEFAULTS];

/**
 * The longest crawl-delay obeyed. Each deferred request waits in a Node.js timer, and requests of
 * one origin wait in turn: a day keeps a long queue's waits far below the timer's 24.8-day limit
 * (past it a timer fires at once, a re-queue loop instead of a wait).
 */
const MAX_CRAWL_DELAY_SECS = 86_400;

function isManager(value: unknown): value is RobotsManagerLike {
  if (!isRecord(value)) return false;
  return ['check', 'sitemaps', 'crawlDelay', 'prefetch', 'close'].every((m) => typeof value[m] === 'function');
}
