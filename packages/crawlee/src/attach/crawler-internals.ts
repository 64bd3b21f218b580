/**
 * The parts of a Crawlee 3 crawler instance the plugin hooks into, typed structurally. Most are
 * protected or `@internal` in Crawlee's typings (`getRobotsTxtFileForUrl`, `handleSkippedRequest`,
 * `enqueueLinksWithCrawlDepth`, `_runRequestHandler`, `delayRequest`): they are Crawlee's own
 * extension points, and the plugin overrides them on the one crawler instance it is attached to.
 * Checked against @crawlee/basic 3.18; `attach()` verifies each exists before relying on it.
 */

/** Crawlee's skip notice, as `onSkippedRequest` receives it. */
export interface CrawleeSkip {
  url: string;
  reason: 'robotsTxt';
}

/** A Crawlee `Request` as the hooks see it. */
export interface RequestInternals {
  id?: string;
  uniqueKey: string;
  url: string;
  loadedUrl?: string;
  noRetry: boolean;
  state: number;
  userData?: { __crawlee?: { forefront?: boolean } };
}

/** The request source a crawler reads from (queue, list, or both). */
export interface RequestSourceInternals {
  reclaimRequest(request: RequestInternals, options?: { forefront?: boolean }): Promise<unknown>;
  inProgress?: Set<string>;
}

/** A crawling context, as far as the hooks need it. */
export interface ContextInternals {
  request: RequestInternals;
  response?: unknown;
  body?: unknown;
  page?: unknown;
  [key: string]: unknown;
}

export type Handler = ((context: ContextInternals) => unknown) & { getSchema?: unknown };
export type NavigationHook = (context: ContextInternals, options: Record<string, unknown>) => unknown;

export interface LogInternals {
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  debug(message: string, data?: Record<string, unknown>): void;
}

export interface CrawlerInternals {
  log: LogInternals;
  respectRobotsTxtFile: boolean | { userAgent?: string };
  getRobotsTxtFileForUrl(url: string): Promise<unknown>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
  enqueueLinksWithCrawlDepth(options: Record<string, unknown>, request: RequestInternals, requestQueue: unknown): Promise<unknown>;
  _runRequestHandler(context: ContextInternals): Promise<void>;
  handleSkippedRequest(options: CrawleeSkip): Promise<void>;
  delayRequest(request: RequestInternals, source: RequestSourceInternals): boolean;
  _defaultIsFinishedFunction(): Promise<boolean>;
  run(requests?: unknown, options?: unknown): Promise<unknown>;
  readonly pendingRequestCountApproximation?: number;
  requestHandler?: Handler;
  userProvidedRequestHandler?: Handler;
  preNavigationHooks?: NavigationHook[];
  postNavigationHooks?: NavigationHook[];
  browserPool?: unknown;
  stats?: { state?: { requestsFailed?: number } };
}

const REQUIRED = [
  'getRobotsTxtFileForUrl',
  'addRequests',
  'enqueueLinksWithCrawlDepth',
  '_runRequestHandler',
  'handleSkippedRequest',
  'delayRequest',
  '_defaultIsFinishedFunction',
  'run',
] as const;

/** The name of the first extension point `crawler` lacks, or `undefined` when it has them all. */
export function missingExtensionPoint(crawler: object): string | undefined {
  const record = crawler as Record<string, unknown>;
  return REQUIRED.find((name) => typeof record[name] !== 'function');
}

/** Which navigation hooks apply: browser crawlers (a browser pool), HTTP crawlers, or none (BasicCrawler). */
export function crawlerKind(crawler: CrawlerInternals): 'browser' | 'http' | 'basic' {
  if (!Array.isArray(crawler.preNavigationHooks)) return 'basic';
  return crawler.browserPool !== undefined ? 'browser' : 'http';
}
