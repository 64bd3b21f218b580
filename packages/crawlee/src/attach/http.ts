/**
 * HTTP crawlers (HttpCrawler, CheerioCrawler, JSDOMCrawler, …): every redirect is checked before it
 * is followed. A `preNavigationHook` adds a got `beforeRedirect` hook to the request's options; got
 * awaits it before requesting the next hop, so a disallowed target is never requested and an
 * allowed one waits for its origin's crawl-delay. The hook
 * stops the navigation with {@link RedirectDisallowedError}; the request-handling hook then ends
 * the request as a skip (see `basic.ts`). A got `beforeRequest` hook, last of all, checks a URL
 * rewritten after the queue's check (`gotOptions.url`, a user's got hook) the same way, then paces
 * the request's send for its origin's crawl-delay (`politeness/attach.ts`).
 */
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../report/skip-events.js';
import { navigationHooks, type ContextInternals, type PublicCrawler } from './crawler-internals.js';
import { addGotHooks } from './got-hooks.js';
import { checkRewrite } from './outgoing.js';
import { paceGotSend } from '../politeness/attach.js';

/** Thrown inside got to stop following a redirect robots.txt disallows. Never reaches the user. */
export class RedirectDisallowedError extends Error {
  override readonly name = 'RedirectDisallowedError';
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`Redirect from ${from} to ${to} not followed: robots.txt disallows it.`);
  }
}

export function attachHttpHooks(crawler: PublicCrawler, guard: RobotsGuard): void {
  const navigation = navigationHooks(crawler);
  if (!navigation) return;
  navigation.pre.push(checkWhenSent(guard, guard.options.checkRedirects, guard.crawlDelays !== undefined));
}

/**
 * A navigation hook that adds got hooks after every other (the user's navigation hooks have run):
 * - `beforeRequest`: the URL got is about to request (`gotOptions.url`, or what a user's
 *   `beforeRequest` hook made of it) is checked unless it is `request.url` (checked before the
 *   fetch) or a redirect hop (the redirect check's, per `checkRedirects`). A disallowed one is never
 *   requested: the request ends as a skip. With `paced`, an allowed one then waits for its
 *   origin's crawl-delay ({@link paceGotSend}).
 * - `beforeRedirect`: each hop is noted, and with `checkRedirects` checked before got requests it.
 *
 * One hook of each kind, so a request's got hooks are copied once and got awaits one hook per send.
 */
function checkWhenSent(guard: RobotsGuard, checkRedirects: boolean, paced: boolean) {
  return (context: ContextInternals, gotOptions: Record<string, unknown>) => {
    // Made on the first redirect: most requests have none.
    let hops: Set<string> | undefined;
    let sent = false;
    const noteHop = (next: { url?: URL | string }) => void (hops ??= new Set()).add(String(next.url ?? ''));
    const beforeRequest = (options: { url?: URL | string }): Promise<void> | undefined => {
      const url = String(options.url ?? '');
      const first = !sent;
      sent = true;
      const { request } = context;
      const checking = hops?.has(url) ? undefined : checkRewrite(guard, request, request.url, url);
      if (!paced) return checking;
      return checking === undefined ? paceGotSend(guard, url, first) : checking.then(() => paceGotSend(guard, url, first));
    };
    addGotHooks(gotOptions, {
      beforeRequest: [beforeRequest],
      beforeRedirect: checkRedirects ? [noteHop, checkRedirect(guard, context)] : [noteHop],
    });
  };
}

/** The got `beforeRedirect` hook of one request: a disallowed hop is never requested, an allowed one waits for its crawl-delay. */
function checkRedirect(guard: RobotsGuard, context: ContextInternals) {
  return async (next: { url?: URL | string }, response: { url?: string }): Promise<void> => {
    const to = String(next.url ?? '');
    const from = response.url ?? context.request.url;
    const verdict = await guard.verdict(to, 'redirect');
    if (!verdict.allowed) {
      guard.block(context.request, skipFromVerdict(verdict, 'redirect', from));
      throw new RedirectDisallowedError(from, to);
    }
    // A hop is a request to its origin like any page: it waits for the origin's crawl-delay here
    // (got requests the hop once this resolves), as it cannot be put back into the queue.
    await guard.awaitCrawlDelay(to);
  };
}
