/**
 * A scan of a page's raw HTML for the words every signal Heed reads must contain, before its
 * document is walked: a robots meta tag is named `robots` or after the bot's product token, and a
 * link Heed does not follow says `nofollow`, `ugc` or `sponsored`. A page with none of these words
 * (nor a character reference, `&#…;`, that could spell one) has no signal, and the walk of its
 * document is skipped: on most pages it is the larger part of what reading them costs. One pass of
 * a regular expression of literal words, linear in the page.
 */
import type { ProductTokens } from '@heed/parser';
import { MAX_HTML_CHARS } from './html-stream.js';

/** The words of a signal for `token`, as one case-insensitive alternation. */
export function signalWords(token: ProductTokens): RegExp {
  const names = (typeof token === 'string' ? [token] : token).filter((name) => name !== '');
  const words = ['robots', 'nofollow', 'ugc', 'sponsored', '&#', ...names].map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.join('|'), 'i');
}

/**
 * Whether `body` (the page's HTML as a string or bytes) may carry a signal: `false` only when it is
 * at hand, no longer than the readers read, and none of `words` occurs in it.
 */
export function mayCarrySignals(body: unknown, words: RegExp): boolean {
  if (typeof body === 'string') return body.length > MAX_HTML_CHARS || words.test(body);
  if (!(body instanceof Uint8Array)) return true;
  // Measured before it is decoded: a larger body is never copied into a string here.
  if (body.byteLength > MAX_HTML_CHARS) return true;
  // The words are ASCII: bytes read as Latin-1 find them in any ASCII-compatible encoding.
  return words.test(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1'));
}
