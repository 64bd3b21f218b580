/**
 * A crawl record: one JSON object per request that left the crawl and per URL kept out of it,
 * saying which rules it was judged by. Together with the robots.txt snapshots it names, it lets
 * `heed audit` judge every request again after the crawl. The fields are declared here once; the
 * recorder (`recorder.ts`) builds them and the sinks write them.
 */
import type { UsageReport, Verdict, VerdictReason } from '@heed/manager';
import type { ProductTokens } from '@heed/parser';
import { SKIP_STAGES, type SkipEvent, type SkipReason, type SkipStage } from '../report/skip-events.js';

/**
 * The doors a request leaves by, as records name them:
 * - `before-fetch`: a page taken from the queue for its fetch;
 * - `rewrite`: a URL a navigation hook rewrote after the queue's check;
 * - `redirect`: a redirect hop, or a script or meta-refresh navigation of a page;
 * - `popup`: a page the crawled page opened (a popup, `target=_blank`), each hop;
 * - `subresource`: a page's script, image, XHR, frame, a worker's fetch (checked with `blockSubresources`);
 * - `send-request`: `context.sendRequest()`, its rewrites and hops;
 * - `sitemap-file`: Heed's own fetch of a sitemap file, each hop.
 */
export const PASS_DOORS = ['before-fetch', 'rewrite', 'redirect', 'popup', 'subresource', 'send-request', 'sitemap-file'] as const;
export type PassDoor = (typeof PASS_DOORS)[number];

/** Every stage a record may name: the doors requests leave by, and the stages of skips. */
export const RECORD_STAGES: readonly (PassDoor | SkipStage)[] = [...new Set([...PASS_DOORS, ...SKIP_STAGES])];
export type RecordStage = PassDoor | SkipStage;

/** Why a request that left went: the verdict's reason, or `unchecked` when no check was asked for (`checkRedirects: false`). */
export type PassReason = Exclude<VerdictReason, 'invalid-url' | 'unreachable'> | 'unchecked';

/** One line of a crawl records file. */
export interface CrawlRecord {
  /** When the checkpoint decided, ISO 8601 (UTC). */
  readonly time: string;
  /** The URL, without user name or password. */
  readonly url: string;
  /** The origin whose robots.txt decided (`''` for a URL without one). */
  readonly origin: string;
  /** Where: the door the request left by, or the stage of the skip. */
  readonly stage: RecordStage;
  /** `true`: the request left; `false`: the URL was kept out (a skip). */
  readonly allowed: boolean;
  /** The verdict's reason for a request that left; the skip reason for a skip. */
  readonly reason: PassReason | SkipReason;
  /** The deciding robots.txt line (1-based; 0 when no line decided). */
  readonly line: number;
  /** The deciding rule of a skip, as written: `disallow: /private/`. */
  readonly rule?: string;
  /** The robots.txt snapshot the verdict was made with (`sha256:<hex>`). */
  readonly snapshot?: string;
  /** When the robots.txt behind the verdict was fetched (ms since the epoch). */
  readonly robotsFetchedAt?: number;
  /** HTTP status of that fetch, when there was one. */
  readonly robotsStatus?: number;
  /** The product token(s) the rules were matched for. */
  readonly productToken: ProductTokens;
  /** The `User-Agent` Heed sent or had the crawler send, where Heed sets it (`identifyPages`, its own sitemap fetches). */
  readonly userAgent?: string;
  /**
   * The proxy a page left through, from the crawler's `proxyConfiguration`: its URL without user
   * name or password, and the session it was picked for. On `before-fetch` records of pages that
   * went through one (a record of a page still waiting to leave when the run ends has none).
   */
  readonly proxy?: ProxyUsed;
  /** The page that linked, redirected or opened it, without user name or password. */
  readonly referrer?: string;
  /** The declared `purposes`, when there are any. */
  readonly purposes?: readonly string[];
  /**
   * For a request that left, with `purposes`: each purpose's preference and the evidence that
   * decided it (robots.txt and tdmrep.json, as judged before the fetch; the response's headers and
   * meta tags come later, and a refusal by them is a `usage` skip at stage `response`).
   */
  readonly usagePreferences?: readonly { readonly purpose: string; readonly preference: string; readonly evidence?: string }[];
  /** For a `usage` skip: the purpose refused and the evidence that decided. */
  readonly usage?: { readonly purpose: string; readonly evidence?: string };
  /** For a `check-failed` skip: what failed. */
  readonly error?: string;
  /** For a `payment-required` skip: the `crawler-price` the answer asked. */
  readonly price?: string;
}

/** A proxy as records name it: never its credentials. */
export interface ProxyUsed {
  /** The proxy's URL without user name or password: `http://proxy.example:8000/`. */
  readonly url: string;
  /** Crawlee's session the proxy was picked for (`ProxyInfo.sessionId`). */
  readonly session?: string;
}

