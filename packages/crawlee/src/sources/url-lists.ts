/**
 * Crawlee's `requestsFromUrl` sources, read Heed's way. A request source `{ requestsFromUrl, regex }`
 * given to `crawler.run()`, `crawler.addRequests()` or the request queue makes Crawlee download the
 * file itself, with got-scraping under a generated browser user-agent and without asking robots.txt,
 * then enqueue the URLs it finds. The queue tap hands each such source here instead: the file is
 * a request of the crawl like a start URL, so it is checked first (stage `enqueue`: a disallowed
 * file is never fetched, and is reported and logged); an allowed one is fetched as Heed fetches a
 * sitemap file (its UA, the crawler's proxy, each redirect hop checked, the origin's crawl-delay,
 * `maxBytes` at most), and becomes the requests it lists, `{ url, ...the source's other fields }`,
 * which are then judged as any request entering the queue.
 *
 * URLs are found as Crawlee's `downloadListOfUrls` finds them: the matches of `regex` when given,
 * else every http(s) URL in the text, a comma, whitespace or quote ending one.
 */
import type { Checkpoints } from '../guard/checkpoints.js';
import type { Skips } from '../report/skips.js';
import { sitemapBytes, type SitemapFetchOptions, type SitemapSendClock } from '../sitemaps/fetch.js';

/** A request source Crawlee reads from a URL. */
export interface UrlListSource {
  readonly requestsFromUrl: string;
  readonly regex?: RegExp;
  readonly [field: string]: unknown;
}

export interface UrlListDeps {
  readonly checkpoints: Checkpoints;
  readonly skips: Skips;
  readonly userAgent: string;
  readonly signer?: SitemapFetchOptions['signer'];
  readonly proxyUrl?: SitemapFetchOptions['proxyUrl'];
  readonly sendClock?: SitemapSendClock;
  /** Most bytes read of one file. */
  readonly maxBytes: number;
  readonly warn: (message: string) => void;
}

/** Whether `item` is a `requestsFromUrl` source. */
export function isUrlListSource(item: unknown): item is UrlListSource {
  return typeof item === 'object' && item !== null && typeof (item as { requestsFromUrl?: unknown }).requestsFromUrl === 'string';
}

/** The requests of `source`'s file, each `{ url, ...shared }`; none when it may not be fetched or could not be read (logged). */
export async function requestsOfList(source: UrlListSource, deps: UrlListDeps): Promise<Record<string, unknown>[]> {
  const { requestsFromUrl: url, regex, ...shared } = source;
  const skip = await deps.checkpoints.enqueue(url, { stage: 'enqueue' });
  if (skip !== undefined) {
    await deps.skips.report(skip);
    deps.warn(`RobotsPlugin: the URL list ${url} (requestsFromUrl) is not fetched: ${skip.message}`);
    return [];
  }
  const chunks: Uint8Array[] = [];
  const problems: string[] = [];
  const bytes = sitemapBytes(
    url,
    {
      userAgent: deps.userAgent,
      ...(deps.signer === undefined ? {} : { signer: deps.signer }),
      maxBytes: deps.maxBytes,
      ...(deps.proxyUrl === undefined ? {} : { proxyUrl: deps.proxyUrl }),
      ...(deps.sendClock === undefined ? {} : { sendClock: deps.sendClock }),
      gate: (request, signal) => deps.checkpoints.ownFetch(request.url, signal),
    },
    (problem) => void problems.push(problem),
  );
  for await (const chunk of bytes) chunks.push(chunk);
  if (problems.length > 0) deps.warn(`RobotsPlugin: the URL list ${url} (requestsFromUrl) ${problems.join('; ')}`);
  const text = Buffer.concat(chunks).toString('utf8');
  return urlsIn(text, regex).map((found) => ({ url: found, ...shared }));
}

/** The URLs of a list's text: `regex`'s matches, else every absolute http(s) URL. */
function urlsIn(text: string, regex: RegExp | undefined): string[] {
  if (regex !== undefined)
    return (text.match(regex.global ? regex : new RegExp(regex.source, `${regex.flags}g`)) ?? []).map((u) => u.trim());
  return text.split(/[\s,"'<>]+/).filter((token) => /^https?:\/\/./i.test(token) && URL.canParse(token));
}
