/**
 * Whole-file checks: is this text at all (not HTML, not binary), is it UTF-8, does it fit in
 * 500 KiB, and the encoding style (BOM, CR LF). When the body is HTML or binary, the line checks
 * are skipped: every line would be noise, and the one useful finding is "this is not robots.txt".
 */
import { isValidUtf8 } from '../bytes.js';
import type { LintContext } from './context.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';

/** How much of the start of the body is sniffed for HTML or binary content. */
const SNIFF_BYTES = 4096;
const HTML_TAG = /<(?:!doctype\s+html|html|head|body|title|meta|script|style|link|div|p|br|table|h1|iframe)[\s>/]/i;

/** Whether the body is not robots.txt at all; pushes the finding when it is not. */
export function checkNotRobotsTxt(context: LintContext, out: Diagnostic[]): boolean {
  const utf16 = context.bytes.startsWith('\xff\xfe')
    ? 'little-endian, FF FE'
    : context.bytes.startsWith('\xfe\xff')
      ? 'big-endian, FE FF'
      : undefined;
  if (utf16 !== undefined) {
    // Unambiguous (no UTF-8 text starts with FF or FE), so only a warning: Heed's manager decodes it.
    out.push(
      diagnostic(
        'utf16-encoding',
        1,
        `The file is UTF-16 text (byte-order mark ${utf16}). Google and most crawlers read robots.txt as UTF-8 and find no rules in it; Heed decodes it. Save the file as UTF-8.`,
      ),
    );
    return true;
  }
  const binary = binaryKind(context.bytes.slice(0, SNIFF_BYTES));
  if (binary !== undefined) {
    out.push(
      diagnostic(
        'binary-content',
        1,
        `The body is ${binary}, not UTF-8 text: crawlers find no rules in it. Serve robots.txt as plain UTF-8 text (Content-Type: text/plain), uncompressed or with a Content-Encoding header the client asked for.`,
      ),
    );
    return true;
  }
  const first = context.lines.find((record) => record.kind !== 'blank');
  if (first !== undefined && first.text.trimStart().startsWith('<') && HTML_TAG.test(context.bytes.slice(0, SNIFF_BYTES))) {
    out.push(
      diagnostic(
        'html-content',
        first.line,
        'The body is an HTML page, not robots.txt: crawlers find no rules in it (often an error or login page served with status 200). Serve a plain-text robots.txt, or a 404 if the site has none.',
        { column: 1 },
      ),
    );
    return true;
  }
  return false;
}

/** What kind of binary the sniffed bytes are, or undefined for text. */
function binaryKind(head: string): string | undefined {
  if (head.startsWith('\x1f\x8b')) return 'gzip-compressed data';
  if (head.startsWith('\x89PNG') || head.startsWith('GIF8') || head.startsWith('\xff\xd8\xff')) return 'an image';
  if (head.startsWith('%PDF')) return 'a PDF document';
  if (head.startsWith('PK\x03\x04')) return 'a ZIP archive';
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const code = head.charCodeAt(i);
    if (code === 0) return 'binary data (it contains NUL bytes)';
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c && code !== 0x0b) || code === 0x7f) control++;
  }
  return head.length > 0 && control / head.length > 0.1 ? 'binary data (control bytes)' : undefined;
}

/** Size limit, UTF-8 validity, BOM and line ends. */
export function checkEncoding(context: LintContext, out: Diagnostic[]): void {
  const { tokens, lines } = context;
  const last = lines[lines.length - 1];
  if (tokens.truncated) {
    const kib = (context.maxBytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 });
    out.push(
      diagnostic(
        'content-past-limit',
        last?.line ?? 1,
        `The file is ${tokens.byteLength.toLocaleString('en-US')} bytes; crawlers read only the first ${kib} KiB (${context.maxBytes.toLocaleString('en-US')} bytes), so everything from line ${last?.line ?? 1} on is ignored. Shorten it: one directory rule or a \`*\` pattern replaces many single-path rules.`,
      ),
    );
  }

  if (tokens.bomBytes > 0) {
    const whole = tokens.bomBytes === 3;
    out.push(
      diagnostic(
        'byte-order-mark',
        1,
        whole
          ? 'The file starts with a UTF-8 byte-order mark. Google skips it, but naive parsers read it as part of the first key. Save the file as UTF-8 without BOM.'
          : `The file starts with ${tokens.bomBytes} byte(s) of a UTF-8 byte-order mark. Google skips them; other parsers see garbage before the first key. Remove them.`,
        { column: 1 },
      ),
    );
  }

  checkUtf8(context, out);

  const crlf = lines.filter((record) => record.ending === 'crlf');
  const firstCrlf = crlf[0];
  if (firstCrlf !== undefined) {
    const mixed = crlf.length < lines.filter((record) => record.ending !== 'eof').length;
    out.push(
      diagnostic(
        'dos-line-endings',
        firstCrlf.line,
        `${crlf.length} line(s) end with CR LF${mixed ? ' (the file mixes line ends)' : ''}. RFC 9309 parsers accept it; naive ones keep a stray CR at the end of each value. Save with LF line ends.`,
      ),
    );
  }
}

function checkUtf8(context: LintContext, out: Diagnostic[]): void {
  const bad: number[] = [];
  let firstColumn = 1;
  for (const record of context.lines) {
    // Only lines whose decoding needed a replacement character can hold invalid bytes.
    const replaced = record.text.indexOf('\uFFFD');
    if (replaced === -1) continue;
    const bytes = context.bytes.slice(record.offset, record.offset + record.byteLength);
    if (isValidUtf8(bytes)) continue;
    if (bad.length === 0) firstColumn = replaced + 1;
    bad.push(record.line);
  }
  const first = bad[0];
  if (first === undefined) return;
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more line(s))` : '';
  out.push(
    diagnostic(
      'invalid-utf8',
      first,
      `Line ${first}${more} holds bytes that are not valid UTF-8 (probably Latin-1 or Windows-1252). Crawlers send non-ASCII paths as percent-encoded UTF-8, so these rules never match. Save the file as UTF-8, or write the paths percent-encoded (/caf%C3%A9).`,
      { column: firstColumn, related: bad.slice(1, 50) },
    ),
  );
}
