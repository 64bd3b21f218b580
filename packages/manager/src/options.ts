/**
 * `RobotsManager` options: declared with their defaults, and checked in one place. A wrong option
 * fails at construction with an `InvalidOptionsError` that names it and says what it expects; an
 * unknown option name (a typo) is an error too rather than silently ignored.
 */
import { InvalidParseOptionsError, parseRobotsTxt, productToken as tokenOf, type ParseOptions, type ProductTokens } from '@heed/parser';
import type { Log, RobotsStore } from './cache/store.js';
import { memoryBound } from './cache/sizes.js';
import { InvalidOptionsError } from './errors.js';
import { FETCH_DEFAULTS } from './fetch.js';
import { POLICY_DEFAULTS, type StatusPolicyOptions } from './policy.js';

/** Options of `new RobotsManager(options)`. Only `userAgent` is required. */
export interface RobotsManagerOptions {
  /**
   * The full `User-Agent` header sent when fetching robots.txt, e.g. `'HeedBot/1.0 (+https://example.com/bot)'`,
   * at most 512 bytes. Its product token, the leading run of letters, `-` and `_` (`HeedBot`), is what
   * the rules are matched against unless a call names another. A header that starts like a browser's
   * (`Mozilla/5.0 (compatible; MyBot/1.0)`) is refused unless `productToken` names the bot's token:
   * no robots.txt group is written for `Mozilla`. Required.
   */
  readonly userAgent: string;
  /**
   * The product token matched against robots.txt groups, when it is not the first token of
   * `userAgent`: `'MyBot'` for `'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)'`.
   * Or a list, for a crawler known by several tokens: `['MyBot-News', 'MyBot']` reads as
   * google/robotstxt does with several user agents: the groups of every listed token that a group
   * names apply together (merged), the `*` groups only when none is named. Each token: letters, `-`
   * and `_` only, and it must appear in `userAgent` (site owners write the token they see in their
   * logs); a list holds 1 to {@link MAX_PRODUCT_TOKENS} tokens. Calls that name no token use it.
   * @default the product token of `userAgent` (`'MyBot'` for `'MyBot/1.0 (+https://example.com/bot)'`)
   */
  readonly productToken?: ProductTokens;
  /** Where records are kept: `MemoryStore`, `KeyValueStoreStore`, `RedisStore` or your own. Default: `new MemoryStore()`. */
  readonly store?: RobotsStore;
  /** robots.txt fetches in flight at most, over all origins: a whole number from 1 to 10,000. Default: 20. */
  readonly concurrency?: number;
  /** Milliseconds to wait for a connection, from 1 to 2,147,483,647 (a Node.js timer's limit). Default: 10,000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds for a whole fetch: all redirect hops and the body; from 1 to 2,147,483,647 (a Node.js timer's limit). Default: 30,000. */
  readonly timeoutMs?: number;
  /** Proxy to fetch robots.txt through, `http://user:pass@host:port`. Default: none (direct). */
  readonly proxyUrl?: string;
  /**
   * Bytes of a robots.txt read at most (after decompression); the rest is ignored. A whole number
   * from 1 to 8,388,608 (8 MiB, the most the parser reads). Default: 512,000 (500 KiB).
   */
  readonly maxBytes?: number;
  /** Redirect hops followed at most (0 to 100); beyond that robots.txt counts as unavailable. Default: 5. */
  readonly maxRedirects?: number;
  /** Cache time of a robots.txt or a 4xx without `Cache-Control: max-age`, at most 365 days. Default: 86,400,000 (24 h). */
  readonly defaultTtlMs?: number;
  /** Shortest cache time honoured from `max-age` (also for `no-cache`/`no-store`), at most 365 days. Default: 300,000 (5 min). */
  readonly minTtlMs?: number;
  /** Longest cache time honoured from `max-age`, at most 365 days. Default: 86,400,000 (24 h, RFC 9309 §2.4). */
  readonly maxTtlMs?: number;
  /** Retry interval after the first 5xx/429/network failure, doubled per further failure; at most 365 days. Default: 60,000 (1 min). */
  readonly retryBaseMs?: number;
  /** Longest retry interval; `Retry-After` is honoured up to it. At most 365 days. Default: 3,600,000 (1 h). */
  readonly retryMaxMs?: number;
  /**
   * After this long unreachable with no good copy, all URLs of the origin are allowed (Google's
   * rule). At most 3,650 days; `Infinity` keeps disallowing. Default: 2,592,000,000 (30 days).
   */
  readonly unreachableAllowAfterMs?: number;
  /**
   * Parsed robots.txt files kept in this process at most, least recently used evicted first
   * (`maxCacheBytes` usually binds first). An evicted origin is parsed again from the store, not
   * fetched again, while the store still holds its record.
   * @default 10_000
   */
  readonly cacheSize?: number;
  /**
   * Bytes of memory the parsed robots.txt files kept in this process may take, least recently used
   * evicted first: each origin is counted for its raw record plus an upper estimate of its parsed,
   * compiled rules (about 40 KB for a typical 2 KB file, 5.7 MB for a 500 KiB one of 10,000 rules,
   * up to about 20 MB for a hostile 500 KiB one). At least 1 MiB, at most the process's heap limit. A file counted larger than the whole
   * bound is used for the check at hand but not kept (it is parsed again from the store next time).
   * @default 67_108_864 (64 MiB)
   */
  readonly maxCacheBytes?: number;
  /**
   * How long a cross-process fetch lock lives when its holder dies without releasing it, from 1 to
   * 2,147,483,647 ms. Default: `timeoutMs` + 10,000.
   */
  readonly lockTtlMs?: number;
  /** Options for the parser (`decodeUnreservedEscapes`, `implicitRobotsTxtAllow`, ...). Default: Google's reading. */
  readonly parseOptions?: ParseOptions;
  /** Where the manager reports fetches (debug) and trouble (warning); Crawlee's `log` fits. Default: warnings and errors to the console. */
  readonly log?: Log;
  /** The clock, in ms since the epoch, for tests and simulations. Default: `Date.now`. */
  readonly now?: () => number;
}

