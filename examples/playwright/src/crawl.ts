/**
 * A PlaywrightCrawler with Heed, on the system's Chromium (Debian's `/usr/bin/chromium`; no
 * `playwright install`). Heed checks links, start URLs and sitemap URLs before they are queued,
 * every navigation's redirects before the browser follows them, popups, and the scripts, images,
 * XHR and workers' fetches a page asks for, aborting those robots.txt disallows.
 */
import { existsSync } from 'node:fs';
import { Configuration, PlaywrightCrawler } from '@crawlee/playwright';
import { RobotsPlugin, type RobotsPluginStats, type SkipEvent } from '@heed/crawlee';
import { MissingPrerequisiteError } from '@heed/demo-site';

/** Options of {@link crawlWithBrowser}. */
export interface PlaywrightExampleOptions {
  /** Your crawler's User-Agent, sent by the browser too; its product token selects the robots.txt group. Required. */
  readonly userAgent: string;
  /** The Chromium to launch. Default: `CHROMIUM_PATH`, else `/usr/bin/chromium`. */
  readonly executablePath?: string;
  /** Most pages opened. Default: `30`. */
  readonly maxRequestsPerCrawl?: number;
}

/** What the crawl did. */
export interface PlaywrightExampleSummary {
  /** URLs the request handler saw, with their `<title>`. */
  readonly pages: readonly { readonly url: string; readonly title: string }[];
  readonly skipped: readonly SkipEvent[];
  /** Sub-resource URLs the plugin aborted (also in `skipped`, stage `subresource`). */
  readonly blockedSubresources: readonly string[];
  readonly stats: RobotsPluginStats;
  readonly failedRequests: number;
}

/** Chromium flags for containers and CI: no sandbox, no GPU, none of Chrome's own background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/**
 * For a crawl of loopback sites (the demo): Chromium resolves no other host, so none of its own
 * background traffic leaves the machine.
 */
const LOOPBACK_ONLY_ARGS = ['--disable-quic', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost'];

function isLoopback(url: string): boolean {
  try {
    return /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The Chromium {@link crawlWithBrowser} launches: checked first, because Crawlee's own error would say to run `npx playwright install`, which this example never needs. */
export function chromiumPath(options: Pick<PlaywrightExampleOptions, 'executablePath'> = {}): string {
  const path = options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new MissingPrerequisiteError(
      `no Chromium at ${path}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
  }
  return path;
}

export async function crawlWithBrowser(startUrls: readonly string[], options: PlaywrightExampleOptions): Promise<PlaywrightExampleSummary> {
  const executablePath = chromiumPath(options);
  const pages: { url: string; title: string }[] = [];
  const skipped: SkipEvent[] = [];

  const crawler = new PlaywrightCrawler(
    {
      maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 30,
      maxConcurrency: 4,
      headless: true,
      launchContext: {
        userAgent: options.userAgent,
        launchOptions: {
          executablePath,
          args: [...CHROMIUM_ARGS, ...(startUrls.every(isLoopback) ? LOOPBACK_ONLY_ARGS : [])],
        },
      },
      // Generated fingerprints would replace the User-Agent with a random browser's.
      browserPoolOptions: { useFingerprints: false },
      async requestHandler({ request, page, enqueueLinks }) {
        pages.push({ url: request.loadedUrl ?? request.url, title: await page.title() });
        await enqueueLinks();
      },
    },
    new Configuration({ persistStorage: false }),
  );

  const robots = await RobotsPlugin.attach(crawler, {
    userAgent: options.userAgent,
    onSkip: (event) => void skipped.push(event),
  });

  await crawler.run([...startUrls]);
  await robots.sitemapsDone();
  const summary: PlaywrightExampleSummary = {
    pages,
    skipped,
    blockedSubresources: [...new Set(skipped.filter((skip) => skip.stage === 'subresource').map((skip) => skip.url))],
    stats: robots.stats,
    failedRequests: crawler.stats.state.requestsFailed,
  };
  await robots.close();
  return summary;
}
