/**
 * `RobotsManager` options, declared once as an option table: each field carries its TSDoc and its
 * default, and the input type, the resolved type, the known keys and the checks derive from it. A
 * wrong option fails at construction with an `InvalidOptionsError` that names it and says what it
 * expects; an unknown option name (a typo) is an error too rather than silently ignored.
 */
import {
  defineOptions,
  describeValue,
  InvalidOptionsError,
  option,
  parseRobotsTxt,
  productToken as tokenOf,
  type Fail,
  type OptionField,
  type OptionsDefinition,
  type OptionsInput,
  type ParseOptions,
  type ProductTokens,
} from '@heed/parser';
import { memoryBound } from './cache/sizes.js';
import type { Log, RobotsStore } from './cache/store.js';
import { withoutPasswords } from './fetch/credentials.js';
import { FETCH_DEFAULTS } from './fetch/fetch-file.js';
import { POLICY_DEFAULTS, type StatusPolicyOptions } from './policy.js';
import { signatureField } from './signature/signature-option.js';
import { MAX_TIMER_MS } from './timers.js';

const YEAR_SECS = 365 * 24 * 60 * 60;
/** The most bytes of a body the parser reads (its `maxBytes` limit): reading more could not change a verdict. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Default of `maxCacheBytes`: 64 MiB, about 1,600 typical origins or 11 of 500 KiB. */
export const DEFAULT_MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A duration in seconds that is set as a timer, as Crawlee's `...Secs` options are: fractions of a
 * second are fine, from 0.001 (1 ms) to a Node.js timer's limit. Timers and clock arithmetic take
 * milliseconds: convert once with {@link msOf} when resolving.
 */
export const timerSecs = <D extends number | undefined>(fallback: D): OptionField<number, number | D, D> =>
  option.number({
    default: fallback,
    min: 0.001,
    max: MAX_TIMER_MS / 1000,
    unit: 'seconds',
    why: 'the longest a Node.js timer waits, about 24.8 days',
  });
/** A duration in seconds compared with clock times (a cache time, a retry interval): never set as a timer, so up to a year. */
const upToAYearSecs = (fallback: number): OptionField<number, number> =>
  option.number({ default: fallback, min: 0.001, max: YEAR_SECS, unit: 'seconds' });

/** Seconds as the whole milliseconds timers and clocks count in (`Infinity` stays `Infinity`). */
export function msOf(secs: number): number {
  return Math.round(secs * 1000);
}

