/**
 * User-agent product tokens. RFC 9309 §2.2.1: a crawler matches robots.txt groups by its product
 * token, the leading `[A-Za-z_-]` run of its user-agent, compared case-insensitively.
 */

const TOKEN = /^[A-Za-z_-]*/;

/**
 * Who asks: one product token (`'HeedBot'`), or several (`['HeedBot-News', 'HeedBot']`): the groups
 * of every listed token that a group names apply together, the `*` groups only when none is named.
 */
export type ProductTokens = string | readonly string[];

/**
 * The product token of a user-agent header: `"HeedBot/1.0 (+https://example.com/bot)"` → `"HeedBot"`.
 * Returns `""` when the header does not start with a token character.
 */
export function productToken(userAgent: string): string {
  if (typeof userAgent !== 'string') return '';
  return TOKEN.exec(userAgent.trimStart())?.[0] ?? '';
}

/**
 * Is the `user-agent:` value text[start, end) the global agent? Google: a `*` alone, or followed by
 * white space (and anything after it); any other value starting with `*` names no agent.
 */
export function isGlobalAgent(text: string, start = 0, end = text.length): boolean {
  if (end <= start || text.charCodeAt(start) !== 0x2a) return false;
  const next = text.charCodeAt(start + 1);
  return end - start === 1 || next === 0x20 || (next >= 0x09 && next <= 0x0d);
}

/** A character of a product token: `[A-Za-z_-]`. */
export function isTokenChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2d || code === 0x5f;
}

/** What a `user-agent:` value of a robots.txt file matches: `*` for the global group, else its token. */
export function agentLineToken(value: string): string {
  if (value.charCodeAt(0) === 0x2a) return isGlobalAgent(value) ? '*' : '';
  let end = 0;
  while (end < value.length && isTokenChar(value.charCodeAt(end))) end++;
  return end === value.length ? value : value.slice(0, end);
}
