/**
 * `context.sendRequest()` (every crawler kind has it): the URL asked for is checked before anything
 * is sent, and so is every further URL the call requests, each before it leaves: on Crawlee 3
 * through got's hooks (its default HTTP client is got-scraping), the URL a `beforeRequest` hook
 * rewrote it to and every redirect hop ({@link gotHops}); on Crawlee 4 every hop its HTTP client
 * sends, whichever client (`v4/client-fetch.ts`). A disallowed URL rejects the call with
 * {@link RobotsDisallowedError} and is reported to `onSkip` (stage `send-request`); it is not a
 * Crawlee request, so Crawlee's `onSkippedRequest` is not told and the page's request goes on. The
 * answer's `Retry-After` on a `429` or `503` pauses its origin, as a page's does. Every argument of
 * the call is passed on as given (Crawlee 4 takes its options, `timeoutMillis`, `signal`, as a
 * second one).
 */
import type { RequestSigner } from '@heed/manager';
import { RobotsDisallowedError } from '../errors.js';
import type { RobotsGuard } from '../guard/guard.js';
import { noteAnswer } from '../politeness/answer.js';
import type { SkipEvent } from '../report/skip-events.js';
import type { ContextInternals } from './crawler-shape.js';
import type { GotRequestOptions } from './got-hooks.js';
import { signGotRequest } from './sign-requests.js';

type GotHook = (options: { url?: URL | string }, ...rest: unknown[]) => unknown;
type SendRequest = (options?: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;

/**
 * How a release lets Heed see the URLs one `sendRequest()` call requests: runs `send` with the
 * call's `options` and further arguments so that `check` is asked for each URL before it is
 * requested (the one asked for included; {@link guardSendRequest} has judged it already).
 */
export type SendHops = (
  send: SendRequest,
  options: Record<string, unknown>,
  rest: readonly unknown[],
  check: (url: string) => Promise<void>,
  /** Signs each request that leaves (option `signature`), when given. */
  signer?: RequestSigner,
  /** Offered with each signed request (option `maxCrawlPrice`). */
  maxCrawlPrice?: string,
) => Promise<unknown>;

/** Crawlee 3: got's `beforeRequest` (last, so the URL checked is the one a user's hook left) and `beforeRedirect` hooks. */
export const gotHops: SendHops = (send, options, rest, check, signer, maxCrawlPrice) => {
  const hooks = (options['hooks'] ?? {}) as Record<string, GotHook[] | undefined>;
  const checkTarget = (target: { url?: URL | string }) => check(String(target.url ?? ''));
  // Each request got sends (the one asked for and every hop) passes here once checked: signed for its own host.
  const checkAndSign =
    signer === undefined
      ? checkTarget
      : async (target: GotRequestOptions) => {
          await checkTarget(target);
          signGotRequest(target, signer, maxCrawlPrice);
        };
  return send(
    {
      ...options,
      hooks: {
        ...hooks,
        beforeRequest: [...(hooks['beforeRequest'] ?? []), checkAndSign],
        beforeRedirect: [...(hooks['beforeRedirect'] ?? []), checkTarget],
      },
    },
    ...rest,
  );
};

/** Replaces `context.sendRequest` with one that checks every URL it would request, seen as `hops` says. */
export function guardSendRequest(context: ContextInternals, guard: RobotsGuard, hops: SendHops): void {
  const original = context['sendRequest'];
  if (typeof original !== 'function') return;
  const send = original as SendRequest;
  context['sendRequest'] = async (options: Record<string, unknown> = {}, ...rest: unknown[]) => {
    const from = context.request.loadedUrl ?? context.request.url;
    const asked = urlText(options['url']) ?? context.request.url;
    // Set by a hook that refused a URL: got wraps what a hook throws, the caller gets this instead.
    let refused: SkipEvent | undefined;
    const judge = async (url: string) => {
      const skip = await guard.checkpoints.sendRequest(url, from);
      if (skip === undefined) return;
      refused = skip;
      await guard.skips.report(skip);
      throw new RobotsDisallowedError(skip);
    };
    await judge(asked);
    const judged = new Set([asked]);
    const checkOnce = async (url: string) => {
      if (judged.has(url)) return;
      judged.add(url);
      await judge(url);
    };
    // The request leaves now: its origin's crawl-delay counts from here, not from when the handler
    // started (a BasicCrawler's page slot), which a busy process can be far from. An HTTP client's
    // own send time, where it gives one, moves the clock again with the answer.
    void guard.clock?.confirmSent(asked, Date.now());
    try {
      const response = await hops(send, options, rest, checkOnce, guard.options.signature, guard.options.maxCrawlPrice);
      // Its answer counts for the crawl clock as a page's does: a `429` or `503` pauses its origin
      // (a BasicCrawler fetches its pages this way).
      await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, response, { url: asked });
      return response;
    } catch (error) {
      if (refused !== undefined) throw new RobotsDisallowedError(refused);
      throw error;
    }
  };
}

/** The URL `sendRequest` was given (a string or a `URL`), else `undefined` (it then requests `request.url`). */
function urlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return value instanceof URL ? value.href : undefined;
}
