/**
 * The one departure from Google in how a robots.txt body is read: UTF-16 with a byte-order mark.
 *
 * RFC 9309 §2.2 says robots.txt is UTF-8, and Google reads the bytes as UTF-8 whatever they are, so
 * a file saved as UTF-16 (Windows Notepad's "Unicode") yields no rules there: every other byte is
 * NUL, no key is recognised. But a body that starts with FF FE or FE FF is unambiguous: those bytes
 * never occur in UTF-8, so no UTF-8 file starts with them, and the site plainly meant its rules.
 * Heed decodes such a body to UTF-8 when it is fetched, so the rules apply, and `lint` warns
 * (`utf16-encoding`) so the site can fix the file for every other crawler. Without a BOM nothing is
 * guessed: the bytes are read as UTF-8, as Google does.
 */

/** `body` re-encoded as UTF-8 when it starts with a UTF-16 BOM (without the BOM), at most `maxBytes` bytes; else `body`. */
export function utf8FromUtf16(body: Uint8Array, maxBytes: number): { body: Uint8Array; capped: boolean } | undefined {
  const encoding = utf16Encoding(body);
  if (encoding === undefined) return undefined;
  // The decoder drops the BOM; a code unit cut by the byte cap becomes U+FFFD.
  const utf8 = Buffer.from(new TextDecoder(encoding).decode(body), 'utf8');
  return utf8.length > maxBytes ? { body: utf8.subarray(0, maxBytes), capped: true } : { body: utf8, capped: false };
}

/** The UTF-16 encoding `body`'s byte-order mark names, if it starts with one. */
export function utf16Encoding(body: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}
