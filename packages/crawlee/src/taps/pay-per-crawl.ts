/**
 * What a page's answer says of pay-per-crawl, read on every crawler kind where the answer is first
 * seen (a post-navigation hook, Crawlee 4's navigation step, a stream download): a `402 Payment
 * Required` ends the page as a `payment-required` skip with its `crawler-price`; with
 * `maxCrawlPrice`, a `crawler-charged` answer is counted (`stats.pagesCharged`).
 */
import type { RobotsGuard } from '../guard/guard.js';
import { chargedPrice, paymentAsked } from '../politeness/answer.js';
import type { SkipEvent } from '../report/skip-events.js';

/** The skip `response` ends its page as (a `402`), after counting a charge; `undefined` to go on. */
export function payPerCrawl(
  response: unknown,
  request: { url: string; loadedUrl?: string | undefined },
  guard: RobotsGuard,
): SkipEvent | undefined {
  const price = paymentAsked(response);
  if (price !== undefined) return guard.checkpoints.paymentRequired(request.loadedUrl ?? request.url, price);
  // Only a crawl that offers a price is charged: no header read per page otherwise.
  if (guard.options.maxCrawlPrice === undefined) return undefined;
  const charged = chargedPrice(response);
  if (charged !== undefined) guard.stats.noteCharged(charged);
  return undefined;
}
