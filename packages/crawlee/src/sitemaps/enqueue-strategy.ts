/**
 * Helpers every supported Crawlee release lacks or spells differently, written once here so no
 * module imports a symbol an older release does not export.
 *
 * - `filterUrl` (an enqueue strategy check) is exported by `@crawlee/utils` from 3.18.0 only: this
 *   is the same check, with the same answers, for 3.13–3.18.
 */
import { getDomain } from 'tldts';

/** Crawlee's enqueue strategies (`EnqueueStrategy` values). */
export type EnqueueStrategyName = 'all' | 'same-hostname' | 'same-domain' | 'same-origin';

/** The answer of {@link filterUrl}: allowed, or why not. */
export type FilterUrlResult = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/**
 * Whether `target` may be enqueued from `origin` under `strategy`, as `@crawlee/utils`' `filterUrl`
 * (3.18) answers: only http(s) targets; `same-hostname` ignores the scheme, `same-origin` does not;
 * `same-domain` compares registrable domains (public suffix list), origins for IP addresses.
 */
export function filterUrl(target: string | URL, origin: string | URL, strategy: EnqueueStrategyName): FilterUrlResult {
  const targetUrl = toUrl(target);
  if (targetUrl === null || !ALLOWED_SCHEMES.has(targetUrl.protocol)) {
    return { allowed: false, reason: 'unsupported URL scheme (only http and https are allowed)' };
  }
  const originUrl = toUrl(origin);
  if (originUrl === null) return { allowed: false, reason: 'invalid origin URL' };
  if (!matchesStrategy(strategy, targetUrl, originUrl)) return { allowed: false, reason: `does not match enqueue strategy '${strategy}'` };
  return { allowed: true };
}

function matchesStrategy(strategy: EnqueueStrategyName, target: URL, origin: URL): boolean {
  switch (strategy) {
    case 'all':
      return true;
    case 'same-hostname':
      return hostname(target) === hostname(origin);
    case 'same-domain': {
      const domain = getDomain(origin.hostname, { mixedInputs: false });
      // No registrable domain (an IP address, localhost): compare origins.
      return domain ? domain === getDomain(target.hostname, { mixedInputs: false }) : target.origin === origin.origin;
    }
    case 'same-origin':
      return target.protocol === origin.protocol && hostname(target) === hostname(origin) && target.port === origin.port;
  }
}

/** The hostname without a trailing dot (`example.com.` is `example.com`). */
function hostname(url: URL): string {
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
}

function toUrl(value: string | URL): URL | null {
  if (value instanceof URL) return value;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
