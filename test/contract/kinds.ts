/**
 * The crawler kinds of the contract suite: what each can do (its traits decide which doors apply)
 * and a factory that builds it from a set of Crawlee modules. The modules are a parameter so that
 * the same suite can run against another Crawlee release loaded from elsewhere; the default is the
 * 3.18 release @heed/crawlee itself depends on (`test/crawlee/site.ts`). Every kind gets the same
 * request-handler work and navigation-hook rewrite from the suite; a kind only says how its context
 * does each thing. What differs between Crawlee majors (how a crawler gets its storage and log, how
 * an answer's status reads, where the queue and the statistics are) is one table, {@link MAJORS}.
 */
import { pathToFileURL } from 'node:url';
import type { AnyCrawler } from '@heed/crawlee';
import { CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_LAUNCH_OPTIONS } from '../support/chromium.js';
import { packageEntry } from '../support/package-entry.js';
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
  /** As test titles and gaps name it. */
  readonly release: string;
  readonly major: Major;
  readonly core: Pick<typeof import('@crawlee/core'), 'Configuration' | 'log' | 'LogLevel'>;
  readonly basic: Pick<typeof import('@crawlee/basic'), 'BasicCrawler'>;
  readonly http: Pick<typeof import('@crawlee/http'), 'HttpCrawler' | 'FileDownload'>;
  readonly cheerio: Pick<typeof import('@crawlee/cheerio'), 'CheerioCrawler'>;
  readonly jsdom: Pick<typeof import('@crawlee/jsdom'), 'JSDOMCrawler'>;
  readonly playwright: Pick<typeof import('@crawlee/playwright'), 'PlaywrightCrawler' | 'AdaptivePlaywrightCrawler'>;
  readonly puppeteer: Pick<typeof import('@crawlee/puppeteer'), 'PuppeteerCrawler' | 'puppeteerRequestInterception'>;
  readonly browsers: { readonly playwright: typeof import('playwright'); readonly puppeteer: typeof import('puppeteer') };
}

/** The Crawlee release @heed/crawlee depends on: the same module instances the plugin uses. */
export const CRAWLEE_3_18: CrawleeModules = {
  release: '3.18',
  major: 3,
  core: crawleeCore,
  basic: crawleeBasic,
  http: crawleeHttp,
  cheerio: crawleeCheerio,
  jsdom: crawleeJsdom,
  playwright: crawleePlaywright,
  puppeteer: crawleePuppeteer,
  browsers: { playwright, puppeteer },
};

export type Major = 3 | 4;

/**
 * The newest release of each major the suite runs on (`npm test`'s 3.18, and Crawlee's master
 * after 4.0.0-rc.0): the kinds marked `newestOnly` crawl there only. Between them they drive both
 * browser-library majors the releases are tested with (Puppeteer 25 on 3.18, 24 on the Crawlee 4
 * builds; Playwright 1.65 on all).
 */
export const NEWEST_RELEASES: readonly string[] = ['3.18', '4-next'];

/** What Crawlee 4 adds to `@crawlee/core` that a crawler of the suite needs: its own in-memory storage and log. */
interface CoreV4 {
  readonly MemoryStorageBackend: new () => unknown;
  readonly ApifyLogAdapter: new (log: unknown) => unknown;
}

/** A crawler class of any release, as the suite constructs it. */
type CrawlerClass = new (options?: never, config?: never) => unknown;
/** The options a crawler class takes. */
type OptionsOf<Crawler> = Crawler extends new (options?: infer Options, config?: never) => unknown ? NonNullable<Options> : never;

/** An answer of `sendRequest()` or a page's response: got's in 3.x, a fetch `Response` in 4.x. */
type Answer = { readonly statusCode: number } | { readonly status: number };

/**
 * What differs between Crawlee majors, as far as the suite is concerned. The kinds below are
 * written once against this table.
 */