/** What every record of one crawler shares. */
export interface RecordContext {
  readonly productToken: ProductTokens;
  readonly purposes: readonly string[];
  /** The `User-Agent` of pages when Heed sets it (`identifyPages`), else `undefined`. */
  readonly pageUserAgent: string | undefined;
  /** The `User-Agent` of Heed's own fetches. */
  readonly userAgent: string;
}

/** The record of a request a checkpoint let go, on `verdict` (`undefined`: not checked). */
export function passRecord(
  door: PassDoor,
  url: string,
  verdict: Verdict | undefined,
  referrer: string | undefined,
  context: RecordContext,
  usage?: UsageReport,
): CrawlRecord {
  const userAgent = door === 'sitemap-file' ? context.userAgent : context.pageUserAgent;
  const reason: PassReason = verdict === undefined ? 'unchecked' : (verdict.reason as PassReason);
  return {
    time: new Date().toISOString(),
    url: withoutUserinfo(url),
    origin: verdict?.origin ?? '',
    stage: door,
    allowed: true,
    reason,
    line: verdict?.line ?? 0,
    ...(verdict?.snapshot === undefined ? {} : { snapshot: verdict.snapshot, robotsFetchedAt: verdict.record.fetchedAt }),
    ...(verdict?.record.httpStatus === undefined ? {} : { robotsStatus: verdict.record.httpStatus }),
    productToken: context.productToken,
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(referrer === undefined ? {} : { referrer: withoutUserinfo(referrer) }),
    ...(context.purposes.length === 0 ? {} : { purposes: context.purposes }),
    ...(usage === undefined ? {} : { usagePreferences: preferencesOf(usage, context.purposes) }),
  };
}

/** Each declared purpose's preference in `report`, with the evidence that decided it. */
function preferencesOf(report: UsageReport, purposes: readonly string[]): NonNullable<CrawlRecord['usagePreferences']> {
  return purposes.map((purpose) => {
    const evidence = report.decision(purpose);
    return { purpose, preference: report.preference(purpose), ...(evidence === undefined ? {} : { evidence: evidence.description }) };
  });
}

/** The record of a skip. */
export function skipRecord(event: SkipEvent, context: RecordContext): CrawlRecord {
  return {
    time: new Date().toISOString(),
    url: withoutUserinfo(event.url),
    origin: event.origin,
    stage: event.stage,
    allowed: false,
    reason: event.reason,
    line: event.line,
    ...(event.rule === undefined ? {} : { rule: `${event.rule.directive}: ${event.rule.pattern}` }),
    ...(event.snapshot === undefined ? {} : { snapshot: event.snapshot }),
    ...(event.robotsFetchedAt === undefined ? {} : { robotsFetchedAt: event.robotsFetchedAt }),
    ...(event.httpStatus === undefined ? {} : { robotsStatus: event.httpStatus }),
    productToken: event.productToken,
    ...(event.referrer === undefined ? {} : { referrer: withoutUserinfo(event.referrer) }),
    ...(context.purposes.length === 0 ? {} : { purposes: context.purposes }),
    ...(event.usage === undefined
      ? {}
      : { usage: { purpose: event.usage.purpose, ...(event.usage.evidence ? { evidence: event.usage.evidence.description } : {}) } }),
    ...(event.error === undefined ? {} : { error: event.error }),
    ...(event.price === undefined ? {} : { price: event.price }),
  };
}

/** The proxy of Crawlee's `ProxyInfo` (`{ url, sessionId, … }`), without its credentials; `undefined` for none or anything else. */
export function proxyUsed(proxyInfo: unknown): ProxyUsed | undefined {
  if (typeof proxyInfo !== 'object' || proxyInfo === null) return undefined;
  const { url, sessionId } = proxyInfo as { url?: unknown; sessionId?: unknown };
  if (typeof url !== 'string' || url === '') return undefined;
  const session = typeof sessionId === 'string' || typeof sessionId === 'number' ? String(sessionId) : undefined;
  return { url: proxyUrlWithoutUserinfo(url), ...(session === undefined ? {} : { session }) };
}

/** A proxy URL as the WHATWG parser writes it (`http://proxy.example:8000/`), without user name or password. */
function proxyUrlWithoutUserinfo(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return withoutUserinfo(url);
  }
}

/**
 * `url` without its user name and password: a proxy's or a site's credentials must never reach a
 * file kept as evidence. Cheap for the usual URL (no `@` before the path): returned as it is.
 */
export function withoutUserinfo(url: string): string {
  const at = url.indexOf('@');
  if (at === -1) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    // Not a URL the WHATWG parser reads: cut anything between the scheme and an `@` of the authority.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  }
}
