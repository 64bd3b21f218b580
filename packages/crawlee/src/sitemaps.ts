/**
 * Sitemaps from robots.txt: fetching, parsing and filtering. A sitemap is fetched (with
 * got-scraping, as Crawlee fetches, through the proxy if one is set) with the crawler's own
 * user-agent (not a generated browser one), at most `maxBytes` read (after gunzip,
 * which is bounded the same way), then parsed: XML (`<urlset>` and `<sitemapindex>`, via Crawlee's
 * own sitemap parser) or plain text (one URL a line). Indexes are followed to `maxDepth`, each file
 * once. The feeder that puts the URLs into the crawler's queue lives in `sitemap-feeder.ts`.
 */
import { createGunzip } from 'node:zlib';
import { constructGlobObjectsFromGlobs, constructRegExpObjectsFromRegExps, filterRequestsByPatterns } from '@crawlee/core';
import type { Request } from '@crawlee/core';
import { filterUrl, gotScraping, parseSitemap } from '@crawlee/utils';
import type { ResolvedSitemapOptions } from './options.js';

/** One entry of a sitemap file. */
export interface SitemapEntry {
  /** `url`: a page to crawl; `sitemap`: a nested sitemap (an index entry). */
  readonly kind: 'url' | 'sitemap';
  readonly loc: string;
}

/** A page URL read from a sitemap, with the file it came from. */
export interface SitemapUrl {
  readonly url: string;
  readonly sitemapUrl: string;
}

/** How a sitemap file is fetched. */
export interface SitemapFetchOptions {
  readonly userAgent: string;
  /** Proxy to fetch through, `http://user:pass@host:port`. */
  readonly proxyUrl?: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** The body of a fetched sitemap file. */
export interface SitemapBody {
  readonly text: string;
  /** More than `maxBytes` was there; what was read is parsed. */
  readonly truncated: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Fetches a sitemap file. Returns `undefined` (and never throws) when it cannot be read: a non-2xx
 * status, a network error or a timeout — a broken sitemap must not stop the crawl.
 */
export async function fetchSitemap(
  url: string,
  options: SitemapFetchOptions,
  onProblem: (message: string) => void = () => {},
): Promise<SitemapBody | undefined> {
  let stream: GotStream | undefined;
  try {
    stream = (await gotScraping({
      url,
      isStream: true,
      // The crawler's own user-agent, not a generated browser one.
      useHeaderGenerator: false,
      headers: { 'user-agent': options.userAgent, accept: 'application/xml, text/xml, text/plain, application/gzip, */*;q=0.5' },
      ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
      timeout: { request: options.timeoutMs },
      throwHttpErrors: false,
      maxRedirects: 5,
      retry: { limit: 0 },
      ...(options.signal ? { signal: options.signal } : {}),
    })) as GotStream;
    const opened = stream;
    const status = await new Promise<number>((resolve, reject) => {
      opened.once('response', (response: { statusCode: number }) => resolve(response.statusCode));
      opened.once('error', reject);
    });
    if (status < 200 || status > 299) {
      onProblem(`sitemap ${url} answered HTTP ${status}; skipped`);
      return undefined;
    }
    const raw = await readBounded(stream, options.maxBytes);
    let bytes = raw.bytes;
    let truncated = raw.truncated;
    if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) {
      // A `.xml.gz` file served as application/gzip (a Content-Encoding was already undone).
      const inflated = await gunzipBounded(bytes, options.maxBytes);
      bytes = inflated.bytes;
      truncated = truncated || inflated.truncated;
    }
    if (truncated) onProblem(`sitemap ${url} is larger than ${options.maxBytes} bytes; only the first ${options.maxBytes} were read`);
    return { text: new TextDecoder('utf-8').decode(bytes), truncated };
  } catch (error) {
    onProblem(`sitemap ${url} could not be fetched (${error instanceof Error ? error.message : String(error)}); skipped`);
    return undefined;
  } finally {
    stream?.destroy();
  }
}

/** The got stream, as far as it is used here. */
interface GotStream extends AsyncIterable<Uint8Array> {
  once(event: 'response', listener: (response: { statusCode: number }) => void): unknown;
  once(event: 'error', listener: (error: unknown) => void): unknown;
  destroy(): void;
}

/** The entries of a sitemap file's body: XML (urlset or sitemapindex) or plain text. */
export async function parseSitemapBody(body: SitemapBody, onProblem: (message: string) => void = () => {}): Promise<SitemapEntry[]> {
  const text = body.text.replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('<')) return parseTextSitemap(text);
  const entries: SitemapEntry[] = [];
  try {
    // `raw` sources are parsed in place; maxDepth 0 keeps Crawlee from fetching nested sitemaps
    // itself (it would do so with a browser user-agent and no size bound): we follow them here.
    for await (const item of parseSitemap([{ type: 'raw', content: text }], undefined, {
      emitNestedSitemaps: true,
      maxDepth: 0,
      reportNetworkErrors: false,
    })) {
      entries.push({ kind: item.originSitemapUrl === null ? 'sitemap' : 'url', loc: item.loc });
    }
  } catch (error) {
    // A truncated or malformed file: keep the entries read before the fault.
    onProblem(`malformed sitemap XML (${error instanceof Error ? error.message : String(error)}); ${entries.length} entries kept`);
  }
  return entries;
}

