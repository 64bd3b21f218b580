/**
 * The options of `RobotsPlugin.attach()`, their defaults (all in this one module) and their
 * validation. Validation happens at attach time so that a typo fails before the first request,
 * with the option's name and what to do.
 */
import { checkUserAgent } from '@heed/manager';
import { USAGE_CATEGORIES, type ProductTokens } from '@heed/parser';
import { InvalidOptionsError } from './errors.js';
import type { RobotsManagerLike } from './manager-contract.js';
import type { SkipEvent } from './skips.js';

/** Which sitemap URLs are kept, relative to the sitemap's own URL — Crawlee's `EnqueueStrategy` values. */
export type SitemapEnqueueStrategy = 'all' | 'same-hostname' | 'same-domain' | 'same-origin';

/**
 * Options of the sitemap feeder (`sitemaps` option). Which files are read and which URLs kept follows
 * one rule, relative to the site whose robots.txt named the sitemaps: the files its robots.txt names
 * are read wherever they are hosted; a nested sitemap outside the site (by `enqueueStrategy`) is not
 * fetched; a page URL outside the site is kept only when it comes from a sitemap on its own host that
 * this host's robots.txt names (the sitemaps protocol's cross-submission). Sitemap work is bounded per plugin
 * (`maxConcurrentFetches`, `maxBufferedBytes`), per origin (`maxFilesPerOrigin`,
 * `maxTimePerOriginMs`, `maxUrlsPerOrigin`) and per file (`maxBytes`, `timeoutMs`).
 */
export interface SitemapOptions {
  /**
   * Which sitemap URLs belong to the site, compared with the URL of the origin whose robots.txt named
   * the sitemaps (the way Crawlee's `enqueueLinks` compares links with the page): nested sitemaps
   * outside it are not fetched, page URLs outside it are kept only when they come from a sitemap on
   * their own host that this host's robots.txt names. Default: `'same-hostname'`.
   */
  readonly enqueueStrategy?: SitemapEnqueueStrategy;
  /** Keep only URLs matching one of these globs (Crawlee glob syntax). Default: keep all. */
  readonly globs?: readonly string[];
  /** Keep only URLs matching one of these regular expressions. Default: keep all. */
  readonly regexps?: readonly RegExp[];
  /** Keep only URLs for which this returns `true`. Runs after the strategy, globs and regexps. Default: none. */
  readonly filter?: (url: string, sitemapUrl: string) => boolean;
  /** Most URLs enqueued from the sitemaps of one origin: 0 to 100,000,000. Default: `10_000`. */
  readonly maxUrlsPerOrigin?: number;
  /**
   * Most bytes read from one sitemap file, on the wire and again after decompression (the protocol's
   * limit is 50 MB): 0 to 1,073,741,824. Files are streamed, so this bounds time, not memory. Default: `52_428_800`.
   */
  readonly maxBytes?: number;
  /** How deep sitemap indexes are followed, 0 to 10: 0 reads only the files named in robots.txt. Default: `2`. */
  readonly maxDepth?: number;
  /**
   * Most sitemap files fetched for one origin (indexes included), 0 to 100,000, so an index listing
   * thousands of slow or broken files cannot keep the crawl waiting. Default: `100`.
   */
  readonly maxFilesPerOrigin?: number;
  /**
   * Most time spent reading one origin's sitemaps, in milliseconds (1 to 2,147,483,647, a Node.js
   * timer's limit): fetching, parsing and waiting for a fetch slot, but not waiting for room in the
   * crawler's queue (the crawl then has work). When it runs out the origin's reading stops and the
   * URLs read so far are still enqueued, so a crawl never waits on sitemaps longer. Default: `120_000`.
   */
  readonly maxTimePerOriginMs?: number;
  /**
   * Most sitemap files read at the same time, all origins together (1 to 64): with each file
   * streamed, this bounds the bytes in flight and being decompressed. Default: `4`.
   */
  readonly maxConcurrentFetches?: number;
  /**
   * Most bytes of parsed sitemap URLs waiting for room in the crawler's queue, all origins together
   * (65,536 to 1,073,741,824); reading pauses while it is reached. Default: `16_777_216` (16 MiB).
   */
  readonly maxBufferedBytes?: number;
  /** `request.label` of enqueued sitemap URLs, so a router can tell them apart. Default: none. */
  readonly label?: string;
  /**
   * Back-pressure: the feeder waits while the crawler has more than this many requests pending
   * (1 to 1,000,000), so a 50,000-URL sitemap does not flood the queue ahead of the pages. Default: `1_000`.
   */
  readonly maxPendingRequests?: number;
  /**
   * Time to read one sitemap file, request to last byte, in milliseconds: 1 to 2,147,483,647 (a
   * Node.js timer's limit). Time spent waiting for room in the crawler's queue does not count. Default: `30_000`.
   */
  readonly timeoutMs?: number;
  /** Proxy sitemaps are fetched through, `http://user:pass@host:port`. Default: none (direct). */
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
   * Default: a new `RobotsManager({ userAgent, productToken })`, closed by `plugin.close()`.
   */
  readonly manager?: RobotsManagerLike;
  /** Check each redirect target before following it (HTTP and browser crawlers). Default: `true`. */
  readonly checkRedirects?: boolean;
  /**
   * Browser crawlers: abort sub-resource requests (scripts, images, XHR, frames) that robots.txt
   * disallows for this user-agent. Default: `false` (Google fetches page resources regardless).
   */
  readonly blockSubresources?: boolean;
  /** Read `Sitemap:` lines of each new origin's robots.txt into the queue; `false` turns it off. Default: `{}` (on). */
  readonly sitemaps?: SitemapOptions | false;
  /**
   * Honour `Crawl-delay`: consecutive fetches of one origin at least that far apart, other origins
   * unaffected. `false` ignores it. Default: `true`.
   */
  readonly crawlDelay?: boolean;
  /** Largest crawl-delay obeyed, in seconds (0 to 86,400, one day); larger values are cut to it. Default: `60`. */
  readonly maxCrawlDelaySecs?: number;
  /**
   * Read `<meta name="robots">`, `<meta name="<token>">` and `X-Robots-Tag`; `nofollow`/`none` keeps
   * the page's links out of the queue, and all directives are given to the request handler. Default: `true`.
   */
  readonly metaRobots?: boolean;
  /** Do not enqueue links marked `rel="nofollow"`. Default: `false` (Google treats it as a hint). */
  readonly honourRelNofollow?: boolean;
  /** Called for every URL the plugin keeps from being fetched or enqueued. Default: none. */
  readonly onSkip?: (event: SkipEvent) => void | Promise<void>;
  /** Log one summary line at the end of each `crawler.run()`. Default: `true`. */
  readonly logSummary?: boolean;
  /**
   * How many requests of a batch are looked ahead so that their origins' robots.txt are fetched in
   * parallel before the batch is checked: a whole number from 1 to 10,000. Default: `100`.
   */
  readonly prefetchBatchSize?: number;

