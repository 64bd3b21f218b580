/**
 * Every request a Crawlee 4 HTTP client sends, one by one. A client's public `sendRequest`
 * (`BaseHttpClient` of `@crawlee/http-client`) follows redirects itself and calls the client's
 * `fetch` (Crawlee's documented extension point for HTTP clients) once per hop, each time with a new
 * fetch `Request`. So `fetch`, wrapped where the client's class defines it, sees each URL right
 * before it is requested: the navigation of an HTTP crawler (`navigation.ts`) and
 * `context.sendRequest()` (`../send-request.ts`) each open a scope around their call, and the
 * scope's `check` is asked for each request it has not seen (a rejection stops the call before
 * that request leaves).
 *
 * The wrap is installed once per defining class (the default client is made inside a native
 * private field, so its class is the only way in) on the crawler's own client and on Crawlee's own
 * clients (`ImpitHttpClient`, the default; `FetchHttpClient`, its fallback;
 * `GotScrapingHttpClient`), and judges only inside a scope: other callers of those classes are left
 * as they are. Checked against 4.0.0-rc.0 and Crawlee's master at 69a824b (the same
 * `BaseHttpClient.sendRequest` loop).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SendHops } from '../send-request.js';
import { signFetchRequest } from '../sign-requests.js';

/** One call of a client in progress: what it asks of each request before it leaves. */
export interface ClientScope {
  /**
   * Resolves to let the request go; rejects to stop the call there. Asked in the order the requests
   * leave: the call's first, then each hop.
   */
  check(url: string): Promise<void>;
  /** Signs each request once it passed `check` (option `signature`), when given. */
  sign?(request: { url: string; headers?: unknown }): void;
}

interface ScopeState {
  readonly scope: ClientScope;
  /** The fetch `Request`s already checked (a client may hand one to `fetch` again, on a retry). */
  readonly sent: WeakSet<object>;
}

const calls = new AsyncLocalStorage<ScopeState>();
const patched = new WeakSet<object>();

type Fetch = (this: unknown, input: { url: string }, init?: unknown) => Promise<unknown>;

/** Runs `call` so that every request a wrapped client's `fetch` sends within it passes `scope.check` first. */
export function withinClientScope<T>(scope: ClientScope, call: () => T): T {
  return calls.run({ scope, sent: new WeakSet() }, call);
}

/**
 * Wraps `fetch` of `client`'s class and of Crawlee's own client classes that are installed beside
 * this package. Idempotent.
 */
export async function watchClientFetches(client: object | undefined): Promise<void> {
  if (client !== undefined) patchFetchOf(client);
  for (const loaded of await crawleeClientClasses()) patchFetchOf(loaded.prototype);
}

/** The classes of Crawlee 4's own HTTP clients that are installed. */
async function crawleeClientClasses(): Promise<{ prototype: object }[]> {
  const found: { prototype: object }[] = [];
  for (const [specifier, name] of [
    ['@crawlee/impit-client', 'ImpitHttpClient'],
    ['@crawlee/http-client', 'FetchHttpClient'],
    ['@crawlee/got-scraping-client', 'GotScrapingHttpClient'],
  ] as const) {
    try {
      const module = (await import(specifier)) as Record<string, unknown>;
      const loaded = module[name] as { prototype?: unknown } | undefined;
      if (typeof loaded === 'function' && typeof loaded.prototype === 'object' && loaded.prototype !== null) found.push(loaded);
    } catch {
      // Not installed: that client is not the crawler's.
    }
  }
  return found;
}

/** Wraps `fetch` where `target`'s prototype chain defines it (once per defining object). */
function patchFetchOf(target: object): void {
  let owner: object | null = target;
  while (owner !== null && !Object.prototype.hasOwnProperty.call(owner, 'fetch')) owner = Object.getPrototypeOf(owner) as object | null;
  if (owner === null || patched.has(owner)) return;
  const original = (owner as { fetch?: unknown }).fetch;
  if (typeof original !== 'function') return;
  patched.add(owner);
  const fetch = original as Fetch;
  (owner as { fetch: Fetch }).fetch = async function (this: unknown, input, init) {
    const state = calls.getStore();
    if (state !== undefined && typeof input === 'object' && input !== null && !state.sent.has(input)) {
      state.sent.add(input);
      await state.scope.check(input.url);
      state.scope.sign?.(input);
    }
    return fetch.call(this, input, init);
  };
}

/** `context.sendRequest()` on Crawlee 4: the call runs in a scope that checks each request its client sends. */
export const clientFetchHops: SendHops = (send, options, rest, check, signer, maxCrawlPrice) =>
  withinClientScope(signer === undefined ? { check } : { check, sign: (request) => signFetchRequest(request, signer, maxCrawlPrice) }, () =>
    send(options, ...rest),
  );
