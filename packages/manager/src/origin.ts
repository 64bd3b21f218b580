/**
 * Origins: the unit a robots.txt governs (RFC 9309 §2.3: "the rules apply to the scheme, host and
 * port" it was fetched from). `http://a.com` and `https://a.com` are two origins; so are
 * `a.com` and `www.a.com`, and `a.com:8080`.
 *
 * `originOf()` is the parser's (`@heed/parser`, url.ts): one implementation for the manager, its
 * cache keys and stored records, the plugin's skip events and crawl-delay keys. It reads the URL's
 * path in the same pass, which the parsed file then reuses: a check reads its URL once.
 */
export { originOf } from '@heed/parser';

/** The robots.txt URL of an origin as returned by `originOf()`. */
export function robotsTxtUrl(origin: string): string {
  return `${origin}/robots.txt`;
}
