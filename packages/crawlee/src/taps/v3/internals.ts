/**
 * The one module that touches a Crawlee 3 crawler's protected or `@internal` members (Crawlee 4's
 * are in `v4/internals.ts`). Everything else
 * the plugin uses is Crawlee's public API: `crawler.getRequestQueue()` and the request queue's
 * methods (`addRequest(s)`, `addRequestsBatched`, `fetchNextRequest`, `markRequestHandled`,
 * `reclaimRequest`, `isFinished`), `crawler.run()`, `crawler.log`, the crawling context's
 * `enqueueLinks`, got's hooks and the browser page's request interception.
 *
 * Each access below is feature-detected and names the releases that have it. Checked against the
 * published @crawlee/basic, @crawlee/http and @crawlee/browser 3.13.0, 3.13.8, 3.15.3, 3.16.0,
 * 3.17.0 and 3.18.1 (the consumer test in test/compat runs 3.13.0 → 3.18.1).
 */
import { createRequire } from 'node:module';
import { loadedPackageOf, type ContextInternals, type NavigationHook, type PublicCrawler } from '../crawler-shape.js';

/** Protected and internal members, each optional: what a release lacks is `undefined`. */
interface ProtectedMembers {
  respectRobotsTxtFile?: boolean | { userAgent?: string };
  _runRequestHandler?(context: ContextInternals): Promise<void>;
  preNavigationHooks?: NavigationHook[];
  postNavigationHooks?: NavigationHook[];
  browserPool?: unknown;
  shouldPropagateError?(error: unknown, context: ContextInternals): boolean | Promise<boolean>;
}

type Crawler = PublicCrawler & ProtectedMembers;

/** The public members `attach()` needs, checked before anything is hooked. */
const REQUIRED_PUBLIC = ['getRequestQueue', 'addRequests', 'run'] as const;

/**
 * The name of the first member `crawler` lacks that the plugin cannot work without, or `undefined`.
 * `_runRequestHandler` (protected, every 3.x release) is where a request ends as a skip instead of
 * a failure and where the last check before the fetch runs when the queue's was bypassed.
 */
export function missingMember(crawler: object): string | undefined {
  const record = crawler as Record<string, unknown>;
  const missing = REQUIRED_PUBLIC.find((name) => typeof record[name] !== 'function');
  if (missing) return `${missing}()`;
  if (typeof record['_runRequestHandler'] !== 'function') return '_runRequestHandler()';
  return typeof record['log'] === 'object' && record['log'] !== null ? undefined : 'log';
}

// ---- protected members -------------------------------------------------------------------------

/**
 * `respectRobotsTxtFile` (3.13.8+): Crawlee's own robots.txt checks (its own fetch, its own parser)
 * are switched off when the user turned them on, so one parser decides and robots.txt is fetched
 * once. Heed's checks cover the same points (enqueue, before the fetch). Releases before 3.13.8
 * have no such checks.
 */
export function turnOffCrawleeRobotsCheck(crawler: PublicCrawler): void {
  const c = crawler as Crawler;
  if (!c.respectRobotsTxtFile) return;
  crawler.log.info("RobotsPlugin: replacing the crawler's respectRobotsTxtFile checks with Heed's.");
  c.respectRobotsTxtFile = false;
}

/**
 * Wraps `_runRequestHandler` (protected, every 3.x release): the step between taking a request
 * from the queue and marking it handled, which includes the navigation of HTTP and browser
 * crawlers. `around` runs in its place and calls `next` to go on.
 */
export function wrapRequestHandling(
  crawler: PublicCrawler,
  around: (context: ContextInternals, next: (context: ContextInternals) => Promise<void>) => Promise<void>,
): void {
  const c = crawler as Crawler;
  const original = c._runRequestHandler!.bind(c);
  c._runRequestHandler = (context) => around(context, original);
}

/**
 * Heed's navigation hooks of HTTP and browser crawlers: two lists, `pre` and `post`, that the
 * plugin's modules add to as they would to the crawler's own `preNavigationHooks` and
 * `postNavigationHooks` (protected arrays filled from the public options, every 3.x release).
 * The crawler runs each list as one hook: `pre` after the hooks the crawler was built with, `post`
 * before them. Crawlee awaits every navigation hook in turn, so each hook costs every page an
 * await; Heed's run in one, and wait only for those that return a promise.
 */