const managerFields = {
  /**
   * The full `User-Agent` header sent when fetching robots.txt, e.g. `'HeedBot/1.0 (+https://example.com/bot)'`,
   * at most 512 bytes. Its product token, the leading run of letters, `-` and `_` (`HeedBot`), is what
   * the rules are matched against unless a call names another. A header that starts like a browser's
   * (`Mozilla/5.0 (compatible; MyBot/1.0)`) is refused unless `productToken` names the bot's token:
   * no robots.txt group is written for `Mozilla`. Required.
   */
  userAgent: option.custom<string>({ check: (value) => value as string }),
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
  productToken: option.custom<ProductTokens | undefined>({ default: undefined, check: (value) => value as ProductTokens }),
  /** Where records are kept: `MemoryStore`, `KeyValueStoreStore`, `RedisStore` or your own. Default: `new MemoryStore()`. */
  store: option.custom<RobotsStore | undefined>({ default: undefined, check: storeCheck }),
  /**
   * robots.txt fetches in flight at most, over all origins: a whole number from 1 to 10,000.
   * @default `20`
   */
  maxConcurrency: option.number({ default: 20, min: 1, max: 10_000, integer: true }),
  /**
   * Seconds to wait for a connection, from 0.001 to 2,147,483.647 (a Node.js timer's limit).
   * @default `10`
   */
  connectTimeoutSecs: timerSecs(FETCH_DEFAULTS.connectTimeoutMs / 1000),
  /**
   * Seconds for a whole fetch: all redirect hops and the body; from 0.001 to 2,147,483.647 (a Node.js timer's limit).
   * @default `30`
   */
  timeoutSecs: timerSecs(FETCH_DEFAULTS.timeoutMs / 1000),
  /**
   * Proxy to fetch robots.txt through, `http://user:pass@host:port`.
   * @default none (direct)
   */
  proxyUrl: option.custom<string | undefined>({ default: undefined, check: proxyUrlCheck }),
  /**
   * Bytes of a robots.txt read at most (after decompression); the rest is ignored. A whole number
   * from 1 to 8,388,608 (8 MiB, the most the parser reads).
   * @default `512_000` (500 KiB)
   */
  maxBytes: option.number({ default: FETCH_DEFAULTS.maxBytes, min: 1, max: MAX_BODY_BYTES, integer: true }),
  /**
   * Redirect hops followed at most (0 to 100); beyond that robots.txt counts as unavailable.
   * @default `5`
   */
  maxRedirects: option.number({ default: FETCH_DEFAULTS.maxRedirects, min: 0, max: 100, integer: true }),
  /**
   * Seconds a robots.txt or a 4xx without `Cache-Control: max-age` is cached, at most 365 days.
   * @default `86_400` (24 h)
   */
  defaultTtlSecs: upToAYearSecs(POLICY_DEFAULTS.defaultTtlMs / 1000),
  /**
   * Shortest cache time honoured from `max-age` (also for `no-cache`/`no-store`), in seconds, at most 365 days.
   * @default `300` (5 min)
   */
  minTtlSecs: upToAYearSecs(POLICY_DEFAULTS.minTtlMs / 1000),
  /**
   * Longest cache time honoured from `max-age`, in seconds, at most 365 days.
   * @default `86_400` (24 h, RFC 9309 §2.4)
   */
  maxTtlSecs: upToAYearSecs(POLICY_DEFAULTS.maxTtlMs / 1000),
  /**
   * Seconds before the first retry after a 5xx/429/network failure, doubled per further failure; at most 365 days.
   * @default `60` (1 min)
   */
  retryBaseSecs: upToAYearSecs(POLICY_DEFAULTS.retryBaseMs / 1000),
  /**
   * Longest retry interval, in seconds; `Retry-After` is honoured up to it. At most 365 days.
   * @default `3_600` (1 h)
   */
  retryMaxSecs: upToAYearSecs(POLICY_DEFAULTS.retryMaxMs / 1000),
  /**
   * After this many seconds unreachable with no good copy, all URLs of the origin are allowed
   * (Google's rule). At most 3,650 days; `Infinity` keeps disallowing (the one option where it
   * means something).
   * @default `2_592_000` (30 days)
   */
  unreachableAllowAfterSecs: option.number({
    default: POLICY_DEFAULTS.unreachableAllowAfterMs / 1000,
    min: 0.001,
    max: 10 * YEAR_SECS,
    unit: 'seconds',
    allowInfinity: true,
  }),
  /**
   * Parsed robots.txt files kept in this process at most, least recently used evicted first
   * (`maxCacheBytes` usually binds first). An evicted origin is parsed again from the store, not
   * fetched again, while the store still holds its record.
   * @default `10_000`
   */
  cacheSize: option.number({ default: 10_000, min: 1, integer: true }),
  /**
   * Bytes of memory the parsed robots.txt files kept in this process may take, least recently used
   * evicted first: each origin is counted for its raw record plus an upper estimate of its parsed,
   * compiled rules (about 40 KB for a typical 2 KB file, 5.7 MB for a 500 KiB one of 10,000 rules,
   * up to about 20 MB for a hostile 500 KiB one). At least 1 MiB, at most the process's heap limit. A file counted larger than the whole
   * bound is used for the check at hand but not kept (it is parsed again from the store next time).
   * @default `67_108_864` (64 MiB)
   */
  maxCacheBytes: memoryBound(DEFAULT_MAX_CACHE_BYTES),
  /**
   * How long a cross-process fetch lock lives when its holder dies without releasing it, and the
   * longest a check waits for another process's lock before it fetches without it (with one
   * warning). In seconds, from 0.001 to 2,147,483.647.
   * @default `timeoutSecs` + 10
   */
  lockTtlSecs: timerSecs(undefined),
  /**
   * Options for the parser (`decodeUnreservedEscapes`, `implicitRobotsTxtAllow`, ...).
   * @default Google's reading
   */
  parseOptions: option.custom<ParseOptions | undefined>({ default: undefined, check: parseOptionsCheck }),
  /**
   * Web Bot Auth: sign every robots.txt and tdmrep.json request with the bot's Ed25519 key, so
   * sites can verify who fetches (`Signature-Agent`, `Signature-Input`, `Signature`; each redirect
   * hop signed for its own host). `{ key, signatureAgent, validitySecs }` (`SignatureOptions`), or a
   * `RequestSigner` made already.
   * @default off (unsigned)
   */
  signature: signatureField(),
  /**
   * Where the manager reports fetches (debug) and trouble (warning); Crawlee's `log` fits.
   * @default warnings and errors to the console
   */
  log: option.custom<Log | undefined>({ default: undefined, check: logCheck }),
  /**
   * The clock, in ms since the epoch, for tests and simulations.
   * @default `Date.now`
   */
  now: option.custom<() => number>({ default: Date.now, check: nowCheck }),
};

