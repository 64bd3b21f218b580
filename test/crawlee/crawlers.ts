/**
 * The crawlers the integration tests build, written once. Every browser crawler here runs Debian's
 * Chromium the same way (headless, the container flags of test/support/chromium.ts, no fingerprint
 * injection) on a fresh in-memory Crawlee configuration; every HTTP crawler gets that configuration
 * too. A test passes only what is particular to it (handler, hooks, limits); an option it passes wins
 * over the shared one.
 */
import type { BasicCrawler, CrawlingContext } from '@crawlee/basic';
import type { CheerioCrawler, CheerioCrawlerOptions } from '@crawlee/cheerio';
import type { PlaywrightCrawler, PlaywrightCrawlerOptions } from '@crawlee/playwright';
import type { PuppeteerCrawler, PuppeteerCrawlerOptions } from '@crawlee/puppeteer';
import { afterAll, beforeAll } from 'vitest';
import { RobotsManager, type RobotsManagerOptions } from '@heed/manager';
import { RobotsPlugin, type RobotsDirectives, type RobotsPluginOptions, type SkipEvent } from '@heed/crawlee';
import { CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS } from '../support/chromium.js';
import { crawleeCheerio, crawleePlaywright, crawleePuppeteer, freshConfig, playwright, puppeteer } from './site.js';
import { startScenario, type Scenario } from './scenario.js';

/** Options every browser crawler of the tests shares; `launchContext` is the launcher's own. */
const browserDefaults = { headless: true, browserPoolOptions: { useFingerprints: false } } as const;

/** A PlaywrightCrawler on Debian's Chromium with `options` on top. */
export function playwrightCrawler(options: PlaywrightCrawlerOptions): PlaywrightCrawler {
  return new crawleePlaywright.PlaywrightCrawler(
    { launchContext: { launcher: playwright.chromium, launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS }, ...browserDefaults, ...options },
    freshConfig(),
  );
}

/** A PuppeteerCrawler on Debian's Chromium with `options` on top. */
export function puppeteerCrawler(options: PuppeteerCrawlerOptions): PuppeteerCrawler {
  return new crawleePuppeteer.PuppeteerCrawler(
    {
      launchContext: { launcher: puppeteer, launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } },
      ...browserDefaults,
      ...options,
    },
    freshConfig(),
  );
}

/** The browser crawler kinds, for tests that run the same case on both. */
export type BrowserKind = 'playwright' | 'puppeteer';

/** Options both browser crawler kinds accept (what a test that runs on either passes). */
export type BrowserCrawlerOptions = PlaywrightCrawlerOptions & PuppeteerCrawlerOptions;

/** A PlaywrightCrawler or PuppeteerCrawler on Debian's Chromium with `options` on top. */
export function browserCrawler(kind: BrowserKind, options: BrowserCrawlerOptions): PlaywrightCrawler | PuppeteerCrawler {
  return kind === 'playwright' ? playwrightCrawler(options) : puppeteerCrawler(options);
}

/** A CheerioCrawler with `options` on a fresh configuration. */
export function cheerioCrawler(options: CheerioCrawlerOptions): CheerioCrawler {
  return new crawleeCheerio.CheerioCrawler(options, freshConfig());
}

/** What {@link followEveryLink} needs of a crawling context, whichever the crawler kind. */
interface LinkContext {
  readonly request: { readonly url: string; readonly loadedUrl?: string };
  enqueueLinks(options: { strategy: 'all' }): Promise<unknown>;
}

/**
 * A request handler that tells `onPage` of each page (its URL after redirects) and then enqueues
 * every link on it, whatever its origin: how the tests crawl a whole site.
 */
export function followEveryLink<Context extends LinkContext>(onPage: (url: string, ctx: Context) => void): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    onPage(ctx.request.loadedUrl ?? ctx.request.url, ctx);
    await ctx.enqueueLinks({ strategy: 'all' });
  };
}

