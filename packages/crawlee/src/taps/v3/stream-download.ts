/**
 * Crawlee 3's `FileDownload` with a `streamHandler`: it skips the crawler's navigation (no
 * navigation hooks run) and downloads in the request handler instead, through its HTTP client's
 * `stream()` (got-scraping's, whose redirects got follows itself). Each such download passes the
 * same doors as an HTTP crawler's navigation: the stream's got options get the hooks of `http.ts`
 * (the URL sent, each redirect hop checked before it is requested, the send claimed on the crawl
 * clock), and the answer's `Retry-After` pauses its origin.
 *
 * `stream` is wrapped on the crawler's client object (own property, once per client), and adds the
 * hooks only inside a scope (an AsyncLocalStorage) that the crawler opens around the handling of
 * each of its requests: the scope names the request and the plugin that judges it. Only crawlers
 * with a `streamHandler` open one, so no other crawl pays for the storage. Checked against
 * `@crawlee/http` 3.13.0 and 3.18.1 (`FileDownload.streamRequestHandler`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RobotsGuard } from '../../guard/guard.js';
import { noteAnswer } from '../../politeness/answer.js';
import { payPerCrawl } from '../pay-per-crawl.js';
import { stopNavigation } from '../stop-navigation.js';
import type { ContextInternals, PublicCrawler } from '../crawler-shape.js';
import { gotHooksOf } from './http.js';
import { wrapRequestHandling } from './internals.js';

type Stream = (request: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;

interface DownloadScope {
  readonly context: ContextInternals;
  readonly guard: RobotsGuard;
  readonly addHooks: ReturnType<typeof gotHooksOf>;
}

const downloads = new AsyncLocalStorage<DownloadScope>();
const wrappedClients = new WeakSet<object>();

/** Whether `crawler` downloads its pages in a `streamHandler` (3.x `FileDownload`). */
export function streamsDownloads(crawler: object): boolean {
  return typeof (crawler as { streamHandler?: unknown }).streamHandler === 'function';
}

/**
 * Installs the checks on the stream downloads of `crawler`. Returns false when its HTTP client has
 * no `stream()` to watch (the caller says so).
 */
export function attachStreamDownloads(crawler: PublicCrawler, guard: RobotsGuard): boolean {
  const client = (crawler as { httpClient?: { stream?: unknown } }).httpClient;
  if (typeof client !== 'object' || client === null || typeof client.stream !== 'function') return false;
  wrapStream(client as { stream: Stream });
  const addHooks = gotHooksOf(guard);
  wrapRequestHandling(crawler, (context, next) => downloads.run({ context, guard, addHooks }, () => next(context)));
  return true;
}

function wrapStream(client: { stream: Stream }): void {
  if (wrappedClients.has(client)) return;
  wrappedClients.add(client);
  const stream = client.stream.bind(client);
  client.stream = async (request, ...rest) => {
    const scope = downloads.getStore();
    if (scope === undefined || typeof request !== 'object' || request === null) return stream(request, ...rest);
    const { context, guard, addHooks } = scope;
    const options = { ...request };
    addHooks(context, options);
    const response = await stream(options, ...rest);
    await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, response, context.request);
    const skip = payPerCrawl(response, context.request, guard);
    if (skip !== undefined) stopNavigation(guard.notes, context.request, skip);
    return response;
  };
}
