/**
 * Heed's own fetches go through the crawler's proxies. A crawler with `proxyConfiguration`
 * (Crawlee's public `crawler.proxyConfiguration`: HttpCrawler, CheerioCrawler, JSDOMCrawler,
 * PlaywrightCrawler, PuppeteerCrawler) fetches its pages through a proxy; robots.txt, tdmrep.json and
 * sitemaps fetched directly would leak the machine's address and read the rules a site serves to
 * another place than the pages come from (a site refusing datacenter addresses with a 403 would
 * even allow everything). So the plugin builds one {@link FetchContext} per attached crawler whose
 * proxy is `proxyConfiguration.newUrl(sessionId)` for the URL's origin, and hands it to every
 * manager call (the manager consults it only when it fetches) and to the sitemap reader.
 *
 * The session id is one per site, `heed_<host>_<port>` (or `heed_<hash>` past Crawlee's 50
 * characters, letters, digits, `.`, `_` and `~` only, what Apify Proxy accepts): Crawlee keeps a
 * session on one proxy, so an origin's robots.txt and its sitemaps go out through one proxy, and a
 * `newUrlFunction` sees which site is asked for. Page requests use the session pool's own sessions,
 * so with several proxies the robots.txt need not go through the proxy of a given page: there is no
 * one such proxy, and a site's rules are the same whichever of the crawler's proxies reads them.
 * Tiered proxies (`tieredProxyUrls`) are rotated as Crawlee does without a request.
 *
 * `newUrl(sessionId)` checked against @crawlee/core 3.13.0 to 3.18.1; a crawler without it (no
 * `proxyConfiguration`) fetches directly, as before.
 *
 * Crawlee 4 has no proxy sessions: a crawler's `proxyConfiguration` is any `IProxyConfiguration`,
 * whose one method is `newProxyInfo(options?: { request })`, and its own `ProxyConfiguration`'s
 * `newUrl()` takes `{ request }` (its `proxyUrls` rotate on every call; a `newUrlFunction` is given
 * the request). Heed asks with `{ request: { url } }`, the URL about to be fetched, so a
 * `newUrlFunction` that picks a proxy per site sees the site; `newUrl()` first, else
 * `newProxyInfo()` and its `url`. Checked against 4.0.0-rc.0 and master at 69a824b.
 */
import { createHash } from 'node:crypto';
import type { FetchContext } from '@heed/manager';
import type { RobotsManagerLike } from '../manager-contract.js';

/** The part of Crawlee 3's `ProxyConfiguration` used: its public `newUrl()`. */
interface ProxyConfigurationLike {
  newUrl(sessionId?: string | number): Promise<string | undefined>;
}

/** What Crawlee 4 asks a proxy configuration with: the request being fetched. */
interface ProxyRequest {
  readonly request: { readonly url: string };
}

/** Crawlee 4's `ProxyConfiguration` (`newUrl`) and `IProxyConfiguration` (`newProxyInfo`), as used. */
interface ProxyConfigurationV4 {
  newUrl?(options: ProxyRequest): Promise<string | undefined>;
  newProxyInfo?(options: ProxyRequest): Promise<{ url?: unknown } | undefined>;
}

/** The proxy choice of a fetch context: what the manager and the sitemap reader call per fetch. */
export type ProxyChoice = NonNullable<FetchContext['proxyUrl']>;

/** Crawlee's (and Apify Proxy's) limit on a session id. */
const MAX_SESSION_ID_LENGTH = 50;