/** The options of `new RobotsManager()`, their checks and defaults (the reference's table is written from them). */
export const MANAGER_OPTIONS: OptionsDefinition<typeof managerFields> = defineOptions('new RobotsManager()', managerFields);

/** Options of `new RobotsManager(options)`. Only `userAgent` is required. */
export interface RobotsManagerOptions extends OptionsInput<typeof MANAGER_OPTIONS> {
  readonly userAgent: string;
}

/** The options given in seconds; they resolve to milliseconds (`timeoutSecs` → `timeoutMs`). */
type SecondsOption =
  | 'connectTimeoutSecs'
  | 'timeoutSecs'
  | 'defaultTtlSecs'
  | 'minTtlSecs'
  | 'maxTtlSecs'
  | 'retryBaseSecs'
  | 'retryMaxSecs'
  | 'unreachableAllowAfterSecs'
  | 'lockTtlSecs';

/**
 * The options with every default filled in, and the product token the user-agent check settled on.
 * Durations are in milliseconds, the unit of timers and of the clock the policy computes with.
 */
export type ResolvedOptions = Omit<ReturnType<typeof MANAGER_OPTIONS.resolve>, 'productToken' | SecondsOption> &
  StatusPolicyOptions & {
    readonly productToken: ProductTokens;
    readonly connectTimeoutMs: number;
    readonly timeoutMs: number;
    readonly lockTtlMs: number;
  };

const WHERE = 'new RobotsManager()';

/** Checks `options` and fills in the defaults. Throws `InvalidOptionsError`. */
export function resolveOptions(options: RobotsManagerOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError(
      'options',
      `pass an options object, e.g. new RobotsManager({ userAgent: "MyBot/1.0" }); got ${describeValue(options)}.`,
      WHERE,
    );
  }
  const {
    productToken: _given,
    connectTimeoutSecs,
    timeoutSecs,
    defaultTtlSecs,
    minTtlSecs,
    maxTtlSecs,
    retryBaseSecs,
    retryMaxSecs,
    unreachableAllowAfterSecs,
    lockTtlSecs,
    ...rest
  } = MANAGER_OPTIONS.resolve(options);
  const identity = checkUserAgent(rest.userAgent, options.productToken);
  if (!identity.ok) throw new InvalidOptionsError(identity.option, identity.problem, WHERE);
  if (minTtlSecs > maxTtlSecs) {
    throw new InvalidOptionsError(
      'minTtlSecs',
      `is ${minTtlSecs} seconds, above maxTtlSecs (${maxTtlSecs}); make minTtlSecs <= maxTtlSecs.`,
      WHERE,
    );
  }
  if (retryBaseSecs > retryMaxSecs) {
    throw new InvalidOptionsError(
      'retryBaseSecs',
      `is ${retryBaseSecs} seconds, above retryMaxSecs (${retryMaxSecs}); make retryBaseSecs <= retryMaxSecs.`,
      WHERE,
    );
  }
  const timeoutMs = msOf(timeoutSecs);
  return {
    ...rest,
    productToken: identity.productToken,
    connectTimeoutMs: msOf(connectTimeoutSecs),
    timeoutMs,
    defaultTtlMs: msOf(defaultTtlSecs),
    minTtlMs: msOf(minTtlSecs),
    maxTtlMs: msOf(maxTtlSecs),
    retryBaseMs: msOf(retryBaseSecs),
    retryMaxMs: msOf(retryMaxSecs),
    unreachableAllowAfterMs: msOf(unreachableAllowAfterSecs),
    lockTtlMs: lockTtlSecs === undefined ? Math.min(timeoutMs + 10_000, MAX_TIMER_MS) : msOf(lockTtlSecs),
  };
}

