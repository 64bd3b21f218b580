/**
 * The crawler kinds of the contract suite: what each can do (its traits decide which doors apply)
 * and a factory that builds it from a set of Crawlee modules. The modules are a parameter so that
 * the same suite can run against another Crawlee release loaded from elsewhere; the default is the
 * 3.18 release @heed/crawlee itself depends on (`test/crawlee/site.ts`). Every kind gets the same
 * request-handler work and navigation-hook rewrite from the suite; a kind only says how its context
 * does each thing.
 */
import type { Configuration } from '@crawlee/core';
import type { AnyCrawler } from '@heed/crawlee';
import { CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS } from '../support/chromium.js';
import {
  crawleeBasic,
  crawleeCheerio,
  crawleeCore,
  crawleeHttp,
  crawleeJsdom,
  crawleePlaywright,
  crawleePuppeteer,
  playwright,
  puppeteer,
} from '../crawlee/site.js';
import type { PageActions } from './doors.js';

/** One Crawlee release: its crawler packages and the browser libraries they drive. */
export interface CrawleeModules {
  /** As test titles name it. */
  readonly release: string;
  readonly core: Pick<typeof import('@crawlee/core'), 'Configuration' | 'log' | 'LogLevel'>;
  readonly basic: Pick<typeof import('@crawlee/basic'), 'BasicCrawler'>;
  readonly http: Pick<typeof import('@crawlee/http'), 'HttpCrawler'>;
  readonly cheerio: Pick<typeof import('@crawlee/cheerio'), 'CheerioCrawler'>;
  readonly jsdom: Pick<typeof import('@crawlee/jsdom'), 'JSDOMCrawler'>;
  readonly playwright: Pick<typeof import('@crawlee/playwright'), 'PlaywrightCrawler' | 'AdaptivePlaywrightCrawler'>;
  readonly puppeteer: Pick<typeof import('@crawlee/puppeteer'), 'PuppeteerCrawler'>;
  readonly browsers: { readonly playwright: typeof import('playwright'); readonly puppeteer: typeof import('puppeteer') };
}

/** The Crawlee release @heed/crawlee depends on: the same module instances the plugin uses. */
export const CRAWLEE_3_18: CrawleeModules = {
  release: '3.18',
  core: crawleeCore,
  basic: crawleeBasic,
  http: crawleeHttp,
  cheerio: crawleeCheerio,
  jsdom: crawleeJsdom,
  playwright: crawleePlaywright,
  puppeteer: crawleePuppeteer,
  browsers: { playwright, puppeteer },
};

/** What a kind can do: a door applies to the kinds with the traits it needs. */
export interface KindTraits {
  /** The crawler fetches its pages itself (BasicCrawler leaves that to the handler's `sendRequest`). */
  readonly fetchesPages: boolean;
  /** `preNavigationHooks` run before each fetch. */
  readonly navigationHooks: boolean;
  /** Which sub-resources of a page it loads: none, a DOM's (stylesheets, scripts, frames), a browser's (images too). */
  readonly subresources: 'none' | 'dom' | 'browser';
  /** The page's scripts run. */
  readonly scripts: boolean;
  /** A real browser: popups, workers. */
  readonly browser: boolean;
  /** The request handler's context has `sendRequest`. */
  readonly handlerSendRequest: boolean;
}

/** What the suite asks of every crawler it builds. */
export interface CrawlSpec {
  /** The request handler's work on a page (`url`: the request's URL), given what the kind's context can do. */
  readonly onPage: (url: string, actions: PageActions) => Promise<void>;
  /** What a `preNavigationHook` sets `request.url` to, if anything. */
  readonly rewrite: (url: string) => string | undefined;
}

/** What the suite needs of a crawler, beyond what `attach()` takes. */
export interface ContractCrawler extends AnyCrawler {
  run(requests?: string[]): Promise<unknown>;
  getRequestQueue(): Promise<{ addRequests(requests: { url: string }[]): Promise<unknown> }>;
  readonly stats: { readonly state: { readonly requestsFailed: number } };
}

