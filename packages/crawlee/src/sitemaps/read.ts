/**
 * Walking an origin's sitemaps: the files robots.txt names, then the sitemaps their indexes list, up
 * to `maxDepth` levels below and `maxFiles` files, each file once, in order. Each file is fetched
 * and parsed as a stream (`fetch.ts`, `parse.ts`) and its page URLs are yielded as they are parsed,
 * so the consumer's pace (the crawler's back-pressure) is the reading's pace and nothing of a file
 * is held but the slice being parsed. With a {@link SitemapBudget}, a file is read only while it
 * holds one of the budget's fetch slots; with a {@link Clock}, each file's `timeoutMs` is running
 * time of that clock (it stops while the consumer waits on the crawler).
 *
 * Memory: the files to read are the walk's only state, and it never holds more of them than it may
 * still fetch (`maxFiles` less the files read) nor more bytes of them than its {@link HeldBytes}
 * allows: an index listing 700,000 sitemaps costs the few it can read, not 700,000 queued URLs.
 * The locations beyond are dropped and reported once, counted.
 *
 * The stall rule: a file that yields no entry for `stallMs` (from its request, or from its last
 * batch of entries; the consumer's time with them not counted) is cut, its entries kept. A file
 * that drips a byte now and then is cut by it as one that sends nothing is: only an entry is
 * progress. Once {@link STALLS_IN_A_ROW} files in a row are cut that way, the walk ends: the files
 * left are most likely the same, and reading them one by one would hold a crawl whose pages are
 * done for `stallMs` each.
 */
import { Clock, type Countdown, type HeldBytes, type SitemapBudget } from './budget.js';
import { sitemapBytes, type SitemapFetchOptions, type SitemapGate, type SitemapSendClock } from './fetch.js';
import { parseSitemapChunks } from './parse.js';
import type { SitemapUrl } from './types.js';

/** Files in a row cut by the stall rule, with no entry between them, after which the walk ends. */
export const STALLS_IN_A_ROW = 2;
/** What one remembered sitemap file costs beyond its characters (its queue entry and set entry). */
const FILE_OVERHEAD_BYTES = 96;

