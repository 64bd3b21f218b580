/**
 * User-agent product tokens. RFC 9309 §2.2.1: a crawler matches robots.txt groups by its product
 * token, the leading `[A-Za-z_-]` run of its user-agent, compared case-insensitively.
 */

const TOKEN = /^[A-Za-z_-]*/;

/**
 * The product token of a user-agent header: `"HeedBot/1.0 (+https://example.com/bot)"` → `"HeedBot"`.
 * Returns `""` when the header does not start with a token character.
 */
export function productToken(userAgent: string): string {
  if (typeof userAgent !== 'string') return '';
  return TOKEN.exec(userAgent.trimStart())?.[0] ?? '';
}

/** What a `user-agent:` value of a robots.txt file matches: `*` for the global group, else its token. */
export function agentLineToken(value: string): string {
  const first = value.charCodeAt(0);
  // Google: a `*` followed by white space and more text is still the global agent.
  if (first === 0x2a) {
    const second = value.charCodeAt(1);
    return value.length === 1 || second === 0x20 || (second >= 0x09 && second <= 0x0d) ? '*' : '';
  }
  let end = 0;
  for (; end < value.length; end++) {
    const code = value.charCodeAt(end);
    const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
    if (!letter && code !== 0x2d && code !== 0x5f) break;
  }
  return end === value.length ? value : value.slice(0, end);
}
