/**
 * Fetching one robots.txt: the I/O edge of the manager. It returns what happened as a
 * {@link FetchOutcome} and never throws for network trouble; turning the outcome into a record is
 * the status policy's job (`policy.ts`).
 *
 * - `got-scraping` with the caller's user-agent header and the header generator switched off (a
 *   crawler must announce itself to robots.txt, never as a random browser), optional proxy.
 * - Redirects are followed here, not by got, so the hop limit, loop detection and the hop list are
 *   ours; targets may be on any origin (the rules still apply to the origin that was asked for).
 * - At most `maxBytes` bytes are read; past that the connection is dropped and what was read is
 *   used (RFC 9309 §2.5 asks for at least 500 KiB). Compressed bodies are decoded as a stream and
 *   cut at the same `maxBytes` of output, so a decompression bomb costs at most that much memory.
 * - A connect timeout and a total deadline that covers every hop and the whole body.
 * - A body that starts with a UTF-16 byte-order mark is re-encoded as UTF-8 (see `charset.ts`).
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { utf8FromUtf16 } from './charset.js';
import { RobotsFetchError, type RobotsFetchErrorCode } from './errors.js';

/** How a robots.txt is fetched. The manager fills these from its options. */
export interface FetchOptions {
  /** The full `User-Agent` header sent. */
  readonly userAgent: string;
  /** `http://user:pass@host:port` of a proxy to fetch through. Default: none. */
  readonly proxyUrl?: string;
  /** Milliseconds to wait for the TCP (and TLS) connection. Default: 10,000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds for the whole fetch: every redirect hop and the body. Default: 30,000. */
  readonly timeoutMs?: number;
  /** Bytes of (decoded) body read at most. Default: 512,000 (500 KiB). */
  readonly maxBytes?: number;
  /** Redirect hops followed at most. Default: 5. */
  readonly maxRedirects?: number;
  /** Aborts the fetch (it then ends as a `network` outcome). */
  readonly signal?: AbortSignal;
}

/** Response headers the policy reads. */
export interface FetchHeaders {
  readonly cacheControl?: string;
  readonly retryAfter?: string;
  readonly contentType?: string;
  readonly contentEncoding?: string;
}

interface OutcomeBase {
  /** The robots.txt URL that was asked for. */
  readonly url: string;
  /** Redirect targets followed, in order. */
  readonly redirects: readonly string[];
  readonly startedAt: number;
  readonly durationMs: number;
}

/** A final (non-redirect, or redirect without a usable `Location`) HTTP response. */
export interface FetchResponseOutcome extends OutcomeBase {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: FetchHeaders;
  /** The URL the response came from. */
  readonly finalUrl: string;
  /** The body as read and decoded (and, after a UTF-16 byte-order mark, re-encoded as UTF-8): at most `maxBytes` bytes. */
  readonly body: Uint8Array;
  /** The body was longer than `maxBytes`; `body` holds its first `maxBytes` bytes. */
  readonly bodyCapped: boolean;
}

/** The redirect chain was longer than `maxRedirects`, or came back to a URL it had visited. */
export interface FetchRedirectOutcome extends OutcomeBase {
  readonly kind: 'redirect-failure';
  readonly reason: 'too-many-redirects' | 'redirect-loop' | 'bad-location';
  /** Status of the last redirect response. */
  readonly status: number;
  readonly finalUrl: string;
}

/** No usable response: DNS, refused, reset, timeout, truncated body, TLS, proxy. */
export interface FetchNetworkOutcome extends OutcomeBase {
  readonly kind: 'network';
  readonly error: RobotsFetchError;
}

/** Everything a robots.txt fetch can come to. The status policy maps it to a record. */
export type FetchOutcome = FetchResponseOutcome | FetchRedirectOutcome | FetchNetworkOutcome;

/** Fetch defaults, in one place. */
export const FETCH_DEFAULTS = {
  connectTimeoutMs: 10_000,
  timeoutMs: 30_000,
  maxBytes: 512_000,
  maxRedirects: 5,
} as const;

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