/**
 * Runs `crawler` from `startUrls` with the plugin attached (`pluginOptions`) on a manager of its own,
 * opened for this run and closed after it.
 */
export async function runWithOwnManager<Context extends CrawlingContext>(
  crawler: BasicCrawler<Context>,
  pluginOptions: Omit<RobotsPluginOptions, 'manager'> & { readonly userAgent: string },
  startUrls: readonly string[],
): Promise<void> {
  const manager = new RobotsManager({ userAgent: pluginOptions.userAgent });
  try {
    await RobotsPlugin.attach(crawler, { ...pluginOptions, manager });
    await crawler.run([...startUrls]);
  } finally {
    await manager.close();
  }
}

/**
 * What a whole-site crawl records for its tests: the pages handled, each page's robots directives,
 * and the skips Heed's `onSkip` and Crawlee's `onSkippedRequest` were told of, with the callbacks
 * that fill them.
 */
export function crawlRecord() {
  const handled: string[] = [];
  const directives = new Map<string, RobotsDirectives>();
  const heedSkips: SkipEvent[] = [];
  const crawleeSkips: { url: string; reason: string }[] = [];
  return {
    handled,
    directives,
    heedSkips,
    crawleeSkips,
    onSkip: (event: SkipEvent) => void heedSkips.push(event),
    onSkippedRequest: (skip: { url: string; reason: string }) => void crawleeSkips.push(skip),
    /** Notes a handled page: its URL after redirects, and the directives the plugin gave its context. */
    notePage: (ctx: { request: { url: string; loadedUrl?: string } }) => {
      handled.push(ctx.request.loadedUrl ?? ctx.request.url);
      directives.set(ctx.request.url, (ctx as unknown as { robotsDirectives: RobotsDirectives }).robotsDirectives);
    },
  };
}

/** What {@link crawlScenarioOnce} hands back once its crawl is done. */
export interface ScenarioRun {
  readonly s: Scenario;
  readonly manager: RobotsManager;
  readonly plugin: RobotsPlugin;
  /** Crawlee's count of failed requests. */
  readonly failed: number;
}

/** How {@link crawlScenarioOnce} crawls: the crawler and what the manager and plugin get besides the user-agent. */
export interface ScenarioCrawlOptions<Context extends CrawlingContext> {
  readonly userAgent: string;
  /** Builds the crawler; its handler records what the tests look at. */
  readonly crawler: () => BasicCrawler<Context>;
  readonly manager?: Omit<RobotsManagerOptions, 'userAgent'>;
  /** On top of `honorRelNofollow: true`. */
  readonly plugin?: Omit<RobotsPluginOptions, 'userAgent' | 'manager'>;
  /** The crawl's time limit (ms); vitest's hook timeout without. */
  readonly timeout?: number;
}

/**
 * In a describe block: before its tests, crawls a fresh three-origin scenario (scenario.ts) from its
 * three start URLs (an allowed page, a disallowed one, one on the other origin) with the crawler
 * `options.crawler` builds and the plugin attached with its own manager, then hands the run to
 * `done`; after them, closes manager and site. The whole-site crawl the crawler-kind tests share.
 */
export function crawlScenarioOnce<Context extends CrawlingContext>(
  options: ScenarioCrawlOptions<Context>,
  done: (run: ScenarioRun) => void,
): void {
  let s: Scenario | undefined;
  let manager: RobotsManager | undefined;
  beforeAll(async () => {
    s = await startScenario();
    manager = new RobotsManager({ userAgent: options.userAgent, ...options.manager });
    const crawler = options.crawler();
    const plugin = await RobotsPlugin.attach(crawler, { userAgent: options.userAgent, manager, honorRelNofollow: true, ...options.plugin });
    await crawler.run([s.a.url('/'), s.a.url('/private/start'), s.b.url('/blocked/start')]);
    done({ s, manager, plugin, failed: crawler.stats.state.requestsFailed });
  }, options.timeout);
  afterAll(async () => {
    await manager?.close();
    await s?.site.close();
  });
}
