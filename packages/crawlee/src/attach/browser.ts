/**
 * Browser crawlers (PlaywrightCrawler, PuppeteerCrawler): the page's requests are intercepted from
 * a `preNavigationHook`, before `page.goto()`.
 *
 * - Redirects. Playwright does not show redirect hops to `page.route()`, so the main-frame
 *   navigation request is fetched by Playwright itself with `route.fetch({ maxRedirects: 0 })`: a
 *   3xx whose target robots.txt allows is handed to the browser (`route.fulfill`), which follows it
 *   as a new, again intercepted, request; a disallowed target is never requested (`route.abort`).
 *   Puppeteer shows each hop as its own intercepted request. Script and meta-refresh navigations
 *   of the main frame are new navigation requests: a disallowed one is answered `204 No Content`,
 *   so the browser stays on the page being handled.
 * - Sub-resources (`blockSubresources`): requests robots.txt disallows are aborted.
 */
import type { RobotsGuard } from '../guard.js';
import { skipFromVerdict } from '../skips.js';
import { navigationHooks, type ContextInternals, type PublicCrawler } from './crawler-internals.js';

/** The parts of Playwright's `Route`, `Request`, `APIResponse` and `Page` used here. */
interface PlaywrightRequest {
  url(): string;
  isNavigationRequest(): boolean;
  frame(): unknown;
}
interface PlaywrightResponse {
  status(): number;
  headers(): Record<string, string>;
}
interface PlaywrightRoute {
  request(): PlaywrightRequest;
  fetch(options?: { maxRedirects?: number }): Promise<PlaywrightResponse>;
  fulfill(options: { response: PlaywrightResponse } | { status: number }): Promise<void>;
  abort(errorCode?: string): Promise<void>;
  continue(): Promise<void>;
  fallback(): Promise<void>;
}
interface PlaywrightPage {
  route(url: string, handler: (route: PlaywrightRoute, request: PlaywrightRequest) => Promise<void>): Promise<void>;
  mainFrame(): unknown;
}

