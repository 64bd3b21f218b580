/**
 * What the option tables of the manager's README and reference say of each option: those of
 * `new RobotsManager()`, `new MemoryStore()` and `new RedisStore()`. `npm run docs` writes each
 * table from these rows and from the defaults of the code's option table (`MANAGER_OPTIONS`,
 * `MEMORY_STORE_OPTIONS`, `REDIS_STORE_OPTIONS`): a default the code
 * gives as a literal (`20`, `86_400`) is written from the code, so a changed default changes the
 * docs; `default` here only says what a literal cannot, `defaultNote` what the literal means
 * (`24 h`). An ordinary test run fails when the table differs from these rows or an option has none
 * (test/crawlee/options-docs.test.ts). Read by the docs and their test only: nothing of the package
 * imports it. The rows have the shape of the Crawlee plugin's (`OptionRow` of @heed/crawlee's
 * options-docs.ts), which the same writer reads.
 */

/** One row of an option table: the options it is about, its default in words when the code's is no literal, what it does. */
interface OptionRow {
  readonly options: readonly string[];
  readonly default?: string;
  readonly defaultNote?: string;
  readonly what: string;
}

/** The reference's table of `new RobotsManager()`'s options, in its order. */
export const MANAGER_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['userAgent'],
    default: '— (required)',
    what: 'The full `User-Agent` header sent when fetching robots.txt, at most 512 bytes (servers answer longer headers with 431, which would make robots.txt "unavailable": everything allowed). Its product token, the leading run of letters, `-` and `_` (`MyBot` of `MyBot/1.0 (+https://…)`), is matched against the rules unless a call names another agent. A header that starts like a browser\'s (`Mozilla/5.0 (compatible; MyBot/1.0)`: token `Mozilla`, `Chrome`, `Safari`, `AppleWebKit`, `Gecko`, `Opera`…) is refused unless `productToken` is given. Never replaced by a generated browser header.',
  },
  {
    options: ['productToken'],
    default: 'the product token of `userAgent`',
    what: "The token matched against `User-agent:` groups when the header does not start with it: `'MyBot'` for `'Mozilla/5.0 (compatible; MyBot/1.0; +https://…)'`; or a list of 1 to 16 tokens, `['MyBot-News', 'MyBot']` (see [Several product tokens](#several-product-tokens)). Each token: letters, `-` and `_` only, and it must appear in `userAgent`. Calls that name no token use it.",
  },
  {
    options: ['store'],
    default: '`new MemoryStore()`',
    what: 'Where records are kept: `MemoryStore`, `KeyValueStoreStore`, `RedisStore` or any `RobotsStore`.',
  },
  { options: ['maxConcurrency'], what: 'robots.txt fetches in flight at most, over all origins; 1 to 10,000.' },
  { options: ['connectTimeoutSecs'], what: 'Seconds to connect; 0.001 to 2,147,483.647 (the longest a Node.js timer waits).' },
  { options: ['timeoutSecs'], what: 'Seconds for a whole fetch: every redirect hop and the body; 0.001 to 2,147,483.647.' },
  { options: ['proxyUrl'], default: 'none', what: '`http(s)://user:pass@host:port` proxy to fetch through.' },
  {
    options: ['maxBytes'],
    defaultNote: '500 KiB',
    what: 'Bytes of body read, after decompression; the connection is dropped there and what was read is parsed. 1 to 8,388,608 (8 MiB, the most the parser reads).',
  },
  {
    options: ['maxRedirects'],
    what: 'Redirect hops followed (to any origin); one more, or a loop, makes robots.txt unavailable. 0 to 100.',
  },
  { options: ['defaultTtlSecs'], defaultNote: '24 h', what: 'Cache time of a 2xx or 4xx without `Cache-Control: max-age`.' },
  {
    options: ['minTtlSecs'],
    defaultNote: '5 min',
    what: 'Shortest cache time taken from `max-age`; also the cache time for `no-cache`/`no-store`.',
  },
  { options: ['maxTtlSecs'], defaultNote: '24 h', what: 'Longest cache time taken from `max-age` (RFC 9309 §2.4).' },
  {
    options: ['retryBaseSecs'],
    defaultNote: '1 min',
    what: 'Retry interval after the first 5xx/429/network failure; doubles per consecutive failure.',
  },
  {
    options: ['retryMaxSecs'],
    defaultNote: '1 h',
    what: 'Longest retry interval; `Retry-After` is honoured up to it (and no sooner than 1 s).',
  },
  {
    options: ['unreachableAllowAfterSecs'],
    defaultNote: '30 days',
    what: 'Unreachable this long (failures no more than a quarter of it apart) with no good copy → everything allowed. At most 3,650 days; `Infinity` keeps disallowing.',
  },
  {
    options: ['maxCacheBytes'],
    defaultNote: '64 MiB',
    what: "Memory the parsed robots.txt files kept in this process may take, least recently used evicted first. Each origin is counted for its record plus an upper estimate of its parsed rules (see [Memory](#memory)). A whole number from 1 MiB to the process's heap limit.",
  },
  {
    options: ['cacheSize'],
    what: 'Parsed robots.txt files kept in this process at most, on top of `maxCacheBytes` (which usually binds first).',
  },
  {
    options: ['lockTtlSecs'],
    default: '`timeoutSecs + 10`',
    what: "Seconds a cross-process fetch lock lives when its holder died without releasing it, and the longest a check waits for another process's lock before fetching without it (one warning); 0.001 to 2,147,483.647.",
  },
  {
    options: ['parseOptions'],
    default: "Google's reading",
    what: 'Passed to `parseRobotsTxt` (`decodeUnreservedEscapes`, `implicitRobotsTxtAllow`, …).',
  },
  {
    options: ['signature'],
    default: 'off',
    what: 'Web Bot Auth: `{ key, signatureAgent, validitySecs? }` signs every robots.txt and tdmrep.json request, each redirect hop for its own host (see [Signed requests](#signed-requests-web-bot-auth)). `key`: the path of a private Ed25519 JWK file (not readable by every user) or the JWK; `signatureAgent`: the http(s) URL of your key directory; `validitySecs`: 1 to 3,600, default 300. A key that cannot sign fails here, saying why.',
  },
  {
    options: ['log'],
    default: 'warnings and errors to the console, one line each',
    what: "`{ debug, info, warning, error }`; Crawlee's `log` fits (the Crawlee plugin passes the crawler's). Fetches are reported at debug, a robots.txt that keeps calls waiting over 5 s at info (which file, for how long, how many calls wait, the fetch slots; again every 15 s), a newly unreachable origin at warning.",
  },
  { options: ['now'], default: '`Date.now`', what: 'The clock, for tests and simulations.' },
];