export interface Kind {
  readonly id: string;
  /** The class, as users know it (and the docs name it). */
  readonly name: string;
  readonly traits: KindTraits;
  /** Launches Chromium: skipped where it is missing. */
  readonly needsChromium: boolean;
  /** Builds the crawler from `modules` (by default the 3.18 release the plugin depends on). */
  build(spec: CrawlSpec, modules?: CrawleeModules): ContractCrawler;
  /** What the crawl must show of the kind itself, so that its cells test the kind they name. */
  readonly control?: { readonly title: string; holds(crawler: ContractCrawler): boolean };
}

/** The context members the handlers use, alike on every kind that has them. */
interface HandlerContext {
  readonly request: { readonly url: string };
  enqueueLinks(options?: { urls?: string[] }): Promise<unknown>;
}
interface Sending {
  sendRequest(options?: { url?: string }): Promise<{ statusCode: number }>;
}
interface UnparsedContext extends Sending {
  readonly request: { readonly url: string };
  enqueueLinks(options: { urls: string[] }): Promise<unknown>;
}

const send = (context: Sending) => async (url: string) => (await context.sendRequest({ url })).statusCode;

/** The actions of a page its crawler parsed: `enqueueLinks()` finds the links itself. */
function parsed(context: HandlerContext, sendRequest: PageActions['sendRequest']): PageActions {
  return { enqueueLinks: async () => void (await context.enqueueLinks()), sendRequest };
}

/** The actions of a page nothing parsed (BasicCrawler, HttpCrawler): its links go to `enqueueLinks` as URLs. */
function unparsed(context: UnparsedContext): PageActions {
  return {
    enqueueLinks: async (links) =>
      void (await context.enqueueLinks({ urls: links.map((link) => new URL(link, context.request.url).href) })),
    sendRequest: send(context),
  };
}

/** An answer the handler fetched or was handed with an error status fails the page, retried, as the crawlers that fetch treat it. */
function failOn(status: number, url: string): void {
  if (status >= 400) throw new Error(`HTTP ${status} for ${url}`);
}

/**
 * Options every kind shares: retries (a 429 is retried); every door's page at once from the start
 * (Crawlee would scale up from one page over seconds); a quiet log.
 */
function common(modules: CrawleeModules, name: string) {
  return {
    maxRequestRetries: 2,
    minConcurrency: 8,
    maxConcurrency: 8,
    log: modules.core.log.child({ prefix: name, level: modules.core.LogLevel.ERROR }),
  };
}

function rewriteHook(spec: CrawlSpec) {
  return ({ request }: { request: { url: string } }) => {
    const target = spec.rewrite(request.url);
    if (target !== undefined) request.url = target;
  };
}

/** A fresh in-memory configuration: no crawl shares or persists storage. */
const newConfig = (modules: CrawleeModules): Configuration => new modules.core.Configuration({ persistStorage: false, purgeOnStart: true });

const browserOptions = { headless: true, browserPoolOptions: { useFingerprints: false } } as const;

const HTTP_TRAITS: KindTraits = {
  fetchesPages: true,
  navigationHooks: true,
  subresources: 'none',
  scripts: false,
  browser: false,
  handlerSendRequest: true,
};
const BROWSER_TRAITS: KindTraits = { ...HTTP_TRAITS, subresources: 'browser', scripts: true, browser: true };

/** How many pages AdaptivePlaywrightCrawler handled in each rendering (its statistics count them). */
function renderings(crawler: ContractCrawler): { http: number; browser: number } {
  const state = crawler.stats.state as { httpOnlyRequestHandlerRuns?: number; browserRequestHandlerRuns?: number };
  return { http: state.httpOnlyRequestHandlerRuns ?? 0, browser: state.browserRequestHandlerRuns ?? 0 };
}