/** Options of {@link readSitemaps}. */
export interface ReadSitemapsOptions extends Omit<SitemapFetchOptions, 'onOpen'> {
  /** Levels of sitemap indexes followed below the given files: 0 reads only those. */
  readonly maxDepth: number;
  /** Most files fetched (indexes included). Default: no limit. */
  readonly maxFiles?: number;
  /** Time to read one file, in milliseconds, from the request to its last byte. */
  readonly timeoutMs: number;
  /** Time one file may go without a new entry, in milliseconds. Default: no limit but `timeoutMs`. */
  readonly stallMs?: number;
  /** Fetch slots shared with other readers. Default: none (no limit). */
  readonly budget?: SitemapBudget;
  /** The clock `timeoutMs` runs on. Default: a clock of its own (wall time). */
  readonly clock?: Clock;
  /** The bound on what the walk remembers (files queued or read); also the consumer's. Default: none. */
  readonly held?: HeldBytes;
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
  const queue: { url: string; depth: number }[] = [];
  /** Files queued or read, so that each is read once. */
  const seen = new Set<string>();
  const clock = options.clock ?? new Clock();
  const { signal, held } = options;
  const maxFiles = options.maxFiles ?? Infinity;
  let fetched = 0;
  let stalledInRow = 0;
  /** Locations not queued: beyond the files the walk may still read, or beyond its bytes. */
  let beyondFiles = 0;
  let beyondBytes = 0;
  /** Queues `url` unless already seen; beyond a bound it is dropped and counted. */
  const enqueue = (url: string, depth: number): void => {
    if (seen.has(url)) return;
    if (fetched + queue.length >= maxFiles) beyondFiles++;
    else if (held && !held.tryHold(2 * url.length + FILE_OVERHEAD_BYTES)) beyondBytes++;
    else {
      seen.add(url);
      queue.push({ url, depth });
    }
  };
  for (const url of sitemapUrls) enqueue(url, 0);
  while (queue.length > 0) {
    if (signal?.aborted) return;
    fetched++;
    const { url, depth } = queue.shift()!;
    const release = options.budget ? await options.budget.acquireFetch(signal) : () => {};
    if (!release) return;
    const problem = (message: string) => hooks.onProblem?.(`sitemap ${url}: ${message}`);
    const timeout = new AbortController();
    let cutBy: 'timeout' | 'stall' | undefined;
    const cut = (why: 'timeout' | 'stall') => () => {
      cutBy ??= why;
      timeout.abort();
    };
    const countdown = clock.countdown(options.timeoutMs, cut('timeout'));
    const { stallMs } = options;
    const stallWindow = () => (stallMs === undefined ? undefined : clock.countdown(stallMs, cut('stall')));
    let stall = stallWindow();
    let yielded = false;
    try {
      const bytes = sitemapBytes(
        url,
        {
          userAgent: options.userAgent,
          ...(options.signer === undefined ? {} : { signer: options.signer }),
          maxBytes: options.maxBytes,
          ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
          signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
          onOpen: () => hooks.onSitemapRead?.(url),
          ...(options.gate === undefined ? {} : { gate: pausing(options.gate, () => [countdown, stall]) }),
          ...(options.sendClock === undefined ? {} : { sendClock: pausingSends(options.sendClock, () => [countdown, stall]) }),
        },
        problem,
      );
      for await (const entries of parseSitemapChunks(bytes, problem)) {
        // The consumer's time with the entries is not the file's: the window starts after them.
        stall?.stop();
        yielded = true;
        for (const entry of entries) {
          if (entry.kind === 'url') {
            yield { url: entry.loc, sitemapUrl: url };
            continue;
          }
          const nested = entry.loc;
          if (depth + 1 > options.maxDepth || seen.has(nested)) continue;
          if (hooks.keepNested && !hooks.keepNested(nested, url)) continue;
          enqueue(nested, depth + 1);
        }
        stall = stallWindow();
      }
      if (cutBy === 'timeout')
        problem(`not read within ${options.timeoutMs / 1000} s (sitemaps.timeoutSecs); the entries read before kept`);
      if (cutBy === 'stall') problem(`no new entry for ${(stallMs ?? 0) / 1000} s (sitemaps.stallSecs); cut, the entries read before kept`);
    } finally {
      countdown.stop();
      stall?.stop();
      release();
    }
    // A file cut after entries starts a new row: its stall began after its last entry.
    if (cutBy === 'stall') stalledInRow = yielded ? 1 : stalledInRow + 1;
    else if (yielded) stalledInRow = 0;
    if (stalledInRow >= STALLS_IN_A_ROW && queue.length + beyondFiles > 0) {
      hooks.onProblem?.(
        `${STALLS_IN_A_ROW} sitemap files in a row stalled (sitemaps.stallSecs); the remaining ${queue.length + beyondFiles} are not read`,
      );
      beyondFiles = 0;
      break;
    }
  }
  // Reported once the walk has ended by itself (not when the consumer stopped it).
  if (beyondFiles > 0 && !signal?.aborted) {
    hooks.onProblem?.(`more than ${options.maxFiles} sitemap files; the remaining ${beyondFiles} are not read`);
  }
  if (beyondBytes > 0) {
    hooks.onProblem?.(
      `${beyondBytes} sitemap location(s) dropped unread: remembering them would pass the bytes the reading may hold (sitemaps.maxHeldBytesPerOrigin, sitemaps.maxHeldBytes)`,
    );
  }
}

/**
 * `gate` with the file's timeout and stall window stopped while it decides: a wait for the
 * origin's crawl-delay (or for its robots.txt) is neither the file being slow nor stalling. The
 * origin's own time budget keeps running.
 */
function pausing(gate: SitemapGate, countdowns: () => readonly (Countdown | undefined)[]): SitemapGate {
  return (request, signal) => paused(countdowns, () => gate(request, signal));
}

/** `sendClock` with the file's timeout and stall window stopped while a request waits to leave, as for {@link pausing}. */
function pausingSends(sendClock: SitemapSendClock, countdowns: () => readonly (Countdown | undefined)[]): SitemapSendClock {
  return {
    beforeSend: (url, signal) => paused(countdowns, () => sendClock.beforeSend(url, signal)),
    confirmSent: (url, at) => sendClock.confirmSent(url, at),
  };
}

/** What `work` resolves to, the `countdowns` stopped meanwhile. */
async function paused<T>(countdowns: () => readonly (Countdown | undefined)[], work: () => Promise<T>): Promise<T> {
  const stopped = countdowns();
  for (const countdown of stopped) countdown?.pause();
  try {
    return await work();
  } finally {
    for (const countdown of stopped) countdown?.resume();
  }
}
