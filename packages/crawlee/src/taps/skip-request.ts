/**
 * Ending a Crawlee request the plugin stopped (before its fetch, mid-navigation, at its response):
 * the way Crawlee ends its own robots.txt skips, so it is neither retried nor counted as failed,
 * then reported like every skip.
 */
import { RequestState } from '@crawlee/core';
import type { SkipEvent } from '../report/skip-events.js';
import type { Skips } from '../report/skips.js';
import type { RequestInternals } from './crawler-shape.js';

/**
 * Marks `request` skipped, lets `markHandled` take it out of the queue when the request is still
 * the queue's (taken by `fetchNextRequest`, not yet given to the crawler), and reports `skip`.
 */
export async function skipRequest(
  request: Pick<RequestInternals, 'state' | 'noRetry'>,
  skip: SkipEvent,
  skips: Skips,
  markHandled?: () => Promise<unknown>,
): Promise<void> {
  request.state = RequestState.SKIPPED;
  request.noRetry = true;
  await markHandled?.();
  await skips.report(skip);
}
