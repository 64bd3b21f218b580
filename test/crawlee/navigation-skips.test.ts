/**
 * A browser page's refused navigations, however they fall around `page.goto()`'s return: each is a
 * skip reported once. The first refused while the page loads ends the request as its skip; one
 * refused afterwards leaves the page where it is and is reported at once. On a slow machine a
 * script can navigate twice before Crawlee's hooks have seen `page.goto()` return: the second
 * refusal must not take the first one's place.
 */
import { describe, expect, it } from 'vitest';
import type { RobotsGuard } from '../../packages/crawlee/src/guard/guard.js';
import { RequestNotes } from '../../packages/crawlee/src/guard/request-notes.js';
import type { SkipEvent } from '../../packages/crawlee/src/report/skip-events.js';
import type { ContextInternals } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { decideNavigation } from '../../packages/crawlee/src/taps/browser/checks.js';

const skipOf = (url: string): SkipEvent => ({
  url,
  origin: 'http://a.test',
  productToken: 'HeedBot',
  reason: 'rules',
  stage: 'redirect',
  line: 2,
  message: `${url} disallowed`,
});

function pageOfCrawl() {
  const reported: string[] = [];
  const notes = new RequestNotes();
  const guard = {
    checkpoints: { redirectHop: async (to: string) => (to.includes('/private') ? skipOf(to) : undefined) },
    notes,
    skips: { report: async (skip: SkipEvent) => void reported.push(skip.url) },
  } as unknown as RobotsGuard;
  const request = { url: 'http://a.test/page' };
  const context = { request } as unknown as ContextInternals;
  return { guard, notes, request, context, reported, navigated: new WeakSet<object>() };
}

describe('refused navigations of a crawled browser page', () => {
  it('two refused before goto() is seen to return: the first ends the request, the second is reported', async () => {
    const { guard, notes, request, context, reported, navigated } = pageOfCrawl();
    expect(await decideNavigation('http://a.test/private/one', 'http://a.test/page', context, guard, navigated)).toBe('block');
    expect(await decideNavigation('http://a.test/private/two', 'http://a.test/page', context, guard, navigated)).toBe('block');
    expect(reported).toEqual(['http://a.test/private/two']);
    expect(notes.takeBlocked(request)?.url).toBe('http://a.test/private/one');
  });

  it('after goto() returned: each refused navigation is reported, the page stays', async () => {
    const { guard, notes, request, context, reported, navigated } = pageOfCrawl();
    navigated.add(request);
    expect(await decideNavigation('http://a.test/private/one', 'http://a.test/page', context, guard, navigated)).toBe('no-content');
    expect(await decideNavigation('http://a.test/ok', 'http://a.test/page', context, guard, navigated)).toBe('continue');
    expect(await decideNavigation('http://a.test/private/two', 'http://a.test/page', context, guard, navigated)).toBe('no-content');
    expect(reported).toEqual(['http://a.test/private/one', 'http://a.test/private/two']);
    expect(notes.isBlocked(request)).toBe(false);
  });
});
