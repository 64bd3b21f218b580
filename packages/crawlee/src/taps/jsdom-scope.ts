/**
 * The page a JSDOMCrawler is building, for what jsdom fetches on the page's behalf. jsdom's loader
 * and HTTP client are module-level, shared by every JSDOMCrawler (and any other jsdom user) of the
 * process: one crawler opens this scope (an AsyncLocalStorage) around the building of its pages,
 * and what the page loads or sends later (frames within frames, scripts' timers) stays in it, so
 * each request is judged by the crawler whose page made it; outside a scope jsdom is left as it is.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RobotsGuard } from '../guard/guard.js';

/** The crawler request whose page is being built, and the plugin that judges what it loads. */
export interface PageScope {
  readonly guard: RobotsGuard;
  readonly pageUrl: () => string;
  /** What its sub-resources go out under; `undefined` leaves them to the loader. */
  readonly userAgent: () => string | undefined;
  /** The signature headers of a request to a URL (option `signature`); `undefined`: unsigned. */
  readonly sign: ((url: string) => Record<string, string>) | undefined;
}

export const pageScope = new AsyncLocalStorage<PageScope>();
