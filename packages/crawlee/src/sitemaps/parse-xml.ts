/**
 * XML sitemaps (`<urlset>` and `<sitemapindex>`, sitemaps.org protocol 0.9) parsed incrementally
 * with `sax` in strict mode: text is fed as it arrives and entries come out as their `</loc>` is
 * read, so the cost is linear in the file's size and nothing but the current `<loc>` is kept.
 *
 * `<loc>` is read as the protocol defines it: the element's text content, XML entities decoded,
 * CDATA sections included, comments left out (`<loc>https://a.example/<!-- x -->b</loc>` is
 * `https://a.example/b`), surrounding white space trimmed; only a `<loc>` directly inside `<url>` or
 * `<sitemap>` counts (not `<image:loc>`). A value that is not an absolute http(s) URL is dropped and
 * reported (the protocol requires absolute URLs; resolving a relative one would fetch what nobody
 * listed).
 *
 * Errors: sax reports each fault and parsing resumes after it, so an unescaped `&` costs nothing
 * (it is kept as the literal character, as browsers and Google read it) and the entries before any
 * fault are always kept. Faults are paid for by entries: a file may have {@link FREE_XML_FAULTS}
 * plus {@link XML_FAULTS_PER_ENTRY} for each entry it yielded, so a sitemap with a bare `&` in every
 * URL is read to its end, while a file of faults alone is abandoned early. A fault costs little
 * (sax builds an `Error` for it, whose stack trace, most of the cost, is not captured), so a file
 * of as many faults as its entries pay for parses in time linear in its size, a small multiple of
 * a clean file's. A file is also abandoned at nesting deeper than {@link MAX_DEPTH}, or a tag with
 * more than {@link MAX_ATTRIBUTES} attributes — the shapes that would otherwise grow sax's own state
 * without bound. Entities declared in a DOCTYPE are never expanded (no billion laughs, no external
 * entities).
 */
import sax from 'sax';
import type { SitemapEntry } from './types.js';

/** Faults tolerated in one file whatever its entries. */
export const FREE_XML_FAULTS = 100;
/** Faults tolerated for each entry a file yielded: a URL with several bare `&` costs one each. */
export const XML_FAULTS_PER_ENTRY = 8;
/** Element nesting a sitemap never needs (a `<loc>` sits at depth 3). */
export const MAX_DEPTH = 32;
/** Attributes on one tag a sitemap never needs. */
export const MAX_ATTRIBUTES = 256;
/** Longest `<loc>` kept, in characters (the protocol allows 2,048). */
export const MAX_LOC_CHARS = 8_192;

/** Parses one XML sitemap file fed in pieces. */
export class XmlSitemapParser {
  private readonly parser = sax.parser(true, { trim: false, normalize: false, position: true });
  private readonly stack: string[] = [];
  private out: SitemapEntry[] = [];
  private loc: { kind: SitemapEntry['kind']; text: string; tooLong: boolean } | undefined;
  private attributes = 0;
  /** XML faults seen (parsing went on past each). */
  errors = 0;
  /** Entries yielded so far: each pays for {@link XML_FAULTS_PER_ENTRY} faults. */
  private entries = 0;
  /** Why the rest of the file is skipped, once it is. */
  stopped: string | undefined;
  /** `<loc>` values dropped (not absolute http(s) URLs, or too long), with the first as an example. */
  readonly dropped = { count: 0, example: '' };
  /** The first XML fault, for the report. */
  firstError: string | undefined;

