/**
 * Browser crawlers on Crawlee 4 (PlaywrightCrawler, PuppeteerCrawler): the same page guards as on
 * 3.x (`browser.ts`: request interception for redirect hops, script navigations, popups and
 * sub-resources), the page's user-agent (`identify.ts`) and the answer's `Retry-After`, installed
 * around `navigationHandler` (protected, the step that calls `page.goto()`; 4.x made the
 * navigation hook lists private, and the page exists only from the context pipeline's first step).
 * Heed's steps run right before the navigation, after the user's `preNavigationHooks`, and right
 * after it, before the user's `postNavigationHooks`, as on 3.x.
 *
 * A URL a `preNavigationHook` rewrote is checked before `page.goto()`; the page's crawl-delay counts
 * from then. A disallowed rewrite, or a navigation stopped mid-way (a redirect hop robots.txt
 * disallows), ends the request as a skip, the way Crawlee 4 ends its own robots.txt skips.
 *
 * Checked against 4.0.0-rc.0 (`BrowserCrawler.navigate` calling `this.navigationHandler`).
 */
import type { RobotsGuard } from '../../guard/guard.js';
import type { CheckedUrls } from '../../guard/request-notes.js';
import { noteAnswer } from '../../politeness/answer.js';
import { browserPageGuards } from '../browser/page-guards.js';
import { kindOf, type ContextInternals, type PublicCrawler } from '../crawler-shape.js';
import { identifyBrowserPages, launchUserAgent } from '../identify.js';
import { interruptAsSkip, skipIfPaymentAsked } from './navigation.js';

type NavigationHandler = (context: ContextInternals, gotoOptions: unknown) => Promise<unknown>;

/** Whether `crawler` is a Crawlee 4 browser crawler Heed can guard (it navigates through `navigationHandler`). */
export function navigatesInBrowser(crawler: object): boolean {
  return kindOf(crawler) === 'browser' && typeof (crawler as { navigationHandler?: unknown }).navigationHandler === 'function';
}

/**
 * Guards every page `crawler` opens; returns false for a crawler that is not a browser crawler
 * (or whose build has no `navigationHandler`). `checkedBeforeFetch`: the URL each request was
 * checked for when it left the request manager. `crawleePaces429`: see `noteAnswer`.
 */
export function attachBrowserNavigationV4(
  crawler: PublicCrawler,
  guard: RobotsGuard,
  checkedBeforeFetch: CheckedUrls,
  crawleePaces429: boolean,
): boolean {
  if (!navigatesInBrowser(crawler)) return false;
  const c = crawler as unknown as { navigationHandler: NavigationHandler };
  const { options, checkpoints, clock, skips } = guard;
  const guards = browserPageGuards(crawler, guard);
  // A crawler launched with its own user-agent keeps it: that is the user's choice.
  const identify = options.identifyPages && launchUserAgent(crawler) === undefined ? identifyBrowserPages(options.userAgent) : undefined;
  const original = c.navigationHandler.bind(c);
  c.navigationHandler = async (context, gotoOptions) => {
    await guards?.beforeGoto(context);
    const { request } = context;
    const checked = checkedBeforeFetch.get(request);
    const skip = checked === undefined ? undefined : await checkpoints.rewrite(checked, request.url);
    if (skip !== undefined)
      await interruptAsSkip(request, skip, skips, `${checked} was rewritten to ${request.url}, which robots.txt disallows`);
    await clock?.beforeSend(request.url);
    checkpoints.pageLeaves(request, context['proxyInfo']);
    await identify?.(context, {});
    let response: unknown;
    try {
      response = await original(context, gotoOptions);
    } catch (error) {
      await stopIfBlocked(context, guard);
      throw error;
    }
    await stopIfBlocked(context, guard);
    guards?.afterGoto(context);
    await noteAnswer(clock, options.maxCrawlDelaySecs * 1000, response, context.request, crawleePaces429);
    await skipIfPaymentAsked(response, context.request, guard);
    return response;
  };
  return true;
}

/** Ends the request as a skip when the page guards stopped its navigation (a hop robots.txt disallows). */
async function stopIfBlocked(context: ContextInternals, guard: RobotsGuard): Promise<void> {
  const blocked = guard.notes.takeBlocked(context.request);
  if (blocked !== undefined) await interruptAsSkip(context.request, blocked, guard.skips, blocked.message);
}
