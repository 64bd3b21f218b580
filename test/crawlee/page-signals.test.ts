/**
 * What a page's robots meta tags and rel="nofollow" links are, read like a browser and Google read
 * them: only `<head>` (as a browser builds it) carries robots meta tags; comments, script strings,
 * `<template>` and `<noscript>` contents never do. The same table runs against the three readers:
 * the streaming reader of raw bodies (HttpCrawler), Cheerio's document loaded the way CheerioCrawler
 * loads it, and JSDOM's document (JSDOMCrawler; scripting disabled, its default).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type MetaTag } from '@heed/crawlee';
import { robotsDirectives } from '../../packages/crawlee/src/page-signals/meta-robots.js';
import {
  signalsFromCheerio,
  signalsFromDocument,
  signalsFromHtml,
  type PageSignals,
} from '../../packages/crawlee/src/page-signals/index.js';

const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
const cheerio = createRequire(crawleeRequire.resolve('@crawlee/cheerio'))('cheerio') as {
  load(html: string, options: object): import('@crawlee/cheerio').CheerioCrawlingContext['$'];
};
const { JSDOM } = createRequire(crawleeRequire.resolve('@crawlee/jsdom'))('jsdom') as typeof import('jsdom');

const PAGE = 'https://example.com/dir/page';
const NOFOLLOW = '<meta name="robots" content="nofollow">';

type Reader = (html: string, wantLinks: boolean) => Promise<PageSignals>;
const readers: [string, Reader][] = [
  ['raw body (htmlparser2 tokenizer)', (html, wantLinks) => signalsFromHtml(html, PAGE, wantLinks)],
  // As CheerioCrawler 3.18 loads it (`_parseHTML`): htmlparser2 behind Cheerio.
  [
    'Cheerio $',
    (html, wantLinks) => signalsFromCheerio(cheerio.load(html, { xmlMode: false, _useHtmlParser2: true } as never), PAGE, wantLinks),
  ],
  ['JSDOM document', (html, wantLinks) => signalsFromDocument(new JSDOM(html, { url: PAGE }).window.document, PAGE, wantLinks)],
];

/** Whether the page's robots meta tags tell HeedBot not to follow its links. */
const saysNofollow = (tags: readonly MetaTag[]) => robotsDirectives('HeedBot', tags, undefined).nofollow;

const traps: [string, string][] = [
  ['in an HTML comment', `<!doctype html><html><head><title>t</title><!-- ${NOFOLLOW} --></head><body>x</body></html>`],
  ['in a <script> string', `<!doctype html><html><head><script>var tag = '${NOFOLLOW}';</script></head><body>x</body></html>`],
  ['in a <script> comment-like string', `<!doctype html><head><script>document.write("<!--${NOFOLLOW}-->")</script></head><body>x</body>`],
  ['in <style> text', `<!doctype html><head><style>/* ${NOFOLLOW} */</style></head><body>x</body>`],
  ['in <title> text', `<!doctype html><head><title>${NOFOLLOW}</title></head><body>x</body>`],
  ['in an attribute value', `<!doctype html><head><meta name="description" content='${NOFOLLOW}'></head><body>x</body>`],
  ['in <template>', `<!doctype html><html><head><template>${NOFOLLOW}</template></head><body>x</body></html>`],
  ['in nested <template>s', `<!doctype html><head><template><template></template>${NOFOLLOW}</template></head><body>x</body>`],
  ['in <noscript> in <head>', `<!doctype html><html><head><noscript>${NOFOLLOW}</noscript></head><body>x</body></html>`],
  ['in <noscript> in <body>', `<!doctype html><html><head></head><body><noscript>${NOFOLLOW}</noscript>x</body></html>`],
  ['in <body>', `<!doctype html><html><head><title>t</title></head><body><p>x</p>${NOFOLLOW}</body></html>`],
  [
    'after an element that ends <head> (Google stops reading there)',
    `<!doctype html><html><head><title>t</title><img src="/i.png">${NOFOLLOW}</head><body>x</body></html>`,
  ],
  ['after text that ends <head>', `<!doctype html><html><head><title>t</title>hello ${NOFOLLOW}</head><body>x</body></html>`],
  ['at the end of a page without <head>', `<!doctype html><p>x</p>${NOFOLLOW}`],
];

const honoured: [string, string][] = [
  ['in <head>', `<!doctype html><html><head><title>t</title>${NOFOLLOW}</head><body>x</body></html>`],
  [
    'upper case, attributes in any order, entities',
    `<!DOCTYPE HTML><HTML><HEAD><META CONTENT="no&#102;ollow" NAME="ROBOTS"></HEAD><BODY>x</BODY></HTML>`,
  ],
  ['in the implied <head> of a page without one', `<!doctype html>${NOFOLLOW}<p>x</p>`],
  [
    'after comments, whitespace, a script, a style, a template and a valid <noscript>',
    `<!doctype html><html><head>
      <!-- c --> <script>if (a < b) {}</script><style>p{}</style><template><div>t</div></template>
      <noscript><link rel="stylesheet" href="/no-js.css"></noscript>
      ${NOFOLLOW}</head><body>x</body></html>`,
  ],
  [
    'between </head> and <body> (browsers move it into <head>)',
    `<!doctype html><html><head><title>t</title></head>\n${NOFOLLOW}<body>x</body></html>`,
  ],
  [
    'for this crawler only',
    `<!doctype html><head><meta name="robots" content="follow"><meta name="HeedBot" content="nofollow"></head><body>x</body>`,
  ],
];

