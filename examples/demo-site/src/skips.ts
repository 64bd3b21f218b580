/**
 * How every example prints the URLs Heed skipped, so they all read the same: one line per distinct
 * URL (a link found on six pages is one URL skipped six times), with its count and where it was
 * caught, under a heading that gives both numbers: `2 URLs skipped (6 times)`.
 *
 * It lives in the demo site because every example already depends on it; it needs only the fields
 * of Heed's `SkipEvent` it prints, so the demo site does not depend on `@heed/crawlee`.
 */

/** The fields of a skip (Heed's `SkipEvent`) the formatter reads. */
export interface SkipLike {
  readonly url: string;
  /** `rules`, `unreachable`, `nofollow`, ... */
  readonly reason: string;
  /** Where it was caught: `enqueue`, `sitemap`, `before-fetch`, `redirect`, `subresource`. */
  readonly stage: string;
  readonly message: string;
}

/** One URL skipped for one reason, however many times it came up. */
export interface DistinctSkip<S extends SkipLike = SkipLike> {
  /** The first skip of it. */
  readonly skip: S;
  /** Where it was caught, each stage once, in the order first seen. */
  readonly stages: readonly string[];
  /** How many times it was skipped. */
  readonly count: number;
}

/** Skips grouped by URL and reason, in the order first seen. */
export function distinctSkips<S extends SkipLike>(skips: readonly S[]): DistinctSkip<S>[] {
  const byKey = new Map<string, { skip: S; stages: string[]; count: number }>();
  for (const skip of skips) {
    const key = `${skip.reason} ${skip.url}`;
    const known = byKey.get(key);
    if (known === undefined) byKey.set(key, { skip, stages: [skip.stage], count: 1 });
    else {
      known.count++;
      if (!known.stages.includes(skip.stage)) known.stages.push(skip.stage);
    }
  }
  return [...byKey.values()];
}

/** `2 URLs skipped (6 times)`, `1 URL skipped`, `0 URLs skipped`: distinct URLs, then skips when they differ. */
export function skippedHeading(distinct: number, times: number, verb = 'skipped'): string {
  const urls = `${distinct} URL${distinct === 1 ? '' : 's'} ${verb}`;
  return times === distinct ? urls : `${urls} (${times} times)`;
}

/** Options of {@link formatSkips}. */
export interface FormatSkipsOptions {
  /** How a URL is shown. Default: as it is. */
  readonly label?: (url: string) => string;
  /** The heading's verb: `2 URLs <verb> (6 times)`. Default: `skipped`. */
  readonly verb?: string;
}

/**
 * The heading and one line per distinct URL: `  <url>  <message> ×3  [enqueue, sitemap]` (the
 * count only when above one), as the demo crawl prints them. The message is the first skip's.
 */
export function formatSkips(skips: readonly SkipLike[], options: FormatSkipsOptions = {}): string[] {
  const label = options.label ?? ((url: string) => url);
  const distinct = distinctSkips(skips);
  const lines = [`${skippedHeading(distinct.length, skips.length, options.verb)}${distinct.length > 0 ? ':' : ''}`];
  const width = Math.max(0, ...distinct.map(({ skip }) => label(skip.url).length));
  for (const { skip, stages, count } of distinct) {
    lines.push(`  ${label(skip.url).padEnd(width)}  ${skip.message}${count > 1 ? ` ×${count}` : ''}  [${stages.join(', ')}]`);
  }
  return lines;
}