export function navigationHooks(crawler: PublicCrawler): { pre: NavigationHook[]; post: NavigationHook[] } | undefined {
  const c = crawler as Crawler;
  if (!Array.isArray(c.preNavigationHooks) || !Array.isArray(c.postNavigationHooks)) return undefined;
  let lists = heedNavigationHooks.get(c);
  if (lists === undefined) {
    const pre: NavigationHook[] = [];
    const post: NavigationHook[] = [];
    c.preNavigationHooks.push((context, options) => runHooks(pre, 0, context, options));
    c.postNavigationHooks.unshift((context, options) => runHooks(post, 0, context, options));
    lists = { pre, post };
    heedNavigationHooks.set(c, lists);
  }
  return lists;
}

const heedNavigationHooks = new WeakMap<object, { pre: NavigationHook[]; post: NavigationHook[] }>();

/** Runs `hooks` from `from` in order, as Crawlee would: each after the one before has settled; a throw or a rejection ends the run. */
function runHooks(hooks: readonly NavigationHook[], from: number, context: ContextInternals, options: Record<string, unknown>): unknown {
  for (let i = from; i < hooks.length; i++) {
    const result = (hooks[i] as NavigationHook)(context, options);
    if (result instanceof Promise) return result.then(() => runHooks(hooks, i + 1, context, options));
  }
  return undefined;
}

/** jsdom's `ResourceLoader` class, as far as the plugin uses it (`fetch` is jsdom's documented extension point). */
export interface ResourceLoaderClass {
  prototype: { fetch: ResourceFetch };
}

/** `ResourceLoader.prototype.fetch`: a promise with `abort()` and `response`, or `null` for "do not load". */
export type ResourceFetch = (
  this: unknown,
  url: string,
  options?: Record<string, unknown>,
) => (Promise<unknown> & { abort?: () => void; response?: unknown }) | null;

/**
 * A `require` that resolves from the `@crawlee/jsdom` of `crawler`'s JSDOMCrawler, so that `jsdom`
 * (and its modules) are the ones that crawler loads; `undefined` when it is not a JSDOMCrawler, or a
 * bundled one. Found by `loadedPackageOf`: the `@crawlee/jsdom` in Node's module cache whose
 * `JSDOMCrawler` is in the crawler's class chain.
 */
export function jsdomRequireOf(crawler: object): NodeJS.Require | undefined {
  const file = loadedPackageOf(crawler, 'jsdom', 'JSDOMCrawler');
  return file === undefined ? undefined : createRequire(file);
}

/**
 * The `ResourceLoader` class of the jsdom `require` loads, or `undefined`. JSDOMCrawler builds every
 * page with one module-level `new ResourceLoader()` that no option replaces (3.13.0 – 3.18.1, and
 * 4.0.0-rc.0): its class is the only way in.
 */
export function jsdomResourceLoader(require: NodeJS.Require): ResourceLoaderClass | undefined {
  try {
    const loader = (require('jsdom') as { ResourceLoader?: ResourceLoaderClass }).ResourceLoader;
    return typeof loader?.prototype?.fetch === 'function' ? loader : undefined;
  } catch {
    return undefined;
  }
}

/**
 * AdaptivePlaywrightCrawler (3.13+) renders a page again in the browser when its HTTP-only run
 * throws, unless `shouldPropagateError` (protected, the option of that name) says to pass the
 * error on. A page Heed stopped on purpose (`isStop`: its usage preferences disallow a declared
 * purpose) is passed on, to end as its skip rather than be fetched and rendered again.
 */
export function propagateStops(crawler: PublicCrawler, isStop: (error: unknown) => boolean): void {
  const c = crawler as Crawler;
  if (typeof c.shouldPropagateError !== 'function') return;
  const own = c.shouldPropagateError.bind(c);
  c.shouldPropagateError = (error, context) => isStop(error) || own(error, context);
}
