/**
 * The one bounded HTTP GET of Heed: robots.txt (`fetch-file.ts`), tdmrep.json and the plugin's sitemap
 * files are all fetched with it, so they share one size cap, one decompression and one way of
 * timing out and failing.
 *
 * - `got-scraping` with the caller's user-agent and the header generator switched off (a crawler
 *   announces itself, never as a random browser), HTTP/1.1, no keep-alive, optional proxy.
 * - Redirects are followed here, not by got, so the hop limit, loop detection and the hop list are
 *   ours; targets may be on any origin, `http:` and `https:` only, and a caller may hold or refuse
 *   each hop before it is requested (`beforeRedirect`).
 * - The body of a 2xx response only (no other body means anything to Heed's callers), streamed
 *   with back-pressure: the caller's pace is the reading's pace. `gzip`, `deflate` and `br`
 *   `Content-Encoding`s are decoded as a stream (`decode.ts`: completely, or a `decode` error) and
 *   the output cut at `maxBytes`; compressed input past `maxBytes` plus 64 KiB is not read either,
 *   so a decompression bomb costs at most `maxBytes`.
 * - A connect timeout, and a total deadline (`timeoutSecs`) over every hop and the whole body: a
 *   `timeout` error. The caller's `signal` ends the GET too (a `network` error, "aborted"); a
 *   caller with a deadline of its own (the sitemap reader's clock stops while the crawl waits)
 *   passes it as the signal.
 * - Failures are `RobotsFetchError`s with a stable `code` (dns, refused, reset, tls, truncated, ...).
 *
 * Public: packages that fetch a file the way Heed fetches robots.txt (`@heed/crawlee`'s sitemaps)
 * call {@link boundedGet}; the "For packages that build on Heed" section of docs/reference.md documents it.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { DecodeError, contentCoding, decoded } from './decode.js';
import { RobotsFetchError, type RobotsFetchErrorCode } from '../errors.js';
import { MAX_TIMER_MS } from '../timers.js';

/** How a bounded GET is made. */
export interface BoundedGetOptions {
  /** The full `User-Agent` header sent. */
  readonly userAgent: string;
  /** The `Accept` header sent. */
  readonly accept: string;
  /** `http://user:pass@host:port` of a proxy to fetch through. Default: none. */
  readonly proxyUrl?: string;
  /** Seconds to wait for the TCP (and TLS) connection. Default: 10. */
  readonly connectTimeoutSecs?: number;
  /** Bytes of decoded body read at most. */
  readonly maxBytes: number;
  /** Redirect hops followed at most. */
  readonly maxRedirects: number;
  /** Seconds for the whole GET: every redirect hop and the body. Default: no deadline but the signal. */
  readonly timeoutSecs?: number;
  /** Ends the GET: headers not yet in reject, a body being read stops (see the module header). */
  readonly signal?: AbortSignal;
  /**
   * Headers of each request's own (the first and every redirect hop), made as it is built: Web Bot
   * Auth's signature covers the host a request goes to, so each hop is signed for its own. Default: none.
   */
  readonly signatureHeaders?: (url: string) => Readonly<Record<string, string>>;
  /** Called for each redirect target followed, so a GET that fails later still tells its hops. */
  readonly onRedirect?: (target: string) => void;
  /**
   * Awaited before each redirect hop is requested (`from`: the URL that redirected): a caller whose
   * hops obey rules of its own (robots.txt, a crawl-delay) waits or refuses here. A rejection ends
   * the GET with that error, the hop unrequested. Default: every hop goes at once.
   */
  readonly beforeRedirect?: (target: string, from: string) => Promise<void>;
  /**
   * Awaited as the last step before each request (the first and every redirect hop) goes on the
   * wire, in got's last `beforeRequest` hook: a caller that spaces its requests to a site (a
   * crawl-delay) waits and claims the send here, after the request is built, so that the gap it
   * keeps is the one the site sees. `signal` ends with the GET. A rejection ends the GET, the
   * request unsent. Default: none.
   */
  readonly beforeSend?: (url: string, signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Called once each request's answer headers are in, with when the request was written to the
   * wire (got's `timings.upload`, ms since the epoch): later than {@link beforeSend} on a busy
   * process. Default: none.
   */
  readonly onSent?: (url: string, at: number) => void;
}

/** A response: the final one of the redirect chain. */
export interface BoundedResponse {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The URL the response came from. */
  readonly finalUrl: string;
  /** Redirect targets followed, in order. */
  readonly redirects: readonly string[];
  /**
   * The decoded body of a 2xx response, at most `maxBytes` bytes (nothing for any other status).
   * Read it once. Rejects with a `RobotsFetchError` for a connection lost mid-body (`truncated`)
   * or a compressed body that could not be decoded completely (`decode`: damaged or cut short).
   */
  body(): AsyncGenerator<Uint8Array>;
  /** After `body()` ended: the body was longer than `maxBytes` and was cut there. */
  readonly capped: boolean;
  /** Drops the connection (call it when the body is not, or no longer, wanted). */
  close(): void;
}

/** The redirect chain was longer than `maxRedirects`, came back to a URL it had visited, or pointed nowhere usable. */
export interface BoundedRedirectFailure {
  readonly kind: 'redirect-failure';
  readonly reason: 'too-many-redirects' | 'redirect-loop' | 'bad-location';
  /** Status of the last redirect response. */
  readonly status: number;
  readonly finalUrl: string;
  readonly redirects: readonly string[];
}

/** Default of {@link BoundedGetOptions.connectTimeoutSecs}, in milliseconds. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Seconds as a timer's whole milliseconds, within what a Node.js timer can wait. */
function secsToTimerMs(secs: number): number {
  return Math.min(Math.max(Math.round(secs * 1000), 1), MAX_TIMER_MS);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Compressed input read beyond `maxBytes` at most, for the compression format's own overhead. */
const COMPRESSED_SLACK_BYTES = 65_536;

// One request per origin and no reuse across origins: keep-alive would only pile up idle sockets.
const agents = {
  http: new http.Agent({ keepAlive: false }),
  https: new https.Agent({ keepAlive: false }),
};

type GotScrapingModule = typeof import('got-scraping');
let gotScrapingModule: Promise<GotScrapingModule> | undefined;

/** got-scraping loads header-generator data at import; only pay for it when a fetch happens. */
function loadGotScraping(): Promise<GotScrapingModule> {
  gotScrapingModule ??= import('got-scraping');
  return gotScrapingModule;
}

/** The got stream, as far as it is used here. */
interface GotStream extends AsyncIterable<Buffer> {
  once(
    event: 'response',
    listener: (response: { statusCode: number; headers: IncomingHttpHeaders; timings?: { upload?: number } }) => void,
  ): unknown;
  once(event: 'error', listener: (error: Error & { code?: string; event?: string }) => void): unknown;
  destroy(): void;
}

/**
 * GETs `url`, following up to `maxRedirects` redirects, and resolves once the final response's
 * headers are in. Rejects with a `RobotsFetchError` when no response came (or the signal fired).
 */
export async function boundedGet(url: string, options: BoundedGetOptions): Promise<BoundedResponse | BoundedRedirectFailure> {
  const deadline = new Deadline(options.timeoutSecs === undefined ? undefined : secsToTimerMs(options.timeoutSecs), options.signal);
  try {
    const answer = await follow(url, options, deadline);
    if (answer.kind !== 'response') deadline.clear();
    return answer;
  } catch (error) {
    deadline.clear();
    throw error;
  }
}

/**
 * The caller's signal and the total deadline as one abort source, and which of them fired. The
 * caller's signal is followed by a listener taken off at `clear()`, not by `AbortSignal.any()`: a
 * manager passes its one long-lived signal to every fetch, and each combined signal `any()` makes
 * stays registered with it (weakly, until collected), a cost per fetch a broad crawl pays a million
 * times. For the same reason the GET's own steps listen here (`onAbort`), and an `AbortSignal` is
 * made only for a `beforeSend` that asks for one: an `AbortController` per fetch was a measurable
 * share of a broad crawl's fetching ("Broad crawls: fetching new origins" in BENCHMARKS.md).
 */
class Deadline {
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly onCallerAbort: (() => void) | undefined;
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | undefined;
  private expired = false;
  private fired = false;

  constructor(
    readonly timeoutMs: number | undefined,
    callerSignal: AbortSignal | undefined,
  ) {
    if (callerSignal?.aborted === true) {
      this.fired = true;
      return;
    }
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.expired = true;
        this.fire();
      }, timeoutMs);
    }
    if (callerSignal !== undefined) {
      this.callerSignal = callerSignal;
      this.onCallerAbort = () => this.fire();
      callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /** The deadline passed or the caller's signal fired. */
  get aborted(): boolean {
    return this.fired;
  }

  /** A signal that fires with the deadline, for a caller's hook; undefined when nothing can fire. */
  get signal(): AbortSignal | undefined {
    if (this.timer === undefined && this.callerSignal === undefined && !this.fired) return undefined;
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.fired) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Calls `listener` once when the deadline fires; the function returned takes it off. */
  onAbort(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The error the GET of `url` ends with now that the deadline fired. */
  error(url: string): RobotsFetchError {
    return this.expired
      ? new RobotsFetchError('timeout', url, `no complete response within ${String(this.timeoutMs)} ms`)
      : new RobotsFetchError('network', url, 'the fetch was aborted');
  }

  clear(): void {
    clearTimeout(this.timer);
    if (this.onCallerAbort !== undefined) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private fire(): void {
    if (this.fired) return;
    this.fired = true;
    this.controller?.abort();
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }
}

async function follow(url: string, options: BoundedGetOptions, deadline: Deadline): Promise<BoundedResponse | BoundedRedirectFailure> {
  const redirects: string[] = [];
  const visited = new Set<string>([url]);
  let current = url;
  for (;;) {
    const { hop, drop } = await openOnce(current, options, deadline);
    const location = hop.headers.location;
    if (!REDIRECT_STATUSES.has(hop.status) || location === undefined || location === '') {
      // Assigned onto the hop, not spread: `capped` is a getter read after the body.
      return Object.assign(hop, { finalUrl: current, redirects });
    }
    drop(); // this hop only: the deadline runs on over the next ones
    const failure = (reason: BoundedRedirectFailure['reason']): BoundedRedirectFailure => ({
      kind: 'redirect-failure',
      reason,
      status: hop.status,
      finalUrl: current,
      redirects,
    });
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return failure('bad-location');
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return failure('bad-location');
    next.hash = '';
    const target = next.href;
    if (visited.has(target)) return failure('redirect-loop');
    if (redirects.length >= options.maxRedirects) return failure('too-many-redirects');
    await options.beforeRedirect?.(target, current);
    visited.add(target);
    redirects.push(target);
    options.onRedirect?.(target);
    current = target;
  }
}

type Hop = Omit<BoundedResponse, 'finalUrl' | 'redirects'>;

/** One request, resolved at its response headers; `drop` ends the request but not the deadline. */
async function openOnce(url: string, options: BoundedGetOptions, deadline: Deadline): Promise<{ hop: Hop; drop: () => void }> {
  const { gotScraping } = await loadGotScraping();
  if (deadline.aborted) throw deadline.error(url);
  const { beforeSend } = options;
  const request = gotScraping(url, {
    isStream: true,
    method: 'GET',
    headers: {
      'user-agent': options.userAgent,
      accept: options.accept,
      'accept-encoding': 'gzip, deflate, br',
      ...options.signatureHeaders?.(url),
    },
    // Never a generated browser header set: Heed asks under the crawler's own name.
    useHeaderGenerator: false,
    headerGeneratorOptions: {},
    ...(options.proxyUrl === undefined ? {} : { proxyUrl: options.proxyUrl }),
    // After got-scraping's own hooks (got appends a call's hooks to the instance's).
    ...(beforeSend === undefined ? {} : { hooks: { beforeRequest: [() => beforeSend(url, deadline.signal)] } }),
    http2: false,
    agent: agents,
    followRedirect: false,
    decompress: false, // decoded below, with an output cap
    throwHttpErrors: false,
    retry: { limit: 0 },
    // The deadline is what fires; got's own request timer is a backstop (within a timer's limit)
    // only for a GET without one, as a timer more per request is a cost a broad crawl pays.
    timeout: {
      connect: options.connectTimeoutSecs === undefined ? CONNECT_TIMEOUT_MS : secsToTimerMs(options.connectTimeoutSecs),
      ...(deadline.timeoutMs === undefined ? { request: MAX_TIMER_MS } : {}),
    },
  }) as unknown as GotStream;

  const response = await new Promise<{ statusCode: number; headers: IncomingHttpHeaders; timings?: { upload?: number } }>(
    (resolve, reject) => {
      const stopListening = deadline.onAbort(() => {
        request.destroy();
        reject(deadline.error(url));
      });
      request.once('response', (answer) => {
        stopListening();
        resolve(answer);
      });
      request.once('error', (error) => {
        stopListening();
        reject(classifyError(url, error, false));
      });
    },
  );

  const status = response.statusCode;
  const headers = response.headers;
  const upload = response.timings?.upload;
  if (typeof upload === 'number') options.onSent?.(url, upload);
  // Only a proxy asks for proxy credentials: its answer is not the site's, and read as the site's 4xx
  // it would allow everything. The fetch failed at the proxy, as a refused CONNECT does.
  if (status === 407 && options.proxyUrl !== undefined) {
    request.destroy();
    throw new RobotsFetchError(
      'proxy',
      url,
      'the proxy answered 407 Proxy Authentication Required; put valid credentials in the proxy URL (http://user:pass@host:port)',
    );
  }
  const state = { capped: false };
  const close = () => {
    deadline.clear();
    request.destroy();
  };
  const hop: Hop = {
    kind: 'response',
    status,
    headers,
    get capped() {
      return state.capped;
    },
    close,
    body: () =>
      status >= 200 && status < 300 ? decodedBody(url, request, headers['content-encoding'], options, deadline, state) : emptyBody(close),
  };
  return { hop, drop: () => request.destroy() };
}

/** No body to read (a status without rules): the connection is released at the first pull. */
async function* emptyBody(close: () => void): AsyncGenerator<Uint8Array> {
  close();
  yield* [];
}

/** The body, decoded and cut at `maxBytes`, pulled from the request as the caller reads. */
async function* decodedBody(
  url: string,
  request: GotStream,
  encoding: string | string[] | undefined,
  options: BoundedGetOptions,
  deadline: Deadline,
  state: { capped: boolean },
): AsyncGenerator<Uint8Array> {
  const { maxBytes } = options;
  const coding = contentCoding(encoding);
  const stopListening = deadline.onAbort(() => request.destroy());
  // Compressed data is at worst slightly larger than its plain form (stored blocks), so past this
  // much input the decoded output is past `maxBytes` too: stop reading the wire there.
  const wireLimit = maxBytes + COMPRESSED_SLACK_BYTES;
  async function* wire(): AsyncGenerator<Buffer> {
    let length = 0;
    for await (const chunk of request) {
      length += chunk.length;
      if (length > wireLimit) {
        state.capped = true;
        return;
      }
      yield chunk;
    }
  }
  // A plain body is read off the request itself: a generator more per chunk is a cost every new
  // origin of a broad crawl pays, and the wire limit only bounds compressed input.
  const source: AsyncIterable<Uint8Array> = coding === undefined ? request : decoded(wire(), coding);
  let length = 0;
  let ended = false;
  try {
    for await (const chunk of source) {
      if (length + chunk.length > maxBytes) {
        // Stop reading at the cap: the rest is ignored (RFC 9309 §2.5 allows it for robots.txt).
        if (length < maxBytes) yield chunk.subarray(0, maxBytes - length);
        state.capped = true;
        return;
      }
      length += chunk.length;
      yield chunk;
    }
    // A stream destroyed by the signal may just end: the body is then incomplete, not done.
    if (deadline.aborted) throw deadline.error(url);
    ended = true;
  } catch (error) {
    if (error instanceof RobotsFetchError) throw error;
    if (deadline.aborted) throw deadline.error(url);
    // A body decoded only in part is no body: a robots.txt cut short could allow what its end forbids.
    if (error instanceof DecodeError)
      throw new RobotsFetchError('decode', url, `could not decode the body: ${error.message}`, { cause: error });
    throw classifyError(url, error as Error & { code?: string; event?: string }, true);
  } finally {
    stopListening();
    deadline.clear();
    // A plain body read to its end leaves a request that is done, and its socket goes back to the
    // agent, which closes it: destroying it as well would only repeat that, once per new origin.
    if (!ended || coding !== undefined) request.destroy();
  }
}

function classifyError(url: string, error: Error & { code?: string; event?: string }, afterHeaders: boolean): RobotsFetchError {
  if (error instanceof RobotsFetchError) return error;
  const code = error.code ?? '';
  const message = error.message;
  let kind: RobotsFetchErrorCode;
  if (error.name === 'TimeoutError' || code === 'ETIMEDOUT') kind = error.event === 'connect' ? 'connect-timeout' : 'timeout';
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') kind = 'dns';
  else if (code === 'ECONNREFUSED') kind = 'refused';
  else if (afterHeaders) kind = 'truncated';
  // Node reports a server hanging up mid-handshake as ECONNRESET; for https it is the TLS that failed.
  else if (/before secure TLS connection was established/i.test(message)) kind = 'tls';
  else if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message)) kind = 'reset';
  else if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code) || /SSL routines/.test(message))
    kind = 'tls';
  else if (error.name === 'ProxyError' || /proxy/i.test(message)) kind = 'proxy';
  else kind = 'network';
  return new RobotsFetchError(kind, url, message, { cause: error });
}
