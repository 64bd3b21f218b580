/**
 * The demo crawl: a CheerioCrawler with Heed attached, crawling the bundled demo site (or the
 * start URLs you give it), printing progress as it goes and returning a summary of what Heed did.
 */
import { CheerioCrawler } from '@crawlee/cheerio';
import { Configuration, log as crawleeLog } from '@crawlee/core';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { RobotsManager } from '@heed/manager';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '@heed/demo-site';
import {
  formatSummary,
  skipWhy,
  type CrawledPage,
  type DemoCrawlSummary,
  type OriginRobots,
  type SkipReasonName,
  type SkippedUrl,
} from './summary.js';

/** Options of {@link runDemoCrawl}. */
export interface DemoCrawlOptions {
  /** Crawl these URLs instead of the demo site. Default: start the demo site and crawl it from its shop. */
  readonly startUrls?: readonly string[];
  /** Most pages fetched, as Crawlee's option of the same name. Default: `100`. */
  readonly maxRequestsPerCrawl?: number;
  /** The crawler's User-Agent; its product token selects the robots.txt group. Default: `DEMO_USER_AGENT` (`HeedDemoBot/1.0 …`). */
  readonly userAgent?: string;
  /** Where progress and the summary are printed, one line per call. Default: `console.log`. */
  readonly print?: (line: string) => void;
  /** A demo site already running, to crawl instead of starting one (its log then shows the crawl). Default: start one. */
  readonly site?: DemoSite;
}

const SKIP_REASONS: readonly SkipReasonName[] = ['rules', 'unreachable', 'stale-copy', 'invalid-url', 'nofollow'];

/** Runs the demo crawl and returns its summary (also printed through `print`). */
export async function runDemoCrawl(options: DemoCrawlOptions = {}): Promise<DemoCrawlSummary> {
  const print = options.print ?? ((line: string) => console.log(line));
  const userAgent = options.userAgent ?? DEMO_USER_AGENT;
  const ownSite = options.startUrls === undefined && options.site === undefined ? await startDemoSite() : undefined;
  const site = options.startUrls === undefined ? (options.site ?? ownSite) : undefined;
  try {
    return await crawl({
      site,
      userAgent,
      print,
      startUrls: options.startUrls ?? site?.expected.startUrls ?? [],
      maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 100,
    });
  } finally {
    await ownSite?.close();
  }
}

interface CrawlInput {
  readonly site: DemoSite | undefined;
  readonly userAgent: string;
  readonly print: (line: string) => void;
  readonly startUrls: readonly string[];
  readonly maxRequestsPerCrawl: number;
}

async function crawl({ site, userAgent, print, startUrls, maxRequestsPerCrawl }: CrawlInput): Promise<DemoCrawlSummary> {
  // One manager for the crawl. The plugin would create one itself; making it here gives the
  // summary its per-origin records (manager.stats()). Made first: it rejects a User-Agent no
  // robots.txt group could name before anything is printed.
  const manager = new RobotsManager({ userAgent, log: crawleeLog.child({ prefix: 'Heed' }) });
  const started = Date.now();
  const label = urlLabeler(site);
  const pages: CrawledPage[] = [];
  // The demo site's origins differ only by port, so the demo follows links anywhere (they all stay
  // on the site); a real site is crawled within its hostname.
  const strategy = site === undefined ? 'same-hostname' : 'all';
  const skipped: SkippedUrl[] = [];
  // Sitemap URLs are counted as the feeder reads them (its filter sees each one once), so a crawl
  // that stops at its limit before they reach the queue still reports what the sitemaps listed.
  const sitemapUrlsFound = new Set<string>();

  if (site !== undefined) {
    print(`Heed demo: the demo site runs on ${Object.keys(site.origins).length} loopback origins:`);
    for (const [name, robots] of Object.entries(site.expected.robots))
      print(`  ${name.padEnd(6)}  ${site.origins[robots.origin]}  robots.txt ${robots.situation}`);
  }
  print(`Crawling ${startUrls.join(', ')} as "${userAgent}" (at most ${maxRequestsPerCrawl} pages)`);
  print('');

  // In-memory storage: every demo run starts from an empty queue and leaves nothing on disk.
  const config = new Configuration({ persistStorage: false });

  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl,
      maxRequestRetries: 1,
      // Be polite and identifiable: pages are fetched with the same User-Agent robots.txt is read for.
      preNavigationHooks: [
        (_context, gotOptions) => {
          gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent };
        },
      ],
      async requestHandler(context) {
        const { request, $, enqueueLinks } = context;
        const directives = robots.directives(context);
        const page: CrawledPage = {
          url: request.loadedUrl ?? request.url,
          title: $('title').first().text().trim(),
          noindex: directives?.noindex ?? false,
          nofollow: directives?.nofollow ?? false,
        };
        pages.push(page);
        const notes = [
          page.noindex ? 'noindex' : '',
          page.nofollow ? 'nofollow' : '',
          request.label === 'sitemap' ? 'from a sitemap' : '',
        ].filter(Boolean);
        print(`  crawled  ${label(page.url)}${notes.length > 0 ? `  (${notes.join(', ')})` : ''}`);
        // Heed checks every link, other origins included, and drops the links of nofollow pages.
        await enqueueLinks({ strategy });
      },
    },
    config,
  );

  const robots = await RobotsPlugin.attach(crawler, {
    userAgent,
    manager,
    sitemaps: {
      label: 'sitemap',
      filter: (url) => {
        sitemapUrlsFound.add(url);
        return true;
      },
    },
    logSummary: false,
    onSkip: (event) => {
      const skip = toSkippedUrl(event, event.reason === 'unreachable' ? problemOf(manager, event.origin) : undefined);
      skipped.push(skip);
      print(`  skipped  ${label(skip.url)}  ${skip.reason}: ${skipWhy(skip, label)}`);
    },
  });

  try {
    await crawler.run([...startUrls]);
    await robots.sitemapsDone();
    const stats = robots.stats;
    const { requestsFinished, requestsFailed } = crawler.stats.state;
    const summary: DemoCrawlSummary = {
      mode: site === undefined ? 'url' : 'demo-site',
      userAgent,
      startUrls,
      pages,
      maxRequestsPerCrawl,
      stoppedAtMax: requestsFinished + requestsFailed >= maxRequestsPerCrawl,
      skipped,
      skippedUrls: new Set(skipped.map((skip) => skip.url)).size,
      skippedByReason: Object.fromEntries(
        SKIP_REASONS.map((reason) => [reason, skipped.filter((skip) => skip.reason === reason).length]),
      ) as Record<SkipReasonName, number>,
      robots: await originRobots(manager, site),
      sitemaps: {
        filesRead: stats.sitemapsRead,
        urlsFound: sitemapUrlsFound.size,
        urlsEnqueued: stats.sitemapUrlsEnqueued,
        urlsSkipped: stats.skippedByStage.sitemap,
      },
      failedRequests: requestsFailed,
      violations: site === undefined ? [] : violations(site, userAgent),
      durationMs: Date.now() - started,
    };
    for (const line of formatSummary(summary, label)) print(line);
    print('');
    print(`The plugin's own summary line: ${robots.summary()}`);
    return summary;
  } finally {
    await robots.close();
    await manager.close();
  }
}

