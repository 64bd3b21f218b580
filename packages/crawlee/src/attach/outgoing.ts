/**
 * The check at the moment a request goes out, for URLs that changed after the queue's check: a
 * `preNavigationHook` that set `request.url`, `gotOptions.url`, a got `beforeRequest` hook that
 * rewrote the URL, `context.sendRequest()`. One verdict for all of them, the same as before the
 * fetch (robots.txt, then with `purposes` the usage preferences).
 */
import type { RobotsGuard } from '../guard.js';

/** Stops a request whose URL was rewritten to a disallowed one (its skip is kept by `guard.block()`). Never reaches the user. */
export class RewriteDisallowedError extends Error {
  override readonly name = 'RewriteDisallowedError';
  constructor(from: string, to: string) {
    super(`${from} was rewritten to ${to} before the fetch; not fetched: robots.txt disallows it.`);
  }
}

/**
 * Checks `url`, the URL a navigation is about to request, unless it is the one already checked.
 * A disallowed URL marks `request` as blocked (the request-handling hook ends it as a skip) and
 * rejects with {@link RewriteDisallowedError}. A promise only for a URL that changed: every request
 * of a crawl passes the hooks that ask.
 */
export function checkRewrite(guard: RobotsGuard, request: { url: string }, checked: string, url: string): Promise<void> | undefined {
  return url === checked ? undefined : checkChanged(guard, request, checked, url);
}

async function checkChanged(guard: RobotsGuard, request: { url: string }, checked: string, url: string): Promise<void> {
  const skip = await guard.skipFor(url, 'before-fetch', checked);
  if (skip === undefined) return;
  guard.block(request, skip);
  throw new RewriteDisallowedError(checked, url);
}
