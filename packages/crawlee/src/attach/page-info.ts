/**
 * What a fetched page says about following its links and storing it: robots meta tags and
 * `X-Robots-Tag` (→ typed directives) and, with `honourRelNofollow`, its `rel="nofollow"` links.
 * Browser crawlers are read from the rendered DOM, HTTP crawlers from the body they downloaded.
 */
import type { PageInfo } from '../guard.js';
import { NO_DIRECTIVES, robotsDirectives } from '../meta-robots.js';
import type { ResolvedOptions } from '../options.js';
import { signalsFromHtml, signalsFromPage, type EvaluatingPage, type PageSignals } from '../page-signals.js';
import type { ContextInternals } from './crawler-internals.js';

const NOTHING: PageSignals = { metaTags: [], nofollowLinks: new Set() };

export async function readPageInfo(
  context: ContextInternals,
  options: Pick<ResolvedOptions, 'productToken' | 'metaRobots' | 'honourRelNofollow'>,
): Promise<PageInfo> {
  const { productToken, metaRobots, honourRelNofollow } = options;
  const page = context.page as Partial<EvaluatingPage> | undefined;
  let signals = NOTHING;
  if (page && typeof page.evaluate === 'function') {
    signals = await signalsFromPage(page as EvaluatingPage, honourRelNofollow);
  } else {
    const html = bodyText(context.body);
    if (html !== undefined) signals = signalsFromHtml(html, context.request.loadedUrl ?? context.request.url, honourRelNofollow);
  }
  if (!metaRobots) return { directives: NO_DIRECTIVES, nofollowSource: undefined, nofollowLinks: signals.nofollowLinks };
  const header = xRobotsTag(context.response);
  const directives = robotsDirectives(productToken, signals.metaTags, header);
  return { directives, nofollowSource: directives.nofollow ? nofollowSource(productToken, signals, header) : undefined, nofollowLinks: signals.nofollowLinks };
}

/** Which source said `nofollow`, for the skip events of the page's links. */
function nofollowSource(token: string, signals: PageSignals, header: string[] | undefined): string {
  const byMeta = robotsDirectives(token, signals.metaTags, undefined).nofollow;
  const byHeader = robotsDirectives(token, [], header).nofollow;
  if (byMeta && !byHeader) return 'its robots meta tag says nofollow';
  if (byHeader && !byMeta) return 'its X-Robots-Tag header says nofollow';
  return 'its robots meta tag and X-Robots-Tag header say nofollow';
}

/** `X-Robots-Tag` values of a response: Node's `IncomingMessage`, or Playwright's/Puppeteer's `headers()`. */
function xRobotsTag(response: unknown): string[] | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const headers = (response as { headers?: unknown }).headers;
  // Browsers: `headers()` returns an object, repeated headers joined with "\n".
  const object = typeof headers === 'function' ? (headers as () => unknown).call(response) : headers;
  if (!object || typeof object !== 'object') return undefined;
  const value = (object as Record<string, unknown>)['x-robots-tag'];
  if (typeof value === 'string') return value.split('\n');
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return undefined;
}

function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return undefined;
}