/**
 * Fetches `url` (a robots.txt URL), following up to `maxRedirects` redirects. Never rejects for
 * network or HTTP trouble: every failure is a {@link FetchOutcome}.
 */
export async function fetchRobotsTxt(url: string, options: FetchOptions): Promise<FetchOutcome> {
  const connectTimeoutMs = options.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs;
  const timeoutMs = options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const redirects: string[] = [];
  const visited = new Set<string>([url]);
  const base = () => ({ url, redirects, startedAt, durationMs: Date.now() - startedAt });
  let current = url;

  for (;;) {
    const remaining = deadline - Date.now();
    let hop: HopResult;
    try {
      if (remaining <= 0) throw new RobotsFetchError('timeout', current, `no response within ${timeoutMs} ms`);
      hop = await requestOnce(current, { ...options, connectTimeoutMs, maxBytes }, remaining, timeoutMs);
    } catch (error) {
      const fetchError =
        error instanceof RobotsFetchError ? error : new RobotsFetchError('network', current, String(error), { cause: error });
      return { kind: 'network', error: fetchError, ...base() };
    }
    const location = hop.headers.location;
    if (REDIRECT_STATUSES.has(hop.status) && location !== undefined && location !== '') {
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { kind: 'redirect-failure', reason: 'bad-location', status: hop.status, finalUrl: current, ...base() };
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return { kind: 'redirect-failure', reason: 'bad-location', status: hop.status, finalUrl: current, ...base() };
      }
      next.hash = '';
      const target = next.href;
      if (visited.has(target)) {
        return { kind: 'redirect-failure', reason: 'redirect-loop', status: hop.status, finalUrl: current, ...base() };
      }
      if (redirects.length >= maxRedirects) {
        return { kind: 'redirect-failure', reason: 'too-many-redirects', status: hop.status, finalUrl: current, ...base() };
      }
      visited.add(target);
      redirects.push(target);
      current = target;
      continue;
    }
    const utf8 = utf8FromUtf16(hop.body, maxBytes);
    return {
      kind: 'response',
      status: hop.status,
      headers: pickHeaders(hop.headers),
      finalUrl: current,
      body: utf8?.body ?? hop.body,
      bodyCapped: hop.capped || utf8?.capped === true,
      ...base(),
    };
  }
}

interface HopResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Uint8Array;
  readonly capped: boolean;
}

interface HopOptions extends FetchOptions {
  readonly connectTimeoutMs: number;
  readonly maxBytes: number;
}

