/**
 * The demo crawl's summary: what it returns (so tests assert it) and how it is printed (so a
 * newcomer sees, in one screen, what Heed did and why).
 */
import { distinctSkips, skippedHeading } from '@heed/demo-site';
import type { SkipReason } from '@heed/crawlee';
import type { RobotsFetchErrorCode } from '@heed/manager';

/** Why a URL was not fetched (Heed's skip reasons). */
export type SkipReasonName = SkipReason;

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
  /** HTTP status of robots.txt, for `unreachable` when it answered. */
  readonly robotsStatus?: number;
  /** Why robots.txt could not be fetched, for `unreachable` without an answer: `dns`, `refused`, `timeout`, ... */
  readonly robotsProblem?: string;
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
  /** Why it is unavailable or unreachable (`http-503`, `dns`, `refused`, `timeout`, ...), from the manager's record. */
  readonly problem?: string;
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
  /** The most pages the crawl was allowed (`maxRequestsPerCrawl`, `--max`). */
  readonly maxRequestsPerCrawl: number;
  /** The crawl stopped because it reached `maxRequestsPerCrawl`, not because it ran out of URLs. */
  readonly stoppedAtMax: boolean;
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
    /**
     * Distinct URLs read from them (within the crawl's hostname rule), whether they were then
     * enqueued, kept out by robots.txt, or still waiting when the crawl stopped at its limit.
     */
    readonly urlsFound: number;
    /** URLs handed to the queue. */
    readonly urlsEnqueued: number;
    /** URLs robots.txt kept out of the queue. */
    readonly urlsSkipped: number;
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
  const notes = [
    noindex > 0 ? `${noindex} marked noindex: crawl, but do not store` : '',
    summary.stoppedAtMax ? `the crawl stopped at its limit, --max ${summary.maxRequestsPerCrawl}` : '',
  ].filter(Boolean);
  lines.push(`  Pages crawled: ${summary.pages.length}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
  lines.push(`  Failed requests: ${summary.failedRequests}`);

  const distinct = distinctSkips(summary.skipped);
  lines.push('', `  ${skippedHeading(distinct.length, summary.skipped.length)}`);
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
    const statuses = robots.statuses ?? (robots.httpStatus === undefined ? [] : [robots.httpStatus]);
    const answer = statuses.length > 0 ? `HTTP ${statuses.join(' → ')}` : fetchProblemText(robots.origin, robots.problem);
    lines.push(`    ${pad(robots.name ?? robots.origin, width)}  ${fetches}${answer}: ${policyText(robots)}`);
  }

  lines.push('', `  ${sitemapLine(summary)}`);
  if (summary.mode === 'demo-site') {
    lines.push(
      summary.violations.length === 0
        ? '  The demo site never saw a request for a disallowed URL.'
        : `  The demo site saw requests for disallowed URLs: ${summary.violations.join(', ')}`,
    );
  }
  return lines;
}

/**
 * `Sitemaps: 4 files read, 11 URLs found: 9 enqueued, 2 kept out by robots.txt`. URLs found are
 * counted as they are read, not as they reach the queue: a crawl that stops at its limit while a
 * sitemap's URLs wait to be enqueued found them all the same, and says what became of them.
 */
function sitemapLine(summary: DemoCrawlSummary): string {
  const { filesRead, urlsFound, urlsEnqueued, urlsSkipped } = summary.sitemaps;
  const files = `${filesRead} file${filesRead === 1 ? '' : 's'} read`;
  const unqueued = Math.max(0, urlsFound - urlsEnqueued - urlsSkipped);
  const fates = [
    `${urlsEnqueued} enqueued`,
    urlsSkipped > 0 ? `${urlsSkipped} kept out by robots.txt` : '',
    unqueued > 0 ? `${unqueued} not enqueued` : '',
  ].filter(Boolean);
  const stopped = summary.stoppedAtMax ? ` before the crawl stopped at its limit (--max ${summary.maxRequestsPerCrawl})` : '';
  const found = `${urlsFound} URL${urlsFound === 1 ? '' : 's'} found`;
  return urlsFound === 0 ? `Sitemaps: ${files}, ${found}${stopped}` : `Sitemaps: ${files}, ${found}: ${fates.join(', ')}${stopped}`;
}

/** What each fetch failure (the manager's problem code) means, in words: `could not resolve host example.invalid`. */
const FETCH_PROBLEMS: Readonly<Record<RobotsFetchErrorCode, (host: string) => string>> = {
  dns: (host) => `could not resolve host ${host}`,
  refused: (host) => `connection refused by ${host}`,
  'connect-timeout': (host) => `no connection to ${host} before the connect timeout`,
  timeout: (host) => `robots.txt of ${host} timed out`,
  reset: (host) => `connection reset by ${host}`,
  truncated: (host) => `robots.txt of ${host} was cut off mid-body`,
  decode: (host) => `robots.txt of ${host} could not be decoded`,
  tls: (host) => `TLS with ${host} failed`,
  proxy: (host) => `the proxy failed to reach ${host}`,
  network: (host) => `network error reaching ${host}`,
};

/** Why robots.txt of `origin` has no answer, from the manager's problem code (`dns`, `refused`, ...). */
export function fetchProblemText(origin: string, problem: string | undefined): string {
  let host = origin;
  try {
    host = new URL(origin).host;
  } catch {
    // Not a URL: name it as given.
  }
  const words = problem === undefined ? undefined : FETCH_PROBLEMS[problem as RobotsFetchErrorCode];
  if (words !== undefined) return words(host);
  return problem === undefined ? `no answer from ${host}` : `no answer from ${host} (${problem})`;
}

/** One skip's reason as printed: the deciding line, or the robots.txt status. */
export function skipWhy(skip: SkippedUrl, label: UrlLabeler = (url) => url): string {
  const where = skip.stage === 'enqueue' ? '' : ` [${skip.stage}]`;
  switch (skip.reason) {
    case 'rules':
    case 'stale-copy':
      return `"${skip.decidingLine ?? '?'}" (robots.txt line ${skip.lineNumber ?? '?'})${skip.reason === 'stale-copy' ? ', last good copy' : ''}${where}`;
    case 'unreachable':
      return `${skip.robotsStatus === undefined ? fetchProblemText(skip.origin, skip.robotsProblem) : `robots.txt answered ${skip.robotsStatus}`}${where}`;
    case 'nofollow':
      return skip.referrer === undefined
        ? `${skip.message}${where}`
        : `linked from ${label(skip.referrer).replace(/ +/, ' ')}, which says nofollow${where}`;
    case 'invalid-url':
      return `not an http(s) URL${where}`;
    case 'check-failed':
    case 'usage':
    case 'payment-required':
      return `${skip.message}${where}`;
  }
}