interface MajorTraits {
  /**
   * Constructs `Crawler` with `options`, a fresh in-memory storage (no crawl shares or persists
   * one), a quiet log named `name`, and for a browser kind, headless Chromium launched as `launch` says.
   */
  construct(Crawler: CrawlerClass, options: object, modules: CrawleeModules, name: string, launch?: Launch): ContractCrawler;
  /** The status of an answer. */
  status(answer: Answer): number;
  /** `context.sendRequest()` for `url`, with `timeoutMs` the call's timeout: got's option (3.x), the call's second argument (4.x). */
  send(context: Sending, url: string, timeoutMs: number | undefined): Promise<Answer>;
  /** Adds `urls` from the request handler of a page nothing parsed: `enqueueLinks({ urls })`; 4.x's BasicCrawler and HttpCrawler have `addRequests` only. */
  enqueueUrls(context: UnparsedContext, urls: string[]): Promise<unknown>;
  /** Where requests are added before the crawl: the request queue (3.x), the request manager (4.x). */
  requests(crawler: ContractCrawler): Promise<{ addRequests(requests: { url: string }[]): Promise<unknown> }>;
  /**
   * The options of a FileDownload that streams each download and hands it to `onDownload` once read
   * to its end, with its status: a `streamHandler` (3.x, which downloads in the handler instead of
   * navigating); a `requestHandler` reading the answer's body stream (4.x, which has no `streamHandler`).
   */
  streamedDownload(onDownload: (context: UnparsedContext, status: number) => Promise<void>): object;
  /** The crawler's statistics state: `stats` (3.x), `statistics` (4.x). */
  state(crawler: ContractCrawler): { readonly requestsFailed: number };
  /**
   * How AdaptivePlaywrightCrawler is told which browser to launch: its `launchContext` (3.x); 4.x's
   * takes no browser options (its options are BasicCrawler's), and its inner PlaywrightCrawler reads
   * the configuration's `defaultBrowserPath`.
   */
  readonly adaptiveLaunch: Launch['via'];
}

/** How a browser kind launches Debian's Chromium. */
export interface Launch {
  readonly launcher: unknown;
  readonly launchOptions: { readonly executablePath: string; readonly args: readonly string[] };
  /** Through the crawler's `launchContext`, or (a crawler without one) its configuration's `defaultBrowserPath`. */
  readonly via: 'options' | 'configuration';
}

/** A quiet child of the release's log. */
const quietLog = (modules: CrawleeModules, name: string) => modules.core.log.child({ prefix: name, level: modules.core.LogLevel.ERROR });
const configOf = (modules: CrawleeModules, launch?: Launch) =>
  new modules.core.Configuration({
    persistStorage: false,
    purgeOnStart: true,
    ...(launch?.via === 'configuration' ? { defaultBrowserPath: launch.launchOptions.executablePath, headless: true } : {}),
  });
type Stated = { readonly stats?: { state: { requestsFailed: number } }; readonly statistics?: { state: { requestsFailed: number } } };
const launchContext = (launch: Launch) => ({ launcher: launch.launcher, launchOptions: launch.launchOptions });

export const MAJORS: Readonly<Record<Major, MajorTraits>> = {
  3: {
    construct: (Crawler, options, modules, name, launch) =>
      new Crawler(
        {
          ...options,
          ...(launch && { headless: true, browserPoolOptions: { useFingerprints: false }, launchContext: launchContext(launch) }),
          log: quietLog(modules, name),
        } as never,
        configOf(modules) as never,
      ) as ContractCrawler,
    status: (answer) => ('statusCode' in answer ? answer.statusCode : answer.status),
    send: (context, url, timeoutMs) => context.sendRequest({ url, ...(timeoutMs !== undefined && { timeout: { request: timeoutMs } }) }),
    enqueueUrls: (context, urls) => context.enqueueLinks({ urls }),
    requests: (crawler) => crawler.getRequestQueue(),
    streamedDownload: (onDownload) => ({
      streamHandler: async (context: UnparsedContext & { stream: AsyncIterable<unknown>; response: { statusCode: number } }) => {
        for await (const _chunk of context.stream);
        await onDownload(context, context.response.statusCode);
      },
    }),
    state: (crawler) => (crawler as Stated).stats!.state,
    adaptiveLaunch: 'options',
  },
  4: {
    // The crawler's own configuration, storage backend and logger: each gives it its own service
    // locator. No `browserPoolOptions` (4.x takes a `browserPool` instead): fingerprints stay on.
    construct: (Crawler, options, modules, name, launch) => {
      const core = modules.core as unknown as CoreV4;
      return new Crawler({
        ...options,
        ...(launch?.via === 'options' && { headless: true, launchContext: launchContext(launch) }),
        configuration: configOf(modules, launch),
        storageBackend: new core.MemoryStorageBackend(),
        logger: new core.ApifyLogAdapter(quietLog(modules, name)),
      } as never) as ContractCrawler;
    },
    status: (answer) => ('status' in answer ? answer.status : answer.statusCode),
    send: (context, url, timeoutMs) => context.sendRequest({ url }, timeoutMs === undefined ? {} : { timeoutMillis: timeoutMs }),
    enqueueUrls: (context, urls) => (context as unknown as { addRequests(urls: string[]): Promise<unknown> }).addRequests(urls),
    requests: (crawler) => (crawler as unknown as { getRequestManager: ContractCrawler['getRequestQueue'] }).getRequestManager(),
    streamedDownload: (onDownload) => ({
      requestHandler: async (context: UnparsedContext & { response: Response }) => {
        await context.response.arrayBuffer();
        await onDownload(context, context.response.status);
      },
    }),
    state: (crawler) => (crawler as Stated).statistics!.state,
    adaptiveLaunch: 'configuration',
  },
};