/** A proxy is an `http://` or `https://` URL: what got-scraping, which every Heed fetch uses, supports. */
export function proxyUrlCheck(value: unknown, _name: string, fail: Fail): string {
  let ok = false;
  try {
    ok = typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok)
    fail(
      `expected an http:// or https:// proxy URL, e.g. "http://user:pass@proxy.example:8000", got ${typeof value === 'string' ? describeValue(withoutPasswords(value)) : describeValue(value)}.`,
    );
  return value as string;
}

function logCheck(value: unknown, _name: string, fail: Fail): Log {
  const log = value as Partial<Log> | null;
  if (typeof log !== 'object' || log === null || (['debug', 'info', 'warning', 'error'] as const).some((m) => typeof log[m] !== 'function'))
    fail("expected a logger with debug, info, warning and error methods (Crawlee's log fits).");
  return value as Log;
}

function nowCheck(value: unknown, _name: string, fail: Fail): () => number {
  if (typeof value !== 'function') fail('expected a function returning milliseconds since the epoch.');
  return value as () => number;
}

function parseOptionsCheck(value: unknown, _name: string, fail: Fail): ParseOptions {
  if (typeof value !== 'object' || value === null) fail('expected the parser options object, e.g. { implicitRobotsTxtAllow: true }.');
  // The parser checks its options when it parses: try them now, not at the first robots.txt.
  try {
    parseRobotsTxt('', value);
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    fail(`its "${error.option}": ${error.problem}`);
  }
  return value;
}

