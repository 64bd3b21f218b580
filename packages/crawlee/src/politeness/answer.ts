/**
 * What a page's answer tells the crawl clock, on every crawler kind: the request's real send time
 * (got's timings, a Playwright request's timing) moves the origin's clock when it is later than the claim before the send (a busy
 * process may write a request a while after letting it go), for every process sharing the store;
 * a `429` or `503` pauses the origin for its `Retry-After` (see `retry-after.ts`). The taps call
 * {@link noteAnswer} before Crawlee handles those statuses (an HTTP crawler throws on them after the
 * post-navigation hooks), so the pause is set whatever Crawlee does with the request. A `402`'s
 * `crawler-price` is read here too ({@link paymentAsked}), for the skip the taps end such a page as.
 */
import type { CrawlClock } from './crawl-clock.js';
import { isPausingStatus, retryAfterMs } from './retry-after.js';

/**
 * Reads a page's answer (a got response, a Playwright or Puppeteer `Response`, or a fetch `Response`):
 * moves the origin's clock to when it was really sent, and pauses the origin for a `Retry-After`.
 * `crawleePaces429`: the crawler's request manager paces a `429` itself (Crawlee 4's
 * `ThrottlingRequestManager`), so only other statuses pause Heed's clock.
 */
export function noteAnswer(
  clock: CrawlClock | undefined,
  maxPauseMs: number,
  response: unknown,
  request: { url: string; loadedUrl?: string | undefined },
  crawleePaces429 = false,
): Promise<void> | undefined {
  // Nothing to wait for on most pages (no clock to move, no pause to set): no promise then, which
  // the link-dense crawl bench pays for on every page otherwise.
  if (clock === undefined) return undefined;
  if (clock.idle && isQuietGotResponse(response)) return undefined;
  const answer = readResponse(response);
  if (answer === undefined) return undefined;
  const url = answer.url ?? request.loadedUrl ?? request.url;
  const confirming = answer.sentAt !== undefined && !clock.idle ? clock.confirmSent(url, answer.sentAt) : undefined;
  if (crawleePaces429 && answer.status === 429) return confirming;
  const pauseMs = retryAfterMs(answer.status, answer.retryAfter, Date.now(), maxPauseMs);
  if (pauseMs === undefined) return confirming;
  if (confirming === undefined) return clock.pause(url, pauseMs);
  return confirming.then(() => clock.pause(url, pauseMs));
}

/** Whether `response` is a got response whose status pauses nothing: with no clock kept at send, there is nothing to read in it. */
function isQuietGotResponse(response: unknown): boolean {
  const status = (response as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof status === 'number' && !isPausingStatus(status);
}

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** Its `crawler-price` header (pay-per-crawl), when it has one. */
  readonly crawlerPrice?: string | undefined;
  /** Its `crawler-charged` header: what the site charged for the page. */
  readonly crawlerCharged?: string | undefined;
  readonly url: string | undefined;
  /** When the request was written to the wire (got's timings, Playwright's request timing), when known. */
  readonly sentAt?: number | undefined;
}

/** Status, `Retry-After`, URL (and for got, when it was sent) of a got response, or of a Playwright or Puppeteer `Response`. */
function readResponse(response: unknown): Answer | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const r = response as {
    statusCode?: unknown;
    headers?: unknown;
    url?: unknown;
    status?: unknown;
    timings?: { upload?: unknown };
  };
  if (typeof r.statusCode === 'number') {
    const headers = (r.headers ?? {}) as Record<string, string | string[] | undefined>;
    const upload = r.timings?.upload;
    return {
      status: r.statusCode,
      retryAfter: firstValue(headers['retry-after']),
      crawlerPrice: firstValue(headers['crawler-price']),
      crawlerCharged: firstValue(headers['crawler-charged']),
      url: typeof r.url === 'string' ? r.url : undefined,
      sentAt: typeof upload === 'number' ? upload : undefined,
    };
  }
  // A fetch `Response` (Crawlee 4's HTTP clients).
  if (typeof r.status === 'number' && typeof (r.headers as { get?: unknown } | undefined)?.get === 'function') {
    const get = (name: string) => (r.headers as { get(name: string): string | null }).get(name) ?? undefined;
    return {
      status: r.status,
      retryAfter: get('retry-after'),
      crawlerPrice: get('crawler-price'),
      crawlerCharged: get('crawler-charged'),
      url: typeof r.url === 'string' && r.url !== '' ? r.url : undefined,
    };
  }
  if (typeof r.status === 'function' && typeof r.headers === 'function') {
    const status: unknown = r.status.call(response);
    if (typeof status !== 'number') return undefined;
    const headers = r.headers.call(response) as Record<string, string | undefined>;
    const url: unknown = typeof r.url === 'function' ? r.url.call(response) : undefined;
    return {
      status,
      retryAfter: headers['retry-after'],
      crawlerPrice: headers['crawler-price'],
      crawlerCharged: headers['crawler-charged'],
      url: typeof url === 'string' ? url : undefined,
      sentAt: browserSentAt(response),
    };
  }
  return undefined;
}

/**
 * The `crawler-price` of a page answered `402 Payment Required` (`''` when it names none), or
 * `undefined` for any other answer: the status is read first, so other pages cost one read.
 */
export function paymentAsked(response: unknown): string | undefined {
  if (statusOf(response) !== 402) return undefined;
  return readResponse(response)?.crawlerPrice ?? '';
}

/** What the site charged for a page (its `crawler-charged` header), if it charged. */
export function chargedPrice(response: unknown): string | undefined {
  return readResponse(response)?.crawlerCharged;
}

/** The status of a got response, a fetch `Response` or a Playwright or Puppeteer `Response`. */
function statusOf(response: unknown): number | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const r = response as { statusCode?: unknown; status?: unknown };
  if (typeof r.statusCode === 'number') return r.statusCode;
  if (typeof r.status === 'number') return r.status;
  if (typeof r.status !== 'function') return undefined;
  const status: unknown = r.status.call(response);
  return typeof status === 'number' ? status : undefined;
}

/** How far from now a browser's own send time is believed: it is another process's clock reading. */
const BROWSER_SENT_AT_WINDOW_MS = 10 * 60_000;

/**
 * When a Playwright page's request went on the wire: its `request().timing()`, the browser's own
 * account (`startTime` is when the network request started, after Heed's interception let it go,
 * and `requestStart` when it was written, relative to it). A browser short of CPU writes a request
 * well after Heed lets it go; the next request of the origin then counts its delay from here.
 * Puppeteer's responses give monotonic times only: `undefined` there, as for anything unreadable.
 */
function browserSentAt(response: object): number | undefined {
  try {
    const request = (response as { request?: unknown }).request;
    if (typeof request !== 'function') return undefined;
    const timing = (request.call(response) as { timing?: () => { startTime?: unknown; requestStart?: unknown } } | null)?.timing?.();
    const start = timing?.startTime;
    const written = timing?.requestStart;
    if (typeof start !== 'number' || typeof written !== 'number' || !(start > 0) || !(written >= 0)) return undefined;
    const at = start + written;
    const now = Date.now();
    return at <= now && at > now - BROWSER_SENT_AT_WINDOW_MS ? at : undefined;
  } catch {
    return undefined;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
