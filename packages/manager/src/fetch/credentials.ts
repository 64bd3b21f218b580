/**
 * Secrets out of every message: a proxy URL names its password (`http://user:pass@host:port`), and
 * a message that quotes one (a refused proxy, an error got passes on) ends up in a stored record, a
 * log line, a skip event. Every message Heed builds from a proxy or an error of the network passes
 * here first, so that no password leaves the process that was given it.
 */

/** `scheme://user:password@` anywhere in a text: the password is whatever stands before the `@`. */
const USERINFO = /([a-z][a-z\d+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;

/** `text` with the password of every URL in it replaced by `***` (the user name stays, to tell proxies apart). */
export function withoutPasswords(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, '$1:***@') : text;
}
