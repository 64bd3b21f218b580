/**
 * Fetching one sitemap file as a stream of bytes, with Heed's one bounded GET (`@heed/manager`'s,
 * the one robots.txt is fetched with: the crawler's own user-agent, not a generated browser one;
 * the crawler's proxy, or the one set; up to 5 redirects; `Content-Encoding` decoded with an output cap). What
 * is the sitemap's own is here: a gzipped file (`.xml.gz` served as `application/gzip`, no
 * `Content-Encoding`) is inflated as it streams, at most `maxBytes` out; a damaged or cut gzip stream
 * keeps what was inflated and is reported. Nothing is buffered beyond
 * the chunk being handed on, so a file costs its stream's high-water marks whatever its size.
 * The file's request and each redirect hop pass the caller's gate first (robots.txt, the crawl-delay
 * slot, the cross-host rule: the feeder's), then claim their send on the caller's {@link SitemapSendClock}
 * as the last step before they leave, once got has built them: on a busy machine that is a while
 * after the gate, and the site's crawl-delay counts from when a request arrives.
 * Never throws: a broken sitemap must not stop the crawl.
 */
import { DecodeError, boundedGet, decoded, signatureHeadersOf, type FetchContext, type RequestSigner } from '@heed/manager';

/** How a sitemap file is fetched. */
export interface SitemapFetchOptions {
  readonly userAgent: string;
  /** Signs each request, each redirect hop for its own host (option `signature`). Default: unsigned. */
  readonly signer?: RequestSigner;
  /**
   * Proxy to fetch through, `http://user:pass@host:port`, or a function of the file's URL naming
   * one (the crawler's proxy for the site; one that throws fails the file as a network error would).
   * Its redirect hops go through the same proxy.
   */
  readonly proxyUrl?: FetchContext['proxyUrl'];
  /** Most bytes read (decoded), and most bytes out of gunzip. */
  readonly maxBytes: number;
  /** Ends the fetch (a timeout or the crawl ending): what was read is kept. */
  readonly signal?: AbortSignal;
  /** Called once the server answered 2xx. */
  readonly onOpen?: () => void;
  /** Decides, and may hold, each request: the file's own and each of its redirect hops. Default: all go at once. */
  readonly gate?: SitemapGate;
  /** The crawl-delay clock each request (the file's own and each hop) claims and confirms its send on. Default: none. */
  readonly sendClock?: SitemapSendClock;
}

/**
 * The crawl-delay clock of the origins a sitemap fetch requests (the plugin's `RobotsGuard`): the
 * gate reserved the request's slot; this spaces the request from the last one really sent.
 */
export interface SitemapSendClock {
  /** Resolves once a request to `url` may leave, and counts its origin's delay from now on. Rejects when `signal` aborts. */
  beforeSend(url: string, signal?: AbortSignal): Promise<void>;
  /** The request to `url` was written to the wire at `at` (ms since the epoch); never rejects. */
  confirmSent(url: string, at: number): Promise<void>;
}

/** A request a sitemap fetch is about to make. */
export interface SitemapRequest {
  /** The URL about to be requested. */
  readonly url: string;
  /** The sitemap file as it was listed (robots.txt or an index); `url` itself for the first request. */
  readonly sitemapUrl: string;
  /** For a redirect hop: the URL that redirected to `url`. */
  readonly from?: string;
}

/**
 * Whether a sitemap request goes out: resolves once it may (its origin's crawl-delay waited out) to
 * `undefined`, or to why it must not (then nothing is requested and the file is skipped, the reason
 * reported). Rejecting ends the file's reading, as a network error would.
 */
export type SitemapGate = (request: SitemapRequest, signal: AbortSignal | undefined) => Promise<string | undefined>;

/** A redirect hop its gate refused: ends the GET before the hop is requested. */
class HopRefused extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`redirect to ${target} refused: ${reason}`);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** Redirect hops followed at most, as for robots.txt. */
const MAX_REDIRECTS = 5;

