/**
 * JSDOMCrawler's sub-resources. Crawlee hands every JSDOM page one resource loader of its own, so
 * JSDOM fetches `<link rel=stylesheet>`, `<iframe>`/`<frame>` and, with `runScripts`, `<script src>`
 * (with Crawlee's browser user-agent), and no crawler option replaces that loader. With
 * `blockSubresources`, each such URL is checked against its own origin's robots.txt before jsdom's
 * `ResourceLoader.fetch` (jsdom's documented extension point) is asked for it; a disallowed one is
 * not requested (the element gets its `error` event) and is reported at stage `subresource`.
 *
 * With `identifyPages`, each sub-resource goes out under the bot's `userAgent`, or under the page's
 * own when its request named one (`request.headers`; on Crawlee 4, where the page is known by its
 * URL only, always the bot's), as the page itself did. jsdom takes the user-agent from the loader
 * (its `_userAgent` field; checked against jsdom 26), not from `fetch`'s options, so `fetch` runs
 * on a view of the loader that names the page's user-agent instead; a loader without that field
 * keeps its own.
 *
 * The loader is one object shared by every JSDOMCrawler of the process, so the check is installed
 * on its class once and applies only inside the request handling of a crawler this plugin is
 * attached to (an AsyncLocalStorage scope around `_runRequestHandler`, which builds the page and
 * runs its scripts): other crawlers and other jsdom users are left as they are.
 *
 * Crawlee 4 builds the page in a private step of its context pipeline, so no scope can be opened
 * around it: there the page is known by its URL, which jsdom passes to `fetch` as the referrer of
 * each sub-resource (`notePage` while the page is built and handled, `forgetPage` after).
 *
 * Not covered, because jsdom sends them from its own HTTP client with no hook: the redirect hops of
 * a sub-resource, and with `runScripts` the page's XMLHttpRequest and WebSocket connections.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../report/skip-events.js';
import { userAgentIn } from './identify.js';
import {
  jsdomResourceLoader,
  wrapRequestHandling,
  type PublicCrawler,
  type ResourceFetch,
  type ResourceLoaderClass,
} from './crawler-internals.js';

/** The crawler request whose page is being built, and the plugin that judges its sub-resources. */
interface PageScope {
  readonly guard: RobotsGuard;
  readonly pageUrl: () => string;
  /** What its sub-resources go out under; `undefined` leaves them to the loader. */
  readonly userAgent: () => string | undefined;
}

const pageScope = new AsyncLocalStorage<PageScope>();
const patched = new WeakSet<object>();
/** Crawlee 4 pages being built or handled, by URL (see the header). */
const pagesByUrl = new Map<string, PageScope>();
/** Pages kept at most: a page whose handling failed before its handler is never forgotten. */
const MAX_NOTED_PAGES = 10_000;

type FetchPromise = NonNullable<ReturnType<ResourceFetch>>;

/**
 * Installs the sub-resource check and user-agent for a JSDOMCrawler; does nothing for other
 * crawlers or without `blockSubresources` and `identifyPages`.
 */
export function attachJsdomHooks(crawler: PublicCrawler, guard: RobotsGuard): void {
  if (!guard.options.blockSubresources && !guard.options.identifyPages) return;
  const loader = jsdomResourceLoader(crawler);
  if (loader === undefined) return;
  patchLoader(loader);
  wrapRequestHandling(crawler, (context, next) => {
    const pageUrl = () => context.request.loadedUrl ?? context.request.url;
    const userAgent = () => {
      if (!guard.options.identifyPages) return undefined;
      return userAgentIn((context.request as { headers?: Record<string, unknown> }).headers) ?? guard.options.userAgent;
    };
    return pageScope.run({ guard, pageUrl, userAgent }, () => next(context));
  });
}

/**
 * Crawlee 4: installs the sub-resource check for a JSDOMCrawler (found by class name, its jsdom
 * beside the installed `@crawlee/jsdom`); the adapter notes each page with {@link notePage}.
 * Returns false when the crawler is not one or its jsdom cannot be found.
 */
export function attachJsdomHooksV4(crawler: object, guard: RobotsGuard): boolean {
  if ((!guard.options.blockSubresources && !guard.options.identifyPages) || !classNames(crawler).includes('JSDOMCrawler')) return false;
  try {
    const require = createRequire(import.meta.url);
    const loader = (createRequire(require.resolve('@crawlee/jsdom'))('jsdom') as { ResourceLoader?: ResourceLoaderClass }).ResourceLoader;
    if (typeof loader?.prototype?.fetch !== 'function') return false;
    patchLoader(loader);
    return true;
  } catch {
    return false;
  }
}

/** A Crawlee 4 JSDOM page at `url` is being built: its sub-resources are judged by `guard`. */
export function notePage(url: string, guard: RobotsGuard): void {
  if (pagesByUrl.size >= MAX_NOTED_PAGES) pagesByUrl.delete(pagesByUrl.keys().next().value as string);
  const userAgent = guard.options.identifyPages ? guard.options.userAgent : undefined;
  pagesByUrl.set(url, { guard, pageUrl: () => url, userAgent: () => userAgent });
}

/** The page at `url` was handled. */
export function forgetPage(url: string): void {
  pagesByUrl.delete(url);
}

function classNames(object: object): string[] {
  const names: string[] = [];
  for (let proto: unknown = Object.getPrototypeOf(object); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push(String((proto as { constructor?: { name?: unknown } }).constructor?.name));
  }
  return names;
}

function patchLoader(loader: ResourceLoaderClass): void {
  const proto = loader.prototype;
  if (patched.has(proto)) return;
  patched.add(proto);
  const original = proto.fetch;
  proto.fetch = function (this: unknown, url: string, options?: Record<string, unknown>) {
    const referrer = options?.['referrer'];
    const scope = pageScope.getStore() ?? (typeof referrer === 'string' ? pagesByUrl.get(referrer) : undefined);
    if (scope === undefined || !/^https?:/i.test(url)) return original.call(this, url, options);
    const loader = underUserAgent(this, scope.userAgent());
    if (!scope.guard.options.blockSubresources) return original.call(loader, url, options);
    let inner: FetchPromise | null = null;
    let aborted = false;
    const promise: FetchPromise = (async () => {
      const verdict = await scope.guard.verdict(url, 'subresource');
      if (!verdict.allowed) {
        await scope.guard.skips.report(skipFromVerdict(verdict, 'subresource', scope.pageUrl()));
        throw new Error(`${url} not loaded: robots.txt disallows it`);
      }
      if (aborted) throw new Error(`${url} not loaded: the page was closed`);
      inner = original.call(loader, url, options);
      return inner;
    })();
    // jsdom reads `response` (cookies) and calls `abort()` (window closed) on what fetch returns.
    Reflect.defineProperty(promise, 'response', { get: () => inner?.response });
    promise.abort = () => {
      aborted = true;
      inner?.abort?.();
    };
    return promise;
  };
}

/** `loader` as seen by one `fetch`: naming `userAgent` where jsdom reads it (see the header). */
function underUserAgent(loader: unknown, userAgent: string | undefined): unknown {
  if (userAgent === undefined || typeof (loader as { _userAgent?: unknown } | null)?._userAgent !== 'string') return loader;
  return Object.create(loader as object, { _userAgent: { value: userAgent } }) as unknown;
}
