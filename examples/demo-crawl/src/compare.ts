/**
 * Heed against Crawlee's own `respectRobotsTxtFile`, measured on the demo site: the same
 * CheerioCrawler, the same start URL, the same User-Agent for pages; once with
 * `respectRobotsTxtFile: true`, once with Heed attached. The numbers come from the demo site's
 * request log and the expected outcome, so they are facts about this site, not claims.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '@heed/demo-site';
import { runDemoCrawl } from './demo-crawl.js';

/** What one crawler did on the demo site. */
export interface ComparisonRow {
  readonly crawler: 'crawlee-respectRobotsTxtFile' | 'heed';
  /** Pages handed to the request handler. */
  readonly pagesCrawled: number;
  /** Requests the site saw for URLs HeedDemoBot must never fetch (robots.txt rules, 503 origin, nofollow). */
  readonly disallowedUrlsFetched: readonly string[];
  /** Pages HeedDemoBot may crawl (its own robots.txt group allows them) that were never crawled. */
  readonly allowedPagesMissed: readonly string[];
  /** Allowed pages listed only in sitemaps that were crawled. */
  readonly sitemapOnlyPagesCrawled: number;
  /** Allowed pages listed only in sitemaps. */
  readonly sitemapOnlyPages: number;
  /** Pages HeedDemoBot may crawl. */
  readonly allowedPages: number;
  /** robots.txt requests the site saw (a redirect counts as two). */
  readonly robotsTxtRequests: number;
  /** User-Agents robots.txt was requested with. */
  readonly robotsTxtUserAgents: readonly string[];
  /** Requests Crawlee counted as failed. */
  readonly failedRequests: number;
}

const label = (site: DemoSite, url: string): string => {
  const entry = Object.entries(site.origins).find(([, origin]) => url.startsWith(`${origin}/`));
  return entry === undefined ? url : `${entry[0]} ${url.slice(entry[1].length)}`;
};

const isRobotsRequest = (site: DemoSite, request: DemoSite['requests'][number]): boolean =>
  Object.values(site.expected.robots).some((robots) => robots.origin === request.origin && robots.fetchPaths.includes(request.path));

/** Crawls the demo site with Crawlee's built-in robots.txt support. */
async function crawleeRow(): Promise<ComparisonRow> {
  const site = await startDemoSite();
  try {
    const pages: string[] = [];
    const crawler = new CheerioCrawler(
      {
        respectRobotsTxtFile: true,
        maxRequestsPerCrawl: 100,
        maxRequestRetries: 1,
        preNavigationHooks: [
          (_context, gotOptions) => void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': DEMO_USER_AGENT }),
        ],
        async requestHandler({ request, enqueueLinks }) {
          pages.push(request.loadedUrl ?? request.url);
          await enqueueLinks({ strategy: 'all' });
        },
      },
      new Configuration({ persistStorage: false }),
    );
    await crawler.run([...site.expected.startUrls]);
    return row('crawlee-respectRobotsTxtFile', site, pages, crawler.stats.state.requestsFailed);
  } finally {
    await site.close();
  }
}

function row(crawler: ComparisonRow['crawler'], site: DemoSite, pages: readonly string[], failedRequests: number): ComparisonRow {
  const never = new Set(site.expected.neverFetched);
  const crawled = new Set(pages);
  const robots = site.requests.filter((request) => isRobotsRequest(site, request));
  const sitemapOnly = site.expected.urls
    .filter((url) => url.discoveredBy.join() === 'sitemap' && url.demoCrawl === 'crawled')
    .map((url) => url.url);
  return {
    crawler,
    pagesCrawled: pages.length,
    disallowedUrlsFetched: [
      ...new Set(site.requests.map((request) => site.url(request.origin, request.path)).filter((url) => never.has(url))),
    ].map((url) => label(site, url)),
    allowedPagesMissed: site.expected.crawled.filter((url) => !crawled.has(url)).map((url) => label(site, url)),
    sitemapOnlyPagesCrawled: sitemapOnly.filter((url) => crawled.has(url)).length,
    sitemapOnlyPages: sitemapOnly.length,
    allowedPages: site.expected.crawled.length,
    robotsTxtRequests: robots.length,
    robotsTxtUserAgents: [...new Set(robots.map((request) => request.userAgent))],
    failedRequests,
  };
}

/** Crawls the demo site with Heed: the demo crawl. */
async function heedRow(): Promise<ComparisonRow> {
  const site = await startDemoSite();
  try {
    const summary = await runDemoCrawl({ site, print: () => {} });
    return row(
      'heed',
      site,
      summary.pages.map((page) => page.url),
      summary.failedRequests,
    );
  } finally {
    await site.close();
  }
}

/** Runs both crawls, one after the other, each against a fresh demo site. */
export async function compareWithCrawlee(): Promise<readonly ComparisonRow[]> {
  return [await crawleeRow(), await heedRow()];
}

/** The comparison as a Markdown table, for the README. */
export function comparisonTable(rows: readonly ComparisonRow[]): string[] {
  const cell = (values: readonly string[]): string => (values.length === 0 ? 'none' : values.join(', '));
  const header = ['', ...rows.map((entry) => (entry.crawler === 'heed' ? 'Heed' : "Crawlee's `respectRobotsTxtFile`"))];
  const lines = [
    [`pages crawled (${rows[0]?.allowedPages} allowed)`, ...rows.map((entry) => String(entry.pagesCrawled))],
    ['disallowed URLs fetched', ...rows.map((entry) => `${entry.disallowedUrlsFetched.length}: ${cell(entry.disallowedUrlsFetched)}`)],
    ['allowed pages missed', ...rows.map((entry) => `${entry.allowedPagesMissed.length}: ${cell(entry.allowedPagesMissed)}`)],
    [`sitemap-only pages crawled (of ${rows[0]?.sitemapOnlyPages})`, ...rows.map((entry) => String(entry.sitemapOnlyPagesCrawled))],
    ['robots.txt requests (4 origins, one redirect)', ...rows.map((entry) => String(entry.robotsTxtRequests))],
    [
      'robots.txt fetched as',
      ...rows.map((entry) => cell([...new Set(entry.robotsTxtUserAgents.map((agent) => `\`${agent.split(' ')[0]}\``))])),
    ],
    ['failed requests', ...rows.map((entry) => String(entry.failedRequests))],
  ];
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`);
}