  // ---- purposes: AI-usage preferences (issue 17) -----------------------------------------------

  /**
   * What the crawl is for, as usage categories: `'train-ai'` (training AI models), `'ai-input'`
   * (input to a model at answer time, RAG), `'search'` (a search index), `'ai-use'`. A URL whose
   * preference for any of them is `disallow` (robots.txt `Content-Usage`/`Content-Signal`, the
   * origin's `/.well-known/tdmrep.json` for `train-ai` and `ai-input`) is never fetched: skipped at
   * enqueue and before the fetch with reason `usage`. A fetched page whose response headers
   * (`Content-Usage`, `Content-Signal`, `tdm-reservation: 1`, `X-Robots-Tag: noai`) or meta tags
   * (`robots`/your token `noai`, `tdm-reservation`) say `disallow` never reaches the request
   * handler (a skip at stage `response`). Default: none — nothing of this is read, tdmrep.json is
   * never fetched, and the crawl is what it is without the option.
   */
  readonly purposes?: readonly string[];
  /**
   * What a declared purpose with no stated preference (`unknown`) means: `'allow'` (the drafts'
   * reading: no statement is no restriction) or `'disallow'` (only content whose owner said yes).
   * Judged once the response is in (its headers and meta tags may say yes): such a URL is fetched,
   * and a page still unknown is kept from the handler (a `usage` skip at stage `response`).
   * Default: `'allow'`.
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
  readonly label: string | undefined;
  readonly maxPendingRequests: number;
  readonly timeoutMs: number;
  readonly proxyUrl: string | undefined;
}

/** Plugin options with every default filled in. */
export interface ResolvedOptions {
  readonly userAgent: string;
  /** The product token (or frozen list of tokens) matched against robots.txt groups and meta tags. */
  readonly productToken: ProductTokens;
  readonly manager: RobotsManagerLike | undefined;
  readonly checkRedirects: boolean;
  readonly blockSubresources: boolean;
  readonly sitemaps: ResolvedSitemapOptions | false;
  readonly crawlDelay: boolean;
  readonly maxCrawlDelaySecs: number;
  readonly metaRobots: boolean;
  readonly honourRelNofollow: boolean;
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
  maxPendingRequests: 1_000,
  timeoutMs: 30_000,
};

export const DEFAULTS = {
  checkRedirects: true,
  blockSubresources: false,
  crawlDelay: true,
  maxCrawlDelaySecs: 60,
  metaRobots: true,
  honourRelNofollow: false,
  logSummary: true,
  prefetchBatchSize: 100,
} as const;

const PLUGIN_KEYS = new Set([
  'userAgent', 'productToken', 'manager', 'checkRedirects', 'blockSubresources', 'sitemaps', 'crawlDelay',
  'maxCrawlDelaySecs', 'metaRobots', 'honourRelNofollow', 'onSkip', 'logSummary', 'prefetchBatchSize', 'purposes', 'unknownUsage',
]);
const SITEMAP_KEYS = new Set([
  'enqueueStrategy', 'globs', 'regexps', 'filter', 'maxUrlsPerOrigin', 'maxBytes', 'maxDepth', 'maxFilesPerOrigin', 'label',
  'maxPendingRequests', 'timeoutMs', 'proxyUrl', 'maxTimePerOriginMs', 'maxConcurrentFetches', 'maxBufferedBytes',
]);
const STRATEGIES: readonly SitemapEnqueueStrategy[] = ['all', 'same-hostname', 'same-domain', 'same-origin'];

/** Checks `input` and fills in the defaults. Throws {@link InvalidOptionsError} naming the first fault. */
export function resolveOptions(input: unknown): ResolvedOptions {
  if (!isRecord(input)) {
    throw new InvalidOptionsError('options', `expected an object like { userAgent: 'MyBot/1.0 (+https://…)' }, got ${describe(input)}.`);
  }
  rejectUnknownKeys(input, PLUGIN_KEYS, '');
  const userAgent = input['userAgent'];
  // The manager's check: one rule for what a user-agent may be, whoever creates the manager.
  const identity = checkUserAgent(userAgent, input['productToken']);
  if (!identity.ok) throw new InvalidOptionsError(identity.option, identity.problem);
  if (typeof userAgent !== 'string') throw new InvalidOptionsError('userAgent', 'must be a string.');
  const manager = input['manager'];
  if (typeof manager === 'function') {
    throw new InvalidOptionsError('manager', `got the class ${manager.name || '(anonymous)'} itself; pass an instance, e.g. manager: new RobotsManager({ userAgent }).`);
  }
  if (manager !== undefined && !isManager(manager)) {
    throw new InvalidOptionsError('manager', 'expected a RobotsManager from @heed/manager (an object with check(), sitemaps(), crawlDelay(), prefetch() and close()).');
  }
  const purposes = resolvePurposes(input['purposes']);
  if (purposes.length > 0 && manager !== undefined && typeof (manager as { usage?: unknown }).usage !== 'function') {
    throw new InvalidOptionsError('manager', 'has no usage() method, which purposes needs; pass a RobotsManager from @heed/manager 0.2 or later.');
  }
  const unknownUsage = input['unknownUsage'] ?? 'allow';
  if (unknownUsage !== 'allow' && unknownUsage !== 'disallow') {
    throw new InvalidOptionsError('unknownUsage', `expected 'allow' or 'disallow', got ${describe(unknownUsage)}; the default is 'allow'.`);
  }
  const onSkip = input['onSkip'];
  if (onSkip !== undefined && typeof onSkip !== 'function') {
    throw new InvalidOptionsError('onSkip', `expected a function (event) => void, got ${describe(onSkip)}.`);
  }
  return {
    userAgent,
    productToken: identity.productToken,
    manager: manager as RobotsManagerLike | undefined,
    checkRedirects: bool(input, 'checkRedirects', DEFAULTS.checkRedirects),
    blockSubresources: bool(input, 'blockSubresources', DEFAULTS.blockSubresources),
    sitemaps: resolveSitemaps(input['sitemaps']),
    crawlDelay: bool(input, 'crawlDelay', DEFAULTS.crawlDelay),
    maxCrawlDelaySecs: bounded(input, 'maxCrawlDelaySecs', DEFAULTS.maxCrawlDelaySecs, { min: 0, max: MAX_CRAWL_DELAY_SECS, integer: false, unit: 'seconds', why: 'one day' }),
    metaRobots: bool(input, 'metaRobots', DEFAULTS.metaRobots),
    honourRelNofollow: bool(input, 'honourRelNofollow', DEFAULTS.honourRelNofollow),
    onSkip: onSkip as ResolvedOptions['onSkip'],
    logSummary: bool(input, 'logSummary', DEFAULTS.logSummary),
    prefetchBatchSize: bounded(input, 'prefetchBatchSize', DEFAULTS.prefetchBatchSize, { min: 1, max: 10_000, integer: true }),
    purposes,
    unknownUsage,
  };
}

/** `purposes`: a list of the usage categories Heed knows, each once. */
function resolvePurposes(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const known = USAGE_CATEGORIES as readonly string[];
  const example = `e.g. purposes: ['train-ai'] (known: ${known.map((c) => `'${c}'`).join(', ')})`;
  if (!Array.isArray(value)) throw new InvalidOptionsError('purposes', `expected an array of usage categories, ${example}; got ${describe(value)}.`);
  for (const purpose of value) {
    if (typeof purpose !== 'string' || !known.includes(purpose)) {
      const hint = typeof purpose === 'string' ? closest(purpose, new Set(known)) : undefined;
      throw new InvalidOptionsError('purposes', `${describe(purpose)} is not a usage category${hint ? `; did you mean '${hint}'?` : ''} Use ${example}.`);
    }
  }
  return Object.freeze([...new Set(value as string[])]);
}

function resolveSitemaps(value: unknown): ResolvedSitemapOptions | false {
  if (value === false) return false;
  if (value === undefined || value === true) return { ...SITEMAP_DEFAULTS, filter: undefined, label: undefined, proxyUrl: undefined };
  if (!isRecord(value)) {
    throw new InvalidOptionsError('sitemaps', `expected false (off) or an object of sitemap options, got ${describe(value)}.`);
  }
  rejectUnknownKeys(value, SITEMAP_KEYS, 'sitemaps.');
  const strategy = value['enqueueStrategy'] ?? SITEMAP_DEFAULTS.enqueueStrategy;
  if (!STRATEGIES.includes(strategy as SitemapEnqueueStrategy)) {
    throw new InvalidOptionsError('sitemaps.enqueueStrategy', `expected one of ${STRATEGIES.map((s) => `'${s}'`).join(', ')}, got ${describe(strategy)}.`);
  }
  const globs = value['globs'] ?? [];
  if (!Array.isArray(globs) || !globs.every((g) => typeof g === 'string' && g !== '')) {
    throw new InvalidOptionsError('sitemaps.globs', 'expected an array of non-empty glob strings, e.g. [\'https://example.com/blog/**\'].');
  }
  const regexps = value['regexps'] ?? [];
  if (!Array.isArray(regexps) || !regexps.every((r) => r instanceof RegExp)) {
    throw new InvalidOptionsError('sitemaps.regexps', 'expected an array of RegExp objects, e.g. [/\\/blog\\//].');
  }
  const filter = value['filter'];
  if (filter !== undefined && typeof filter !== 'function') {
    throw new InvalidOptionsError('sitemaps.filter', `expected a function (url, sitemapUrl) => boolean, got ${describe(filter)}.`);
  }
  const label = value['label'];
  if (label !== undefined && (typeof label !== 'string' || label === '')) {
    throw new InvalidOptionsError('sitemaps.label', `expected a non-empty string your router handles, got ${describe(label)}.`);
  }
  const proxyUrl = value['proxyUrl'];
  if (proxyUrl !== undefined && (typeof proxyUrl !== 'string' || !/^(https?|socks[45]?):\/\/[^/]/i.test(proxyUrl))) {
    throw new InvalidOptionsError('sitemaps.proxyUrl', `expected a proxy URL like 'http://user:pass@proxy.example:8000', got ${describe(proxyUrl)}.`);
  }
  return {
    enqueueStrategy: strategy as SitemapEnqueueStrategy,
    proxyUrl: proxyUrl as string | undefined,
    globs: globs as string[],
    regexps: regexps as RegExp[],
    filter: filter as ResolvedSitemapOptions['filter'],
    label: label as string | undefined,
    maxUrlsPerOrigin: sitemapInteger(value, 'maxUrlsPerOrigin', 0, 100_000_000),
    maxBytes: sitemapInteger(value, 'maxBytes', 0, 1_073_741_824),
    maxDepth: sitemapInteger(value, 'maxDepth', 0, 10),
    maxFilesPerOrigin: sitemapInteger(value, 'maxFilesPerOrigin', 0, 100_000),
    maxTimePerOriginMs: sitemapInteger(value, 'maxTimePerOriginMs', 1, MAX_TIMER_MS),
    maxConcurrentFetches: sitemapInteger(value, 'maxConcurrentFetches', 1, 64),
    maxBufferedBytes: sitemapInteger(value, 'maxBufferedBytes', 65_536, 1_073_741_824),
    maxPendingRequests: sitemapInteger(value, 'maxPendingRequests', 1, 1_000_000),
    timeoutMs: sitemapInteger(value, 'timeoutMs', 1, MAX_TIMER_MS),
  };
}

type SitemapNumberKey = { [K in keyof typeof SITEMAP_DEFAULTS]: (typeof SITEMAP_DEFAULTS)[K] extends number ? K : never }[keyof typeof SITEMAP_DEFAULTS];

/**
 * A whole-number sitemap option from `min` to `max`: every bound is finite, and no time exceeds
 * what a Node.js timer can wait (a longer one would fire after 1 ms).
 */
function sitemapInteger(value: Record<string, unknown>, key: SitemapNumberKey, min: number, max: number): number {
  const v = value[key];
  const fallback = SITEMAP_DEFAULTS[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    const expected =
      max === MAX_TIMER_MS
        ? `a whole number of milliseconds from ${min} to ${max} (a Node.js timer's longest wait; default ${fallback})`
        : `a whole number ≥ ${min} and ≤ ${max}${key.endsWith('Bytes') || key === 'maxBytes' ? ' (bytes)' : ''} (default ${fallback})`;
    throw new InvalidOptionsError(`sitemaps.${key}`, `expected ${expected}, got ${describe(v)}.`);
  }
  return v;
}

function rejectUnknownKeys(value: Record<string, unknown>, known: ReadonlySet<string>, prefix: string): void {
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const hint = closest(key, known);
    throw new InvalidOptionsError(
      `${prefix}${key}`,
      `unknown option${hint ? `; did you mean "${prefix}${hint}"?` : ''} Known options: ${[...known].join(', ')}.`,
    );
  }
}

