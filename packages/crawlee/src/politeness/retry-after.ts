/**
 * How long a page's answer asks the crawler to stay away from its origin: `429 Too Many Requests`
 * and `503 Service Unavailable` (RFC 9110 §10.2.3: `Retry-After` in seconds or as an HTTP date).
 * Pure: the response is read by the caller (`attach.ts`).
 */

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
 * for 0 ms; an unreadable value counts as absent ({@link DEFAULT_RETRY_AFTER_SECS}).
 */
export function retryAfterMs(status: number, retryAfter: string | undefined, now: number, maxMs: number): number | undefined {
  if (!isPausingStatus(status)) return undefined;
  return Math.min(Math.max(0, requestedMs(retryAfter, now) ?? DEFAULT_RETRY_AFTER_SECS * 1000), maxMs);
}

function requestedMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day of week and zone (IMF-fixdate, RFC 850, asctime); a bare number with
  // a sign or a fraction is neither, and Date.parse would read some of those as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at - now;
}