  constructor() {
    const p = this.parser;
    p.onopentag = (tag) => {
      this.attributes = 0;
      const local = localName(tag.name);
      const parent = this.stack[this.stack.length - 1];
      this.stack.push(local);
      if (this.stack.length > MAX_DEPTH) this.stop(`elements nested deeper than ${MAX_DEPTH}`);
      if (local === 'loc' && (parent === 'url' || parent === 'sitemap') && this.stack.length >= 2) {
        this.loc = { kind: parent === 'url' ? 'url' : 'sitemap', text: '', tooLong: false };
      }
    };
    p.onattribute = () => {
      if (++this.attributes > MAX_ATTRIBUTES) this.stop(`a tag with more than ${MAX_ATTRIBUTES} attributes`);
    };
    p.ontext = (text) => this.appendLoc(text);
    p.oncdata = (text) => this.appendLoc(text);
    p.onclosetag = () => {
      this.stack.pop();
      // A `<loc>` ends with its own closing tag: the stack is back at its parent.
      if (this.loc && this.stack[this.stack.length - 1] !== 'loc') this.finishLoc();
    };
    p.onerror = (error) => {
      this.errors++;
      this.firstError ??= error.message.split('\n').join(' ');
      if (this.errors > FREE_XML_FAULTS + XML_FAULTS_PER_ENTRY * this.entries) {
        this.stop(
          `${this.errors} XML errors against ${this.entries} entries (more than ${FREE_XML_FAULTS} plus ${XML_FAULTS_PER_ENTRY} per entry)`,
        );
      }
      // sax's buffer guard repeats for every further character once hit: nothing sane follows.
      else if (error.message.startsWith('Max buffer length exceeded')) this.stop('an XML token longer than 64 KiB');
      p.resume();
    };
  }

  /** Feeds the next piece of text; returns the entries it completed. */
  write(text: string): SitemapEntry[] {
    if (this.stopped === undefined) withoutStackTraces(() => this.parser.write(text));
    return this.take();
  }

  /** The end of the file; returns the entries it completed. */
  end(): SitemapEntry[] {
    if (this.stopped === undefined) {
      // An unclosed element at the end of a cut file is a fault like any other: entries are kept.
      try {
        withoutStackTraces(() => this.parser.close());
      } catch {
        // sax throws from close() only when an error is pending, which onerror has cleared.
      }
    }
    return this.take();
  }

  private take(): SitemapEntry[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private stop(reason: string): void {
    this.stopped ??= reason;
    this.loc = undefined;
    // sax has no abort: further callbacks are ignored and write() is no longer called; the rest of
    // the slice being written goes on, its faults no longer counted.
    this.parser.onopentag = this.parser.ontext = this.parser.oncdata = this.parser.onclosetag = this.parser.onattribute = () => {};
    this.parser.onerror = () => this.parser.resume();
  }

  private appendLoc(text: string): void {
    const loc = this.loc;
    if (!loc || loc.tooLong) return;
    if (loc.text.length + text.length > MAX_LOC_CHARS) {
      loc.tooLong = true;
      loc.text = loc.text.slice(0, 60);
      return;
    }
    loc.text += text;
  }

  private finishLoc(): void {
    const loc = this.loc!;
    this.loc = undefined;
    const value = trimXmlSpace(loc.text);
    const url = loc.tooLong ? undefined : absoluteHttpUrl(value);
    if (url === undefined) {
      this.dropped.count++;
      if (this.dropped.count === 1)
        this.dropped.example = loc.tooLong ? `${value}… (over ${MAX_LOC_CHARS} characters)` : value.slice(0, 200);
      return;
    }
    this.entries++;
    this.out.push({ kind: loc.kind, loc: url });
  }
}

/**
 * Runs `parse` with no stack trace captured for the `Error` sax builds on every fault: capturing it
 * is most of a fault's cost, and the message (line, column) says all the report needs.
 * The setting is restored before anything else can run: `parse` is synchronous.
 */
function withoutStackTraces(parse: () => void): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    parse();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** `value` as a normalized absolute http(s) URL, or `undefined` when it is not one. */
export function absoluteHttpUrl(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * `text` without leading and trailing XML white space (space, tab, CR, LF), in one pass from each
 * end: a regular expression anchored at the end retries at every position of a run of white space
 * that does not reach the end, quadratic in a hostile `<loc>` of spaces between two letters.
 */
function trimXmlSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}
