/**
 * A scan of a page's raw HTML for the words every signal Heed reads must contain, before its
 * document is walked: a robots meta tag is named `robots` or after the bot's product token, and a
 * link Heed does not follow (with `honorRelNofollow`) says `nofollow`, `ugc` or `sponsored`. A page
 * with none of these words (nor a character reference, `&#…;`, that could spell one) has no signal,
 * and the walk of its document is skipped: on most pages it is the larger part of what reading them
 * costs. Each word is searched on its own, so the scan stays linear in the page.
 */
import type { ProductTokens } from '@heed/parser';
import { MAX_HTML_CHARS } from './html-stream.js';

/** The words a page must contain to carry a signal Heed reads. */
export class SignalWords {
  /**
   * One expression per word, each letter written as its two cases (`[rR][oO]…`) rather than with
   * the `i` flag. One expression per word, not one alternation of them all: V8 skips through a page
   * for a single word, while an alternation of words with common first letters is tried at nearly
   * every position of ordinary text (about 5× slower on an English page).
   */
  private readonly words: readonly RegExp[];

  /**
   * `token`: the product token(s) a meta tag may be named after. `links`: whether `rel="nofollow"`
   * links are read (`honorRelNofollow`), which adds their words.
   */
  constructor(token: ProductTokens, links: boolean) {
    const names = (typeof token === 'string' ? [token] : token).filter((name) => name !== '');
    const words = ['robots', ...names, ...(links ? ['nofollow', 'ugc', 'sponsored'] : [])];
    this.words = [...new Set(words.map((word) => word.toLowerCase()))].map((word) => new RegExp(eitherCase(word)));
  }

  /** Whether `text` contains a character reference or one of the words, in any ASCII case. */
  occurIn(text: string): boolean {
    if (text.includes('&#')) return true;
    for (const word of this.words) if (word.test(text)) return true;
    return false;
  }
}

/** The words of a signal for `token`; with `links`, those of `rel="nofollow"` links too. */
export function signalWords(token: ProductTokens, links = true): SignalWords {
  return new SignalWords(token, links);
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
export function mayCarrySignals(body: unknown, words: SignalWords): boolean {
  if (typeof body === 'string') return body.length > MAX_HTML_CHARS || words.occurIn(body);
  if (!(body instanceof Uint8Array)) return true;
  // Measured before it is decoded: a larger body is never copied into a string here.
  if (body.byteLength > MAX_HTML_CHARS) return true;
  // The words are ASCII: bytes read as Latin-1 find them in any ASCII-compatible encoding.
  return words.occurIn(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1'));
}
