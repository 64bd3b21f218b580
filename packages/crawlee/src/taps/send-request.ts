/**
 * `context.sendRequest()` (every crawler kind has it): the URL asked for is checked before anything
 * is sent, and through got's hooks (Crawlee's default HTTP client is got-scraping) so is the URL a
 * `beforeRequest` hook rewrote it to and every redirect hop. A disallowed URL rejects the call with
 * {@link RobotsDisallowedError} and is reported to `onSkip` (stage `send-request`); it is not a
 * Crawlee request, so Crawlee's `onSkippedRequest` is not told and the page's request goes on. The
 * answer's `Retry-After` on a `429` or `503` pauses its origin, as a page's does.
 */
import { RobotsDisallowedError } from '../errors.js';
import type { RobotsGuard } from '../guard/guard.js';
import { noteAnswer } from '../politeness/answer.js';
import type { SkipEvent } from '../report/skip-events.js';
import type { ContextInternals } from './crawler-shape.js';

type GotHook = (options: { url?: URL | string }, ...rest: unknown[]) => unknown;
type SendRequest = (options?: Record<string, unknown>) => Promise<unknown>;

/** Replaces `context.sendRequest` with one that checks every URL it would request. */
export function guardSendRequest(context: ContextInternals, guard: RobotsGuard): void {
  const original = context['sendRequest'];
  if (typeof original !== 'function') return;
  const send = original as SendRequest;
  context['sendRequest'] = async (options: Record<string, unknown> = {}) => {
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
    const hooks = (options['hooks'] ?? {}) as Record<string, GotHook[] | undefined>;
    const judged = new Set([asked]);
    const checkOnce = async (target: { url?: URL | string }) => {
      const url = String(target.url ?? '');
      if (judged.has(url)) return;
      judged.add(url);
      await judge(url);
    };
    try {
      const response = await send({
        ...options,
        hooks: {
          ...hooks,
          // Last, so the URL checked is the one a user's hook left.
          beforeRequest: [...(hooks['beforeRequest'] ?? []), checkOnce],
          beforeRedirect: [...(hooks['beforeRedirect'] ?? []), checkOnce],
        },
      });
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
