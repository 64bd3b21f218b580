/**
 * Signals of a raw HTML body (HttpCrawler, or any crawler without a parsed document), read with
 * htmlparser2's streaming `Tokenizer`: a state machine that reads each character once, fed in slices
 * with a turn of the event loop between them. Not htmlparser2's `Parser`: it keeps its open elements
 * in an array it `unshift`s and searches on every end tag, which is quadratic in nesting depth.
 * Only the attributes
 * the collector reads are kept, so a tag with a million attributes costs no memory per attribute.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import {
  isBlank,
  isHtmlWhitespace,
  READ_ATTRIBUTES,
  READ_ELEMENTS,
  SignalCollector,
  yieldToEventLoop,
  type PageSignals,
} from './collector.js';

/** Most characters of a page read: robots meta tags live in `<head>`, links anywhere; the rest is ignored. */
export const MAX_HTML_CHARS = 5_000_000;
/** Characters tokenized between two turns of the event loop: a few milliseconds of work, so the loop is never held long. */
const SLICE_CHARS = 64 * 1024;
/** Tag and attribute names longer than this are none the collector reads. */
const MAX_NAME_CHARS = 16;
/**
 * Longest attribute value kept (a URL or a robots `content`); a longer one is read as absent, so a
 * multi-megabyte attribute costs neither memory nor a multi-megabyte URL parse.
 */
export const MAX_ATTRIBUTE_CHARS = 65_536;

/**
 * Robots meta tags (of `<head>`) and `rel="nofollow"` links of an HTML document fetched from
 * `pageUrl`. At most {@link MAX_HTML_CHARS} characters are read; time is linear in them.
 */
export async function signalsFromHtml(html: string, pageUrl: string, wantLinks: boolean): Promise<PageSignals> {
  const text = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  const collector = new SignalCollector(wantLinks);
  const tokenizer = new Tokenizer({ decodeEntities: true }, tokenEvents(text, collector));
  for (let start = 0; start < text.length; start += SLICE_CHARS) {
    // The tokenizer's positions are offsets into everything written so far, i.e. into `text`.
    tokenizer.write(text.slice(start, start + SLICE_CHARS));
    if (start + SLICE_CHARS < text.length) await yieldToEventLoop();
  }
  tokenizer.end();
  return collector.result(pageUrl);
}

/** Tokenizer callbacks that turn tags and text into collector events. */
function tokenEvents(text: string, collector: SignalCollector): TokenizerCallbacks {
  let tagName = '';
  let attributes: Record<string, string> = {};
  /** The attribute being read, when it is one the collector wants; its value so far. */
  let attributeName: string | undefined;
  let attributeValue = '';

  const name = (start: number, end: number) => (end - start <= MAX_NAME_CHARS ? text.slice(start, end).toLowerCase() : '');
  const openTag = () => {
    collector.open(tagName, attributes);
    tagName = '';
    attributes = {};
  };

  return {
    onopentagname(start, end) {
      // A name too long to be one we read still opens an element (which, in `<head>`, ends it).
      tagName = name(start, end) || '-';
      attributes = {};
    },
    onattribname(start, end) {
      const attribute = READ_ELEMENTS.has(tagName) ? name(start, end) : '';
      attributeName = READ_ATTRIBUTES.has(attribute) && !(attribute in attributes) ? attribute : undefined;
      attributeValue = '';
    },
    onattribdata(start, end) {
      if (attributeName !== undefined) attributeValue += text.slice(start, Math.min(end, start + MAX_ATTRIBUTE_CHARS + 1));
      if (attributeValue.length > MAX_ATTRIBUTE_CHARS) attributeName = undefined;
    },
    onattribentity(codePoint) {
      if (attributeName !== undefined) attributeValue += String.fromCodePoint(codePoint);
      if (attributeValue.length > MAX_ATTRIBUTE_CHARS) attributeName = undefined;
    },
    onattribend() {
      // HTML keeps the first of repeated attributes (one too long was dropped on the way).
      if (attributeName !== undefined) attributes[attributeName] = attributeValue;
      attributeName = undefined;
      attributeValue = '';
    },
    onopentagend: openTag,
    // HTML ignores the slash of `<meta/>` and `<div/>` alike.
    onselfclosingtag: openTag,
    onclosetag(start, end) {
      collector.close(name(start, end));
    },
    ontext(start, end) {
      if (collector.wantsText) collector.text(isBlank(text, start, end));
    },
    ontextentity(codePoint) {
      if (collector.wantsText) collector.text(isHtmlWhitespace(codePoint));
    },
    oncomment() {},
    oncdata() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
}
