/**
 * Signals of a standard DOM document: JSDOMCrawler's `window.document` (parse5, HTML's own tree
 * construction) and a browser page's live DOM (after its scripts ran). The parser already decided
 * what is in `<head>` and left `<template>` contents out of the tree; what is left to do is to skip
 * `<noscript>` contents, which a parser without scripting (JSDOM's default) turns into elements but a
 * scripting browser (and Google's renderer) reads as text. Links are resolved against the document's
 * own base URL, as the crawler's link extraction resolves them.
 */
import { absolute, isNofollowRel, resolveLinks, type PageSignals } from './collector.js';

/**
 * The few DOM members {@link readDocument} uses. Declared here instead of TypeScript's `DOM` lib so
 * that browser types exist only in the one module whose code runs in a document; everything else in
 * Heed is typed for Node alone.
 */
export interface DomElement {
  closest(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
}

/** A standard DOM document (JSDOM's `window.document`, a browser page's `document`), as far as Heed reads it. */
export interface DomDocument {
  readonly head: { querySelectorAll(selector: string): ArrayLike<DomElement> } | null;
  readonly baseURI: string;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/** What {@link readDocument} returns: plain data, so it crosses from a browser page unchanged. */
export interface DocumentReading {
  readonly metas: { name: string; content: string }[];
  /** `href` and `rel` of every `<a>`/`<area>` with both (when links are wanted). */
  readonly links: { href: string; rel: string }[];
  readonly baseUri: string;
}

/**
 * Reads a document with DOM APIs only. It is also sent to browsers as source text, so it must use
 * nothing from this module's scope.
 */
export function readDocument(doc: DomDocument, wantLinks: boolean): DocumentReading {
  const outsideNoscript = (element: DomElement) => element.closest('noscript') === null;
  const metas: { name: string; content: string }[] = [];
  if (doc.head) {
    for (const meta of Array.from(doc.head.querySelectorAll('meta[name][content]'))) {
      if (outsideNoscript(meta)) metas.push({ name: meta.getAttribute('name') ?? '', content: meta.getAttribute('content') ?? '' });
    }
  }
  const links: { href: string; rel: string }[] = [];
  if (wantLinks) {
    for (const link of Array.from(doc.querySelectorAll('a[href][rel], area[href][rel]'))) {
      links.push({ href: link.getAttribute('href') ?? '', rel: link.getAttribute('rel') ?? '' });
    }
  }
  return { metas, links, baseUri: doc.baseURI };
}

/** The subset of a Playwright/Puppeteer page the plugin calls. */
export interface EvaluatingPage {
  evaluate<R>(expression: string): Promise<R>;
}

/** Signals of a JSDOM (or any standard DOM) document fetched from `pageUrl`. */
export function signalsFromDocument(doc: DomDocument, pageUrl: string, wantLinks: boolean): Promise<PageSignals> {
  return toSignals(readDocument(doc, wantLinks), pageUrl);
}

/** Signals of a live browser page (its current DOM, after scripts ran) fetched from `pageUrl`. */
export async function signalsFromBrowserPage(page: EvaluatingPage, pageUrl: string, wantLinks: boolean): Promise<PageSignals> {
  const reading = await page.evaluate<DocumentReading>(`(${readDocument.toString()})(document, ${wantLinks ? 'true' : 'false'})`);
  return toSignals(reading, pageUrl);
}

async function toSignals(reading: DocumentReading, pageUrl: string): Promise<PageSignals> {
  const base = absolute(reading.baseUri, pageUrl) ?? pageUrl;
  const hrefs = new Set(reading.links.filter((link) => isNofollowRel(link.rel)).map((link) => link.href));
  return { metaTags: reading.metas, nofollowLinks: await resolveLinks(hrefs, base) };
}
