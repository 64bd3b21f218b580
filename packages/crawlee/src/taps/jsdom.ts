/**
 * JSDOMCrawler's sub-resources. Crawlee hands every JSDOM page one resource loader of its own, so
 * JSDOM fetches `<link rel=stylesheet>`, `<iframe>`/`<frame>` and, with `runScripts`, `<script src>`
 * (with Crawlee's browser user-agent), and no crawler option replaces that loader. With
 * `blockSubresources`, each such URL goes through the sub-resource checkpoint before jsdom's
 * `ResourceLoader.fetch` (jsdom's documented extension point) is asked for it; a disallowed one is
 * not requested (the element gets its `error` event) and is reported at stage `subresource`.
 *
 * With `identifyPages`, each sub-resource goes out under the bot's `userAgent`, or under the page's
 * own when its request named one (`request.headers`), as the page itself did. jsdom takes the
 * user-agent from the loader (its `_userAgent` field; checked against jsdom 26), not from `fetch`'s
 * options, so `fetch` runs on a view of the loader that names the page's user-agent instead; a
 * loader without that field keeps its own.
 *
 * The loader is one module-level object shared by every JSDOMCrawler of the process, so its class's
 * `fetch` is wrapped once, and judges only inside the page scope (`jsdom-scope.ts`) one crawler
 * opens around the building of its pages: Crawlee 3's `_runRequestHandler`, which builds the page
 * and runs its scripts; Crawlee 4's `parseContent` (public), the pipeline step that builds it.
 *
 * What jsdom sends from its own HTTP client rather than through the loader (the redirect hops of a
 * sub-resource; with `runScripts` the page's XMLHttpRequest and WebSocket connections) is checked
 * by `jsdom-scripts.ts`, in the same scope, which also signs them (option `signature`). When
 * jsdom's internals it patches cannot be found, `attach()` logs that those go unchecked, or fails
 * with `signature`: they would go unsigned.
 */
import { createRequire } from 'node:module';
import { InvalidOptionsError } from '@heed/parser';
import type { RobotsGuard } from '../guard/guard.js';
import { kindOf, type ContextInternals, type PublicCrawler, type RequestInternals } from './crawler-shape.js';
import { userAgentIn } from './identify.js';
import { requestSigning } from './sign-requests.js';
import { pageScope, type PageScope } from './jsdom-scope.js';
import { patchJsdomClient, signsJsdomSockets } from './jsdom-scripts.js';
import { jsdomRequireOf, jsdomResourceLoader, type ResourceFetch, type ResourceLoaderClass } from './v3/internals.js';

const patched = new WeakSet<object>();

type FetchPromise = NonNullable<ReturnType<ResourceFetch>>;
type Around = (context: ContextInternals, next: (context: ContextInternals) => Promise<void>) => Promise<void>;

/** Whether the plugin has anything to do with a JSDOM page's sub-resources. */
function watchesSubresources(guard: RobotsGuard): boolean {
  return guard.options.blockSubresources || guard.options.identifyPages || signs(guard);
}

/** Whether what jsdom's own client sends is signed (option `signature`). */
const signs = (guard: RobotsGuard) => guard.options.signature !== undefined;

/**
 * Crawlee 3: installs the sub-resource check and user-agent for a JSDOMCrawler (its jsdom found by
 * its class, see `jsdomResourceLoader`), in a scope around each request's handling. Does nothing
 * for other crawlers.
 */
export function attachJsdomHooks(crawler: PublicCrawler, guard: RobotsGuard, wrapRequestHandling: (around: Around) => void): void {
  if (!watchesSubresources(guard)) return;
  const require = jsdomRequireOf(crawler);
  const loader = require === undefined ? undefined : jsdomResourceLoader(require);
  if (require === undefined || loader === undefined) return;
  patchLoader(loader);
  patchClient(require, guard);
  wrapRequestHandling((context, next) =>
    pageScope.run(
      scopeOf(guard, context.request, () => context.request.loadedUrl ?? context.request.url),
      () => next(context),
    ),
  );
}

