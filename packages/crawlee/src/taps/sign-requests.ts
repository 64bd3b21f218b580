/**
 * Web Bot Auth on the requests a crawl sends (option `signature`): each request is signed for its
 * own URL right before it leaves, in the hook of its client that runs per request (got's
 * `beforeRequest` on Crawlee 3, the wrapped `fetch` of Crawlee 4's clients), so every redirect hop
 * gets a signature for its own host. With `maxCrawlPrice`, the pay-per-crawl offer goes with it:
 * sites charge only crawlers they can verify.
 */
import type { RequestSigner } from '@heed/manager';
import type { GotRequestOptions } from './got-hooks.js';

/** The headers of a signed request to `url`: the signature's three, and the price offered. */
export function signedHeaders(url: string, signer: RequestSigner, maxCrawlPrice: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...signer.headersFor(url) };
  if (maxCrawlPrice !== undefined) headers['crawler-max-price'] = maxCrawlPrice;
  return headers;
}

/**
 * Signs the request got is about to send (option `signature`): got runs its `beforeRequest` hooks
 * for the first request and again for every redirect hop, each with its own URL, so each is signed
 * for its own host. Written into got's headers object, which the request is then built from.
 */
export function signGotRequest(options: GotRequestOptions, signer: RequestSigner, maxCrawlPrice?: string): void {
  const signed = signedHeaders(String(options.url ?? ''), signer, maxCrawlPrice);
  if (options.headers === undefined) options.headers = signed;
  else Object.assign(options.headers, signed);
}

/**
 * Signs a fetch `Request` a Crawlee 4 client is about to send (its `headers` are writable until it
 * is sent). A client builds each redirect hop's request anew from the last: each is signed again.
 */
export function signFetchRequest(request: { url: string; headers?: unknown }, signer: RequestSigner, maxCrawlPrice?: string): void {
  const headers = request.headers as { set?: unknown } | undefined;
  if (typeof headers?.set !== 'function') return;
  for (const [name, value] of Object.entries(signedHeaders(request.url, signer, maxCrawlPrice)))
    (headers as { set(name: string, value: string): void }).set(name, value);
}

/**
 * The signature headers of a browser's request to a URL (option `signature`, with the price of
 * `maxCrawlPrice`), or `undefined` without `signature`: set where Heed lets each request of the
 * browser go (DevTools `Fetch.continueRequest`, a hop Heed fetches itself), so every request and
 * each redirect hop is signed for its own host.
 */
export function requestSigning(options: {
  readonly signature?: RequestSigner | undefined;
  readonly maxCrawlPrice?: string | undefined;
}): ((url: string) => Record<string, string>) | undefined {
  const { signature: signer, maxCrawlPrice } = options;
  return signer === undefined ? undefined : (url) => signedHeaders(url, signer, maxCrawlPrice);
}
