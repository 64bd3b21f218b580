/**
 * Fetching one sitemap file as a stream of bytes: got-scraping (as Crawlee fetches, through the
 * proxy if one is set) with the crawler's own user-agent, not a generated browser one. A gzipped
 * file (`.xml.gz` served as `application/gzip`; a `Content-Encoding` is undone by got) is inflated
 * as it streams. At most `maxBytes` are read from the wire and at most `maxBytes` come out of
 * gunzip; nothing is buffered beyond the chunk being handed on, so a file costs its stream's
 * high-water marks whatever its size. Never throws: a broken sitemap must not stop the crawl.
 */
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { gotScraping } from '@crawlee/utils';

/** How a sitemap file is fetched. */
export interface SitemapFetchOptions {
  readonly userAgent: string;
  /** Proxy to fetch through, `http://user:pass@host:port`. */
  readonly proxyUrl?: string;
  /** Most bytes read from the wire, and most bytes out of gunzip. */
  readonly maxBytes: number;
  /** Ends the fetch (a timeout or the crawl ending): what was read is kept. */
  readonly signal?: AbortSignal;
  /** Called once the server answered 2xx. */
  readonly onOpen?: () => void;
}

/** The got stream, as far as it is used here. */
interface GotStream extends AsyncIterable<Uint8Array> {
  once(event: 'response', listener: (response: { statusCode: number }) => void): unknown;
  once(event: 'error', listener: (error: unknown) => void): unknown;
  destroy(): void;
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * The bytes of the sitemap at `url`, decompressed, as they arrive. Problems (HTTP status, network
 * error, the size cap, a damaged gzip stream) go to `onProblem`; the stream then just ends.
 */
export async function* sitemapBytes(url: string, options: SitemapFetchOptions, onProblem: (message: string) => void): AsyncGenerator<Uint8Array> {
  let stream: GotStream | undefined;
  const signal = options.signal;
  const destroy = () => stream?.destroy();
  signal?.addEventListener('abort', destroy, { once: true });
  try {
    if (signal?.aborted) return;
    stream = (await gotScraping({
      url,
      isStream: true,
      useHeaderGenerator: false,
      headers: { 'user-agent': options.userAgent, accept: 'application/xml, text/xml, text/plain, application/gzip, */*;q=0.5' },
      ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
      throwHttpErrors: false,
      maxRedirects: 5,
      retry: { limit: 0 },
    })) as GotStream;
    const opened = stream;
    const status = await new Promise<number>((resolve, reject) => {
      opened.once('response', (response) => resolve(response.statusCode));
      opened.once('error', reject);
      // A destroyed stream emits neither: the abort itself ends the wait.
      signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      if (signal?.aborted) reject(new Error('aborted'));
    });
    if (status < 200 || status > 299) {
      onProblem(`answered HTTP ${status}; skipped`);
      return;
    }
    options.onOpen?.();
    yield* inflated(capped(stream, options.maxBytes, () => onProblem(`larger than ${options.maxBytes} bytes on the wire; only the first ${options.maxBytes} were read`)), options.maxBytes, onProblem);
  } catch (error) {
    if (signal?.aborted) return; // the caller reports why it aborted
    onProblem(`could not be fetched (${error instanceof Error ? error.message : String(error)}); what was read is kept`);
  } finally {
    signal?.removeEventListener('abort', destroy);
    stream?.destroy();
  }
}

/** At most `maxBytes` of `source`. */
async function* capped(source: AsyncIterable<Uint8Array>, maxBytes: number, onCut: () => void): AsyncGenerator<Uint8Array> {
  let length = 0;
  for await (const chunk of source) {
    if (length + chunk.byteLength > maxBytes) {
      yield chunk.subarray(0, maxBytes - length);
      onCut();
      return;
    }
    length += chunk.byteLength;
    yield chunk;
  }
}

/** `source` gunzipped as it streams when it starts with the gzip magic bytes, else as is; at most `maxBytes` out. */
async function* inflated(source: AsyncGenerator<Uint8Array>, maxBytes: number, onProblem: (message: string) => void): AsyncGenerator<Uint8Array> {
  const first = await source.next();
  if (first.done) return;
  const head = first.value;
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
    yield head;
    yield* source;
    return;
  }
  const gunzip = createGunzip();
  // pipeline() carries a network error into gunzip, which ends the loop below with it.
  pipeline(Readable.from((async function* () { yield head; yield* source; })()), gunzip, () => {});
  let length = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (length + chunk.byteLength > maxBytes) {
        yield chunk.subarray(0, maxBytes - length);
        onProblem(`larger than ${maxBytes} bytes once decompressed; only the first ${maxBytes} were read`);
        return;
      }
      length += chunk.byteLength;
      yield chunk;
    }
  } catch (error) {
    // A network error or an abort is the caller's to report; a zlib one (code Z_…) is the file's.
    if (!String((error as { code?: unknown }).code ?? '').startsWith('Z_')) throw error;
    onProblem(`damaged gzip stream (${error instanceof Error ? error.message : String(error)}); what was inflated is kept`);
  } finally {
    gunzip.destroy();
  }
}
