/**
 * What a fetched page says about following its links and storing it: robots meta tags and
 * `X-Robots-Tag` (→ typed directives) and, with `honorRelNofollow`, its `rel="nofollow"` links.
 * Read from the document the crawler parsed (the browser's DOM, JSDOM's `window.document`,
 * Cheerio's `$`), otherwise from the body it downloaded (see `page-signals.ts`).
 */
import type { ProductTokens } from '@heed/parser';
import type { PageInfo } from '../guard.js';
import { NO_DIRECTIVES, robotsDirectives } from '../meta-robots.js';
import type { ResolvedOptions } from '../options.js';
import {
  isCheerio,
  MAX_HTML_CHARS,
  NO_SIGNALS,
  signalsFromBrowserPage,
  signalsFromCheerio,
  signalsFromDocument,
  signalsFromHtml,
  type DomDocument,
  type EvaluatingPage,
  type PageSignals,
} from '../page-signals.js';
import { pageUsageEvidence, type UsageHeaders } from '../page-signals/usage.js';
import type { ContextInternals } from './crawler-internals.js';

export async function readPageInfo(
  context: ContextInternals,
  options: Pick<ResolvedOptions, 'productToken' | 'metaRobots' | 'honorRelNofollow' | 'purposes'>,
): Promise<PageInfo> {
  const { productToken, metaRobots, honorRelNofollow } = options;
  const signals = await readSignals(context, honorRelNofollow);
  const header = responseHeader(context.response, 'x-robots-tag');
  // With purposes, what the response says about AI usage (headers, and the same meta tags).
  const usage =
    options.purposes.length > 0 ? { usageEvidence: pageUsageEvidence(productToken, usageHeaders(context.response), signals.metaTags) } : {};
  if (!metaRobots) return { directives: NO_DIRECTIVES, nofollowSource: undefined, nofollowLinks: signals.nofollowLinks, ...usage };
  const directives = robotsDirectives(productToken, signals.metaTags, header);
  return {
    directives,
    nofollowSource: directives.nofollow ? nofollowSource(productToken, signals, header) : undefined,
    nofollowLinks: signals.nofollowLinks,
    ...usage,
  };
}

/** The headers the usage evidence reads. */
function usageHeaders(response: unknown): UsageHeaders {
  const headers: Record<string, string[]> = {};
  for (const name of ['content-usage', 'content-signal', 'tdm-reservation', 'x-robots-tag', 'content-type'] as const) {
    const value = responseHeader(response, name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/** The page's signals from the best document the context has: the crawler's own parse first. */
async function readSignals(context: ContextInternals, wantLinks: boolean): Promise<PageSignals> {
  const pageUrl = context.request.loadedUrl ?? context.request.url;
  const page = context.page as Partial<EvaluatingPage> | undefined;
  if (page && typeof page.evaluate === 'function') return signalsFromBrowserPage(page as EvaluatingPage, pageUrl, wantLinks);
  const document = (context['window'] as { document?: unknown } | undefined)?.document;
  if (isDocument(document)) return signalsFromDocument(document, pageUrl, wantLinks);
  if (isCheerio(context['$'])) return signalsFromCheerio(context['$'], pageUrl, wantLinks);
  const html = bodyText(context.body);
  return html === undefined ? NO_SIGNALS : signalsFromHtml(html, pageUrl, wantLinks);
}

function isDocument(value: unknown): value is DomDocument {
  return typeof value === 'object' && value !== null && typeof (value as Partial<DomDocument>).querySelectorAll === 'function';
}

/** Which source said `nofollow`, for the skip events of the page's links. */
function nofollowSource(token: ProductTokens, signals: PageSignals, header: string[] | undefined): string {
  const byMeta = robotsDirectives(token, signals.metaTags, undefined).nofollow;
  const byHeader = robotsDirectives(token, [], header).nofollow;
  if (byMeta && !byHeader) return 'its robots meta tag says nofollow';
  if (byHeader && !byMeta) return 'its X-Robots-Tag header says nofollow';
  return 'its robots meta tag and X-Robots-Tag header say nofollow';
}

/** Values of header `name` (lower-case) of a response: Node's `IncomingMessage`, or Playwright's/Puppeteer's `headers()`. */
function responseHeader(response: unknown, name: string): string[] | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const headers = (response as { headers?: unknown }).headers;
  // Browsers: `headers()` returns an object, repeated headers joined with "\n".
  const object = typeof headers === 'function' ? (headers as () => unknown).call(response) : headers;
  if (!object || typeof object !== 'object') return undefined;
  const value = (object as Record<string, unknown>)[name];
  if (typeof value === 'string') return value.split('\n');
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return undefined;
}

/** The body as text; of a binary body only as many bytes as the HTML reader reads characters (a character cut at the end is harmless). */
function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array)
    return Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, MAX_HTML_CHARS)).toString('utf8');
  return undefined;
}
