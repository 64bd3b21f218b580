/**
 * The protected members of `BasicCrawler` that both Crawlee majors have, each feature-detected: what
 * a release lacks is `undefined`, and the caller goes on without it. Checked against 3.13.0 – 3.18.1,
 * 4.0.0-rc.0 and Crawlee's master after it (where `handleSkippedRequest` became native `#private`:
 * `v4/internals.ts` has the way around it).
 */
import type { CrawleeSkip, Handler, PublicCrawler } from './crawler-shape.js';

interface SharedMembers {
  handleSkippedRequest?(options: CrawleeSkip): Promise<void>;
  readonly pendingRequestCountApproximation?: number;
  requestHandler?: Handler;
  userProvidedRequestHandler?: Handler;
  adaptiveRequestHandler?: Handler;
}

/** Where the user's handler is kept, first found first (see {@link wrapUserHandler}). */
const USER_HANDLER_KEYS = ['adaptiveRequestHandler', 'userProvidedRequestHandler', 'requestHandler'] as const;

/**
 * Crawlee's skip path, which calls the crawler's `onSkippedRequest`: `handleSkippedRequest`
 * (protected, 3.13.8+, where `onSkippedRequest` was added). `undefined` before 3.13.8: the
 * plugin's own `onSkip` is the only report there.
 */
export function crawleeSkipNotifier(crawler: PublicCrawler): ((url: string) => Promise<void>) | undefined {
  const c = crawler as PublicCrawler & SharedMembers;
  if (typeof c.handleSkippedRequest !== 'function') return undefined;
  const handle = c.handleSkippedRequest.bind(c);
  return (url) => handle({ url, reason: 'robotsTxt' });
}

/**
 * Wraps the user's request handler, so the plugin runs right before it, after the navigation:
 * `adaptiveRequestHandler` (3.x AdaptivePlaywrightCrawler: both its renderings call it, the
 * browser's through a proxy that hides `userProvidedRequestHandler`), `userProvidedRequestHandler`
 * (BrowserCrawler, which keeps the user's handler apart from its own wrapper; releases that have
 * it) or `requestHandler` (every 3.x release). Returns false when none is a function (nothing to wrap).
 */
export function wrapUserHandler(crawler: PublicCrawler, wrap: (handler: Handler) => Handler): boolean {
  const c = crawler as PublicCrawler & SharedMembers;
  const key = USER_HANDLER_KEYS.find((name) => typeof c[name] === 'function');
  if (key === undefined) return false;
  const handler = c[key]!;
  // Called as the crawler's method, as Crawlee calls it: a handler may be one of the crawler's own
  // methods that reads `this` (3.x FileDownload's `streamRequestHandler`, with a `streamHandler`).
  const method: Handler = (context) => handler.call(c, context);
  const wrapped = wrap(method);
  // Router-aware features (userData schemas, 3.18) read `getSchema` off the handler.
  if (handler.getSchema !== undefined) wrapped.getSchema = handler.getSchema;
  c[key] = wrapped;
  return true;
}

/**
 * Requests waiting in the crawler's queue: `pendingRequestCountApproximation` (protected getter,
 * 3.13.8+). `undefined` before 3.13.8; the caller then uses its own count.
 */
export function pendingRequestCount(crawler: PublicCrawler): number | undefined {
  const value = (crawler as PublicCrawler & SharedMembers).pendingRequestCountApproximation;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Whether the crawler's `enqueueLinks` collects links into the page's result, which the crawler adds
 * to the queue once the page's handling succeeded (3.x AdaptivePlaywrightCrawler), instead of adding
 * them itself: a queue handed to that call would bypass the result.
 */
export function collectsLinks(crawler: PublicCrawler): boolean {
  return typeof (crawler as PublicCrawler & SharedMembers).adaptiveRequestHandler === 'function';
}
