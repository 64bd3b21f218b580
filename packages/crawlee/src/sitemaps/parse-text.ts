/**
 * Plain-text sitemaps (sitemaps.org: one absolute URL a line, UTF-8), read line by line as text
 * arrives. A line is kept while it is at most {@link MAX_LINE_CHARS} characters; a longer one is
 * skipped up to its end without being held, so a file without line breaks costs no memory.
 */
import { absoluteHttpUrl } from './parse-xml.js';
import type { SitemapEntry } from './types.js';

/** Longest line read, in characters (the protocol allows URLs of 2,048). */
export const MAX_LINE_CHARS = 8_192;

export class TextSitemapParser {
  private line = '';
  private skipping = false;
  /** Non-empty lines that are not absolute http(s) URLs, with the first as an example. */
  readonly dropped = { count: 0, example: '' };
  readonly stopped: string | undefined = undefined;

  write(text: string): SitemapEntry[] {
    const out: SitemapEntry[] = [];
    let start = 0;
    // The next `\n` and `\r` found so far, each searched again only once passed (linear).
    let n = -2;
    let r = -2;
    while (start < text.length) {
      if (n !== -1 && n < start) n = text.indexOf('\n', start);
      if (r !== -1 && r < start) r = text.indexOf('\r', start);
      const end = n < 0 ? r : r < 0 ? n : Math.min(n, r);
      const piece = text.slice(start, end < 0 ? text.length : end);
      if (!this.skipping) {
        if (this.line.length + piece.length > MAX_LINE_CHARS) {
          this.drop(`${this.line}${piece.slice(0, 60)}… (over ${MAX_LINE_CHARS} characters)`);
          this.line = '';
          this.skipping = true;
        } else {
          this.line += piece;
        }
      }
      if (end < 0) break;
      this.finishLine(out);
      start = end + 1;
    }
    return out;
  }

  end(): SitemapEntry[] {
    const out: SitemapEntry[] = [];
    this.finishLine(out);
    return out;
  }

  private finishLine(out: SitemapEntry[]): void {
    const candidate = this.line.trim();
    const skipped = this.skipping;
    this.line = '';
    this.skipping = false;
    if (skipped || candidate === '') return;
    const url = /\s/.test(candidate) ? undefined : absoluteHttpUrl(candidate);
    if (url === undefined) this.drop(candidate.slice(0, 200));
    else out.push({ kind: 'url', loc: url });
  }

  private drop(example: string): void {
    this.dropped.count++;
    if (this.dropped.count === 1) this.dropped.example = example;
  }
}