/** The packages of a release, as a project outside the workspace has them installed. */
const PACKAGES = {
  core: '@crawlee/core',
  basic: '@crawlee/basic',
  http: '@crawlee/http',
  cheerio: '@crawlee/cheerio',
  jsdom: '@crawlee/jsdom',
  playwright: '@crawlee/playwright',
  puppeteer: '@crawlee/puppeteer',
} as const;

/** The Crawlee release `release` (major `major`) installed in project `dir`, loaded from there. */
export async function crawleeIn(dir: string, release: string, major: Major): Promise<CrawleeModules> {
  const load = (name: string) => import(pathToFileURL(packageEntry(dir, name)).href) as Promise<Record<string, unknown>>;
  const modules = Object.fromEntries(
    await Promise.all(Object.entries(PACKAGES).map(async ([key, name]) => [key, await load(name)] as const)),
  ) as unknown as Omit<CrawleeModules, 'release' | 'major' | 'browsers'>;
  const puppeteerModule = await load('puppeteer');
  return {
    release,
    major,
    ...modules,
    browsers: {
      playwright: (await load('playwright')) as unknown as typeof import('playwright'),
      puppeteer: (puppeteerModule['default'] ?? puppeteerModule) as typeof import('puppeteer'),
    },
  };
}

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
  /**
   * The handler's `enqueueLinks()` finds the links of the page the crawler fetched and parsed, which
   * Heed reads before the handler (`nofollow`). (HttpCrawler's handler adds URLs it was given.)
   */
  readonly followsLinks: boolean;
}

/** What the suite asks of every crawler it builds. */
export interface CrawlSpec {
  /** The request handler's work on a page (`url`: the request's URL), given what the kind's context can do. */
  readonly onPage: (url: string, actions: PageActions) => Promise<void>;
  /** What a `preNavigationHook` sets `request.url` to, if anything. */
  readonly rewrite: (url: string) => string | undefined;
}

/** What the suite needs of a crawler, beyond what `attach()` takes (the rest differs by major: {@link MAJORS}). */
export interface ContractCrawler extends AnyCrawler {
  run(requests?: (string | { requestsFromUrl: string })[]): Promise<unknown>;
  getRequestQueue(): Promise<{ addRequests(requests: { url: string }[]): Promise<unknown> }>;
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
  /**
   * Releases (as `CrawleeModules.release` names them) where the kind is not the one its cells
   * describe, and why: its cells do not apply there.
   */
  readonly absentOn?: Readonly<Record<string, string>>;
  /**
   * Why the kind crawls only on the newest release of each major ({@link NEWEST_RELEASES}), if it
   * does: what it adds to its base kind is the user's own code against the browser library, which
   * the base kind's crawl on every release does not change.
   */
  readonly newestOnly?: string;
  /** The releases of {@link absentOn} where `attach()` refuses the kind (`UnsupportedCrawlerError`): checked, not merely skipped. */
  readonly refusedOn?: readonly string[];
  /**
   * The kind this one is, with something of the user's in place (their own request routing): the
   * gaps of that kind are this one's too.
   */
  readonly variantOf?: string;
  /** What the crawl must show of the kind itself, so that its cells test the kind they name. */
  readonly control?: { readonly title: string; holds(crawler: ContractCrawler, modules: CrawleeModules): boolean };
}

