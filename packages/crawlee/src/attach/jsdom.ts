/**
 * JSDOMCrawler's sub-resources. Crawlee hands every JSDOM page one resource loader of its own, so
 * JSDOM fetches `<link rel=stylesheet>`, `<iframe>`/`<frame>` and, with `runScripts`, `<script src>`
 * (with Crawlee's browser user-agent), and no crawler option replaces that loader. With
 * `blockSubresources`, each such URL is checked against its own origin's robots.txt before jsdom's
 * `ResourceLoader.fetch` (jsdom's documented extension point) is asked for it; a disallowed one is
 * not requested (the element gets its `error` event) and is reported at stage `subresource`.
 *
 * The loader is one object shared by every JSDOMCrawler of the process, so the check is installed
 * on its class once and applies only inside the request handling of a crawler this plugin is
 * attached to (an AsyncLocalStorage scope around `_runRequestHandler`, which builds the page and
 * runs its scripts): other crawlers and other jsdom users are left as they are.
 *
 * Not covered, because jsdom sends them from its own HTTP client with no hook: the redirect hops of
 * a sub-resource, and with `runScripts` the page's XMLHttpRequest and WebSocket connections.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../report/skip-events.js';
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
}

const pageScope = new AsyncLocalStorage<PageScope>();
const patched = new WeakSet<object>();

type FetchPromise = NonNullable<ReturnType<ResourceFetch>>;

/** Installs the sub-resource check for a JSDOMCrawler; does nothing for other crawlers or without `blockSubresources`. */
export function attachJsdomHooks(crawler: PublicCrawler, guard: RobotsGuard): void {
  if (!guard.options.blockSubresources) return;
  const loader = jsdomResourceLoader(crawler);
  if (loader === undefined) return;
  patchLoader(loader);
  wrapRequestHandling(crawler, (context, next) =>
    pageScope.run({ guard, pageUrl: () => context.request.loadedUrl ?? context.request.url }, () => next(context)),
  );
}

function patchLoader(loader: ResourceLoaderClass): void {
  const proto = loader.prototype;
  if (patched.has(proto)) return;
  patched.add(proto);
  const original = proto.fetch;
  proto.fetch = function (this: unknown, url: string, options?: Record<string, unknown>) {
    const scope = pageScope.getStore();
    if (scope === undefined || !/^https?:/i.test(url)) return original.call(this, url, options);
    let inner: FetchPromise | null = null;
    let aborted = false;
    const promise: FetchPromise = (async () => {
      const verdict = await scope.guard.verdict(url, 'subresource');
      if (!verdict.allowed) {
        await scope.guard.skips.report(skipFromVerdict(verdict, 'subresource', scope.pageUrl()));
        throw new Error(`${url} not loaded: robots.txt disallows it`);
      }
      if (aborted) throw new Error(`${url} not loaded: the page was closed`);
      inner = original.call(this, url, options);
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