/**
 * Crawlee 4: the same, in a scope around the crawler's `parseContent` (the step that builds the
 * page). Returns false when the crawler is not a JSDOMCrawler, or its jsdom or that step cannot be
 * found (the caller says so).
 */
export function attachJsdomHooksV4(crawler: object, guard: RobotsGuard): boolean {
  if (!watchesSubresources(guard) || kindOf(crawler) !== 'jsdom') return false;
  const c = crawler as { parseContent?: (context: ContextInternals) => Promise<unknown> };
  if (typeof c.parseContent !== 'function') return false;
  let require: NodeJS.Require;
  try {
    require = createRequire(createRequire(import.meta.url).resolve('@crawlee/jsdom'));
  } catch {
    return false;
  }
  const loader = jsdomResourceLoader(require);
  if (loader === undefined) return false;
  patchLoader(loader);
  patchClient(require, guard);
  const parse = c.parseContent.bind(crawler);
  c.parseContent = (context) => {
    const answered = (context as { response?: { url?: unknown } }).response?.url;
    const pageUrl = () => (typeof answered === 'string' && answered !== '' ? answered : (context.request.loadedUrl ?? context.request.url));
    return pageScope.run(scopeOf(guard, context.request, pageUrl), () => parse(context));
  };
  return true;
}

/**
 * Puts jsdom's own HTTP client behind the checks (`blockSubresources`) and the signature
 * (`signature`). Signing cannot be left half done: without its patch points `attach()` fails.
 */
function patchClient(require: NodeJS.Require, guard: RobotsGuard): void {
  if (!guard.options.blockSubresources && !signs(guard)) return;
  if (patchJsdomClient(require)) {
    if (signs(guard) && !signsJsdomSockets(require)) guard.log.warning(SOCKETS_UNSIGNED);
    return;
  }
  if (signs(guard))
    throw new InvalidOptionsError(
      'signature',
      "this JSDOMCrawler's jsdom is not one Heed knows (checked against jsdom 26): the requests of its own HTTP client (scripts, stylesheets, frames, XMLHttpRequest) could not be signed. Leave signature out for this crawler",
      'RobotsPlugin.attach()',
    );
  guard.log.warning(CLIENT_NOT_FOUND);
}

/** What `attach()` logs, with `signature`, when the `ws` client jsdom opens its WebSockets with is not one Heed knows. */
const SOCKETS_UNSIGNED =
  "RobotsPlugin: this JSDOMCrawler's jsdom opens its WebSockets with a `ws` Heed does not know (checked against ws 8): " +
  "with runScripts, the handshakes of its pages' WebSockets are not signed.";

/** What `attach()` logs when jsdom's own HTTP client (the XHR, WebSocket and redirect patch points) was not found. */
const CLIENT_NOT_FOUND =
  "RobotsPlugin: this JSDOMCrawler's jsdom is not one Heed knows (checked against jsdom 26): the redirect hops of its " +
  "sub-resources and, with runScripts, its pages' XMLHttpRequest and WebSocket connections are not checked.";

function scopeOf(guard: RobotsGuard, request: RequestInternals, pageUrl: () => string): PageScope {
  const userAgent = () => {
    if (!guard.options.identifyPages) return undefined;
    return userAgentIn((request as { headers?: Record<string, unknown> }).headers) ?? guard.options.userAgent;
  };
  return { guard, pageUrl, userAgent, sign: requestSigning(guard.options) };
}

function patchLoader(loader: ResourceLoaderClass): void {
  const proto = loader.prototype;
  if (patched.has(proto)) return;
  patched.add(proto);
  const original = proto.fetch;
  proto.fetch = function (this: unknown, url: string, options?: Record<string, unknown>) {
    const scope = pageScope.getStore();
    if (scope === undefined || !/^https?:/i.test(url)) return original.call(this, url, options);
    const loader = underUserAgent(this, scope.userAgent());
    if (!scope.guard.options.blockSubresources) return original.call(loader, url, options);
    let inner: FetchPromise | null = null;
    let aborted = false;
    const promise: FetchPromise = (async () => {
      const skip = await scope.guard.checkpoints.subresource(url, scope.pageUrl());
      if (skip !== undefined) {
        await scope.guard.skips.report(skip);
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
