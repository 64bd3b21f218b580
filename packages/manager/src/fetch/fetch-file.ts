/**
 * Fetching one robots.txt: the I/O edge of the manager. It returns what happened as a
 * {@link FetchOutcome} and never throws for network trouble; turning the outcome into a record is
 * the status policy's job (`policy.ts`).
 *
 * The request itself is Heed's one bounded GET (`bounded-get.ts`: the crawler's user-agent, no
 * generated browser headers, redirects followed and counted by hand, `gzip`/`deflate`/`br` decoded
 * with an output cap, a connect timeout and a total deadline over every hop and the body). What is
 * robots.txt's own is here: at most `maxBytes` are read and the rest ignored (RFC 9309 §2.5 asks
 * for at least 500 KiB), only a 2xx body is read, and a body that starts with a UTF-16 byte-order
 * mark is re-encoded as UTF-8 (see `charset.ts`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { boundedGet, CONNECT_TIMEOUT_MS } from './bounded-get.js';
import { utf8FromUtf16 } from './charset.js';
import { proxyFor, type ProxySource } from './fetch-context.js';
import { RobotsFetchError } from '../errors.js';
import { signatureHeadersOf, type RequestSigner } from '../signature/request-signer.js';

/** How a robots.txt is fetched. The manager fills these from its options. */
export interface FetchOptions {
  /** The full `User-Agent` header sent. */
  readonly userAgent: string;
  /**
   * The proxy to fetch through, `http://user:pass@host:port`, or a function of the robots.txt URL
   * naming one (see {@link ProxySource}: one that fails is a `proxy` network outcome). Default: none.
   */
  readonly proxyUrl?: ProxySource;
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
  /** Signs each request (Web Bot Auth), each redirect hop for its own host. Default: unsigned. */
  readonly signer?: RequestSigner;
}

/** Response headers the policy reads. */
export interface FetchHeaders {
  readonly cacheControl?: string;
  readonly retryAfter?: string;
  readonly contentType?: string;
  readonly contentEncoding?: string;
  /** `crawler-price` (pay-per-crawl), which a `402` names. */
  readonly crawlerPrice?: string;
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
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  timeoutMs: 30_000,
  maxBytes: 512_000,
  maxRedirects: 5,
} as const;

/**
 * Fetches `url` (a robots.txt URL), following up to `maxRedirects` redirects. Never rejects for
 * network or HTTP trouble: every failure is a {@link FetchOutcome}.
 */
export async function fetchRobotsTxt(url: string, options: FetchOptions): Promise<FetchOutcome> {
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const startedAt = Date.now();
  const redirects: string[] = [];
  const base = () => ({ url, redirects, startedAt, durationMs: Date.now() - startedAt });
  try {
    const proxyUrl = await proxyFor(options.proxyUrl, url);
    const answer = await boundedGet(url, {
      userAgent: options.userAgent,
      accept: 'text/plain,text/*;q=0.9,*/*;q=0.8',
      ...(proxyUrl === undefined ? {} : { proxyUrl }),
      connectTimeoutSecs: (options.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs) / 1000,
      timeoutSecs: (options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs) / 1000,
      maxBytes,
      maxRedirects: options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onRedirect: (target) => redirects.push(target),
      ...(options.signer === undefined ? {} : { signatureHeaders: signatureHeadersOf(options.signer) }),
    });
    if (answer.kind === 'redirect-failure') {
      return { kind: 'redirect-failure', reason: answer.reason, status: answer.status, finalUrl: answer.finalUrl, ...base() };
    }
    // Only a 2xx body means anything to the status policy; body() reads nothing of other responses.
    const chunks: Uint8Array[] = [];
    for await (const chunk of answer.body()) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const utf8 = utf8FromUtf16(body, maxBytes);
    return {
      kind: 'response',
      status: answer.status,
      headers: pickHeaders(answer.headers),
      finalUrl: answer.finalUrl,
      body: utf8?.body ?? body,
      bodyCapped: answer.capped || utf8?.capped === true,
      ...base(),
    };
  } catch (error) {
    const fetchError = error instanceof RobotsFetchError ? error : new RobotsFetchError('network', url, String(error), { cause: error });
    return { kind: 'network', error: fetchError, ...base() };
  }
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
  const crawlerPrice = header('crawler-price');
  if (crawlerPrice !== undefined) picked.crawlerPrice = crawlerPrice.slice(0, 200);
  if (cacheControl !== undefined) picked.cacheControl = cacheControl;
  if (retryAfter !== undefined) picked.retryAfter = retryAfter;
  if (contentType !== undefined) picked.contentType = contentType;
  if (contentEncoding !== undefined) picked.contentEncoding = contentEncoding;
  return picked;
}
