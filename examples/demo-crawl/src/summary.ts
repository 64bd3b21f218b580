/**
 * The demo crawl's summary: what it returns (so tests assert it) and how it is printed (so a
 * newcomer sees, in one screen, what Heed did and why).
 */

/** Why a URL was not fetched (Heed's skip reasons). */
export type SkipReasonName = 'rules' | 'unreachable' | 'stale-copy' | 'invalid-url' | 'nofollow';

/** One page handed to the request handler. */
export interface CrawledPage {
  readonly url: string;
  readonly title: string;
  /** The page's robots meta tags / X-Robots-Tag said noindex: a real crawler would not store it. */
  readonly noindex: boolean;
  /** The page said nofollow: its links were not enqueued. */
  readonly nofollow: boolean;
}

/** One URL Heed kept from being fetched or enqueued. */
export interface SkippedUrl {
  readonly url: string;
  readonly origin: string;
  readonly reason: SkipReasonName;
  /** Where it was caught: `enqueue`, `sitemap`, `before-fetch`, `redirect`, `subresource`. */
  readonly stage: string;
  /** The deciding robots.txt line, e.g. `Disallow: /*?sort=`, for `rules`. */
  readonly decidingLine?: string;
  /** Its 1-based line number in the origin's robots.txt. */
  readonly lineNumber?: number;
  /** HTTP status of robots.txt, for `unreachable`. */
  readonly robotsStatus?: number;
  /** The page that linked or redirected to it. */
  readonly referrer?: string;
  readonly message: string;
}

/** What Heed knows of one origin's robots.txt at the end of the crawl. */
export interface OriginRobots {
  readonly origin: string;
  /** The demo site's name for the origin (`shop`), when crawling the demo site. */
  readonly name?: string;
  /** Requests the robots.txt fetch took (a redirect counts twice); from the server log on the demo site. */
  readonly fetches?: number;
  /** Status of each of those requests, e.g. `[301, 200]`, when known. */
  readonly statuses?: readonly number[];
  /** HTTP status of the final response, when there was one. */
  readonly httpStatus?: number;
  /** `ok`, `unavailable` or `unreachable`. */
  readonly recordStatus: string;
  /** What it means for the origin: `rules`, `allow-all` or `disallow-all`. */
  readonly policy: 'rules' | 'allow-all' | 'disallow-all';
  /** Crawl-delay for the crawler's user-agent, in seconds. */
  readonly crawlDelaySeconds?: number;
  /** `Sitemap:` URLs of the file. */
  readonly sitemaps: readonly string[];
}

/** Everything the demo crawl did. */
export interface DemoCrawlSummary {
  /** `demo-site` when crawling the bundled site, `url` for a user-given start URL. */
  readonly mode: 'demo-site' | 'url';
  readonly userAgent: string;
  readonly startUrls: readonly string[];
  readonly pages: readonly CrawledPage[];
  /** Every skip, in order: a URL found three times is skipped three times. */
  readonly skipped: readonly SkippedUrl[];
  /** Distinct URLs skipped. */
  readonly skippedUrls: number;
  /** Skip counts by reason (every reason present, zero included). */
  readonly skippedByReason: Readonly<Record<SkipReasonName, number>>;
  readonly robots: readonly OriginRobots[];
  readonly sitemaps: {
    /** Sitemap files read (robots.txt `Sitemap:` lines and index entries). */
    readonly filesRead: number;
    /** URLs found in them: enqueued + kept out by robots.txt. */
    readonly urlsFound: number;
    /** URLs handed to the queue. */
    readonly urlsEnqueued: number;
  };
  /** Requests Crawlee counted as failed (skips never are). */
  readonly failedRequests: number;
  /**
   * Demo site only: URLs the site saw the crawler request although the expected outcome says they
   * must never be fetched. Always empty when Heed works.
   */
  readonly violations: readonly string[];
  readonly durationMs: number;
}

const pad = (text: string, width: number): string => (text.length >= width ? text : text + ' '.repeat(width - text.length));

/** A URL as short as it can be told apart: `shop /cart` on the demo site, else the URL itself. */
export type UrlLabeler = (url: string) => string;

function policyText(robots: OriginRobots): string {
  const delay = robots.crawlDelaySeconds === undefined ? '' : `, crawl-delay ${robots.crawlDelaySeconds} s`;
  switch (robots.policy) {
    case 'rules':
      return `rules apply${delay}`;
    case 'allow-all':
      return 'no usable robots.txt: everything allowed';
    case 'disallow-all':
      return 'unreachable: everything disallowed until it recovers';
  }
}