/** The options with every default filled in. */
export interface ResolvedOptions extends StatusPolicyOptions {
  readonly userAgent: string;
  /** One token, or a frozen list of 1 to {@link MAX_PRODUCT_TOKENS}. */
  readonly productToken: ProductTokens;
  readonly store: RobotsStore | undefined;
  readonly concurrency: number;
  readonly connectTimeoutMs: number;
  readonly timeoutMs: number;
  readonly proxyUrl: string | undefined;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly cacheSize: number;
  readonly maxCacheBytes: number;
  readonly lockTtlMs: number;
  readonly parseOptions: ParseOptions | undefined;
  readonly log: Log | undefined;
  readonly now: () => number;
}

/** Default of `maxCacheBytes`: 64 MiB, about 1,600 typical origins or 11 of 500 KiB. */
export const DEFAULT_MAX_CACHE_BYTES = 64 * 1024 * 1024;

const KNOWN = new Set<string>([
  'userAgent', 'productToken', 'store', 'concurrency', 'connectTimeoutMs', 'timeoutMs', 'proxyUrl', 'maxBytes', 'maxRedirects',
  'defaultTtlMs', 'minTtlMs', 'maxTtlMs', 'retryBaseMs', 'retryMaxMs', 'unreachableAllowAfterMs', 'cacheSize',
  'maxCacheBytes', 'lockTtlMs', 'parseOptions', 'log', 'now',
]);

