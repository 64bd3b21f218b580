/**
 * Skip events: every URL the plugin keeps from being fetched or enqueued becomes one event that
 * says which URL, which origin, for which product token(s), why (the deciding robots.txt line and rule,
 * or the robots.txt status), and at which point of the crawl. The reasons and stages are declared
 * here once; the counters (`stats.ts`) and the reporting (`skips.ts`) derive from them.
 */
import type { ProductTokens, Rule } from '@heed/parser';
import type { UsageEvidence, Verdict } from '@heed/manager';

/**
 * Why a URL was skipped:
 * - `rules`: a `Disallow` rule of the origin's robots.txt matched (see `line` and `rule`);
 * - `unreachable`: the origin's robots.txt answered 5xx/429 or could not be fetched, which means
 *   "disallow everything" until it can be read (see `httpStatus`);
 * - `stale-copy`: robots.txt is unreachable now and the last good copy it fell back to disallows the URL;
 * - `invalid-url`: the URL is not an absolute http(s) URL, so no robots.txt governs it;
 * - `check-failed`: Heed itself could not check the URL (the manager threw: a store failure, a
 *   bug); the URL is skipped all the same, since it is not known to be allowed (see `error`);
 * - `nofollow`: the page that linked to it says `nofollow`/`none` (meta robots or `X-Robots-Tag`),
 *   or, with `honorRelNofollow`, the link itself is `rel="nofollow"`;
 * - `usage`: with `purposes`, a declared purpose is disallowed for the URL (robots.txt
 *   `Content-Usage`/`Content-Signal`, tdmrep.json; at stage `response` also the page's headers or
 *   meta tags): see `usage` for the purpose and the deciding signal and line;
 * - `payment-required`: the page answered `402 Payment Required` (pay-per-crawl): not handed to the
 *   request handler, never retried nor counted as failed; `price` is its `crawler-price` header.
 */