function bool(value: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const v = value[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new InvalidOptionsError(key, `expected true or false, got ${describe(v)}.`);
  return v;
}

/**
 * The longest crawl-delay obeyed. Each deferred request waits in a Node.js timer, and requests of
 * one origin wait in turn: a day keeps a long queue's waits far below the timer's 24.8-day limit
 * (past it a timer fires at once, a re-queue loop instead of a wait).
 */
const MAX_CRAWL_DELAY_SECS = 86_400;

/**
 * A number option within `[min, max]` (whole when `integer`), or the default when absent. NaN,
 * Infinity, out-of-range values and non-numbers fail naming the option and the allowed range.
 */
function bounded(value: Record<string, unknown>, key: string, fallback: number, range: { min: number; max: number; integer: boolean; unit?: string; why?: string }): number {
  const v = value[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < range.min || v > range.max || (range.integer && !Number.isInteger(v))) {
    const format = (n: number) => n.toLocaleString('en-US');
    throw new InvalidOptionsError(
      key,
      `expected ${range.integer ? 'a whole number' : 'a number'}${range.unit === undefined ? '' : ` of ${range.unit}`} from ${format(range.min)} to ${format(range.max)}${range.why === undefined ? '' : ` (${range.why})`}, got ${describe(v)}; the default is ${format(fallback)}.`,
    );
  }
  return v;
}

function count(value: Record<string, unknown>, key: string, fallback: number, prefix: string, integer: boolean): number {
  const v = value[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0 || (integer && !Number.isInteger(v) && v !== Infinity)) {
    throw new InvalidOptionsError(
      `${prefix}${key}`,
      `expected a ${integer ? 'whole ' : ''}number ≥ 0 (default ${fallback}), got ${describe(v)}.`,
    );
  }
  return v;
}

/** The longest a Node.js timer waits; a longer (or infinite) timeout fires after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;

function timeout(value: Record<string, unknown>, key: string, fallback: number, prefix: string): number {
  const v = value[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_TIMER_MS) {
    throw new InvalidOptionsError(
      `${prefix}${key}`,
      `expected a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (a Node.js timer's longest wait; default ${fallback}), got ${describe(v)}.`,
    );
  }
  return v;
}

function isManager(value: unknown): value is RobotsManagerLike {
  if (!isRecord(value)) return false;
  return ['check', 'sitemaps', 'crawlDelay', 'prefetch', 'close'].every((m) => typeof value[m] === 'function');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** The known key within edit distance 2 of `key`, to suggest a fix for a typo. */
function closest(key: string, known: ReadonlySet<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
