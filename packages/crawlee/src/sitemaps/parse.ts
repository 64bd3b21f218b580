/**
 * A sitemap file's bytes to entries, as they arrive: decoded as UTF-8 (the protocol's encoding) in
 * streaming mode, the format sniffed from the first non-blank character (`<`: XML, else plain text),
 * then fed to the format's incremental parser in slices of at most {@link SLICE_CHARS} characters,
 * giving the event loop a turn whenever a few milliseconds of parsing have run, so a sitemap of
 * the protocol's largest size never holds the event loop long; memory is the slice, the parser's
 * bounded buffers and the entries of one slice.
 *
 * A file that yields no entry in {@link MAX_BYTES_WITHOUT_ENTRY} bytes is abandoned there: no real
 * sitemap has 4 MiB between two `<loc>`s, and a decompression bomb then costs 4 MiB, not `maxBytes`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { XmlSitemapParser } from './parse-xml.js';
import { TextSitemapParser } from './parse-text.js';
import type { SitemapEntry } from './types.js';

/** Most characters handed to the parser in one go. */
export const SLICE_CHARS = 32_768;
/** Bytes read without a single entry after which a file is abandoned. */
export const MAX_BYTES_WITHOUT_ENTRY = 4 * 1024 * 1024;
/** Parsing time after which the event loop gets a turn, in milliseconds. */
const TURN_MS = 4;

/** Incremental parser of one sitemap file of either format. */
export class SitemapParser {
  private readonly decoder = new TextDecoder('utf-8');
  private inner: XmlSitemapParser | TextSitemapParser | undefined;
  private bytesSinceEntry = 0;
  private abandoned: string | undefined;
  private entries = 0;

  /** Why the rest of the file was skipped, if it was. */
  get stopped(): string | undefined {
    return this.abandoned ?? this.inner?.stopped;
  }

  /** Feeds the next piece of text (already sliced by the caller); returns the entries it completed. */
  writeText(text: string, byteLength = text.length): SitemapEntry[] {
    if (this.stopped !== undefined) return [];
    if (!this.inner) {
      const start = text.search(/[^\s\uFEFF]/);
      if (start < 0) return [];
      text = text.slice(start);
      this.inner = text.startsWith('<') ? new XmlSitemapParser() : new TextSitemapParser();
    }
    return this.count(this.inner.write(text), byteLength);
  }

  /** Decodes the next bytes; returns their text (the caller slices and feeds it). */
  decode(bytes: Uint8Array): string {
    return this.decoder.decode(bytes, { stream: true });
  }

  end(): SitemapEntry[] {
    if (this.stopped !== undefined) return [];
    const tail = this.decoder.decode();
    const out = tail ? this.writeText(tail) : [];
    return this.stopped !== undefined || !this.inner ? out : [...out, ...this.inner.end()];
  }

  /** What went wrong in this file, one message each (empty when nothing did). */
  problems(): string[] {
    const out: string[] = [];
    const inner = this.inner;
    if (inner instanceof XmlSitemapParser && inner.errors > 0) {
      out.push(`malformed XML, ${inner.errors} error(s), parsing went on past each (first: ${inner.firstError})`);
    }
    if (inner && inner.dropped.count > 0) {
      out.push(
        `${inner.dropped.count} ${inner instanceof XmlSitemapParser ? '<loc> value(s)' : 'line(s)'} not an absolute http(s) URL, dropped (first: ${JSON.stringify(inner.dropped.example)})`,
      );
    }
    if (this.stopped !== undefined)
      out.push(`${this.stopped}: the rest of the file is skipped, the ${this.entries} entries before it kept`);
    return out;
  }

  private count(entries: SitemapEntry[], byteLength: number): SitemapEntry[] {
    this.entries += entries.length;
    this.bytesSinceEntry = entries.length > 0 ? 0 : this.bytesSinceEntry + byteLength;
    if (this.bytesSinceEntry > MAX_BYTES_WITHOUT_ENTRY) this.abandoned = `no sitemap entry in ${MAX_BYTES_WITHOUT_ENTRY} bytes`;
    return entries;
  }
}

/**
 * Parses a sitemap (XML or plain text) from its bytes or text as they come, yielding the entries of
 * each slice as soon as it is parsed. Problems (malformed XML, dropped values, an abandoned file)
 * go to `onProblem` at the end; entries before any fault are always yielded.
 */
export async function* parseSitemapChunks(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onProblem: (message: string) => void = () => {},
): AsyncGenerator<SitemapEntry[]> {
  const parser = new SitemapParser();
  let turnStarted = performance.now();
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : parser.decode(chunk);
    // Bytes per character of this chunk, to count the slices' bytes without encoding them again.
    const ratio = typeof chunk === 'string' || text.length === 0 ? 1 : chunk.byteLength / text.length;
    for (let i = 0; i < text.length; i += SLICE_CHARS) {
      const slice = text.slice(i, i + SLICE_CHARS);
      const entries = parser.writeText(slice, Math.ceil(slice.length * ratio));
      if (entries.length > 0) yield entries;
      if (parser.stopped !== undefined) break;
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
    }
    if (parser.stopped !== undefined) break;
  }
  const last = parser.end();
  if (last.length > 0) yield last;
  for (const message of parser.problems()) onProblem(message);
}

/**
 * Parses a sitemap (XML `<urlset>`/`<sitemapindex>` or plain text) incrementally from its bytes or
 * text, e.g. an HTTP response body or `fs.createReadStream()`: linear in its size, the event loop
 * never held more than a few milliseconds. Yields every entry as soon as its `</loc>` (or line)
 * is read; entries before a fault are kept.
 */
export async function* parseSitemapStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onProblem?: (message: string) => void,
): AsyncGenerator<SitemapEntry> {
  for await (const entries of parseSitemapChunks(source, onProblem)) yield* entries;
}
