/**
 * Walking an origin's sitemaps: the files robots.txt names, then the sitemaps their indexes list, up
 * to `maxDepth` levels below and `maxFiles` files, each file once, in order. Each file is fetched
 * and parsed as a stream (`fetch.ts`, `parse.ts`) and its page URLs are yielded as they are parsed,
 * so the consumer's pace (the crawler's back-pressure) is the reading's pace and nothing of a file
 * is held but the slice being parsed. With a {@link SitemapBudget}, a file is read only while it
 * holds one of the budget's fetch slots; with a {@link Clock}, each file's `timeoutMs` is running
 * time of that clock (it stops while the consumer waits on the crawler).
 */
import { Clock, type Countdown, type SitemapBudget } from './budget.js';
import { sitemapBytes, type SitemapFetchOptions, type SitemapGate } from './fetch.js';
import { parseSitemapChunks } from './parse.js';
import type { SitemapUrl } from './types.js';

/** Options of {@link readSitemaps}. */
export interface ReadSitemapsOptions extends Omit<SitemapFetchOptions, 'onOpen'> {
  /** Levels of sitemap indexes followed below the given files: 0 reads only those. */
  readonly maxDepth: number;
  /** Most files fetched (indexes included). Default: no limit. */
  readonly maxFiles?: number;
  /** Time to read one file, in milliseconds, from the request to its last byte. */
  readonly timeoutMs: number;
  /** Fetch slots shared with other readers. Default: none (no limit). */
  readonly budget?: SitemapBudget;
  /** The clock `timeoutMs` runs on. Default: a clock of its own (wall time). */
  readonly clock?: Clock;
}

/** Callbacks of {@link readSitemaps}. */
export interface ReadSitemapsHooks {
  /** A file answered 2xx and is being read. */
  readonly onSitemapRead?: (url: string) => void;
  readonly onProblem?: (message: string) => void;
  /** Whether a nested sitemap (an index entry) is fetched. Default: all are. */
  readonly keepNested?: (url: string, parent: string) => boolean;
}

/**
 * Every page URL of the given sitemaps, following sitemap indexes up to `maxDepth` levels below
 * them, each file read once, at most `maxFiles` files. Yields each URL as soon as it is parsed;
 * never throws on a broken, slow or hostile file (it is reported through `onProblem` and the
 * entries read from it before the fault are kept).
 */
export async function* readSitemaps(
  sitemapUrls: readonly string[],
  options: ReadSitemapsOptions,
  hooks: ReadSitemapsHooks = {},
): AsyncGenerator<SitemapUrl> {
  const queue = sitemapUrls.map((url) => ({ url, depth: 0 }));
  const seen = new Set(sitemapUrls);
  const clock = options.clock ?? new Clock();
  const { signal } = options;
  let fetched = 0;
  while (queue.length > 0) {
    if (signal?.aborted) return;
    if (fetched >= (options.maxFiles ?? Infinity)) {
      hooks.onProblem?.(`more than ${options.maxFiles} sitemap files; the remaining ${queue.length} are not read`);
      return;
    }
    fetched++;
    const { url, depth } = queue.shift()!;
    const release = options.budget ? await options.budget.acquireFetch(signal) : () => {};
    if (!release) return;
    const problem = (message: string) => hooks.onProblem?.(`sitemap ${url}: ${message}`);
    const timeout = new AbortController();
    const countdown = clock.countdown(options.timeoutMs, () => timeout.abort());
    try {
      const bytes = sitemapBytes(
        url,
        {
          userAgent: options.userAgent,
          maxBytes: options.maxBytes,
          ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
          signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
          onOpen: () => hooks.onSitemapRead?.(url),
          ...(options.gate === undefined ? {} : { gate: pausing(options.gate, countdown) }),
        },
        problem,
      );
      for await (const entries of parseSitemapChunks(bytes, problem)) {
        for (const entry of entries) {
          if (entry.kind === 'url') {
            yield { url: entry.loc, sitemapUrl: url };
            continue;
          }
          const nested = entry.loc;
          if (seen.has(nested) || depth + 1 > options.maxDepth) continue;
          seen.add(nested);
          if (hooks.keepNested && !hooks.keepNested(nested, url)) continue;
          queue.push({ url: nested, depth: depth + 1 });
        }
      }
      if (timeout.signal.aborted) problem(`not read within ${options.timeoutMs} ms (sitemaps.timeoutMs); the entries read before kept`);
    } finally {
      countdown.stop();
      release();
    }
  }
}

/**
 * `gate` with the file's timeout stopped while it decides: a wait for the origin's crawl-delay (or
 * for its robots.txt) is not the file being slow. The origin's own time budget keeps running.
 */
function pausing(gate: SitemapGate, countdown: Countdown): SitemapGate {
  return async (request, signal) => {
    countdown.pause();
    try {
      return await gate(request, signal);
    } finally {
      countdown.resume();
    }
  };
}