describe.each(readers)('robots meta tags read from the %s', (_reader, read) => {
  it.each(traps)('a nofollow meta tag %s is not obeyed', async (_trap, html) => {
    expect(saysNofollow((await read(html, true)).metaTags)).toBe(false);
  });

  it.each(honoured)('a nofollow meta tag %s is obeyed', async (_case, html) => {
    expect(saysNofollow((await read(html, true)).metaTags)).toBe(true);
  });

  it('keeps every meta tag of <head> with its name and content, in order', async () => {
    const html = `<html><head><meta name="robots" content="noindex"><meta content='max-snippet:5' name='HeedBot'><meta name=description content=hello><meta charset="utf-8"></head></html>`;
    expect((await read(html, false)).metaTags).toEqual([
      { name: 'robots', content: 'noindex' },
      { name: 'HeedBot', content: 'max-snippet:5' },
      { name: 'description', content: 'hello' },
    ]);
  });

  it('resolves nofollow links against the first <base href>, drops fragments and non-http links', async () => {
    const html = `<!doctype html><html><head><base href="https://example.com/base/"><base href="https://other.example/"></head><body>
      <a href="/a" rel="nofollow">a</a>
      <a rel="sponsored noopener" href="b?x=1&amp;y=2#frag">b</a>
      <a rel="UGC" href="c">c</a>
      <area rel="nofollow" href="/area">
      <a href="/followed">followed</a>
      <a href="/noopener" rel="noopener">noopener</a>
      <a href="javascript:void(0)" rel=nofollow>js</a>
      <a href="http://[bad" rel=nofollow>bad</a>
      <!-- <a href="/commented" rel="nofollow"> -->
      <script>'<a href="/scripted" rel="nofollow">'</script>
    </body></html>`;
    expect([...(await read(html, true)).nofollowLinks].sort()).toEqual([
      'https://example.com/a',
      'https://example.com/area',
      'https://example.com/base/b?x=1&y=2',
      'https://example.com/base/c',
    ]);
  });

  it('reads no links unless asked', async () => {
    expect((await read('<a href="/a" rel="nofollow">a</a>', false)).nofollowLinks.size).toBe(0);
  });

  it('never throws on broken HTML', async () => {
    for (const html of [
      '<meta name="robots" content="nofollow',
      '<a href="http://[bad" rel=nofollow>',
      '<!--',
      '<html><head><template>',
      '</head></head><meta',
      '<plaintext><meta name=robots content=nofollow>',
    ]) {
      await expect(read(html, true)).resolves.toBeDefined();
    }
  });
});

describe('the raw-body reader', () => {
  it('ignores a <base> in <template> or <noscript>, as browsers do', async () => {
    const html = `<head><template><base href="https://t.example/"></template><noscript><base href="https://n.example/"></noscript><base href="/real/"></head><a rel=nofollow href=x>x</a>`;
    expect([...(await signalsFromHtml(html, PAGE, true)).nofollowLinks]).toEqual(['https://example.com/real/x']);
  });

  it('reads everything after <plaintext> as text', async () => {
    expect((await signalsFromHtml(`<head><plaintext>${NOFOLLOW}</plaintext>${NOFOLLOW}`, PAGE, false)).metaTags).toEqual([]);
  });

  it('counts a nofollow link wherever a crawler could extract it, <template> and <noscript> included', async () => {
    const html = `<body><template><a rel=nofollow href=/t>t</a></template><noscript><a rel=nofollow href=/n>n</a></noscript></body>`;
    expect([...(await signalsFromHtml(html, PAGE, true)).nofollowLinks].sort()).toEqual(['https://example.com/n', 'https://example.com/t']);
  });

  it('reads attribute values up to 65,536 characters; a longer one is read as absent', async () => {
    const kept = `/${'k'.repeat(65_000)}`;
    const html = `<a rel=nofollow href="${kept}">k</a><a rel=nofollow href="/${'d'.repeat(70_000)}">d</a>`;
    expect([...(await signalsFromHtml(html, PAGE, true)).nofollowLinks]).toEqual([`https://example.com${kept}`]);
  });

  it('reads a prefix: tags after the first 5,000,000 characters are not read', async () => {
    const html = `<html><body>${'x'.repeat(5_000_000)}<a rel=nofollow href=/late>late</a></body></html>`;
    expect((await signalsFromHtml(html, PAGE, true)).nofollowLinks.size).toBe(0);
  });
});
