/**
 * Reads what a fetched page says about crawling it: its robots meta tags and its `rel="nofollow"`
 * links, from the document the crawler already parsed where it has one, otherwise from the raw body
 * with a streaming tokenizer. Never a regular expression over HTML: every reader is linear in the
 * page. Where a meta tag counts (only in `<head>`, not in comments, scripts, `<template>` or
 * `<noscript>`) is decided in `page-signals/collector.ts` and `page-signals/dom.ts`.
 *
 * - Browser crawlers (Playwright, Puppeteer): the live DOM, through `page.evaluate`.
 * - JSDOMCrawler: `context.window.document`.
 * - CheerioCrawler: `context.$`.
 * - HttpCrawler and anything else with a body: htmlparser2's tokenizer over at most 5,000,000 characters.
 */
export { NO_SIGNALS, type PageSignals } from './collector.js';
export { signalsFromHtml, MAX_HTML_CHARS } from './html-stream.js';
export { signalsFromCheerio, isCheerio, type CheerioLike } from './cheerio.js';
export { signalsFromDocument, signalsFromBrowserPage, type EvaluatingPage, type DomDocument } from './dom.js';