/** Why the origin's robots.txt could not be fetched (`dns`, `refused`, `timeout`, ...), from the manager's record. */
function problemOf(manager: RobotsManager, origin: string): string | undefined {
  return manager.stats().origins.find((summary) => summary.origin === origin)?.problem;
}

/** The skip as the summary keeps it, with the deciding line written as it is in robots.txt. */
function toSkippedUrl(event: SkipEvent, robotsProblem: string | undefined): SkippedUrl {
  const directive = event.rule === undefined ? undefined : event.rule.directive === 'allow' ? 'Allow' : 'Disallow';
  return {
    url: event.url,
    origin: event.origin,
    reason: event.reason,
    stage: event.stage,
    ...(event.rule === undefined ? {} : { decidingLine: `${directive}: ${event.rule.pattern}` }),
    ...(event.line === 0 ? {} : { lineNumber: event.line }),
    ...(event.httpStatus === undefined ? {} : { robotsStatus: event.httpStatus }),
    ...(robotsProblem === undefined ? {} : { robotsProblem }),
    ...(event.referrer === undefined ? {} : { referrer: event.referrer }),
    message: event.message,
  };
}

/** What the manager holds for every origin it met, with the demo site's fetch log where there is one. */
async function originRobots(manager: RobotsManager, site: DemoSite | undefined): Promise<OriginRobots[]> {
  const names = new Map(Object.entries(site?.origins ?? {}).map(([name, origin]) => [origin, name]));
  const result: OriginRobots[] = [];
  for (const summary of manager.stats().origins) {
    const name = names.get(summary.origin);
    const crawlDelaySeconds = await manager.crawlDelay(`${summary.origin}/`);
    const sitemaps = await manager.sitemaps(`${summary.origin}/`);
    const fetchLog = site === undefined || name === undefined ? undefined : robotsRequests(site, name);
    result.push({
      origin: summary.origin,
      ...(name === undefined ? {} : { name }),
      ...(fetchLog === undefined ? {} : { fetches: fetchLog.length, statuses: fetchLog.map((request) => request.status) }),
      ...(summary.httpStatus === undefined ? {} : { httpStatus: summary.httpStatus }),
      recordStatus: summary.status,
      ...(summary.problem === undefined ? {} : { problem: summary.problem }),
      policy: summary.policy,
      ...(crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds }),
      sitemaps,
    });
  }
  const order = [...names.keys()];
  return result.sort((a, b) => order.indexOf(a.origin) - order.indexOf(b.origin));
}

/** The demo site's log of robots.txt requests to one origin (the paths of its fetch chain). */
function robotsRequests(site: DemoSite, name: string): DemoSite['requests'] {
  const expected = Object.values(site.expected.robots).find((robots) => robots.origin === name);
  const paths = new Set(expected?.fetchPaths ?? ['/robots.txt']);
  return site.requests.filter((request) => request.origin === name && paths.has(request.path));
}

/** Requests the site saw from this crawler for URLs that must never be fetched. */
function violations(site: DemoSite, userAgent: string): string[] {
  const never = new Set(site.expected.neverFetched);
  return site.requests
    .filter((request) => request.userAgent === userAgent && never.has(`${site.origins[request.origin]}${request.path}`))
    .map((request) => `${site.origins[request.origin]}${request.path}`);
}

/** Demo site URLs print as `shop /cart`; others as they are. */
function urlLabeler(site: DemoSite | undefined): (url: string) => string {
  if (site === undefined) return (url) => url;
  const names = Object.entries(site.origins);
  return (url) => {
    for (const [name, origin] of names) {
      if (url === origin || url.startsWith(`${origin}/`)) return `${name.padEnd(6)} ${url.slice(origin.length) || '/'}`;
    }
    return url;
  };
}
