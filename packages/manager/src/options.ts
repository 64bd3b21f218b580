/**
 * `RobotsManager` options: declared with their defaults, and checked in one place. A wrong option
 * fails at construction with an `InvalidOptionsError` that names it and says what it expects; an
 * unknown option name (a typo) is an error too rather than silently ignored.
 */
import { InvalidParseOptionsError, parseRobotsTxt, productToken, type ParseOptions } from '@heed/parser';
import type { Log, RobotsStore } from './cache/store.js';
import { memoryBound } from './cache/sizes.js';
import { InvalidOptionsError } from './errors.js';
import { FETCH_DEFAULTS } from './fetch.js';
import { POLICY_DEFAULTS, type StatusPolicyOptions } from './policy.js';

/** Options of `new RobotsManager(options)`. Only `userAgent` is required. */
export interface RobotsManagerOptions {
  /**
   * The full `User-Agent` header sent when fetching robots.txt, e.g. `'HeedBot/1.0 (+https://example.com/bot)'`.
   * Its product token (`HeedBot`) is what the rules are matched against unless a call names another.
   * Required.
   */
  readonly userAgent: string;
  /** Where records are kept: `MemoryStore`, `KeyValueStoreStore`, `RedisStore` or your own. Default: `new MemoryStore()`. */
  readonly store?: RobotsStore;
  /** robots.txt fetches in flight at most, over all origins. Default: 20. */
  readonly concurrency?: number;
  /** Milliseconds to wait for a connection, at most 2,147,483,647 (a Node.js timer's limit). Default: 10,000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds for a whole fetch: all redirect hops and the body; at most 2,147,483,647 (a Node.js timer's limit). Default: 30,000. */
  readonly timeoutMs?: number;
  /** Proxy to fetch robots.txt through, `http://user:pass@host:port`. Default: none (direct). */
  readonly proxyUrl?: string;
  /** Bytes of a robots.txt read at most (after decompression); the rest is ignored. Default: 512,000 (500 KiB). */
  readonly maxBytes?: number;
  /** Redirect hops followed at most; beyond that robots.txt counts as unavailable. Default: 5. */
  readonly maxRedirects?: number;
  /** Cache time of a robots.txt or a 4xx without `Cache-Control: max-age`. Default: 86,400,000 (24 h). */
  readonly defaultTtlMs?: number;
  /** Shortest cache time honoured from `max-age` (also for `no-cache`/`no-store`). Default: 300,000 (5 min). */
  readonly minTtlMs?: number;
  /** Longest cache time honoured from `max-age`. Default: 86,400,000 (24 h, RFC 9309 §2.4). */
  readonly maxTtlMs?: number;
  /** Retry interval after the first 5xx/429/network failure, doubled per further failure. Default: 60,000 (1 min). */
  readonly retryBaseMs?: number;
  /** Longest retry interval; `Retry-After` is honoured up to it. Default: 3,600,000 (1 h). */
  readonly retryMaxMs?: number;
  /**
   * After this long unreachable with no good copy, all URLs of the origin are allowed (Google's
   * rule). `Infinity` keeps disallowing. Default: 2,592,000,000 (30 days).
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
   * How long a cross-process fetch lock lives when its holder dies without releasing it.
   * Default: `timeoutMs` + 10,000.
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
  readonly productToken: string;
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
  'userAgent', 'store', 'concurrency', 'connectTimeoutMs', 'timeoutMs', 'proxyUrl', 'maxBytes', 'maxRedirects',
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
  const problem = userAgentProblem(userAgent);
  if (problem !== undefined) throw new InvalidOptionsError('userAgent', problem);
  const token = productToken(userAgent);

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
    concurrency: whole(options, 'concurrency', 20, 1),
    connectTimeoutMs: timer(options, 'connectTimeoutMs', FETCH_DEFAULTS.connectTimeoutMs),
    timeoutMs,
    proxyUrl: options.proxyUrl,
    maxBytes: whole(options, 'maxBytes', FETCH_DEFAULTS.maxBytes, 1),
    maxRedirects: whole(options, 'maxRedirects', FETCH_DEFAULTS.maxRedirects, 0),
    defaultTtlMs: positive(options, 'defaultTtlMs', POLICY_DEFAULTS.defaultTtlMs),
    minTtlMs: positive(options, 'minTtlMs', POLICY_DEFAULTS.minTtlMs),
    maxTtlMs: positive(options, 'maxTtlMs', POLICY_DEFAULTS.maxTtlMs),
    retryBaseMs: positive(options, 'retryBaseMs', POLICY_DEFAULTS.retryBaseMs),
    retryMaxMs: positive(options, 'retryMaxMs', POLICY_DEFAULTS.retryMaxMs),
    unreachableAllowAfterMs: positive(options, 'unreachableAllowAfterMs', POLICY_DEFAULTS.unreachableAllowAfterMs, true),
    cacheSize: whole(options, 'cacheSize', 10_000, 1),
    maxCacheBytes: memoryBound('maxCacheBytes', options.maxCacheBytes, DEFAULT_MAX_CACHE_BYTES),
    lockTtlMs: positive(options, 'lockTtlMs', timeoutMs + 10_000),
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
 * What is wrong with a crawler's User-Agent header, or undefined when it can be used: it must be a
 * non-empty string Node.js can send as a header, starting with a product token. Checked when a
 * manager or plugin is created, so a bad one fails there and not as a failed fetch per origin (which
 * would disallow every URL of the crawl).
 */
export function userAgentProblem(userAgent: unknown): string | undefined {
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    const got = userAgent === undefined ? 'nothing' : Array.isArray(userAgent) ? 'an array' : typeof userAgent === 'string' ? 'only white space' : typeof userAgent === 'object' ? `an ${typeof userAgent}` : `${typeof userAgent} ${String(userAgent)}`;
    return `required: your crawler's User-Agent header, e.g. "MyBot/1.0 (+https://example.com/bot)"; got ${got}.`;
  }
  if (/[\r\n\0]/.test(userAgent)) return 'contains a line break or NUL, which cannot be sent in an HTTP header; remove it.';
  const unsendable = /[^\t\x20-\x7e\x80-\xff]/u.exec(userAgent);
  if (unsendable !== null) {
    return `contains ${JSON.stringify(unsendable[0])}, which cannot be sent in an HTTP header (control characters and characters beyond Latin-1 cannot); use printable ASCII, e.g. "MyBot/1.0 (+https://example.com/bot)".`;
  }
  if (productToken(userAgent) === '') {
    return `"${userAgent}" does not start with a product token (letters, "-" and "_", e.g. "MyBot/1.0"), so no robots.txt group could name it.`;
  }
  return undefined;
}

function positive(options: RobotsManagerOptions, name: NumberOption, fallback: number, allowInfinity = false): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0 || (!allowInfinity && !Number.isFinite(value))) {
    throw new InvalidOptionsError(name, `expected a positive number of milliseconds${allowInfinity ? ' (or Infinity)' : ''}, got ${String(value)}; the default is ${fallback}.`);
  }
  return value;
}

/** The longest a Node.js timer waits; a longer delay fires after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;

/** A positive duration that is set as a timer, so at most {@link MAX_TIMER_MS}. */
function timer(options: RobotsManagerOptions, name: NumberOption, fallback: number): number {
  const value = positive(options, name, fallback);
  if (value > MAX_TIMER_MS) {
    throw new InvalidOptionsError(name, `is ${value}, longer than a Node.js timer can wait (${MAX_TIMER_MS} ms, about 24.8 days); use a smaller value (the default is ${fallback}).`);
  }
  return value;
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

function whole(options: RobotsManagerOptions, name: NumberOption, fallback: number, min: number): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidOptionsError(name, `expected a whole number >= ${min}, got ${String(value)}; the default is ${fallback}.`);
  }
  return value;
}
