/**
 * How long a page's answer asks the crawler to stay away from its origin: `429 Too Many Requests`
 * and `503 Service Unavailable` (RFC 9110 §10.2.3: `Retry-After` in seconds or as an HTTP date,
 * read strictly by the manager's `parseRetryAfter`, the one robots.txt's own `Retry-After` is read
 * with). Pure: the response is read by the caller (`answer.ts`).
 */
import { parseRetryAfter } from '@heed/manager';

/** Whether a status pauses its origin (`429`, `503`). Compared, not looked up in a set: every page's answer is asked. */
export function isPausingStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * Seconds an origin is paused after a `429` or `503` without a `Retry-After` Heed can read: long
 * enough that a struggling site sees the crawler back off, short enough that a site that merely
 * flickered costs little.
 */
export const DEFAULT_RETRY_AFTER_SECS = 5;

/**
 * The milliseconds to pause the origin of a response with `status` and `retryAfter` (the header's
 * value), or `undefined` when the status asks for none. Capped by `maxMs` (the plugin passes
 * `maxCrawlDelaySecs`): a `Retry-After` of a day must not park a crawl. A date in the past pauses
 * for 0 ms; an unreadable value (anything but digits or an HTTP-date in one of its three forms:
 * `soon 5`, `1.5`, `-1`) counts as absent ({@link DEFAULT_RETRY_AFTER_SECS}).
 */
export function retryAfterMs(status: number, retryAfter: string | undefined, now: number, maxMs: number): number | undefined {
  if (!isPausingStatus(status)) return undefined;
  return Math.min(parseRetryAfter(retryAfter, now) ?? DEFAULT_RETRY_AFTER_SECS * 1000, maxMs);
}
