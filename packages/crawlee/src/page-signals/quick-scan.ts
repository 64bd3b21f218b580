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

/**
 * The words of a signal for `token`, as one alternation that ignores ASCII case. Each letter is
 * written as its two cases (`[rR][oO]…`) rather than with the `i` flag: the same matches, about a
 * sixth faster on a page.
 */
export function signalWords(token: ProductTokens): RegExp {
  const names = (typeof token === 'string' ? [token] : token).filter((name) => name !== '');
  return new RegExp(['robots', 'nofollow', 'ugc', 'sponsored', '&#', ...names].map(eitherCase).join('|'));
}

function eitherCase(word: string): string {
  let pattern = '';
  for (const char of word) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    if (/^[a-z]$/.test(lower) && /^[A-Z]$/.test(upper)) pattern += `[${lower}${upper}]`;
    else pattern += char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return pattern;
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
