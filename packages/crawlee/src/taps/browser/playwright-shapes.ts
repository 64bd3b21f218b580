/**
 * The parts of Playwright's `Route`, `Request`, `APIResponse`, `Page`, `BrowserContext` and
 * `WebSocketRoute` that the Playwright tap uses, typed here so that the plugin does not depend on
 * Playwright (a crawler brings its own).
 */
import type { CdpSession } from './cdp-fetch.js';

export interface PlaywrightRequest {
  url(): string;
  method(): string;
  headers(): Record<string, string>;
  isNavigationRequest(): boolean;
  frame(): { page(): PlaywrightPage };
}
export interface PlaywrightResponse {
  status(): number;
  headers(): Record<string, string>;
  /** The body, decoded. */
  body(): Promise<Buffer>;
}
/** `route.fetch()`'s options, those Heed reads or sets; the rest go through untouched. */
export interface FetchOptions {
  url?: string;
  maxRedirects?: number;
  method?: string;
  postData?: unknown;
  headers?: Record<string, string>;
  [option: string]: unknown;
}
export interface PlaywrightRoute {
  request(): PlaywrightRequest;
  fetch(options?: FetchOptions): Promise<PlaywrightResponse>;
  fulfill(options: { response: PlaywrightResponse; body?: Buffer; headers?: Record<string, string> } | { status: number }): Promise<void>;
  abort(errorCode?: string): Promise<void>;
  continue(options?: { url?: string; headers?: Record<string, string> }): Promise<void>;
  fallback(options?: { url?: string; headers?: Record<string, string> }): Promise<void>;
}
export type RouteHandler = (route: PlaywrightRoute, request: PlaywrightRequest) => unknown;
/** A page or browser context: both route alike. The URL matcher is the user's (glob, RegExp or predicate). */
export interface Routable {
  route(url: unknown, handler: RouteHandler, options?: unknown): Promise<void>;
  unroute?(url: unknown, handler?: RouteHandler): Promise<void>;
}
export interface WebSocketRoute {
  url(): string;
  connectToServer(): unknown;
  close(options?: { code?: number; reason?: string }): Promise<void>;
}
export interface PlaywrightContext extends Routable {
  on?(event: 'page', listener: (page: PlaywrightPage) => void): unknown;
  routeWebSocket?(url: RegExp, handler: (ws: WebSocketRoute) => Promise<void>): Promise<void>;
  newCDPSession?(page: PlaywrightPage): Promise<CdpSession>;
}
export interface PlaywrightPage extends Routable {
  routeWebSocket?(url: RegExp, handler: (ws: WebSocketRoute) => Promise<void>): Promise<void>;
  close(options?: Record<string, unknown>): Promise<void>;
  mainFrame(): unknown;
  url(): string;
  context(): PlaywrightContext;
  opener(): Promise<PlaywrightPage | null>;
}
