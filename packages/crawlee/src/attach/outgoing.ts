/**
 * The check at the moment a request goes out, for URLs that changed after the queue's check: a
 * `preNavigationHook` that set `request.url`, `gotOptions.url`, a got `beforeRequest` hook that
 * rewrote the URL, `context.sendRequest()`. One verdict for all of them, the same as before the
 * fetch (robots.txt, then with `purposes` the usage preferences).
 */
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict, type SkipEvent, type SkipStage } from '../skips.js';

/**
 * The skip event when `url` may not be fetched, else `undefined`. `from`: the request it was made
 * for. `use`: a page of the crawl (its origin's sitemaps are read), or a request made for one
 * (`sendRequest`: an API's sitemaps are not the crawl's business).
 */
export async function outgoingSkip(
  guard: RobotsGuard,
  url: string,
  stage: SkipStage,
  from: string,
  use: 'page' | 'redirect' = 'page',
): Promise<SkipEvent | undefined> {
  const verdict = await guard.verdict(url, use);
  if (!verdict.allowed) return skipFromVerdict(verdict, stage, from);
  return guard.usageSkip(url, stage, verdict.origin, from);
}

/** Stops a request whose URL was rewritten to a disallowed one (its skip is in `guard.blocked`). Never reaches the user. */
export class RewriteDisallowedError extends Error {
  override readonly name = 'RewriteDisallowedError';
  constructor(from: string, to: string) {
    super(`${from} was rewritten to ${to} before the fetch; not fetched: robots.txt disallows it.`);
  }
}

/**
 * Checks `url`, the URL a navigation is about to request, unless it is the one already checked.
 * A disallowed URL marks `request` as blocked (the request-handling hook ends it as a skip) and
 * throws {@link RewriteDisallowedError}.
 */
export async function checkRewrite(guard: RobotsGuard, request: { url: string }, checked: string, url: string): Promise<void> {
  if (url === checked) return;
  const skip = await outgoingSkip(guard, url, 'before-fetch', checked);
  if (skip === undefined) return;
  guard.blocked.set(request, skip);
  throw new RewriteDisallowedError(checked, url);
}