/** Checks `options` and fills in the defaults. Throws `InvalidOptionsError`. */
export function resolveOptions(options: RobotsManagerOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError('options', 'pass an options object, e.g. new RobotsManager({ userAgent: "MyBot/1.0" }).');
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) {
      throw new InvalidOptionsError(key, `unknown option; the options are ${[...KNOWN].join(', ')}.`);
    }
  }
  const { userAgent } = options;
  const identity = checkUserAgent(userAgent, options.productToken);
  if (!identity.ok) throw new InvalidOptionsError(identity.option, identity.problem);
  const token = identity.productToken;

  const store = options.store;
  if (store !== undefined) checkStore(store);
  if (options.proxyUrl !== undefined) {
    let ok = false;
    try {
      ok = typeof options.proxyUrl === 'string' && /^https?:$/.test(new URL(options.proxyUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new InvalidOptionsError('proxyUrl', 'expected an http:// or https:// proxy URL, e.g. "http://user:pass@proxy:8000".');
  }
  if (options.log !== undefined) {
    const log = options.log as Partial<Log> | null;
    if (typeof log !== 'object' || log === null || (['debug', 'info', 'warning', 'error'] as const).some((m) => typeof log[m] !== 'function')) {
      throw new InvalidOptionsError('log', 'expected a logger with debug, info, warning and error methods (Crawlee\'s log fits).');
    }
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new InvalidOptionsError('now', 'expected a function returning milliseconds since the epoch.');
  }
  if (options.parseOptions !== undefined && (typeof options.parseOptions !== 'object' || options.parseOptions === null)) {
    throw new InvalidOptionsError('parseOptions', 'expected the parser options object, e.g. { implicitRobotsTxtAllow: true }.');
  }
  if (options.parseOptions !== undefined) {
    // The parser checks its options when it parses: try them now, not at the first robots.txt.
    try {
      parseRobotsTxt('', options.parseOptions);
    } catch (error) {
      if (!(error instanceof InvalidParseOptionsError)) throw error;
      throw new InvalidOptionsError('parseOptions', error.message.replace(/\.?$/, '.'));
    }
  }

  const timeoutMs = timer(options, 'timeoutMs', FETCH_DEFAULTS.timeoutMs);
  const resolved: ResolvedOptions = {
    userAgent,
    productToken: token,
    store,
    concurrency: whole(options, 'concurrency', 20, 1, 10_000),
    connectTimeoutMs: timer(options, 'connectTimeoutMs', FETCH_DEFAULTS.connectTimeoutMs),
    timeoutMs,
    proxyUrl: options.proxyUrl,
    maxBytes: whole(options, 'maxBytes', FETCH_DEFAULTS.maxBytes, 1, MAX_BODY_BYTES),
    maxRedirects: whole(options, 'maxRedirects', FETCH_DEFAULTS.maxRedirects, 0, 100),
    defaultTtlMs: duration(options, 'defaultTtlMs', POLICY_DEFAULTS.defaultTtlMs, YEAR_MS),
    minTtlMs: duration(options, 'minTtlMs', POLICY_DEFAULTS.minTtlMs, YEAR_MS),
    maxTtlMs: duration(options, 'maxTtlMs', POLICY_DEFAULTS.maxTtlMs, YEAR_MS),
    retryBaseMs: duration(options, 'retryBaseMs', POLICY_DEFAULTS.retryBaseMs, YEAR_MS),
    retryMaxMs: duration(options, 'retryMaxMs', POLICY_DEFAULTS.retryMaxMs, YEAR_MS),
    unreachableAllowAfterMs: duration(options, 'unreachableAllowAfterMs', POLICY_DEFAULTS.unreachableAllowAfterMs, 10 * YEAR_MS, true),
    cacheSize: whole(options, 'cacheSize', 10_000, 1),
    maxCacheBytes: memoryBound('maxCacheBytes', options.maxCacheBytes, DEFAULT_MAX_CACHE_BYTES),
    lockTtlMs: timer(options, 'lockTtlMs', Math.min(timeoutMs + 10_000, MAX_TIMER_MS)),
    parseOptions: options.parseOptions,
    log: options.log,
    now: options.now ?? Date.now,
  };
  if (resolved.minTtlMs > resolved.maxTtlMs) {
    throw new InvalidOptionsError('minTtlMs', `is ${resolved.minTtlMs}, above maxTtlMs (${resolved.maxTtlMs}); make minTtlMs <= maxTtlMs.`);
  }
  if (resolved.retryBaseMs > resolved.retryMaxMs) {
    throw new InvalidOptionsError('retryBaseMs', `is ${resolved.retryBaseMs}, above retryMaxMs (${resolved.retryMaxMs}); make retryBaseMs <= retryMaxMs.`);
  }
  return resolved;
}

type NumberOption = { [K in keyof RobotsManagerOptions]-?: RobotsManagerOptions[K] extends number | undefined ? K : never }[keyof RobotsManagerOptions];

/**
 * The longest `userAgent` accepted, in bytes. Servers refuse longer request headers (HTTP 431, or
 * 400 at around 8 KB), and a robots.txt answered with a 4xx counts as unavailable: everything
 * allowed. Real crawler headers are under 300 bytes.
 */
export const MAX_USER_AGENT_BYTES = 512;

/**
 * First tokens of browser user-agents. A crawler whose header starts with one would be matched
 * against groups for `Mozilla` or `Chrome`, which no site writes for a bot: its own group (`User-agent:
 * MyBot`) would be ignored.
 */
const BROWSER_TOKENS = new Set(['mozilla', 'opera', 'chrome', 'chromium', 'safari', 'applewebkit', 'webkit', 'gecko', 'khtml', 'firefox', 'edge', 'edg', 'msie', 'trident', 'presto', 'version', 'mobile']);

const TOKEN_ONLY = /^[A-Za-z_-]+$/;

/** A crawler's `userAgent` (and `productToken`) checked: the token(s) groups are matched by, or what is wrong and with which option. */
export type UserAgentCheck =
  | { readonly ok: true; readonly productToken: ProductTokens }
  | { readonly ok: false; readonly option: 'userAgent' | 'productToken'; readonly problem: string };

/**
 * The most product tokens a list may hold: a crawler is known by a few (google/robotstxt's callers
 * pass two or three); the parser reads no more than this many of a list.
 */
export const MAX_PRODUCT_TOKENS = 16;

/**
 * What is wrong with a `productToken` value (one token or a list of tokens), or `undefined` when
 * nothing is: each token is letters, `-` and `_` only (`'MyBot'`, not the header `'MyBot/1.0'`), a
 * list holds 1 to {@link MAX_PRODUCT_TOKENS} of them. Whether they appear in the crawler's header
 * is {@link checkUserAgent}'s concern: a call may ask for another crawler's verdict.
 */
export function productTokenProblem(productToken: unknown): string | undefined {
  const example = 'e.g. "MyBot", or a list such as ["MyBot-News", "MyBot"]';
  if (Array.isArray(productToken)) {
    if (productToken.length === 0) return `got an empty list, which names no token; pass at least one, ${example}, or leave productToken out for the token of userAgent.`;
    if (productToken.length > MAX_PRODUCT_TOKENS) return `got a list of ${productToken.length} tokens; at most ${MAX_PRODUCT_TOKENS} are read: keep the ones site owners write groups for.`;
    for (const [i, token] of productToken.entries()) {
      const problem = singleTokenProblem(token, example);
      if (problem !== undefined) return `item ${i}: ${problem}`;
    }
    return undefined;
  }
  return singleTokenProblem(productToken, example);
}

function singleTokenProblem(token: unknown, example: string): string | undefined {
  if (typeof token === 'string' && TOKEN_ONLY.test(token) && token.length <= MAX_USER_AGENT_BYTES) return undefined;
  const header = typeof token === 'string' ? tokenOf(token) : '';
  const hint = header !== '' && header !== token ? ` (a User-Agent header? Its product token is "${header}")` : '';
  return `expected your bot's product token: letters, "-" and "_" only, ${example}; got ${typeof token === 'string' ? JSON.stringify(token.slice(0, 60)) : Array.isArray(token) ? 'a nested array' : token === null ? 'null' : typeof token}${hint}.`;
}

/** A list's tokens as given, frozen (so a caller's later change cannot reach the verdicts); one token as is. */
export function freezeTokens(productToken: ProductTokens): ProductTokens {
  return typeof productToken === 'string' ? productToken : Object.freeze([...productToken]);
}

/**
 * Checks a crawler's `User-Agent` header and derives the product token its robots.txt groups are
 * matched by (RFC 9309 §2.2.1: the leading `[A-Za-z_-]` run), or takes `productToken` (one token or a
 * list, see {@link productTokenProblem}) when the caller names it; each named token must appear in
 * the header. The header must be a non-empty string Node.js can send, at most
 * {@link MAX_USER_AGENT_BYTES} bytes; a header starting with a browser's token (`Mozilla/5.0 …`)
 * needs `productToken`. `RobotsManager`, `RobotsPlugin.attach()` and the `heed` command line all
 * check with this one function, when they are created, so a bad header fails there and not as a
 * fetch per origin (which would disallow, or allow, every URL of the crawl).
 */
export function checkUserAgent(userAgent: unknown, productToken?: unknown): UserAgentCheck {
  const fail = (option: 'userAgent' | 'productToken', problem: string): UserAgentCheck => ({ ok: false, option, problem });
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    const got = userAgent === undefined ? 'nothing' : Array.isArray(userAgent) ? 'an array' : typeof userAgent === 'string' ? 'only white space' : typeof userAgent === 'object' ? `an ${typeof userAgent}` : `${typeof userAgent} ${String(userAgent)}`;
    return fail('userAgent', `required: your crawler's User-Agent header, e.g. "MyBot/1.0 (+https://example.com/bot)"; got ${got}.`);
  }
  // Node.js sends a header string as Latin-1, one byte per character (others are refused below).
  if (userAgent.length > MAX_USER_AGENT_BYTES) {
    return fail('userAgent', `is ${userAgent.length.toLocaleString('en-US')} bytes long, over the ${MAX_USER_AGENT_BYTES}-byte limit: servers refuse long headers (HTTP 431), and a robots.txt refused with a 4xx counts as unavailable, so everything would be allowed. Send a short header, e.g. "MyBot/1.0 (+https://example.com/bot)".`);
  }
  if (/[\r\n\0]/.test(userAgent)) return fail('userAgent', 'contains a line break or NUL, which cannot be sent in an HTTP header; remove it.');
  const unsendable = /[^\t\x20-\x7e\x80-\xff]/u.exec(userAgent);
  if (unsendable !== null) {
    return fail('userAgent', `contains ${JSON.stringify(unsendable[0])}, which cannot be sent in an HTTP header (control characters and characters beyond Latin-1 cannot); use printable ASCII, e.g. "MyBot/1.0 (+https://example.com/bot)".`);
  }
  if (productToken !== undefined) {
    const problem = productTokenProblem(productToken);
    if (problem !== undefined) return fail('productToken', problem);
    const tokens = productToken as ProductTokens;
    for (const token of typeof tokens === 'string' ? [tokens] : tokens) {
      if (!userAgent.toLowerCase().includes(token.toLowerCase())) {
        return fail('productToken', `"${token}" does not appear in userAgent "${userAgent}": site owners write the token they see in their logs; put it in the header, e.g. "Mozilla/5.0 (compatible; ${token}/1.0; +https://example.com/bot)".`);
      }
    }
    return { ok: true, productToken: freezeTokens(tokens) };
  }
  const first = tokenOf(userAgent);
  if (first === '') {
    return fail('userAgent', `"${userAgent}" does not start with a product token (letters, "-" and "_", e.g. "MyBot/1.0"), so no robots.txt group could name it; start the header with your bot's token, or name it with the productToken option.`);
  }
  if (BROWSER_TOKENS.has(first.toLowerCase())) {
    const candidate = botTokenIn(userAgent) ?? 'MyBot';
    return fail('userAgent', `"${userAgent.length > 80 ? `${userAgent.slice(0, 80)}…` : userAgent}" starts with the browser token "${first}", so robots.txt groups would be matched for "${first}" and a "User-agent: ${candidate}" group ignored. Name your bot's token: productToken: "${candidate}" (or start the header with it, e.g. "${candidate}/1.0 (+https://example.com/bot)").`);
  }
  return { ok: true, productToken: first };
}

/** The first `Name/version` token of a header that is not a browser's: the likely bot token. */
function botTokenIn(userAgent: string): string | undefined {
  for (const match of userAgent.matchAll(/([A-Za-z_-]+)\/\d/g)) {
    const name = match[1] as string;
    if (!BROWSER_TOKENS.has(name.toLowerCase())) return name;
  }
  return undefined;
}

/** The longest a Node.js timer waits; a longer delay fires after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The most bytes of a body the parser reads (its `maxBytes` limit): reading more could not change a verdict. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A number option within `[min, max]` (whole when `integer`), or the default when absent. NaN,
 * Infinity (unless `allowInfinity`), out-of-range values and non-numbers fail naming the option and
 * the range, so a value nothing could honour never reaches a timer or a date.
 */
function bounded(options: RobotsManagerOptions, name: NumberOption, fallback: number, range: { min: number; max: number; integer: boolean; unit?: string; why?: string; allowInfinity?: boolean }): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (range.allowInfinity === true && value === Infinity) return value;
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max && (!range.integer || Number.isInteger(value));
  if (!ok) {
    const what = `${range.integer ? 'a whole number' : 'a number'}${range.unit === undefined ? '' : ` of ${range.unit}`}`;
    const format = (n: number) => n.toLocaleString('en-US');
    throw new InvalidOptionsError(
      name,
      `expected ${what} from ${format(range.min)} to ${format(range.max)}${range.why === undefined ? '' : ` (${range.why})`}${range.allowInfinity === true ? ', or Infinity' : ''}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}; the default is ${format(fallback)}.`,
    );
  }
  return value as number;
}