export const SKIP_REASONS = [
  'rules',
  'unreachable',
  'stale-copy',
  'invalid-url',
  'check-failed',
  'nofollow',
  'usage',
  'payment-required',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Where the crawl was when the URL was skipped:
 * - `enqueue`: on its way into the queue (`addRequests`, start URLs, `enqueueLinks`);
 * - `sitemap`: a URL read from a sitemap was not enqueued;
 * - `before-fetch`: taken from the queue, checked again right before the fetch;
 * - `redirect`: a page redirected or navigated to it (a redirect hop, a script navigation, a popup
 *   it opened) and it was not requested;
 * - `subresource`: a browser page asked for it (script, image, XHR) and the request was aborted;
 * - `response`: fetched, but its response headers or meta tags disallow a declared purpose
 *   (reason `usage`): the request handler never saw it;
 * - `send-request`: `context.sendRequest()` was asked for it (or was redirected to it) and rejected
 *   with `RobotsDisallowedError`.
 */
export const SKIP_STAGES = ['enqueue', 'sitemap', 'before-fetch', 'redirect', 'subresource', 'response', 'send-request'] as const;
export type SkipStage = (typeof SKIP_STAGES)[number];

/** Why a `usage` skip happened: the declared purpose and what disallowed it. */
export interface UsageSkip {
  /** The declared purpose that is disallowed (`train-ai`, `ai-input`, ...). */
  readonly purpose: string;
  /** The deciding evidence (signal, source, file and line, value); absent when `unknownUsage: 'disallow'` refused an unknown preference. */
  readonly evidence?: UsageEvidence;
}

/** One skipped URL and everything that explains the skip. */
export interface SkipEvent {
  readonly url: string;
  /** `scheme://host[:port]` whose robots.txt decided (empty for `invalid-url`). */
  readonly origin: string;
  /**
   * The product token the verdict is for, e.g. `HeedBot`, or the list of tokens checked together
   * (`['HeedBot-News', 'HeedBot']`), as the `productToken` option gives it. The message names them.
   */
  readonly productToken: ProductTokens;
  readonly reason: SkipReason;
  readonly stage: SkipStage;
  /**
   * 1-based line of the deciding robots.txt rule (for `rules` and `stale-copy`, and for a `usage`
   * skip a robots.txt line decided); 0 when no line decided.
   */
  readonly line: number;
  /** The deciding rule, for `rules` and `stale-copy`. */
  readonly rule?: Rule;
  /** HTTP status of the robots.txt response the verdict rests on, when there was one. */
  readonly httpStatus?: number;
  /** The robots.txt snapshot the verdict was made with (`sha256:<hex>`, see `Verdict.snapshot`), when a verdict decided. */
  readonly snapshot?: string;
  /** When the robots.txt the verdict rests on was fetched (ms since the epoch), when a verdict decided. */
  readonly robotsFetchedAt?: number;
  /** The page that linked or redirected to the URL, or opened it (a popup), when there was one. */
  readonly referrer?: string;
  /** For `usage` skips: the purpose and the evidence that decided. */
  readonly usage?: UsageSkip;
  /** For `check-failed` skips: the message of the error the manager threw. */
  readonly error?: string;
  /** For `payment-required` skips: the answer's `crawler-price` header (`''` when it named none), at most 200 characters. */
  readonly price?: string;
  /** A one-line explanation fit for a log. */
  readonly message: string;
}

/**
 * A URL the manager could not decide on: it threw (a store failure, a bug) instead of answering.
 * Not allowed, since nothing says it is; reported as `check-failed`, never as a robots.txt verdict.
 */
export interface CheckFailure {
  readonly allowed: false;
  readonly url: string;
  /** The URL's origin (`''` when it has none). */
  readonly origin: string;
  readonly productToken: ProductTokens;
  /** The message of the error the manager threw. */
  readonly error: string;
}

/** The skip event for a disallowing verdict, or for a URL the manager could not check. */
export function skipFromVerdict(verdict: Verdict | CheckFailure, stage: SkipStage, referrer?: string): SkipEvent {
  const base = {
    url: verdict.url,
    origin: verdict.origin,
    productToken: verdict.productToken,
    stage,
    ...(referrer !== undefined ? { referrer } : {}),
  };
  if ('error' in verdict) {
    return {
      ...base,
      reason: 'check-failed',
      line: 0,
      error: verdict.error,
      message: `Heed could not check ${verdict.url} (${verdict.error}): the URL is skipped`,
    };
  }
  const reason: SkipReason =
    verdict.reason === 'unreachable' || verdict.reason === 'stale-copy' || verdict.reason === 'invalid-url' ? verdict.reason : 'rules';
  const httpStatus = verdict.record.httpStatus;
  // A manager of the user's own, written before verdicts had `rule()`, still gets its rule reported.
  const rule =
    reason === 'rules' || reason === 'stale-copy'
      ? typeof verdict.rule === 'function'
        ? verdict.rule()
        : verdict.explain()?.rule
      : undefined;
  return {
    ...base,
    reason,
    line: verdict.line,
    ...(rule ? { rule } : {}),
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    ...(verdict.snapshot !== undefined ? { snapshot: verdict.snapshot, robotsFetchedAt: verdict.record.fetchedAt } : {}),
    message: explain(verdict, reason, httpStatus, rule),
  };
}

/** The skip event for a link kept out of the queue by `nofollow`. */
export function nofollowSkip(url: string, origin: string, productToken: ProductTokens, referrer: string, source: string): SkipEvent {
  return {
    url,
    origin,
    productToken,
    reason: 'nofollow',
    stage: 'enqueue',
    line: 0,
    referrer,
    message: `not enqueued from ${referrer}: ${source}`,
  };
}

/** The skip event for a URL a declared purpose may not be used for. */
export function usageSkipEvent(
  url: string,
  origin: string,
  productToken: ProductTokens,
  stage: SkipStage,
  usage: UsageSkip,
  referrer?: string,
): SkipEvent {
  const because = usage.evidence === undefined ? 'no preference is stated and unknownUsage is "disallow"' : usage.evidence.description;
  const what = stage === 'response' ? 'not handed to the request handler' : 'not fetched';
  return {
    url,
    origin,
    productToken,
    reason: 'usage',
    stage,
    line: usage.evidence?.source === 'robots.txt' ? (usage.evidence.line ?? 0) : 0,
    ...(referrer !== undefined ? { referrer } : {}),
    usage,
    message: `${what}: ${usage.purpose} is disallowed for ${tokenLabel(productToken)} by ${because}`,
  };
}

/** The most of a `crawler-price` header kept: a price is a few words; the rest is not one. */
const MAX_PRICE_CHARS = 200;

/** The skip event for a page that answered `402 Payment Required`, with the `crawler-price` it asked. */
export function paymentSkip(url: string, origin: string, productToken: ProductTokens, price: string): SkipEvent {
  const kept = price.slice(0, MAX_PRICE_CHARS);
  return {
    url,
    origin,
    productToken,
    reason: 'payment-required',
    stage: 'response',
    line: 0,
    price: kept,
    message: `answered 402 Payment Required${kept === '' ? '' : ` (crawler-price: ${kept})`}: not paid for, not handed to the request handler, not retried`,
  };
}

/** How a message names the agent: the token, or the listed tokens joined by `, ` (as the parser's verdicts do). */
function tokenLabel(productToken: ProductTokens): string {
  return typeof productToken === 'string' ? productToken : productToken.join(', ');
}

function explain(verdict: Verdict, reason: SkipReason, httpStatus: number | undefined, rule: Rule | undefined): string {
  const robots = `${verdict.origin}/robots.txt`;
  switch (reason) {
    case 'rules':
    case 'stale-copy': {
      // As robots.txt files and the skip log write it: `Disallow: /private/`.
      const by = rule ? `"${rule.directive === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}"` : 'a rule';
      const copy = reason === 'stale-copy' ? ' (last good copy; robots.txt is unreachable now)' : '';
      return `disallowed for ${tokenLabel(verdict.productToken)} by ${by} at ${robots} line ${verdict.line}${copy}`;
    }
    case 'unreachable':
      return `${robots} is unreachable${httpStatus !== undefined ? ` (HTTP ${httpStatus})` : ''}: the whole origin is disallowed until it can be read`;
    case 'invalid-url':
      return 'not an absolute http(s) URL, so no robots.txt can allow it';
    default:
      return 'skipped';
  }
}
