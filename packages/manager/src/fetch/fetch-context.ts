/**
 * The per-call side of a fetch: what a caller (a crawler) lends the manager for the fetches its
 * calls cause. The manager consults it only when it really fetches, never on a cache hit, so a
 * caller builds one object once and passes it to every call. The single flight of a file uses the
 * context of the call that started it: callers that join the flight share that fetch.
 */
import { RobotsFetchError } from '../errors.js';
import { withoutPasswords } from './credentials.js';

/**
 * Where a fetch goes through: a proxy URL (`http://user:pass@host:port`), or a function of the URL
 * about to be fetched that names one (`undefined`: direct). A function that throws or rejects
 * fails that fetch as a network failure (`proxy`), the way a proxy that refuses the connection does.
 */
export type ProxySource = string | ((url: string) => string | undefined | Promise<string | undefined>);

/** What a call lends the manager for the fetches it causes (see `RobotsManager.decide()`). */
export interface FetchContext {
  /**
   * The proxy robots.txt and tdmrep.json of the call's origin are fetched through, e.g. the
   * proxy a crawler would use for a page of that origin. The manager's own `proxyUrl` option,
   * when set, wins.
   * @default direct
   */
  readonly proxyUrl?: ProxySource;
}

/** The proxy for fetching `url` (`undefined`: direct). Rejects with a `proxy` `RobotsFetchError` when `source` fails. */
export async function proxyFor(source: ProxySource | undefined, url: string): Promise<string | undefined> {
  if (typeof source !== 'function') return source;
  let proxyUrl: string | undefined;
  try {
    proxyUrl = await source(url);
  } catch (error) {
    throw new RobotsFetchError('proxy', url, `choosing the proxy failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (proxyUrl === undefined || proxyUrl === null || proxyUrl === '') return undefined;
  if (typeof proxyUrl !== 'string' || !/^https?:\/\//i.test(proxyUrl))
    throw new RobotsFetchError(
      'proxy',
      url,
      `the proxy chosen is not an http:// or https:// URL (Heed fetches through HTTP proxies only): ${withoutPasswords(String(proxyUrl))}`,
    );
  return proxyUrl;
}