/** A store is an object with get/set/delete; say what to pass instead for the likely mix-ups. */
function storeCheck(store: unknown, _name: string, fail: Fail): RobotsStore {
  if (typeof store === 'function')
    fail(`got the class ${store.name || '(anonymous)'} itself; pass an instance, e.g. store: new ${store.name || 'MemoryStore'}().`);
  const candidate = store as Record<string, unknown> | null;
  if (typeof candidate !== 'object' || candidate === null)
    fail(
      `expected a RobotsStore (MemoryStore, KeyValueStoreStore, RedisStore, or an object with get/set/delete), got ${candidate === null ? 'null' : typeof candidate}.`,
    );
  if (typeof candidate.getValue === 'function' && typeof candidate.setValue === 'function')
    fail('got a Crawlee KeyValueStore; wrap it: store: new KeyValueStoreStore({ store: yourKeyValueStore }).');
  if (typeof candidate.call === 'function' && typeof candidate.status === 'string')
    fail('got a Redis client; wrap it: store: new RedisStore({ client: yourRedisClient }).');
  const missing = ['get', 'set', 'delete'].filter((method) => typeof candidate[method] !== 'function');
  if (missing.length > 0)
    fail(
      `expected a RobotsStore (MemoryStore, KeyValueStoreStore, RedisStore, or an object with get/set/delete); this one has no ${missing.join('/')} method.`,
    );
  const wrong = ['lock', 'close'].filter((method) => candidate[method] !== undefined && typeof candidate[method] !== 'function');
  if (wrong.length > 0)
    fail(
      `its ${wrong.join(' and ')} must be ${wrong.length > 1 ? 'methods' : 'a method'} when present; remove ${wrong.length > 1 ? 'them' : 'it'} or make ${wrong.length > 1 ? 'them functions' : 'it a function'}.`,
    );
  return store as RobotsStore;
}

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
const BROWSER_TOKENS = new Set([
  'mozilla',
  'opera',
  'chrome',
  'chromium',
  'safari',
  'applewebkit',
  'webkit',
  'gecko',
  'khtml',
  'firefox',
  'edge',
  'edg',
  'msie',
  'trident',
  'presto',
  'version',
  'mobile',
]);

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
    if (productToken.length === 0)
      return `got an empty list, which names no token; pass at least one, ${example}, or leave productToken out for the token of userAgent.`;
    if (productToken.length > MAX_PRODUCT_TOKENS)
      return `got a list of ${productToken.length} tokens; at most ${MAX_PRODUCT_TOKENS} are read: keep the ones site owners write groups for.`;
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
    const got = typeof userAgent === 'string' ? 'only white space' : describeValue(userAgent);
    return fail('userAgent', `required: your crawler's User-Agent header, e.g. "MyBot/1.0 (+https://example.com/bot)"; got ${got}.`);
  }
  // Node.js sends a header string as Latin-1, one byte per character (others are refused below).
  if (userAgent.length > MAX_USER_AGENT_BYTES) {
    return fail(
      'userAgent',
      `is ${userAgent.length.toLocaleString('en-US')} bytes long, over the ${MAX_USER_AGENT_BYTES}-byte limit: servers refuse long headers (HTTP 431), and a robots.txt refused with a 4xx counts as unavailable, so everything would be allowed. Send a short header, e.g. "MyBot/1.0 (+https://example.com/bot)".`,
    );
  }
  if (/[\r\n\0]/.test(userAgent))
    return fail('userAgent', 'contains a line break or NUL, which cannot be sent in an HTTP header; remove it.');
  const unsendable = /[^\t\x20-\x7e\x80-\xff]/u.exec(userAgent);
  if (unsendable !== null) {
    return fail(
      'userAgent',
      `contains ${JSON.stringify(unsendable[0])}, which cannot be sent in an HTTP header (control characters and characters beyond Latin-1 cannot); use printable ASCII, e.g. "MyBot/1.0 (+https://example.com/bot)".`,
    );
  }
  if (productToken !== undefined) {
    const problem = productTokenProblem(productToken);
    if (problem !== undefined) return fail('productToken', problem);
    const tokens = productToken as ProductTokens;
    for (const token of typeof tokens === 'string' ? [tokens] : tokens) {
      if (!userAgent.toLowerCase().includes(token.toLowerCase())) {
        return fail(
          'productToken',
          `"${token}" does not appear in userAgent "${userAgent}": site owners write the token they see in their logs; put it in the header, e.g. "Mozilla/5.0 (compatible; ${token}/1.0; +https://example.com/bot)".`,
        );
      }
    }
    return { ok: true, productToken: freezeTokens(tokens) };
  }
  const first = tokenOf(userAgent);
  if (first === '') {
    return fail(
      'userAgent',
      `"${userAgent}" does not start with a product token (letters, "-" and "_", e.g. "MyBot/1.0"), so no robots.txt group could name it; start the header with your bot's token, or name it with the productToken option.`,
    );
  }
  if (BROWSER_TOKENS.has(first.toLowerCase())) {
    const candidate = botTokenIn(userAgent) ?? 'MyBot';
    return fail(
      'userAgent',
      `"${userAgent.length > 80 ? `${userAgent.slice(0, 80)}…` : userAgent}" starts with the browser token "${first}", so robots.txt groups would be matched for "${first}" and a "User-agent: ${candidate}" group ignored. Name your bot's token: productToken: "${candidate}" (or start the header with it, e.g. "${candidate}/1.0 (+https://example.com/bot)").`,
    );
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