/** The README's shorter table of `new RobotsManager()`'s options (defaults in words from the reference's rows). */
export const MANAGER_README_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['userAgent'],
    default: '— (required)',
    what: 'the `User-Agent` header sent with robots.txt requests; its product token (`MyBot`) selects the group',
  },
  {
    options: ['productToken'],
    default: 'the product token of `userAgent`',
    what: 'the token (or a list of 1 to 16) matched against `User-agent:` groups',
  },
  {
    options: ['store'],
    default: '`new MemoryStore()`',
    what: 'where records are kept: `MemoryStore`, `KeyValueStoreStore`, `RedisStore` or your own',
  },
  { options: ['maxConcurrency'], what: 'robots.txt fetches in flight at most, over all origins' },
  { options: ['timeoutSecs'], what: 'seconds for a whole fetch: every redirect hop and the body' },
  { options: ['proxyUrl'], default: 'none', what: '`http(s)://user:pass@host:port` proxy to fetch through' },
  { options: ['defaultTtlSecs'], defaultNote: '24 h', what: 'cache time of a 2xx or 4xx without `Cache-Control: max-age`' },
  { options: ['unreachableAllowAfterSecs'], defaultNote: '30 days', what: 'unreachable this long with no good copy: everything allowed' },
  { options: ['maxCacheBytes'], defaultNote: '64 MiB', what: 'memory the parsed robots.txt files may take' },
  { options: ['log'], default: 'warnings and errors to the console', what: "`{ debug, info, warning, error }`; Crawlee's `log` fits" },
];

/** The reference's table of `new MemoryStore()`'s options. */
export const MEMORY_STORE_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['maxBytes'],
    defaultNote: '128 MiB',
    what: 'Memory the records may take, least recently used evicted first: about 37,000 typical origins, or 180 of 500 KiB. From 1 MiB to the heap limit.',
  },
  { options: ['maxEntries'], default: 'no bound', what: 'Origins kept at most, on top of `maxBytes`.' },
  {
    options: ['snapshots'],
    what: 'Keep the robots.txt snapshot of every record too (`getSnapshot(id)`), in a second budget of `maxBytes`. Off by default: process memory does not outlive the crawl; lasting evidence belongs in a `SnapshotDirectory` or Redis.',
  },
];

/** The reference's table of `new RedisStore()`'s options. */
export const REDIS_STORE_OPTION_ROWS: readonly OptionRow[] = [
  { options: ['client'], default: 'made from `url`', what: 'An ioredis `Redis` instance (the store never closes it).' },
  { options: ['url'], what: 'Where to connect without `client`.' },
  { options: ['keyPrefix'], what: 'Prefix of the `record:<origin>`, `lock:<origin>` and `pace:<origin>` keys.' },
  { options: ['commandTimeoutSecs'], what: 'Seconds after which a command counts as Redis being down.' },
  { options: ['connectTimeoutSecs'], what: 'Seconds the first command waits for the initial connection.' },
  {
    options: ['circuitBreakSecs'],
    what: 'After a command times out or fails, how many seconds Redis is left alone (records go to the fallback without waiting) before one command probes it. The client reconnecting ends it early, and so does, after a timeout, Redis answering the PING the store sends it once a second meanwhile.',
  },
  {
    options: ['maxRecordBytes'],
    defaultNote: '4 MiB',
    what: "The largest record read from or written to Redis (its JSON). A record holds up to two bodies in base64: raise it to about 3 × the manager's `maxBytes` when you raise that above 500 KB. 1 KiB to 512 MiB.",
  },
  { options: ['fallback'], default: '`new MemoryStore()`', what: 'Where records go while Redis is down.' },
  { options: ['log'], default: 'warnings to the console', what: 'Where the outage (warning) and the recovery (info) are reported.' },
];