/** The context members the handlers use, alike on every kind that has them. */
interface HandlerContext {
  readonly request: { readonly url: string };
  enqueueLinks(options?: { urls?: string[] }): Promise<unknown>;
}
interface Sending {
  sendRequest(options?: { url?: string; timeout?: { request: number } }, callOptions?: { timeoutMillis?: number }): Promise<Answer>;
}
interface UnparsedContext extends Sending {
  readonly request: { readonly url: string };
  enqueueLinks(options: { urls: string[] }): Promise<unknown>;
}

const send = (context: Sending, modules: CrawleeModules) => async (url: string, timeoutMs?: number) => {
  const major = MAJORS[modules.major];
  return major.status(await major.send(context, url, timeoutMs));
};

/** The actions of a page its crawler parsed: `enqueueLinks()` finds the links itself. */
function parsed(context: HandlerContext, sendRequest: PageActions['sendRequest']): PageActions {
  return { enqueueLinks: async () => void (await context.enqueueLinks()), sendRequest };
}

/** The actions of a page nothing parsed (BasicCrawler, HttpCrawler): its links go to `enqueueLinks` as URLs. */
function unparsed(context: UnparsedContext, modules: CrawleeModules): PageActions {
  return {
    enqueueLinks: async (links) =>
      void (await MAJORS[modules.major].enqueueUrls(
        context,
        links.map((link) => new URL(link, context.request.url).href),
      )),
    sendRequest: send(context, modules),
  };
}

/** An answer the handler fetched or was handed with an error status fails the page, retried, as the crawlers that fetch treat it. */
function failOn(status: number, url: string): void {
  if (status >= 400) throw new Error(`HTTP ${status} for ${url}`);
}

/**
 * Options every kind shares: retries (a 429 is retried); every door's page at once from the start
 * (Crawlee would scale up from one page over seconds). The major adds storage and a quiet log.
 */
const COMMON = { maxRequestRetries: 2, minConcurrency: 8, maxConcurrency: 8 } as const;

/**
 * `Crawler` of `modules` with `options` and the common ones, constructed as its major does. The
 * options are typed as 3.18's, which the suite is written against.
 */
function construct<Crawler extends CrawlerClass>(
  modules: CrawleeModules,
  Crawler: Crawler,
  name: string,
  options: OptionsOf<Crawler>,
  launch?: Launch,
): ContractCrawler {
  return MAJORS[modules.major].construct(Crawler as CrawlerClass, { ...COMMON, ...options }, modules, name, launch);
}

function rewriteHook(spec: CrawlSpec) {
  return ({ request }: { request: { url: string } }) => {
    const target = spec.rewrite(request.url);
    if (target !== undefined) request.url = target;
  };
}

const playwrightLaunch = (modules: CrawleeModules, via: Launch['via']): Launch => ({
  launcher: modules.browsers.playwright.chromium,
  launchOptions: PLAYWRIGHT_LAUNCH_OPTIONS,
  via,
});

const HTTP_TRAITS: KindTraits = {
  fetchesPages: true,
  navigationHooks: true,
  subresources: 'none',
  scripts: false,
  browser: false,
  handlerSendRequest: true,
  followsLinks: true,
};
const BROWSER_TRAITS: KindTraits = { ...HTTP_TRAITS, subresources: 'browser', scripts: true, browser: true };

/** How many pages AdaptivePlaywrightCrawler handled in each rendering (its statistics count them). */
function renderings(crawler: ContractCrawler, modules: CrawleeModules): { http: number; browser: number } {
  const state = MAJORS[modules.major].state(crawler) as { httpOnlyRequestHandlerRuns?: number; browserRequestHandlerRuns?: number };
  return { http: state.httpOnlyRequestHandlerRuns ?? 0, browser: state.browserRequestHandlerRuns ?? 0 };
}

