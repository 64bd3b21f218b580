/**
 * What a page says about crawling it, collected from a stream of parse events (start tag, end tag,
 * text) in document order. Two sources feed it: the streaming HTML tokenizer (raw bodies) and a walk
 * over Cheerio's parsed tree; both come from htmlparser2, which tokenizes like a browser (comments,
 * `<script>`/`<style>`/`<title>`/`<textarea>` text) but does not build the tree like one. The
 * browser's tree rules that decide where a robots meta tag counts are applied here:
 *
 * - Robots meta tags count only in `<head>` as a browser builds it (Google: "Place the robots meta
 *   tag in the `<head>` section"; an element not allowed in `<head>` ends it, and Google "stops
 *   reading any further elements in the head"). The head is implied when the page has none; it
 *   ends at `<body>`, any element other than the metadata ones, or non-blank text; metadata between
 *   `</head>` and the body still joins it (HTML's "after head" mode). A meta tag in the body is ignored.
 * - `<template>` contents are inert (a browser parses them into a separate fragment).
 * - `<noscript>` contents are text, as in a scripting-enabled browser and in Google's renderer; so
 *   are `<iframe>`, `<noembed>`, `<noframes>` and `<xmp>` contents; everything after `<plaintext>`.
 * - `<base href>`: the first one outside those contents, wherever it is (HTML's rule).
 * - `rel="nofollow"` links: every `<a>`/`<area>` outside comments and script text, template and
 *   noscript contents included: wherever a crawler's link extraction can find a link, the site's
 *   `nofollow` on it is honoured.
 *
 * Every event costs O(1) (one string compare of a short tag name, a few set lookups): linear in the
 * page whatever its shape.
 */
import type { MetaTag } from './meta-robots.js';

/** What the plugin reads from a page. */
export interface PageSignals {
  /** `<meta name content>` pairs of the page's `<head>`, in document order. */
  readonly metaTags: readonly MetaTag[];
  /** Absolute URLs (without fragment) of links marked `rel="nofollow"` (or `ugc`/`sponsored`, which imply it). */
  readonly nofollowLinks: ReadonlySet<string>;
}

export const NO_SIGNALS: PageSignals = Object.freeze({ metaTags: Object.freeze([]), nofollowLinks: new Set<string>() });

/** The attributes the collector reads; other attributes are never kept. */
export const READ_ATTRIBUTES = new Set(['name', 'content', 'href', 'rel']);
/** Elements whose attributes matter. */
export const READ_ELEMENTS = new Set(['meta', 'base', 'a', 'area']);

/** Elements HTML allows in `<head>`: any other element (or non-blank text) ends the head. */
const HEAD_CONTENT = new Set([
  'meta',
  'link',
  'title',
  'base',
  'script',
  'style',
  'noscript',
  'template',
  'basefont',
  'bgsound',
  'noframes',
]);
/** Elements a browser still puts into `<head>` when they come after `</head>` (but before the body starts). */
const LATE_HEAD_CONTENT = new Set(['meta', 'link', 'title', 'base', 'script', 'style', 'template', 'basefont', 'bgsound', 'noframes']);
/** Elements whose contents a scripting-enabled browser parses as text, up to their own end tag. */
const RAW_TEXT = new Set(['noscript', 'iframe', 'noembed', 'noframes', 'xmp', 'plaintext']);
/** Elements htmlparser2 itself reads as text up to their end tag: their text is not page text. */
const TEXT_ONLY = new Set(['script', 'style', 'title', 'textarea']);

/** Links resolved between two turns of the event loop (a few milliseconds of work). */
const LINKS_PER_TURN = 1_000;

/** HTML's insertion modes as far as the head is concerned: before it, in it, after `</head>`, in the body. */
type HeadState = 'before' | 'in' | 'after' | 'body';

export class SignalCollector {
  private head: HeadState = 'before';
  private templateDepth = 0;
  /** The raw-text element being read (`noscript`, …), whose contents are text to a browser. */
  private rawText: string | undefined;
  private textOnly: string | undefined;
  private readonly metaTags: MetaTag[] = [];
  private baseHref: string | undefined;
  private readonly links = new Set<string>();

  constructor(private readonly wantLinks: boolean) {}

  /** Whether a text event can change anything: only while the head may still be open. */
  get wantsText(): boolean {
    return this.head !== 'body' && !this.inert && this.textOnly === undefined;
  }

  private get inert(): boolean {
    return this.templateDepth > 0 || this.rawText !== undefined;
  }

