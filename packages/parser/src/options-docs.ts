/**
 * What the option tables of the parser's README and reference say of each option of
 * `parseRobotsTxt()`. `npm run docs` writes each table from these rows and from the defaults of
 * `PARSE_OPTIONS`: a default the code gives as a literal (`false`, `512_000`) is written from the
 * code, so a changed default changes the docs; `default` here only says what a literal cannot,
 * `defaultNote` what the literal means (`500 KiB`). An ordinary test run fails when a table differs
 * from these rows or an option has none (test/crawlee/options-docs.test.ts). Read by the docs and
 * their test only: nothing of the package imports it.
 */

/** One row of an option table: the options it is about, its default in words when the code's is no literal, what it does. */
interface OptionRow {
  readonly options: readonly string[];
  readonly default?: string;
  readonly defaultNote?: string;
  readonly what: string;
}

/** The reference's table of `parseRobotsTxt()`'s options, in its order. */
export const PARSE_OPTION_ROWS: readonly OptionRow[] = [
  {
    options: ['maxBytes'],
    defaultNote: '500 KiB',
    what: "Bytes of the body that are read; the rest is ignored (Google's limit; RFC 9309 asks crawlers to read at least 500 KiB). At most 8 MiB.",
  },
  {
    options: ['decodeUnreservedEscapes'],
    what: 'RFC 9309 §2.2.2 reading: `%XX` escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded in pattern and URL before comparing, so `/%41` matches `/A`. Google compares the escapes as written.',
  },
  { options: ['implicitRobotsTxtAllow'], what: 'RFC 9309 §2.2.3 reading: `/robots.txt` is always allowed. Google has no such rule.' },
  {
    options: ['acceptTypos'],
    what: "Google's key leniency: `useragent`, `user agent`, `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`, and any key that starts with a known key (`Disallowed:`). `false`: only the exact keys of RFC 9309 (and `crawl-delay`).",
  },
  {
    options: ['acceptMissingColon'],
    what: 'Google accepts `Disallow /x` (white space for the colon, exactly two words). `false`: such a line is invalid.',
  },
];

/** The README's shorter table of the same options. */
export const PARSE_README_OPTION_ROWS: readonly OptionRow[] = [
  { options: ['maxBytes'], defaultNote: '500 KiB', what: 'bytes of the body that are read; the rest is ignored (at most 8 MiB)' },
  { options: ['decodeUnreservedEscapes'], what: 'RFC 9309 reading: `%41` matches `A`' },
  { options: ['implicitRobotsTxtAllow'], what: 'RFC 9309 reading: `/robots.txt` is always allowed' },
  { options: ['acceptTypos'], what: "Google's key leniency (`useragent`, `dissallow`, `Disallowed:`, ...)" },
  { options: ['acceptMissingColon'], what: 'Google accepts `Disallow /x`' },
];