/** The summary as printed at the end of the demo. */
export function formatSummary(summary: DemoCrawlSummary, label: UrlLabeler): string[] {
  const lines: string[] = [];
  const seconds = (summary.durationMs / 1000).toFixed(1);
  lines.push('', `Summary (${seconds} s, as ${summary.userAgent})`, '');
  const noindex = summary.pages.filter((page) => page.noindex).length;
  lines.push(`  Pages crawled: ${summary.pages.length}${noindex > 0 ? ` (${noindex} marked noindex: crawl, but do not store)` : ''}`);
  lines.push(`  Failed requests: ${summary.failedRequests}`);

  const distinct = distinctSkips(summary.skipped);
  const times = summary.skipped.length === distinct.length ? '' : ` (${summary.skipped.length} times: some were found more than once)`;
  lines.push('', `  URLs skipped: ${distinct.length}${times}`);
  for (const reason of Object.keys(summary.skippedByReason) as SkipReasonName[]) {
    const skips = distinct.filter(({ skip }) => skip.reason === reason);
    if (skips.length === 0) continue;
    lines.push(`    ${reason} (${skips.length})`);
    const width = Math.max(...skips.map(({ skip }) => label(skip.url).length));
    for (const { skip, stages, count } of skips) {
      const seen = count > 1 ? ` ×${count}` : '';
      lines.push(`      ${pad(label(skip.url), width)}  ${skipWhy({ ...skip, stage: 'enqueue' }, label)}${seen}  [${stages.join(', ')}]`);
    }
  }

  lines.push('', '  robots.txt per origin');
  const width = Math.max(0, ...summary.robots.map((robots) => (robots.name ?? robots.origin).length));
  for (const robots of summary.robots) {
    const fetches = robots.fetches === undefined ? '' : `${robots.fetches} request${robots.fetches === 1 ? '' : 's'}, `;
    const status = robots.statuses?.join(' → ') ?? (robots.httpStatus === undefined ? 'no response' : String(robots.httpStatus));
    lines.push(`    ${pad(robots.name ?? robots.origin, width)}  ${fetches}HTTP ${status}: ${policyText(robots)}`);
  }

  const { filesRead, urlsFound, urlsEnqueued } = summary.sitemaps;
  lines.push('', `  Sitemaps: ${filesRead} file${filesRead === 1 ? '' : 's'} read, ${urlsFound} URLs found, ${urlsEnqueued} enqueued`);
  if (summary.mode === 'demo-site') {
    lines.push(
      summary.violations.length === 0
        ? '  The demo site never saw a request for a disallowed URL.'
        : `  The demo site saw requests for disallowed URLs: ${summary.violations.join(', ')}`,
    );
  }
  return lines;
}

/** A URL skipped for one reason, however many times it was found. */
interface DistinctSkip {
  readonly skip: SkippedUrl;
  /** Where it was caught each time (`enqueue`, `sitemap`, `redirect`, ...), without repeats. */
  readonly stages: string[];
  count: number;
}

/** Skips grouped by URL and reason, in the order first seen. */
export function distinctSkips(skipped: readonly SkippedUrl[]): DistinctSkip[] {
  const byKey = new Map<string, DistinctSkip>();
  for (const skip of skipped) {
    const key = `${skip.reason} ${skip.url}`;
    const known = byKey.get(key);
    if (known === undefined) {
      byKey.set(key, { skip, stages: [skip.stage], count: 1 });
    } else {
      known.count++;
      if (!known.stages.includes(skip.stage)) known.stages.push(skip.stage);
    }
  }
  return [...byKey.values()];
}

/** One skip's reason as printed: the deciding line, or the robots.txt status. */
export function skipWhy(skip: SkippedUrl, label: UrlLabeler = (url) => url): string {
  const where = skip.stage === 'enqueue' ? '' : ` [${skip.stage}]`;
  switch (skip.reason) {
    case 'rules':
    case 'stale-copy':
      return `"${skip.decidingLine ?? '?'}" (robots.txt line ${skip.lineNumber ?? '?'})${skip.reason === 'stale-copy' ? ', last good copy' : ''}${where}`;
    case 'unreachable':
      return `robots.txt answered ${skip.robotsStatus ?? 'nothing'}${where}`;
    case 'nofollow':
      return skip.referrer === undefined ? `${skip.message}${where}` : `linked from ${label(skip.referrer).replace(/ +/, ' ')}, which says nofollow${where}`;
    case 'invalid-url':
      return `not an http(s) URL${where}`;
  }
}