/** One HTTP request, body read up to `maxBytes` (decoded). Rejects with a `RobotsFetchError`. */
async function requestOnce(url: string, options: HopOptions, remainingMs: number, totalMs: number): Promise<HopResult> {
  const { gotScraping } = await loadGotScraping();
  if (options.signal?.aborted) throw new RobotsFetchError('network', url, 'the fetch was aborted');
  const request = gotScraping(url, {
    isStream: true,
    method: 'GET',
    headers: {
      'user-agent': options.userAgent,
      accept: 'text/plain,text/*;q=0.9,*/*;q=0.8',
      'accept-encoding': 'gzip, deflate, br',
    },
    // Never a generated browser header set: robots.txt is asked for under the crawler's own name.
    useHeaderGenerator: false,
    headerGeneratorOptions: {},
    ...(options.proxyUrl === undefined ? {} : { proxyUrl: options.proxyUrl }),
    http2: false,
    agent: agents,
    followRedirect: false,
    decompress: false, // decoded below, with an output cap
    throwHttpErrors: false,
    retry: { limit: 0 },
    // Our own deadline below is the one that fires; got's is a backstop, kept within what a Node.js
    // timer can wait (2^31 - 1 ms; past it a timer fires after 1 ms).
    timeout: { connect: options.connectTimeoutMs, request: Math.min(remainingMs + 1_000, 2_147_483_647) },
  });

  return new Promise<HopResult>((resolve, reject) => {
    let settled = false;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let gotResponse = false;
    const chunks: Buffer[] = [];
    let length = 0;
    let rawLength = 0;
    let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
    let decoderEnded = false;
    let rawCapped = false;
    const endDecoder = () => {
      if (decoderEnded) return;
      decoderEnded = true;
      decoder?.end();
    };

    const finish = (error?: RobotsFetchError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      decoder?.destroy();
      if (error !== undefined) {
        reject(error);
        return;
      }
      const body = length > options.maxBytes ? Buffer.concat(chunks).subarray(0, options.maxBytes) : Buffer.concat(chunks);
      resolve({ status, headers, body, capped: length > options.maxBytes || rawCapped });
    };
    const onAbort = () => finish(new RobotsFetchError('network', url, 'the fetch was aborted'));
    const timer = setTimeout(
      () => finish(new RobotsFetchError('timeout', url, `no complete response within ${totalMs} ms`)),
      remainingMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const take = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      // Stop reading at the cap: the rest of the file is ignored, as RFC 9309 §2.5 allows.
      if (length > options.maxBytes) finish();
    };

    request.once('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
      gotResponse = true;
      status = response.statusCode;
      headers = response.headers;
      if (status < 200 || status >= 300) {
        finish(); // only a 2xx body means anything to the status policy; don't download error pages
        return;
      }
      decoder = createDecoder(headers['content-encoding']);
      if (decoder !== undefined) {
        decoder.on('data', take);
        decoder.once('end', () => finish());
        decoder.once('error', (error) => {
          // A body that was decoded up to a point is still a body; only nothing at all is an error.
          if (length > 0) finish();
          else finish(new RobotsFetchError('decode', url, `could not decode the ${String(headers['content-encoding'])} body: ${error.message}`, { cause: error }));
        });
      }
    });
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      rawLength += chunk.length;
      if (decoder === undefined) {
        take(chunk);
        return;
      }
      if (decoderEnded) return;
      // Compressed data is at worst slightly larger than its plain form (stored blocks), so past
      // this much input the decoded output is past `maxBytes` too: stop feeding the decoder.
      if (rawLength > options.maxBytes + COMPRESSED_SLACK_BYTES) {
        rawCapped = true;
        endDecoder();
        return;
      }
      decoder.write(chunk);
    });
    request.once('end', () => {
      if (decoder === undefined) finish();
      else endDecoder();
    });
    request.on('error', (error: Error & { code?: string; event?: string }) => {
      finish(classifyError(url, error, gotResponse));
    });
  });
}

function createDecoder(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  // Sync flush: a body cut at the byte cap still yields everything decodable up to the cut.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
    case 'x-deflate':
      return zlib.createInflate(flush);
    case 'br':
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return undefined;
  }
}

function classifyError(url: string, error: Error & { code?: string; event?: string }, afterHeaders: boolean): RobotsFetchError {
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
  else if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code) || /SSL routines/.test(message)) kind = 'tls';
  else if (error.name === 'ProxyError' || /proxy/i.test(message)) kind = 'proxy';
  else kind = 'network';
  return new RobotsFetchError(kind, url, message, { cause: error });
}

function pickHeaders(headers: IncomingHttpHeaders): FetchHeaders {
  const header = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const picked: { -readonly [K in keyof FetchHeaders]: FetchHeaders[K] } = {};
  const cacheControl = header('cache-control');
  const retryAfter = header('retry-after');
  const contentType = header('content-type');
  const contentEncoding = header('content-encoding');
  if (cacheControl !== undefined) picked.cacheControl = cacheControl;
  if (retryAfter !== undefined) picked.retryAfter = retryAfter;
  if (contentType !== undefined) picked.contentType = contentType;
  if (contentEncoding !== undefined) picked.contentEncoding = contentEncoding;
  return picked;
}
