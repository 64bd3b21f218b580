/**
 * Reads what a fetched page says about crawling it: its robots meta tags and its `rel="nofollow"`
 * links. From an HTML string (HTTP, Cheerio and JSDOM crawlers share one path) or from a live
 * browser page (Playwright, Puppeteer). The HTML scan is a tolerant tag scanner, not a full parser:
 * it only needs `<meta>` and `<a>` start tags and their attributes.
 */
import type { MetaTag } from './meta-robots.js';

/** What the plugin reads from a page. */
export interface PageSignals {
  readonly metaTags: readonly MetaTag[];
  /** Absolute URLs of links marked `rel="nofollow"` (or `ugc`/`sponsored`, which imply it). */
  readonly nofollowLinks: ReadonlySet<string>;
}

/** Most characters of a page scanned: robots meta tags live in `<head>`, links anywhere. */
const MAX_SCAN_CHARS = 5_000_000;
const TAG = /<(meta|a|base)\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;

/** Meta tags and nofollow links of an HTML document fetched from `pageUrl`. */
export function signalsFromHtml(html: string, pageUrl: string, wantLinks: boolean): PageSignals {
  const text = html.length > MAX_SCAN_CHARS ? html.slice(0, MAX_SCAN_CHARS) : html;
  const metaTags: MetaTag[] = [];
  const links: string[] = [];
  let base = pageUrl;
  for (const match of text.matchAll(TAG)) {
    const tag = match[1]!.toLowerCase();
    if (tag === 'a' && !wantLinks) continue;
    const attributes = parseAttributes(match[2] ?? '');
    if (tag === 'meta') {
      const name = attributes.get('name');
      const content = attributes.get('content');
      if (name !== undefined && content !== undefined) metaTags.push({ name: decodeEntities(name), content: decodeEntities(content) });
    } else if (tag === 'base') {
      const href = attributes.get('href');
      if (href) base = absolute(decodeEntities(href), pageUrl) ?? base;
    } else if (isNofollowRel(attributes.get('rel'))) {
      const href = attributes.get('href');
      if (href) links.push(decodeEntities(href));
    }
  }
  const nofollowLinks = new Set<string>();
  for (const href of links) {
    const url = absolute(href, base);
    if (url) nofollowLinks.add(url);
  }
  return { metaTags, nofollowLinks };
}

/** The subset of a Playwright/Puppeteer page the plugin calls. */
export interface EvaluatingPage {
  evaluate<R>(fn: () => R): Promise<R>;
}

/** Meta tags and nofollow links of a live browser page (its current DOM, after scripts ran). */
export async function signalsFromPage(page: EvaluatingPage, wantLinks: boolean): Promise<PageSignals> {
  const found = await page.evaluate(() => {
    // Runs in the browser: only DOM APIs here.
    const metas = Array.from(document.querySelectorAll('meta[name][content]')).map((m) => ({
      name: m.getAttribute('name') ?? '',
      content: m.getAttribute('content') ?? '',
    }));
    const anchors = Array.from(document.querySelectorAll('a[rel][href]'))
      .filter((a) => /(^|\s)(nofollow|ugc|sponsored)(\s|$)/i.test(a.getAttribute('rel') ?? ''))
      .map((a) => (a as HTMLAnchorElement).href);
    return { metas, anchors };
  });
  return {
    metaTags: found.metas,
    nofollowLinks: new Set(wantLinks ? found.anchors.map((href) => absolute(href, href)).filter((u): u is string => !!u) : []),
  };
}

function isNofollowRel(rel: string | undefined): boolean {
  if (!rel) return false;
  return rel.toLowerCase().split(/\s+/).some((token) => token === 'nofollow' || token === 'ugc' || token === 'sponsored');
}

function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name] ?? _);
}

/** `href` resolved against `base`, without its fragment; `undefined` when it is not http(s). */
export function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}
