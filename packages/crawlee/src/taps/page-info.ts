/**
 * What a fetched page says about following its links and storing it: robots meta tags and
 * `X-Robots-Tag` (→ typed directives) and, with `honorRelNofollow`, its `rel="nofollow"` links.
 * Read from the document the crawler parsed (the browser's DOM, JSDOM's `window.document`,
 * Cheerio's `$`), otherwise from the body it downloaded (see `page-signals/index.ts`).
 */
import type { ProductTokens } from '@heed/parser';
import type { PageInfo } from '../guard/request-notes.js';
import { NO_DIRECTIVES, robotsDirectives } from '../page-signals/meta-robots.js';
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
} from '../page-signals/index.js';
import { mayCarrySignals, signalWords, type SignalWords } from '../page-signals/quick-scan.js';
import { pageUsageEvidence } from '../page-signals/usage.js';
import { pageOf, type ContextInternals } from './crawler-shape.js';

/**
 * What the page says. A promise only when reading needs one (a browser's page, Playwright's
 * headers): a Cheerio page, read for every page a crawl handles, is read synchronously.
 */
export function readPageInfo(
  context: ContextInternals,
  options: Pick<ResolvedOptions, 'productToken' | 'metaRobots' | 'honorRelNofollow' | 'purposes'>,
): PageInfo | Promise<PageInfo> {
  // Usage evidence reads meta tags of other names: those pages are always read whole.
  const quick = options.purposes.length === 0 ? wordsOf(options.productToken, options.honorRelNofollow) : undefined;
  const signals = readSignals(context, options.honorRelNofollow, quick);
  const headers = headerLines(context.response, options.purposes.length > 0 ? USAGE_HEADERS : ROBOTS_HEADERS);
  if (signals instanceof Promise || headers instanceof Promise) {
    return Promise.all([signals, headers]).then(([read, lines]) => pageInfoOf(read, lines, options));
  }
  return pageInfoOf(signals, headers, options);
}

function pageInfoOf(
  signals: PageSignals,
  headers: HeaderLines,
  { productToken, metaRobots, purposes }: Pick<ResolvedOptions, 'productToken' | 'metaRobots' | 'purposes'>,
): PageInfo {
  const header = headers['x-robots-tag'];
  const directives = metaRobots ? robotsDirectives(productToken, signals.metaTags, header) : NO_DIRECTIVES;
  const info: { -readonly [K in keyof PageInfo]: PageInfo[K] } = {
    directives,
    nofollowSource: directives.nofollow ? nofollowSource(productToken, signals, header) : undefined,
    nofollowLinks: signals.nofollowLinks,
  };
  // With purposes, what the response says about AI usage (headers, and the same meta tags). Set, not
  // spread in: this runs for every page, mostly before V8 optimises it.
  if (purposes.length > 0) info.usageEvidence = pageUsageEvidence(productToken, headers, signals.metaTags);
  return info;
}

/** The response headers read here: the robots directives, the usage signals and the content type. */
const READ_HEADERS = ['content-usage', 'content-signal', 'tdm-reservation', 'x-robots-tag', 'content-type'] as const;

type HeaderName = (typeof READ_HEADERS)[number];
type HeaderLines = Partial<Record<HeaderName, string[]>>;

/**
 * Headers to read, with the lengths and first letters (lower case) of their names: most header
 * names of a response are none of them, and those two tell without lower-casing the name.
 */
interface HeaderSelection {
  readonly names: readonly HeaderName[];
  readonly lengths: ReadonlySet<number>;
  readonly firsts: ReadonlySet<number>;
}

function headerSelection(names: readonly HeaderName[]): HeaderSelection {
  return { names, lengths: new Set(names.map((name) => name.length)), firsts: new Set(names.map((name) => name.charCodeAt(0))) };
}

/** With purposes: the usage signals and the content type too. */
const USAGE_HEADERS = headerSelection(READ_HEADERS);
/** Without: the robots directives alone. */
const ROBOTS_HEADERS = headerSelection(['x-robots-tag']);

/**
 * The lines of the headers read, per lower-case name, each line as it came: each is its own
 * statement. Node's `headers` object joins repeated lines with ", ", which reads
 * `X-Robots-Tag: otherbot: noindex` + `X-Robots-Tag: noai` as one line for otherbot, so the raw
 * lines are read where the response has them: `rawHeaders` (Node's `IncomingMessage`, the HTTP
 * crawlers' response), `headersArray()` (Playwright). Otherwise `headers()` (Puppeteer), whose
 * repeated lines are joined with "\n", split there. A browser may join repeated lines before
 * either sees them (Chromium under Playwright 1.65 hands on one line joined with ", "); those
 * read as one line, as the browser gave them.
 */