/**
 * The bytes of the sitemap at `url`, decompressed, as they arrive. Problems (HTTP status, network
 * error, the size cap, a damaged gzip stream) go to `onProblem`; the stream then just ends.
 */
export async function* sitemapBytes(
  url: string,
  options: SitemapFetchOptions,
  onProblem: (message: string) => void,
): AsyncGenerator<Uint8Array> {
  const { signal, maxBytes } = options;
  const failed = (error: unknown) => {
    // An abort is the caller's to report (it knows why it aborted).
    if (!signal?.aborted)
      onProblem(`could not be fetched (${error instanceof Error ? error.message : String(error)}); what was read is kept`);
  };
  const { gate, sendClock } = options;
  let answer: Awaited<ReturnType<typeof boundedGet>>;
  try {
    const refusal = await gate?.({ url, sitemapUrl: url }, signal);
    if (refusal !== undefined) {
      onProblem(`not fetched: ${refusal}`);
      return;
    }
    const proxyUrl = typeof options.proxyUrl === 'function' ? await options.proxyUrl(url) : options.proxyUrl;
    answer = await boundedGet(url, {
      userAgent: options.userAgent,
      accept: 'application/xml, text/xml, text/plain, application/gzip, */*;q=0.5',
      ...(proxyUrl ? { proxyUrl } : {}),
      maxBytes,
      maxRedirects: MAX_REDIRECTS,
      ...(signal === undefined ? {} : { signal }),
      ...(options.signer === undefined ? {} : { signatureHeaders: signatureHeadersOf(options.signer) }),
      ...(sendClock === undefined
        ? {}
        : {
            beforeSend: (target: string, sendSignal: AbortSignal | undefined) => sendClock.beforeSend(target, sendSignal),
            onSent: (target: string, at: number) => void sendClock.confirmSent(target, at),
          }),
      ...(gate === undefined
        ? {}
        : {
            beforeRedirect: async (target: string, from: string) => {
              const reason = await gate({ url: target, sitemapUrl: url, from }, signal);
              if (reason !== undefined) throw new HopRefused(target, reason);
            },
          }),
    });
  } catch (error) {
    if (error instanceof HopRefused) onProblem(`redirects to ${error.target}, not followed: ${error.reason}; skipped`);
    else failed(error);
    return;
  }
  if (answer.kind === 'redirect-failure') {
    onProblem(`redirected too often or in a loop (${answer.reason}, last at ${answer.finalUrl}); skipped`);
    return;
  }
  const response = answer;
  try {
    if (response.status < 200 || response.status > 299) {
      onProblem(`answered HTTP ${response.status}; skipped`);
      return;
    }
    options.onOpen?.();
    yield* inflated(response.body(), maxBytes, onProblem);
    if (response.capped) onProblem(`larger than ${maxBytes} bytes; only the first ${maxBytes} were read`);
  } catch (error) {
    failed(error);
  } finally {
    response.close();
  }
}

/** `source` gunzipped as it streams when it starts with the gzip magic bytes, else as is; at most `maxBytes` out. */
async function* inflated(
  source: AsyncGenerator<Uint8Array>,
  maxBytes: number,
  onProblem: (message: string) => void,
): AsyncGenerator<Uint8Array> {
  const first = await source.next();
  if (first.done) return;
  const head = first.value;
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
    yield head;
    yield* source;
    return;
  }
  let length = 0;
  try {
    for await (const chunk of decoded(
      (async function* () {
        yield head;
        yield* source;
      })(),
      'gzip',
    )) {
      if (length + chunk.byteLength > maxBytes) {
        yield chunk.subarray(0, maxBytes - length);
        onProblem(`larger than ${maxBytes} bytes once decompressed; only the first ${maxBytes} were read`);
        return;
      }
      length += chunk.byteLength;
      yield chunk;
    }
  } catch (error) {
    // A network error or an abort is the caller's to report; a damaged gzip stream is the file's.
    if (!(error instanceof DecodeError)) throw error;
    onProblem(`damaged or cut gzip stream (${error.message}); what was inflated is kept`);
  }
}