/** The Crawlee 4 builds test/compat/contract.test.ts runs the suite on. */
const CRAWLEE_4_RELEASES = ['4.0.0-rc.0', '4-next'];
const ADAPTIVE_REFUSED_ON_4 =
  'attach() refuses it (UnsupportedCrawlerError): it renders each page in inner crawlers of its own that no extension ' +
  'point reaches, so rewrites, redirects and page resources would go unchecked.';

/** AdaptivePlaywrightCrawler in one rendering throughout, so that no cell depends on the crawler's guess. */
function adaptive<Id extends string>(id: Id, rendering: 'static' | 'clientOnly') {
  const httpOnly = rendering === 'static';
  return {
    id,
    name: `AdaptivePlaywrightCrawler (${httpOnly ? 'HTTP-only' : 'browser'} rendering)`,
    // Its handler's context is restricted: no sendRequest.
    traits: { ...(httpOnly ? HTTP_TRAITS : BROWSER_TRAITS), handlerSendRequest: false },
    needsChromium: true,
    absentOn: {
      ...(httpOnly
        ? {
            '3.13.0':
              'its HTTP-only rendering runs no preNavigationHooks, fetches the page with `sendRequest()` (a redirect hop is a ' +
              'send-request skip that fails the page) and hands the handler no response (a 429 is handled as a page).',
          }
        : {}),
      ...Object.fromEntries(CRAWLEE_4_RELEASES.map((release) => [release, ADAPTIVE_REFUSED_ON_4])),
    },
    refusedOn: CRAWLEE_4_RELEASES,
    control: {
      title: httpOnly
        ? 'renders its pages HTTP-only, as its rendering-type predictor says (in the browser only a page whose HTTP-only run failed)'
        : 'renders every page in the browser, as its rendering-type predictor says',
      holds: (crawler: ContractCrawler, modules: CrawleeModules) => {
        const { http, browser } = renderings(crawler, modules);
        // A page whose HTTP-only run fails (its 429, a navigation Heed refused) is rendered again in the browser.
        return httpOnly ? http > 0 && browser < http : http === 0;
      },
    },
    build: (spec: CrawlSpec, modules: CrawleeModules = CRAWLEE_3_18): ContractCrawler =>
      construct(
        modules,
        modules.playwright.AdaptivePlaywrightCrawler,
        'AdaptivePlaywrightCrawler',
        {
          renderingTypePredictor: {
            initialize: async () => {},
            predict: () => ({ renderingType: rendering, detectionProbabilityRecommendation: 0 }),
            storeResult: () => {},
          },
          preNavigationHooks: [rewriteHook(spec)],
          requestHandler: async (context) => {
            // HTTP-only rendering hands the handler any answer; a browser's is checked by Crawlee first.
            // (3.13's context has no `response`, and its HTTP-only rendering fails on no status.)
            const response = context.response as Answer | undefined;
            if (response !== undefined) failOn(MAJORS[modules.major].status(response), context.request.url);
            await spec.onPage(context.request.url, parsed(context, undefined));
          },
        },
        playwrightLaunch(modules, MAJORS[modules.major].adaptiveLaunch),
      ),
  } as const satisfies Kind;
}

/** The parts of Playwright's `Page` and `Route` the user's routes use. */
interface RoutedPage {
  route(url: string, handler: (route: UserRoute) => Promise<void>): Promise<void>;
  context(): { route(url: string, handler: (route: UserRoute) => Promise<void>): Promise<void> };
  on(event: 'popup', listener: (popup: RoutedPage) => void): unknown;
}
interface UserRoute {
  fetch(): Promise<unknown>;
  fulfill(options: { response: unknown }): Promise<void>;
  continue(): Promise<void>;
}

/** Where a browser kind's user routes or intercepts requests: before the navigation, and in the request handler. */
interface UserRouting<Page> {
  beforeGoto(page: Page): Promise<void>;
  inHandler?(page: Page): Promise<void>;
}