function headerLines(response: unknown, wanted: HeaderSelection): HeaderLines | Promise<HeaderLines> {
  const lines: HeaderLines = {};
  if (!response || typeof response !== 'object') return lines;
  const { rawHeaders, headersArray, headers } = response as { rawHeaders?: unknown; headersArray?: unknown; headers?: unknown };
  if (Array.isArray(rawHeaders)) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name: unknown = rawHeaders[i];
      const value: unknown = rawHeaders[i + 1];
      if (typeof name === 'string' && typeof value === 'string') addHeaderLine(lines, name, value, wanted);
    }
    return lines;
  }
  if (typeof headersArray === 'function') return playwrightHeaderLines(response, headersArray, headers, wanted);
  return headerObjectLines(lines, response, headers, wanted);
}

async function playwrightHeaderLines(
  response: object,
  headersArray: unknown,
  headers: unknown,
  wanted: HeaderSelection,
): Promise<HeaderLines> {
  const lines: HeaderLines = {};
  try {
    const array: unknown = await (headersArray as () => unknown).call(response);
    if (Array.isArray(array)) {
      for (const entry of array as { name?: unknown; value?: unknown }[])
        if (typeof entry.name === 'string' && typeof entry.value === 'string') addHeaderLine(lines, entry.name, entry.value, wanted);
      return lines;
    }
  } catch {
    // A response whose raw headers are gone (its page closed): its headers() still tell.
  }
  return headerObjectLines(lines, response, headers, wanted);
}

function headerObjectLines(lines: HeaderLines, response: object, headers: unknown, wanted: HeaderSelection): HeaderLines {
  const object: unknown = typeof headers === 'function' ? (headers as () => unknown).call(response) : headers;
  if (!object || typeof object !== 'object') return lines;
  for (const [name, value] of Object.entries(object as Record<string, unknown>)) {
    if (typeof value === 'string') addHeaderLine(lines, name, value, wanted);
    else if (Array.isArray(value))
      for (const item of value as unknown[]) if (typeof item === 'string') addHeaderLine(lines, name, item, wanted);
  }
  return lines;
}

function addHeaderLine(lines: HeaderLines, name: string, value: string, wanted: HeaderSelection): void {
  // `| 0x20` lower-cases an ASCII letter: the names read start with one.
  if (!wanted.lengths.has(name.length) || !wanted.firsts.has(name.charCodeAt(0) | 0x20)) return;
  const lower = name.toLowerCase();
  const key = wanted.names.find((read) => read === lower);
  if (key !== undefined) (lines[key] ??= []).push(...value.split('\n'));
}

/** The signal words of each product token (see `quick-scan.ts`), without and with link words: a plugin asks with one token, every page. */
const signalWordsOf = [new Map<ProductTokens, SignalWords>(), new Map<ProductTokens, SignalWords>()] as const;

/** The last token asked for and its words, without and with link words: compared before the map is looked in. */
const lastWords: [ProductTokens | undefined, SignalWords | undefined][] = [
  [undefined, undefined],
  [undefined, undefined],
];

function wordsOf(token: ProductTokens, links: boolean): SignalWords {
  const last = lastWords[links ? 1 : 0] as [ProductTokens | undefined, SignalWords | undefined];
  if (last[0] === token && last[1] !== undefined) return last[1];
  const known = signalWordsOf[links ? 1 : 0];
  let words = known.get(token);
  if (words === undefined) {
    words = signalWords(token, links);
    if (known.size < 64) known.set(token, words);
  }
  last[0] = token;
  last[1] = words;
  return words;
}

/**
 * The page's signals from the best document the context has: the crawler's own parse first.
 * `quick`: the words a signal needs; a Cheerio page whose raw HTML has none of them is not walked.
 */
function readSignals(context: ContextInternals, wantLinks: boolean, quick: SignalWords | undefined): PageSignals | Promise<PageSignals> {
  const pageUrl = context.request.loadedUrl ?? context.request.url;
  const page = pageOf(context) as Partial<EvaluatingPage> | undefined;
  if (page && typeof page.evaluate === 'function') return signalsFromBrowserPage(page as EvaluatingPage, pageUrl, wantLinks);
  const document = (context['window'] as { document?: unknown } | undefined)?.document;
  if (isDocument(document)) return signalsFromDocument(document, pageUrl, wantLinks);
  if (isCheerio(context['$'])) {
    if (quick !== undefined && !mayCarrySignals(context.body, quick)) return NO_SIGNALS;
    return signalsFromCheerio(context['$'], pageUrl, wantLinks);
  }
  // AdaptivePlaywrightCrawler's HTTP-only rendering hands the handler got's response, with the body, and no `body`.
  const html = bodyText(context.body) ?? bodyText((context.response as { body?: unknown } | undefined)?.body);
  if (html === undefined || (quick !== undefined && !mayCarrySignals(html, quick))) return NO_SIGNALS;
  return signalsFromHtml(html, pageUrl, wantLinks);
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

/** The body as text; of a binary body only as many bytes as the HTML reader reads characters (a character cut at the end is harmless). */
function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array)
    return Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, MAX_HTML_CHARS)).toString('utf8');
  return undefined;
}
