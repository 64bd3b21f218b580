/**
 * Percent-encoding as google/robotstxt's `MaybeEscapePattern()` does it: bytes ≥ 0x80 become `%XX`
 * and existing escapes get upper-case hex, so `/café`, `/caf%c3%a9` and `/caf%C3%A9` are one path.
 */

const HEX = '0123456789ABCDEF';
const NEEDS_WORK = /[%\x80-\xff]/;
const UNRESERVED_ESCAPE = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/g;

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Normalises a byte string: high bytes escaped, escape hex upper-cased. Other bytes are kept. */
export function escapeBytes(bytes: string): string {
  if (!NEEDS_WORK.test(bytes)) return bytes;
  // Runs and escapes are joined once, into one flat string: appending a character at a time would
  // leave a rope of thousands of nodes in every materialized rule, many times the file's size.
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (code === 0x25 && isHex(bytes.charCodeAt(i + 1)) && isHex(bytes.charCodeAt(i + 2))) {
      parts.push(bytes.slice(from, i), '%', bytes.slice(i + 1, i + 3).toUpperCase());
      i += 2;
      from = i + 1;
    } else if (code >= 0x80) {
      parts.push(bytes.slice(from, i), '%', HEX[code >> 4] as string, HEX[code & 15] as string);
      from = i + 1;
    }
  }
  parts.push(bytes.slice(from));
  return parts.join('');
}

/**
 * RFC 9309 §2.2.2 reading: `%XX` escapes of unreserved characters are decoded before comparison.
 * Expects upper-case escapes (run {@link escapeBytes} first).
 */
export function decodeUnreserved(escaped: string): string {
  if (!escaped.includes('%')) return escaped;
  return escaped.replace(UNRESERVED_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
