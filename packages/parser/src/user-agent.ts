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
  // Google: a `*` followed by white space and more text is still the global agent.
  if (value[0] === '*' && (value.length === 1 || /\s/.test(value[1] ?? ''))) return '*';
  return TOKEN.exec(value)?.[0] ?? '';
}