/**
 * Routes as users write them, each where it takes precedence over Heed's: a page route that fetches
 * the answer itself and hands it to the page (the usual way to rewrite a response; Playwright sends
 * that fetch from Node, following redirects itself), a context route per page (which popups
 * reach), a route of each popup that lets everything go on, all from a `preNavigationHook`; and in
 * the request handler, a page route that lets everything go on (registered last, it runs first).
 */
const USER_ROUTES: UserRouting<RoutedPage> = {
  beforeGoto: async (page) => {
    await page.route('**/*', async (route) => route.fulfill({ response: await route.fetch() }));
    await page.context().route('**/*', (route) => route.continue());
    page.on('popup', (popup) => void popup.route('**/*', (route) => route.continue()));
  },
  inHandler: (page) => page.route('**/*', (route) => route.continue()),
};

/** The parts of Puppeteer's `Page` and `HTTPRequest` the user's interception uses. */
interface InterceptedPage {
  setRequestInterception(value: boolean): Promise<void>;
  on(event: 'request', handler: (request: InterceptedRequest) => void): unknown;
}
interface InterceptedRequest {
  isInterceptResolutionHandled(): boolean;
  continueRequestOverrides(): object;
  continue(overrides?: object, priority?: number): Promise<void>;
}

/** Puppeteer's cooperative interception as its docs show it: every request continued, at priority 0. */
const COOPERATIVE_INTERCEPTION: UserRouting<InterceptedPage> = {
  beforeGoto: async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (!request.isInterceptResolutionHandled()) void request.continue(request.continueRequestOverrides(), 0);
    });
  },
};

/** Crawlee's own interception helper, continuing every request (it settles each in legacy mode). */
const crawleeInterception = (modules: CrawleeModules): UserRouting<InterceptedPage> => ({
  beforeGoto: (page) =>
    modules.puppeteer.puppeteerRequestInterception.addInterceptRequestHandler(page as never, (request) => request.continue()),
});

/** `hook` as a navigation hook of a browser kind. */
const pageHook =
  <Page>(hook: (page: Page) => Promise<void>) =>
  ({ page }: { page: unknown }) =>
    hook(page as Page);

function playwrightCrawler(spec: CrawlSpec, modules: CrawleeModules, user?: UserRouting<RoutedPage>): ContractCrawler {
  return construct(
    modules,
    modules.playwright.PlaywrightCrawler,
    'PlaywrightCrawler',
    {
      preNavigationHooks: [rewriteHook(spec), ...(user ? [pageHook(user.beforeGoto)] : [])],
      requestHandler: async (context) => {
        await user?.inHandler?.(context.page as unknown as RoutedPage);
        await spec.onPage(context.request.url, parsed(context, send(context, modules)));
      },
    },
    playwrightLaunch(modules, 'options'),
  );
}

function puppeteerCrawler(
  spec: CrawlSpec,
  modules: CrawleeModules,
  user?: (modules: CrawleeModules) => UserRouting<InterceptedPage>,
): ContractCrawler {
  const routing = user?.(modules);
  return construct(
    modules,
    modules.puppeteer.PuppeteerCrawler,
    'PuppeteerCrawler',
    {
      preNavigationHooks: [rewriteHook(spec), ...(routing ? [pageHook(routing.beforeGoto)] : [])],
      requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context, modules))),
    },
    { launcher: modules.browsers.puppeteer, launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS }, via: 'options' },
  );
}

/**
 * The user's own routes and cooperative interception are the user's code and the browser library's:
 * Crawlee's release changes neither, nor how Heed takes them back. (Crawlee's own
 * `addInterceptRequestHandler()` is Crawlee's code: that variant crawls on every release.)
 */
const USER_ROUTING_ON_NEWEST =
  "the user's own routing is the browser library's and the user's code, not the Crawlee release's: it crawls on the newest release of each major";