function parseTextSitemap(text: string): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const candidate = line.trim();
    if (/^https?:\/\/\S+$/i.test(candidate)) entries.push({ kind: 'url', loc: candidate });
  }
  return entries;
}

/**
 * Every page URL of the given sitemaps, following sitemap indexes up to `maxDepth` levels below
 * them, each file read once, at most `maxFiles` files. Yields lazily, so the consumer's back-pressure stops the fetching too.
 */
export async function* readSitemaps(
  sitemapUrls: readonly string[],
  options: SitemapFetchOptions & { readonly maxDepth: number; readonly maxFiles?: number },
  hooks: { onSitemapRead?: (url: string) => void; onProblem?: (message: string) => void; keepNested?: (url: string, parent: string) => boolean } = {},
): AsyncGenerator<SitemapUrl> {
  const queue = sitemapUrls.map((url) => ({ url, depth: 0 }));
  const seen = new Set(sitemapUrls);
  let fetched = 0;
  while (queue.length > 0) {
    if (options.signal?.aborted) return;
    if (fetched >= (options.maxFiles ?? Infinity)) {
      hooks.onProblem?.(`more than ${options.maxFiles} sitemap files; the remaining ${queue.length} are not read`);
      return;
    }
    fetched++;
    const { url, depth } = queue.shift()!;
    const body = await fetchSitemap(url, options, hooks.onProblem);
    if (!body) continue;
    hooks.onSitemapRead?.(url);
    const entries = await parseSitemapBody(body, (m) => hooks.onProblem?.(`${url}: ${m}`));
    for (const entry of entries) {
      if (entry.kind === 'sitemap') {
        const nested = resolve(entry.loc, url);
        if (!nested || seen.has(nested) || depth + 1 > options.maxDepth) continue;
        if (hooks.keepNested && !hooks.keepNested(nested, url)) continue;
        seen.add(nested);
        queue.push({ url: nested, depth: depth + 1 });
      } else {
        const page = resolve(entry.loc, url);
        if (page) yield { url: page, sitemapUrl: url };
      }
    }
  }
}

/** Builds the URL filter of the `sitemaps` options: strategy, then globs/regexps, then the function. */
export function sitemapUrlFilter(options: ResolvedSitemapOptions): (url: string, sitemapUrl: string) => boolean {
  const patterns = [
    ...(options.globs.length ? constructGlobObjectsFromGlobs(options.globs) : []),
    ...(options.regexps.length ? constructRegExpObjectsFromRegExps(options.regexps) : []),
  ];
  return (url, sitemapUrl) => {
    if (!filterUrl(url, sitemapUrl, options.enqueueStrategy).allowed) return false;
    if (patterns.length > 0 && filterRequestsByPatterns([{ url } as Request], patterns).length === 0) return false;
    return options.filter ? options.filter(url, sitemapUrl) === true : true;
  };
}

function resolve(loc: string, base: string): string | undefined {
  try {
    const url = new URL(loc.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

async function readBounded(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const value of body) {
    if (length + value.byteLength > maxBytes) {
      // Stop reading here: the caller destroys the stream.
      chunks.push(value.subarray(0, maxBytes - length));
      return { bytes: concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(value);
    length += value.byteLength;
  }
  return { bytes: concat(chunks, length), truncated: false };
}

async function gunzipBounded(input: Uint8Array, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  return new Promise((resolvePromise) => {
    const gunzip = createGunzip();
    const chunks: Uint8Array[] = [];
    let length = 0;
    let truncated = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolvePromise({ bytes: concat(chunks, length), truncated });
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (length + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - length));
        length = maxBytes;
        truncated = true;
        gunzip.destroy();
        finish();
        return;
      }
      chunks.push(chunk);
      length += chunk.byteLength;
    });
    gunzip.on('end', finish);
    gunzip.on('close', finish);
    // A damaged or cut gzip stream: keep what was inflated.
    gunzip.on('error', finish);
    gunzip.end(input);
  });
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
