/**
 * Byte-exact text handling. The parser works on a "byte string": a JS string whose every char code is
 * one byte (0–255) of the body. String operations on it are fast and, unlike decoded text, exact:
 * two patterns are equal exactly when their bytes are.
 */

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const HIGH_BYTE = /[\x80-\xff]/;
const CHUNK = 0x2000;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

interface Latin1Buffer {
  from(bytes: Uint8Array): { toString(encoding: 'latin1'): string };
  from(buffer: ArrayBuffer, byteOffset: number, length: number): { toString(encoding: 'utf16le'): string };
  byteLength(text: string, encoding: 'utf8'): number;
}
// Node's Buffer decodes latin1 natively, many times faster than String.fromCharCode; elsewhere
// (browsers, workers) the portable path below is used.
const NodeBuffer = (globalThis as { Buffer?: Latin1Buffer }).Buffer;

/** Turns bytes into a byte string (one char per byte). */
export function bytesToByteString(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined)
    return NodeBuffer.from(
      bytes.buffer instanceof ArrayBuffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes,
    ).toString('latin1');
  if (bytes.length <= CHUNK) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]));
  }
  return parts.join('');
}

/** Whether this machine stores a 16-bit number's low byte first, as Node's `utf16le` reads it. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The first `length` of `units` as a string of those UTF-16 code units, each as it is (a lone
 * surrogate too), flat. Node's Buffer copies them natively, several times faster than
 * `String.fromCharCode`; elsewhere the portable path below is used.
 */
export function unitsToString(units: Uint16Array, length: number): string {
  if (NodeBuffer !== undefined && LITTLE_ENDIAN)
    return NodeBuffer.from(units.buffer as ArrayBuffer, units.byteOffset, 2 * length).toString('utf16le');
  if (length <= CHUNK) return String.fromCharCode.apply(null, units.subarray(0, length) as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < length; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, units.subarray(i, Math.min(length, i + CHUNK)) as unknown as number[]));
  }
  return parts.join('');
}

/** Whether every char of `text` is below 0x80 (Node: natively, by its UTF-8 length). */
export function isAscii(text: string): boolean {
  if (NodeBuffer !== undefined) return NodeBuffer.byteLength(text, 'utf8') === text.length;
  return ASCII_ONLY.test(text);
}

/** UTF-8 encodes `text` as a byte string. ASCII text is its own byte string, so it is returned as is. */
export function textToByteString(text: string): string {
  if (isAscii(text)) return text;
  return bytesToByteString(encoder.encode(text));
}

/** The input of the parser as a byte string: bytes are taken as they are, text is UTF-8 encoded. */
export function inputToByteString(input: string | Uint8Array): string {
  return typeof input === 'string' ? textToByteString(input) : bytesToByteString(input);
}

/** Decodes a byte string as UTF-8 for display (invalid sequences become U+FFFD). */
export function byteStringToText(bytes: string): string {
  if (!HIGH_BYTE.test(bytes)) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return decoder.decode(out);
}

/** Whether the byte string is valid UTF-8 (for the linter). */
export function isValidUtf8(bytes: string): boolean {
  if (!HIGH_BYTE.test(bytes)) return true;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(out);
    return true;
  } catch {
    return false;
  }
}