export const KINDS = [
  {
    id: 'basic',
    name: 'BasicCrawler',
    traits: { ...HTTP_TRAITS, fetchesPages: false, navigationHooks: false, followsLinks: false },
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      construct(modules, modules.basic.BasicCrawler, 'BasicCrawler', {
        requestHandler: async (context) => {
          // BasicCrawler fetches nothing: the handler fetches its page, as its users do.
          failOn(MAJORS[modules.major].status(await context.sendRequest()), context.request.url);
          await spec.onPage(context.request.url, unparsed(context, modules));
        },
      }),
  },
  {
    id: 'http',
    name: 'HttpCrawler',
    traits: { ...HTTP_TRAITS, followsLinks: false },
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      construct(modules, modules.http.HttpCrawler, 'HttpCrawler', {
        preNavigationHooks: [rewriteHook(spec)],
        requestHandler: async (context) => spec.onPage(context.request.url, unparsed(context, modules)),
      }),
  },
  {
    id: 'cheerio',
    name: 'CheerioCrawler',
    traits: HTTP_TRAITS,
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      construct(modules, modules.cheerio.CheerioCrawler, 'CheerioCrawler', {
        preNavigationHooks: [rewriteHook(spec)],
        requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context, modules))),
      }),
  },
  {
    id: 'jsdom',
    name: 'JSDOMCrawler',
    // With the page's scripts run, as a crawler that needs a DOM usually has them.
    traits: { ...HTTP_TRAITS, subresources: 'dom', scripts: true },
    needsChromium: false,
    build: (spec, modules = CRAWLEE_3_18) =>
      construct(modules, modules.jsdom.JSDOMCrawler, 'JSDOMCrawler', {
        runScripts: true,
        hideInternalConsole: true,
        preNavigationHooks: [rewriteHook(spec)],
        requestHandler: async (context) => spec.onPage(context.request.url, parsed(context, send(context, modules))),
      }),
  },
  {
    id: 'playwright',
    name: 'PlaywrightCrawler',
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) => playwrightCrawler(spec, modules),
  },
  {
    id: 'playwright-user-routes',
    name: "PlaywrightCrawler with the user's own routes",
    variantOf: 'playwright',
    newestOnly: USER_ROUTING_ON_NEWEST,
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) => playwrightCrawler(spec, modules, USER_ROUTES),
  },
  {
    id: 'puppeteer',
    name: 'PuppeteerCrawler',
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) => puppeteerCrawler(spec, modules),
  },
  {
    id: 'puppeteer-user-interception',
    name: "PuppeteerCrawler with the user's cooperative request interception",
    variantOf: 'puppeteer',
    newestOnly: USER_ROUTING_ON_NEWEST,
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) => puppeteerCrawler(spec, modules, () => COOPERATIVE_INTERCEPTION),
  },
  {
    id: 'puppeteer-crawlee-interception',
    name: "PuppeteerCrawler with Crawlee's `addInterceptRequestHandler()`",
    variantOf: 'puppeteer',
    traits: BROWSER_TRAITS,
    needsChromium: true,
    build: (spec, modules = CRAWLEE_3_18) => puppeteerCrawler(spec, modules, crawleeInterception),
  },
  {
    id: 'file-download',
    name: 'FileDownload (streamed)',
    // It downloads in its handler's step (3.x's `streamHandler` skips the navigation and its hooks; 4.x's has none).
    traits: { ...HTTP_TRAITS, navigationHooks: false, followsLinks: false },
    needsChromium: false,
    absentOn: {
      '3.13.0':
        "3.13's FileDownload does not run the suite's streamed crawl as later releases do (its allowed twins never reached " +
        'the site and requests failed there); not yet traced.',
    },
    build: (spec, modules = CRAWLEE_3_18) => {
      // 3.x's FileDownload takes no configuration and runs on the global one: its storage too is kept
      // in memory, so that no crawl reads a queue an earlier one left on disk.
      if (modules.major === 3) modules.core.Configuration.getGlobalConfig().set('persistStorage', false);
      return construct(
        modules,
        modules.http.FileDownload,
        'FileDownload',
        MAJORS[modules.major].streamedDownload(async (context, status) => {
          failOn(status, context.request.url);
          await spec.onPage(context.request.url, unparsed(context, modules));
        }) as OptionsOf<typeof modules.http.FileDownload>,
      );
    },
  },
  adaptive('adaptive-http', 'static'),
  adaptive('adaptive-browser', 'clientOnly'),
] as const satisfies readonly Kind[];

export type KindId = (typeof KINDS)[number]['id'];
