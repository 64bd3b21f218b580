/**
 * The handling of a request that passed its checks, the same on every Crawlee major: it is counted
 * allowed, its `context.sendRequest` goes out under the bot's name and is checked, and a request
 * stopped on purpose during its handling (a disallowed redirect, a page whose usage preferences
 * disallow a declared purpose) ends as a skip, not as a failure.
 */
import type { RobotsGuard } from '../guard/guard.js';
import type { ContextInternals } from './crawler-shape.js';
import { identifySendRequest } from './identify.js';
import { guardSendRequest, type SendHops } from './send-request.js';
import { skipRequest } from './skip-request.js';

/**
 * Runs `next` (the navigation and the user's handler, or the handler alone) for a checked request;
 * `sendHops`: how the release shows the URLs a `sendRequest()` call requests; `ended`: what the
 * release does for a request that ends as a skip here (Crawlee 3 would count it as succeeded).
 */
export async function handleChecked(
  context: ContextInternals,
  guard: RobotsGuard,
  next: (context: ContextInternals) => unknown,
  sendHops: SendHops,
  ended?: (context: ContextInternals) => void,
): Promise<void> {
  const { request } = context;
  // Looked up once: what the navigation and the handler note about the request lands here.
  const note = guard.notes.of(request);
  if (guard.options.identifyPages) identifySendRequest(context, guard.options.userAgent);
  if (guard.options.checkSendRequest) guardSendRequest(context, guard, sendHops);
  guard.stats.allowed++;
  try {
    await next(context);
    // The page loaded, then tried to navigate somewhere disallowed (a script or meta refresh):
    // that navigation was stopped; report it, the page itself was handled.
    const later = note.blocked;
    note.blocked = undefined;
    if (later) await guard.skips.report(later);
  } catch (error) {
    const blocked = note.blocked;
    note.blocked = undefined;
    if (!blocked) throw error;
    // Stopped on purpose: a skip, not a failure.
    guard.stats.allowed--;
    ended?.(context);
    await skipRequest(request, blocked, guard.skips);
  } finally {
    // Its handling has ended: what was read of the page is let go.
    note.page = undefined;
    note.usage = undefined;
    note.rendered = undefined;
  }
}