/** A positive duration compared with clock times (a cache time, a retry interval), at most `max` ms. */
function duration(options: RobotsManagerOptions, name: NumberOption, fallback: number, max: number, allowInfinity = false): number {
  return bounded(options, name, fallback, { min: 1, max, integer: false, unit: 'milliseconds', allowInfinity });
}

/** A positive duration that is set as a timer, so at most {@link MAX_TIMER_MS}. */
function timer(options: RobotsManagerOptions, name: NumberOption, fallback: number): number {
  return bounded(options, name, fallback, { min: 1, max: MAX_TIMER_MS, integer: false, unit: 'milliseconds', why: 'the longest a Node.js timer waits, about 24.8 days' });
}

function whole(options: RobotsManagerOptions, name: NumberOption, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return bounded(options, name, fallback, { min, max, integer: true });
}

/** A store is an object with get/set/delete; say what to pass instead for the likely mix-ups. */
function checkStore(store: unknown): void {
  const candidate = store as Record<string, unknown> | null;
  if (typeof store === 'function') {
    throw new InvalidOptionsError('store', `got the class ${store.name || '(anonymous)'} itself; pass an instance, e.g. store: new ${store.name || 'MemoryStore'}().`);
  }
  if (typeof candidate !== 'object' || candidate === null) {
    throw new InvalidOptionsError('store', `expected a RobotsStore (MemoryStore, KeyValueStoreStore, RedisStore, or an object with get/set/delete), got ${candidate === null ? 'null' : typeof candidate}.`);
  }
  if (typeof candidate.getValue === 'function' && typeof candidate.setValue === 'function') {
    throw new InvalidOptionsError('store', 'got a Crawlee KeyValueStore; wrap it: store: new KeyValueStoreStore({ store: yourKeyValueStore }).');
  }
  if (typeof candidate.call === 'function' && typeof candidate.status === 'string') {
    throw new InvalidOptionsError('store', 'got a Redis client; wrap it: store: new RedisStore({ client: yourRedisClient }).');
  }
  const missing = ['get', 'set', 'delete'].filter((method) => typeof candidate[method] !== 'function');
  if (missing.length > 0) {
    throw new InvalidOptionsError('store', `expected a RobotsStore (MemoryStore, KeyValueStoreStore, RedisStore, or an object with get/set/delete); this one has no ${missing.join('/')} method.`);
  }
  const wrong = ['lock', 'close'].filter((method) => candidate[method] !== undefined && typeof candidate[method] !== 'function');
  if (wrong.length > 0) {
    throw new InvalidOptionsError('store', `its ${wrong.join(' and ')} must be ${wrong.length > 1 ? 'methods' : 'a method'} when present; remove ${wrong.length > 1 ? 'them' : 'it'} or make ${wrong.length > 1 ? 'them functions' : 'it a function'}.`);
  }
}