/** The fetch context of `crawler` (of Crawlee `major`): through its `proxyConfiguration`, or `undefined` (direct) without one. */
export function crawlerFetchContext(crawler: object, major: 3 | 4): FetchContext | undefined {
  const configuration = (crawler as { proxyConfiguration?: unknown }).proxyConfiguration;
  if (typeof configuration !== 'object' || configuration === null) return undefined;
  if (major === 3) {
    const proxies = configuration as Partial<ProxyConfigurationLike>;
    if (typeof proxies.newUrl !== 'function') return undefined;
    const newUrl = proxies.newUrl.bind(proxies);
    return Object.freeze({ proxyUrl: async (url: string) => (await newUrl(proxySessionId(url))) ?? undefined });
  }
  const proxies = configuration as ProxyConfigurationV4;
  if (typeof proxies.newUrl === 'function') {
    const newUrl = proxies.newUrl.bind(proxies);
    return Object.freeze({ proxyUrl: async (url: string) => (await newUrl({ request: { url } })) ?? undefined });
  }
  if (typeof proxies.newProxyInfo === 'function') {
    const newProxyInfo = proxies.newProxyInfo.bind(proxies);
    return Object.freeze({
      proxyUrl: async (url: string) => {
        const { url: proxyUrl } = (await newProxyInfo({ request: { url } })) ?? {};
        return typeof proxyUrl === 'string' && proxyUrl !== '' ? proxyUrl : undefined;
      },
    });
  }
  return undefined;
}

/**
 * The scheme of the first proxy of `crawler`'s `proxyConfiguration` that Heed cannot fetch through
 * (not `http:` or `https:`), of those it names up front: `proxyUrls` and `tieredProxyUrls`, fields of
 * Crawlee's `ProxyConfiguration` on 3.13 to 3.18 and 4.0.0-rc.0. A `newUrlFunction` is only known
 * when called: a proxy it names that Heed cannot use fails that fetch (the origin unreachable), its
 * message naming the scheme and not the password.
 */
export function unusableProxyScheme(crawler: object): string | undefined {
  const configuration = (crawler as { proxyConfiguration?: unknown }).proxyConfiguration;
  if (typeof configuration !== 'object' || configuration === null) return undefined;
  const { proxyUrls, tieredProxyUrls } = configuration as { proxyUrls?: unknown; tieredProxyUrls?: unknown };
  const lists: unknown[] = [proxyUrls, ...(Array.isArray(tieredProxyUrls) ? (tieredProxyUrls as unknown[]) : [])];
  const named = lists.flatMap((list): unknown[] => (Array.isArray(list) ? (list as unknown[]) : []));
  for (const url of named) {
    if (typeof url !== 'string') continue;
    const scheme = /^([a-z][a-z\d+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http:' && scheme !== 'https:') return scheme;
  }
  return undefined;
}

/** The session id the fetches of `url`'s site go through: one per host and port, whatever the scheme. */
export function proxySessionId(url: string): string {
  const { hostname, port, protocol } = new URL(url);
  const site = `${hostname}_${port || (protocol === 'https:' ? '443' : '80')}`;
  const readable = `heed_${site.replace(/[^\w.~]/g, '_')}`;
  if (readable.length <= MAX_SESSION_ID_LENGTH) return readable;
  return `heed_${createHash('sha256').update(site).digest('hex').slice(0, 32)}`;
}

/**
 * `manager` with `fetch` passed to each call that may fetch: one object for the crawler's life, so
 * a check that hits the manager's cache costs one more call and nothing else. Every other method
 * of the manager (an optional one the plugin feature-detects included) is forwarded as it is. A
 * manager whose methods take no such argument (a user's own) ignores it.
 */
export function withFetchContext(manager: RobotsManagerLike, fetch: FetchContext): RobotsManagerLike {
  const forwarded: Record<string, unknown> = {};
  for (
    let level: object | null = manager;
    level !== null && level !== Object.prototype;
    level = Object.getPrototypeOf(level) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(level)) {
      const member = (manager as unknown as Record<string, unknown>)[name];
      if (name !== 'constructor' && !(name in forwarded) && typeof member === 'function') forwarded[name] = member.bind(manager);
    }
  }
  const { usage } = manager;
  const withFetch: RobotsManagerLike = {
    decide: (url, productToken) => manager.decide(url, productToken, fetch),
    crawlDelay: (url, productToken) => manager.crawlDelay(url, productToken, fetch),
    sitemaps: (url) => manager.sitemaps(url, fetch),
    prefetch: (urls) => manager.prefetch(urls, fetch),
    close: () => manager.close(),
    ...(usage === undefined ? {} : { usage: (url, query = {}) => usage.call(manager, url, { ...query, fetch }) }),
  };
  return Object.assign(forwarded, withFetch);
}
