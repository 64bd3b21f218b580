/**
 * What Heed knows of a Crawlee crawler before it picks a tap: which release the crawler comes
 * from, whether it is supported, and the structural shapes of the public members both majors
 * share (the plugin never imports a Crawlee class it could lack). A crawler's class chain is walked
 * here only ({@link classChain}).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Crawlee releases the plugin supports, as a semver range: 3.13 and later 3.x (the taps in
 * `v3/`), and 4.x from its first release candidate (the taps in `v4/`).
 */
export const SUPPORTED_CRAWLEE_RANGE = '>=3.13.0 <4.0.0 || >=4.0.0-rc.0 <5.0.0';
const MIN_RELEASE = [3, 13, 0] as const;

/** The version of the `@crawlee/core` this module resolves (the one the crawler shares), when readable. */
export function crawleeRelease(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url)('@crawlee/core/package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The release of the `@crawlee/basic` the crawler's class comes from ({@link loadedPackageOf}).
 * `undefined` when it cannot be told (a bundled crawler). Differs from {@link crawleeRelease} when
 * npm installed two copies of Crawlee.
 */
export function crawlerRelease(crawler: object): string | undefined {
  const file = loadedPackageOf(crawler, 'basic', 'BasicCrawler');
  if (file === undefined) return undefined;
  try {
    const pkg = createRequire(import.meta.url)(join(dirname(file), 'package.json')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/** The classes of `object`'s prototype chain, nearest first (`Object` left out). */
export function classChain(object: object): unknown[] {
  const classes: unknown[] = [];
  for (let proto: unknown = Object.getPrototypeOf(object); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    classes.push((proto as { constructor?: unknown }).constructor);
  }
  return classes;
}

/**
 * The entry file of the `@crawlee/<name>` in Node's module cache whose `exportName` class is in
 * `crawler`'s class chain (every Crawlee release loads as CommonJS, ESM imports included, so its
 * modules are in the cache), or `undefined`. Classes are matched by identity, never by name.
 */
export function loadedPackageOf(crawler: object, name: string, exportName: string): string | undefined {
  const classes = new Set(classChain(crawler));
  const entry = new RegExp(`[\\\\/]@crawlee[\\\\/]${name}[\\\\/]index\\.js$`);
  for (const [file, module] of Object.entries(createRequire(import.meta.url).cache)) {
    if (!entry.test(file)) continue;
    const exported = (module?.exports as Record<string, unknown> | undefined)?.[exportName];
    if (exported !== undefined && classes.has(exported)) return file;
  }
  return undefined;
}

/**
 * Whether `version` (e.g. `3.16.0`, `3.18.1-beta.3`, `4.0.0-rc.0`) is within
 * {@link SUPPORTED_CRAWLEE_RANGE}. The 4.0.0 prereleases before `rc.0` (alphas, betas) changed
 * the extension points from one build to the next and are not supported.
 */
export function isSupportedRelease(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?/.exec(version);
  if (!match) return false;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major === 4) return minor > 0 || patch > 0 || match[4] === undefined || /^rc\./.test(match[4]);
  if (major !== MIN_RELEASE[0]) return false;
  return minor > MIN_RELEASE[1] || (minor === MIN_RELEASE[1] && patch >= MIN_RELEASE[2]);
}

/** The major release of `version` (`3` of `3.18.1`, `4` of `4.0.0-rc.0`), or `undefined`. */
export function majorOf(version: string | undefined): number | undefined {
  const match = version === undefined ? null : /^(\d+)\./.exec(version);
  return match ? Number(match[1]) : undefined;
}

// ---- shapes (structural: the plugin never imports a Crawlee class it could lack) ----------------

/** Crawlee's skip notice, as `onSkippedRequest` receives it. */
export interface CrawleeSkip {
  url: string;
  reason: 'robotsTxt';
}

/** A Crawlee `Request` as the hooks see it (all public fields). */
export interface RequestInternals {
  id?: string;
  uniqueKey: string;
  url: string;
  loadedUrl?: string;
  noRetry: boolean;
  state: number;
}

/** A crawling context, as far as the hooks need it. */
export interface ContextInternals {
  request: RequestInternals;
  response?: unknown;
  body?: unknown;
  page?: unknown;
  enqueueLinks?: (options?: Record<string, unknown>) => Promise<unknown>;
  [key: string]: unknown;
}

export type Handler = ((context: ContextInternals) => unknown) & { getSchema?: unknown };
export type NavigationHook = (context: ContextInternals, options: Record<string, unknown>) => unknown;

export interface LogInternals {
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
  debug(message: string, data?: Record<string, unknown>): void;
}

/** The public methods of Crawlee's `RequestQueue` / `RequestQueueV1` (and `RequestManagerTandem`) the plugin wraps or calls. */
export interface RequestQueueLike {
  /** Named queues (`RequestQueue.open('news')`); the default queue has none. */
  readonly name?: string | undefined;
  readonly id?: string | undefined;
  addRequest(request: unknown, options?: unknown): Promise<unknown>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
  addRequestsBatched(requests: unknown, options?: unknown): Promise<unknown>;
  fetchNextRequest(): Promise<RequestInternals | null | undefined>;
  markRequestHandled(request: RequestInternals): Promise<unknown>;
  reclaimRequest(request: RequestInternals, options?: { forefront?: boolean }): Promise<unknown>;
  isFinished(): Promise<boolean>;
}

/** The public part of a crawler the plugin uses (BasicCrawler, all 3.x). */
export interface PublicCrawler {
  log: LogInternals;
  getRequestQueue(): Promise<RequestQueueLike>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
  run(requests?: unknown, options?: unknown): Promise<unknown>;
  /** A dataset of the crawler's storage, by name (option `records.dataset`). */
  getDataset?(name?: string): Promise<{ pushData(items: object[]): Promise<unknown> }>;
}

/**
 * The browser page of `context`, or `undefined`: none (an HTTP crawler), or a context whose `page`
 * getter throws (AdaptivePlaywrightCrawler's HTTP-only runs, which have no page).
 */
export function pageOf(context: ContextInternals): unknown {
  try {
    return context.page;
  } catch {
    return undefined;
  }
}

/** What a crawler fetches its pages with, which decides the taps it gets. */
export type CrawlerKind = 'basic' | 'http' | 'jsdom' | 'browser' | 'adaptive';

/**
 * The kind of `crawler`, by its shape on either major (never by class name: users subclass):
 * a browser pool (Playwright, Puppeteer, Crawlee 3's Adaptive), Crawlee 4's AdaptivePlaywrightCrawler
 * (a `BasicCrawler` with the log proxy of its renderings, and no browser pool of its own), JSDOM's
 * virtual console, an HTTP navigation (3.x navigation hook lists, 4.x `makeHttpRequest`), else a
 * `BasicCrawler` that fetches in its handler. The one place kinds are told apart.
 */
export function kindOf(crawler: object): CrawlerKind {
  const c = crawler as Record<string, unknown>;
  if ('browserPool' in c) return 'browser';
  if (typeof c['createLogProxy'] === 'function') return 'adaptive';
  if (typeof c['getVirtualConsole'] === 'function') return 'jsdom';
  if ((Array.isArray(c['preNavigationHooks']) && Array.isArray(c['postNavigationHooks'])) || typeof c['makeHttpRequest'] === 'function')
    return 'http';
  return 'basic';
}