/** AdaptivePlaywrightCrawler in one rendering throughout, so that no cell depends on the crawler's guess. */
function adaptive<Id extends string>(id: Id, rendering: 'static' | 'clientOnly') {
  const httpOnly = rendering === 'static';
  return {
    id,
    name: `AdaptivePlaywrightCrawler (${httpOnly ? 'HTTP-only' : 'browser'} rendering)`,
    // Its handler's context is restricted: no sendRequest.
    traits: { ...(httpOnly ? HTTP_TRAITS : BROWSER_TRAITS), handlerSendRequest: false },
    needsChromium: true,
    control: {
      title: httpOnly
        ? 'renders its pages HTTP-only, as its rendering-type predictor says (in the browser only a page whose HTTP-only run failed)'
        : 'renders every page in the browser, as its rendering-type predictor says',
      holds: (crawler: ContractCrawler) => {
        const { http, browser } = renderings(crawler);
        // A page whose HTTP-only run fails (its 429, a navigation Heed refused) is rendered again in the browser.
        return httpOnly ? http > 0 && browser < http : http === 0;
      },
    },
    build: (spec: CrawlSpec, modules: CrawleeModules = CRAWLEE_3_18): ContractCrawler =>
      new modules.playwright.AdaptivePlaywrightCrawler(
        {
          ...common(modules, 'AdaptivePlaywrightCrawler'),
          ...browserOptions,
          renderingTypePredictor: {
            initialize: async () => {},
            predict: () => ({ renderingType: rendering, detectionProbabilityRecommendation: 0 }),
            storeResult: () => {},
          },
          launchContext: { launcher: modules.browsers.playwright.chromium, launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS },
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => {
            // HTTP-only rendering hands the handler any answer; a browser's is checked by Crawlee first.
            failOn(context.response.statusCode, context.request.url);
            await spec.onPage(context.request.url, parsed(context, undefined));
          },
        },
        newConfig(modules),
      ),
  } as const satisfies Kind;
}

export const KINDS = [
  {
    id: 'basic',
    name: 'BasicCrawler',
    traits: { ...HTTP_TRAITS, fetchesPages: false, navigationHooks: false },
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.basic.BasicCrawler(
        {
          ...common(modules, 'BasicCrawler'),
          requestHandler: async (context) => {
            // BasicCrawler fetches nothing: the handler fetches its page, as its users do.
            failOn((await context.sendRequest()).statusCode, context.request.url);
            await spec.onPage(context.request.url, unparsed(context));
          },
        },
        newConfig(modules),
      ),
  },
  {
    id: 'http',
    name: 'HttpCrawler',
    traits: HTTP_TRAITS,
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.http.HttpCrawler(
        {
          ...common(modules, 'HttpCrawler'),
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => spec.onPage(context.request.url, unparsed(context)),
        },
        newConfig(modules),
      ),
  },
  {
    id: 'cheerio',
    name: 'CheerioCrawler',
    traits: HTTP_TRAITS,
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.cheerio.CheerioCrawler(
        {
          ...common(modules, 'CheerioCrawler'),
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context))),
        },
        newConfig(modules),
      ),
  },
  {
    id: 'jsdom',
    name: 'JSDOMCrawler',
    // With the page's scripts run, as a crawler that needs a DOM usually has them.
    traits: { ...HTTP_TRAITS, subresources: 'dom', scripts: true },
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.jsdom.JSDOMCrawler(
        {
          ...common(modules, 'JSDOMCrawler'),
          runScripts: true,
          hideInternalConsole: true,
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context))),
        },
        newConfig(modules),
      ),
  },
  {
    id: 'playwright',
    name: 'PlaywrightCrawler',
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.playwright.PlaywrightCrawler(
        {
          ...common(modules, 'PlaywrightCrawler'),
          ...browserOptions,
          launchContext: { launcher: modules.browsers.playwright.chromium, launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS },
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context))),
        },
        newConfig(modules),
      ),
  },
  {
    id: 'puppeteer',
    name: 'PuppeteerCrawler',
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) =>
      new modules.puppeteer.PuppeteerCrawler(
        {
          ...common(modules, 'PuppeteerCrawler'),
          ...browserOptions,
          launchContext: { launcher: modules.browsers.puppeteer, launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } },
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context))),
        },
        newConfig(modules),
      ),
  },
  adaptive('adaptive-http', 'static'),
  adaptive('adaptive-browser', 'clientOnly'),
] as const satisfies readonly Kind[];

export type KindId = (typeof KINDS)[number]['id'];