/** The parts of Puppeteer's `HTTPRequest` and `Page` used here. */
interface PuppeteerRequest {
  url(): string;
  isNavigationRequest(): boolean;
  frame(): unknown;
  redirectChain(): unknown[];
  abort(errorCode?: string): Promise<void>;
  continue(): Promise<void>;
  respond(response: { status: number; body: string }): Promise<void>;
  isInterceptResolutionHandled?(): boolean;
}
interface PuppeteerPage {
  setRequestInterception(value: boolean): Promise<void>;
  on(event: 'request', handler: (request: PuppeteerRequest) => void): unknown;
  mainFrame(): unknown;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function attachBrowserHooks(crawler: PublicCrawler, guard: RobotsGuard): void {
  const { checkRedirects, blockSubresources } = guard.options;
  const hooks = navigationHooks(crawler);
  if ((!checkRedirects && !blockSubresources) || !hooks) return;
  // Requests whose page.goto() has returned: later navigations are the page's own doing.
  const navigated = new WeakSet<object>();
  hooks.post.unshift((context: ContextInternals) => {
    navigated.add(context.request);
  });
  hooks.pre.push(async (context: ContextInternals) => {
    const page = context.page as Partial<PlaywrightPage & PuppeteerPage> | undefined;
    if (!page) return;
    if (typeof page.route === 'function') await routePlaywright(page as PlaywrightPage, context, guard, navigated);
    else if (typeof page.setRequestInterception === 'function') await interceptPuppeteer(page as PuppeteerPage, context, guard, navigated);
  });
}

async function routePlaywright(
  page: PlaywrightPage,
  context: ContextInternals,
  guard: RobotsGuard,
  navigated: WeakSet<object>,
): Promise<void> {
  const { checkRedirects, blockSubresources } = guard.options;
  await page.route('**/*', async (route, request) => {
    try {
      const url = request.url();
      if (isMainFrameNavigation(request, page)) {
        if (!checkRedirects) return await route.fallback();
        // The first hop was checked before the request was taken from the queue. Other main-frame
        // navigations (a script or meta refresh moving on, or a redirect target handed back below)
        // are checked here; a disallowed one is answered 204, which leaves the page where it was.
        if (url !== context.request.url) {
          const verdict = await guard.verdict(url, 'redirect');
          if (!verdict.allowed) {
            const from = context.request.loadedUrl ?? context.request.url;
            // Still inside page.goto(): the page moves on before it has loaded, like a redirect, so
            // the request ends as a skip (the post-navigation hook sees the mark).
            if (!navigated.has(context.request)) {
              guard.blocked.set(context.request, skipFromVerdict(verdict, 'redirect', from));
              return await route.abort('blockedbyclient');
            }
            await guard.reporter.report(skipFromVerdict(verdict, 'redirect', from));
            return await route.fulfill({ status: 204 });
          }
        }
        const response = await route.fetch({ maxRedirects: 0 });
        const location = response.headers()['location'];
        if (REDIRECT_STATUSES.has(response.status()) && location) {
          const target = resolve(location, url);
          if (target && !(await allowNavigation(target, context, guard, url))) return await route.abort('blockedbyclient');
        }
        return await route.fulfill({ response });
      }
      if (blockSubresources && /^https?:/i.test(url)) {
        const verdict = await guard.verdict(url, 'subresource');
        if (!verdict.allowed) {
          await guard.reporter.report(skipFromVerdict(verdict, 'subresource', context.request.url));
          return await route.abort('blockedbyclient');
        }
      }
      await route.fallback();
    } catch {
      // The page closed or the route was already handled: nothing left to decide.
      await route.abort('failed').catch(() => {});
    }
  });
}

async function interceptPuppeteer(
  page: PuppeteerPage,
  context: ContextInternals,
  guard: RobotsGuard,
  navigated: WeakSet<object>,
): Promise<void> {
  const { checkRedirects, blockSubresources } = guard.options;
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    void (async () => {
      if (request.isInterceptResolutionHandled?.()) return;
      const url = request.url();
      let allowed = true;
      if (isMainFrameNavigation(request, page)) {
        const isFirstHop = url === context.request.url && request.redirectChain().length === 0;
        if (checkRedirects && !isFirstHop) {
          if (navigated.has(context.request)) {
            // After page.goto(): the page's own navigation; answered 204 so the page stays.
            const verdict = await guard.verdict(url, 'redirect');
            if (!verdict.allowed) {
              await guard.reporter.report(skipFromVerdict(verdict, 'redirect', context.request.loadedUrl ?? context.request.url));
              return await request.respond({ status: 204, body: '' });
            }
          } else {
            allowed = await allowNavigation(url, context, guard);
          }
        }
      } else if (blockSubresources && /^https?:/i.test(url)) {
        const verdict = await guard.verdict(url, 'subresource');
        allowed = verdict.allowed;
        if (!allowed) await guard.reporter.report(skipFromVerdict(verdict, 'subresource', context.request.url));
      }
      await (allowed ? request.continue() : request.abort('blockedbyclient'));
    })().catch(() => {});
  });
}

/** Checks a navigation target; a disallowed one marks the Crawlee request as blocked. */
async function allowNavigation(url: string, context: ContextInternals, guard: RobotsGuard, from?: string): Promise<boolean> {
  const verdict = await guard.verdict(url, 'redirect');
  if (verdict.allowed) return true;
  guard.blocked.set(context.request, skipFromVerdict(verdict, 'redirect', from ?? context.request.url));
  return false;
}

function isMainFrameNavigation(request: { isNavigationRequest(): boolean; frame(): unknown }, page: { mainFrame(): unknown }): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    // Service-worker requests have no frame.
    return false;
  }
}

function resolve(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}
