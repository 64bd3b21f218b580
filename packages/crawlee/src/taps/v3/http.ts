/**
 * HTTP crawlers on Crawlee 3 (HttpCrawler, CheerioCrawler, JSDOMCrawler): every request got sends
 * for a navigation passes its door before it leaves. A navigation hook, after the user's, adds
 * got hooks to the request's options (got awaits them before it sends):
 * - `beforeRequest`, last of all: the URL about to be requested, when it is not the one the queue
 *   checked (`gotOptions.url`, a user's got hook) and not a redirect hop, goes through the rewrite
 *   checkpoint; then the send is claimed on the crawl clock (the first send waits for the origin's
 *   crawl-delay counted from the last request really sent; a hop, which waited in `beforeRedirect`,
 *   marks its send).
 * - `beforeRedirect`: each hop goes through the redirect checkpoint (the check with
 *   `checkRedirects`, the crawl-delay wait always).
 * A refused URL is never requested: the navigation stops, and the request ends as the skip.
 */
import type { RobotsGuard } from '../../guard/guard.js';
import type { ContextInternals, PublicCrawler } from '../crawler-shape.js';
import { addGotHooks, type GotRequestOptions } from '../got-hooks.js';
import { signGotRequest } from '../sign-requests.js';
import { stopNavigation } from '../stop-navigation.js';
import { navigationHooks } from './internals.js';

export function attachHttpHooks(crawler: PublicCrawler, guard: RobotsGuard): void {
  navigationHooks(crawler)?.pre.push(gotHooksOf(guard));
}

/**
 * The navigation hook that adds one got hook of each kind per request, so a request's got hooks
 * are copied once and got awaits one hook per send. Also what a stream download adds to its got
 * options (`stream-download.ts`).
 */
export function gotHooksOf(guard: RobotsGuard) {
  const { checkpoints, clock, notes } = guard;
  const { signature: signer, maxCrawlPrice } = guard.options;
  // Without a check and without a clock a hop has nothing to wait for: no hook, no await per hop.
  const watchesHops = guard.options.checkRedirects || clock !== undefined;
  return (context: ContextInternals, gotOptions: Record<string, unknown>) => {
    // Made on the first redirect: most requests have none.
    let hops: Set<string> | undefined;
    let sent = false;
    const beforeRequest = (options: GotRequestOptions): Promise<void> | undefined => {
      const url = String(options.url ?? '');
      const first = !sent;
      sent = true;
      const { request } = context;
      const checking = hops?.has(url) ? undefined : checkpoints.rewrite(request.url, url);
      // A download without navigation hooks (FileDownload's stream) leaves here; for the others, done already.
      if (first) checkpoints.pageLeaves(request, context['proxyInfo']);
      const paced = () =>
        clock === undefined || clock.idle ? undefined : first ? clock.beforeSend(url) : clock.confirmSent(url, Date.now());
      // Signed last, once the crawl-delay wait is over: a signature's life starts when the request leaves.
      const pacing = signer === undefined ? paced : () => signAfter(paced(), () => signGotRequest(options, signer, maxCrawlPrice));
      if (checking === undefined) return pacing();
      return checking.then((skip) => {
        if (skip !== undefined) stopNavigation(notes, request, skip);
        return pacing();
      });
    };
    const beforeRedirect = async (next: { url?: URL | string }, response: { url?: string }): Promise<void> => {
      const to = String(next.url ?? '');
      (hops ??= new Set()).add(to);
      if (!watchesHops) return;
      const skip = await checkpoints.redirectHop(to, response.url ?? context.request.url);
      if (skip !== undefined) stopNavigation(notes, context.request, skip);
    };
    addGotHooks(gotOptions, { beforeRequest: [beforeRequest], beforeRedirect: [beforeRedirect] });
  };
}

/** Runs `sign` once `waiting` (a crawl-delay wait, or none) is over. */
function signAfter(waiting: Promise<void> | undefined, sign: () => void): Promise<void> | undefined {
  if (waiting === undefined) {
    sign();
    return undefined;
  }
  return waiting.then(sign);
}
