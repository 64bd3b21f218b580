/**
 * Key spelling: which unknown keys are misspelt known ones, and which are other crawlers'
 * extensions. Google's own accepted typos come from the tokenizer (`keyTypo`); this module only
 * judges the keys every crawler ignores.
 */

/**
 * The keys RFC 9309 and Google give meaning to (crawl-delay: Bing, Yandex and others), and the
 * AI-usage preferences (Content-Usage, Content-Signal), which Heed reads.
 */
const KNOWN_KEYS = ['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'content-usage', 'content-signal'] as const;
export type KnownKey = (typeof KNOWN_KEYS)[number];

/** Extensions of other crawlers: not typos, but ignored by Google and RFC 9309 parsers. */
export const EXTENSION_KEYS: ReadonlyMap<string, string> = new Map([
  ['host', 'Yandex once used `Host:` for the preferred mirror (it no longer does)'],
  ['clean-param', '`Clean-param:` is read by Yandex only'],
  ['request-rate', '`Request-rate:` is read by a few crawlers only'],
  ['visit-time', '`Visit-time:` is read by a few crawlers only'],
]);

/** Keys people write expecting page-level effects that robots.txt does not have. */
export const UNSUPPORTED_KEYS: ReadonlySet<string> = new Set(['noindex', 'nofollow', 'noarchive', 'nosnippet', 'noai', 'noimageai']);

/** The known key `key` is probably a misspelling of, or undefined. */
export function suggestKey(key: string): KnownKey | undefined {
  const lower = key.toLowerCase().replace(/[\s_]+/g, '-');
  if (lower.length < 4 || EXTENSION_KEYS.has(lower) || UNSUPPORTED_KEYS.has(lower)) return undefined;
  let best: KnownKey | undefined;
  let bestDistance = Infinity;
  for (const known of KNOWN_KEYS) {
    // Two edits for long keys, one for short ones: `alow` is `allow`, `host` is not `post`.
    const limit = known.length >= 7 ? 2 : 1;
    const distance = editDistance(lower, known, limit);
    if (distance <= limit && distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}

/** Damerau–Levenshtein (optimal string alignment) distance, giving up above `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (previous2[j - 2] as number) + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
