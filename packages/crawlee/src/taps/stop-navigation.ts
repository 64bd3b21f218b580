/**
 * Stopping a navigation a checkpoint refused, where the hook can only throw (a got hook, a
 * navigation hook, the step before the user's handler): the request is marked blocked with its
 * skip, and the tap that ends the request's handling ends it as that skip, not as a failure.
 */
import type { RequestNotes } from '../guard/request-notes.js';
import type { SkipEvent } from '../report/skip-events.js';

/** Thrown to stop a navigation Heed refused. Never reaches the user: the request ends as its skip. */
export class NavigationStopped extends Error {
  override readonly name = 'NavigationStopped';
  constructor(readonly skip: SkipEvent) {
    super(`${skip.url} not requested: ${skip.message}`);
  }
}

/** Marks `request` blocked with `skip` and throws {@link NavigationStopped}. */
export function stopNavigation(notes: RequestNotes, request: object, skip: SkipEvent): never {
  notes.block(request, skip);
  throw new NavigationStopped(skip);
}