  /** A start tag, `name` lower-cased; `attributes` holds (at least) the {@link READ_ATTRIBUTES} present, first occurrence. */
  open(name: string, attributes: Readonly<Record<string, string>>): void {
    if ((name === 'a' || name === 'area') && this.wantLinks) this.link(attributes);
    if (this.rawText !== undefined) return;
    if (name === 'template') {
      if (this.templateDepth === 0) this.headElement(name);
      this.templateDepth++;
      return;
    }
    if (this.templateDepth > 0) return;
    this.headElement(name);
    if (name === 'meta') {
      const metaName = attributes['name'];
      const content = attributes['content'];
      if (this.head !== 'body' && metaName !== undefined && content !== undefined) this.metaTags.push({ name: metaName, content });
    } else if (name === 'base') {
      const href = attributes['href'];
      if (this.baseHref === undefined && href !== undefined) this.baseHref = href;
    } else if (RAW_TEXT.has(name)) {
      this.rawText = name;
    } else if (TEXT_ONLY.has(name)) {
      this.textOnly = name;
    }
  }

  /** An end tag, `name` lower-cased. */
  close(name: string): void {
    if (this.rawText !== undefined) {
      // `<plaintext>` has no end: everything after it is text.
      if (name === this.rawText && name !== 'plaintext') this.rawText = undefined;
      return;
    }
    if (name === 'template') {
      if (this.templateDepth > 0) this.templateDepth--;
      return;
    }
    if (this.templateDepth > 0) return;
    if (name === this.textOnly) this.textOnly = undefined;
    else if (name === 'head' && (this.head === 'before' || this.head === 'in')) this.head = 'after';
    else if (name === 'body' || name === 'html') this.head = 'body';
  }

  /** Character data outside tags; `blank` when it is only HTML whitespace. */
  text(blank: boolean): void {
    if (!blank && this.wantsText) this.head = 'body';
  }

  /**
   * The signals read so far, links resolved against `<base href>` (itself resolved against
   * `pageUrl`). Resolving a URL costs microseconds and a page can hold 100,000 links: they are
   * resolved in batches, with a turn of the event loop between them.
   */
  async result(pageUrl: string): Promise<PageSignals> {
    const base = (this.baseHref !== undefined ? absolute(this.baseHref, pageUrl) : undefined) ?? pageUrl;
    return { metaTags: this.metaTags, nofollowLinks: await resolveLinks(this.links, base) };
  }

  /**
   * How an element moves the head along (HTML's "before head", "in head" and "after head" modes):
   * `<head>` or metadata opens it, metadata keeps it, metadata after `</head>` still joins it,
   * anything else starts the body.
   */
  private headElement(name: string): void {
    if (this.head === 'body' || name === 'html') return;
    if (this.head === 'after') {
      if (!LATE_HEAD_CONTENT.has(name) && name !== 'head') this.head = 'body';
    } else if (name === 'head' || HEAD_CONTENT.has(name)) {
      this.head = 'in';
    } else {
      this.head = 'body';
    }
  }

  private link(attributes: Readonly<Record<string, string>>): void {
    const href = attributes['href'];
    if (href !== undefined && isNofollowRel(attributes['rel'])) this.links.add(href);
  }
}

/** `rel` says the link is not to be followed: `nofollow`, or `ugc`/`sponsored`, which imply it. */
export function isNofollowRel(rel: string | undefined): boolean {
  if (!rel) return false;
  return rel
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .some((token) => token === 'nofollow' || token === 'ugc' || token === 'sponsored');
}

/** `href` resolved against `base`, without its fragment; `undefined` when it is not http(s). */
export function absolute(href: string, base: string | URL): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.hash !== '') url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** Whether `text[start, end)` is only HTML whitespace. */
export function isBlank(text: string, start = 0, end = text.length): boolean {
  for (let i = start; i < end; i++) if (!isHtmlWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/** Tab, line feed, form feed, carriage return, space. */
export function isHtmlWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/** Links resolved against `base` (see {@link absolute}), in batches between turns of the event loop. */
export async function resolveLinks(hrefs: Iterable<string>, base: string): Promise<Set<string>> {
  const urls = new Set<string>();
  let baseUrl: URL;
  try {
    // Parsed once: a base given as a string is parsed again on every call.
    baseUrl = new URL(base);
  } catch {
    return urls;
  }
  let count = 0;
  for (const href of hrefs) {
    if (++count % LINKS_PER_TURN === 0) await yieldToEventLoop();
    const url = absolute(href, baseUrl);
    if (url !== undefined) urls.add(url);
  }
  return urls;
}

/** Lets other tasks run: long pages are read in slices so the event loop is never held for long. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
