/**
 * The checkpoints: one decision per door a request can leave a crawl by, each answering "allow"
 * (`undefined`) or the skip that keeps the URL out, described once (stage, reason, deciding line and
 * rule, referrer). The taps (`taps/`) only find each door on a Crawlee release and crawler kind,
 * ask its checkpoint, and end a skip the way that release does; so a guarantee is written here
 * once, whatever the crawler.
 *
 * | door | checkpoint | skip stage |
 * | --- | --- | --- |
 * | a URL entering the queue (start URLs, links, `addRequests`) | {@link Checkpoints.enqueue} | `enqueue` |
 * | a sitemap entry entering the queue | {@link Checkpoints.enqueue} | `sitemap` |
 * | a link collected before the queue (AdaptivePlaywrightCrawler): `nofollow` | {@link Checkpoints.nofollow} | `enqueue` |
 * | a request leaving the queue for its fetch | {@link Checkpoints.beforeFetch} | `before-fetch` |
 * | a request that reached the handler without that check | {@link Checkpoints.unchecked} | `before-fetch` |
 * | a URL rewritten after the queue's check (a hook set `request.url`) | {@link Checkpoints.rewrite} | `before-fetch` |
 * | a redirect hop, a script or meta-refresh navigation | {@link Checkpoints.redirectHop} | `redirect` |
 * | a page the crawler did not open (a popup), each hop | {@link Checkpoints.otherPage} | `redirect` |
 * | a page's sub-resource, a worker's fetch, a WebSocket | {@link Checkpoints.subresource} | `subresource` |
 * | one that cannot wait (jsdom's WebSocket, a synchronous XHR) | {@link Checkpoints.subresourceNow} | `subresource` |
 * | `context.sendRequest()`, its rewrites and hops | {@link Checkpoints.sendRequest} | `send-request` |
 * | Heed's own fetch of a sitemap file, each hop | {@link Checkpoints.ownFetch} | (logged, counted) |
 * | the answer: usage preferences of the response | {@link Checkpoints.response} | `response` |
 * | the answer: `402 Payment Required` | {@link Checkpoints.paymentRequired} | `response` |
 *
 * Every door that sends a request to a site also waits for that site's crawl clock: a hop or a popup
 * is a request to its origin like a page, so an allowed one resolves only once its crawl-delay slot
 * is due; `checkRedirects: false` turns the check off, never the wait. (A page's own slot is taken
 * by the queue tap; 429/503 pauses are read from the answer by `politeness/answer.ts`.)
 *
 * URLs are compared one way everywhere ({@link sameUrl}): two spellings of one URL are one URL.
 *
 * Each request a door lets go is told to the {@link Checkpoints.observer} (crawl records), with the
 * verdict it went on.
 */
import type { UsageReport, Verdict } from '@heed/manager';
import type { ResolvedOptions } from '../options.js';
import { abortable } from '../politeness/abort.js';
import type { CrawlClock } from '../politeness/crawl-clock.js';
import type { PassDoor } from '../records/crawl-record.js';
import { nofollowSkip, paymentSkip, skipFromVerdict, type SkipEvent, type SkipStage } from '../report/skip-events.js';
import type { PageInfo } from './request-notes.js';
import type { UsageVerdicts } from './usage-verdicts.js';
import { safeOrigin, type UrlUse, type Verdicts } from './verdicts.js';

/** Told of every request a door lets go, with the verdict it went on (`undefined`: no check was asked for). */
export interface PassObserver {
  /** `page`: for `before-fetch`, the request taken from the queue, whose page leaves later ({@link pageLeaves}). */
  passed(door: PassDoor, url: string, verdict: Verdict | undefined, from?: string, page?: object): void;
  /** The page of `page` (a request the queue let go) leaves now, through the crawler's proxy `proxyInfo` (Crawlee's `ProxyInfo`), if any. */
  pageLeaves?(page: object, proxyInfo: unknown): void;
}

/** A checkpoint's answer: `undefined` to let the request go, else why not. */
export type Checked = SkipEvent | undefined;

/** Where a URL entering the queue comes from, for its skip event and for `nofollow`. */
export interface EnqueueSource {
  readonly stage: Extract<SkipStage, 'enqueue' | 'sitemap'>;
  /** The page whose link it is. */
  readonly referrer?: string;
  readonly page?: PageInfo;
}

export class Checkpoints {
  /** Told of every request let go (option `records`); none without it. */
  observer: PassObserver | undefined;

  constructor(
    readonly options: ResolvedOptions,
    private readonly verdicts: Verdicts,
    private readonly usage: UsageVerdicts,
    private readonly clock: CrawlClock | undefined,
  ) {}

  /**
   * A URL entering the queue: the page's `nofollow` first (a link of a page that says so), then
   * robots.txt and, with `purposes`, the usage preferences. Answered on the spot when the manager
   * has the origin's record at hand and no usage check waits: the links of a page to known origins
   * cost no promise each, which the link-dense crawl bench shows is most of what a link costs.
   */
  enqueue(url: string, source: EnqueueSource): Checked | Promise<Checked> {
    return this.nofollow(url, source) ?? this.page(url, source.stage, source.referrer);
  }

  /**
   * The page's `nofollow` alone, on the spot: for links a crawler collects before they reach the
   * queue (where robots.txt judges them), as AdaptivePlaywrightCrawler's renderings do.
   */
  nofollow(url: string, source: EnqueueSource): Checked {
    const nofollow = nofollowSource(url, source);
    return nofollow === undefined ? undefined : nofollowSkip(url, safeOrigin(url), this.options.productToken, source.referrer!, nofollow);
  }

  /**
   * A request leaving the queue for its fetch. On the spot when the record is at hand, as
   * {@link enqueue}: every page of a crawl passes here.
   */
  beforeFetch(url: string, page?: object): Checked | Promise<Checked> {
    return this.page(url, 'before-fetch', undefined, page);
  }

  /**
   * The page of `request`, which {@link beforeFetch} let go, leaves now (its navigation starts, or
   * BasicCrawler's handler that fetches it), through the crawler's proxy `proxyInfo`: known only
   * now, as Crawlee picks a request's session and proxy after the queue hands it over.
   */
  pageLeaves(request: object, proxyInfo: unknown): void {
    this.observer?.pageLeaves?.(request, proxyInfo);
  }

  /**
   * A request that reached the request handler without passing {@link beforeFetch} (the crawler
   * read it from a queue Heed did not wrap). The same decision as before the fetch; {@link uncheckedMessage}
   * is what the tap logs, once.
   */
  async unchecked(url: string, page?: object): Promise<Checked> {
    return this.page(url, 'before-fetch', undefined, page);
  }

  /**
   * The URL a navigation is about to request, `checked` being the one the queue checked: a hook may
   * have rewritten it since. Allowed at once (no promise) when it is the same URL.
   */
  rewrite(checked: string, url: string): Promise<Checked> | undefined {
    return sameUrl(checked, url) ? undefined : this.robotsThenUsage(url, 'before-fetch', checked, 'page', 'rewrite');
  }

  /**
   * A redirect hop to `to` from `from` (of a page, of a browser's main frame, a script or
   * meta-refresh navigation): checked with `checkRedirects`; an allowed one (or any, without the
   * check) resolves once its origin's crawl-delay slot is due, as it cannot go back to the queue.
   */
  async redirectHop(to: string, from: string, door: PassDoor = 'redirect'): Promise<Checked> {
    let verdict: Verdict | undefined;
    if (this.options.checkRedirects) {
      const checked = await this.verdicts.verdict(to, 'redirect');
      if (!checked.allowed) return skipFromVerdict(checked, 'redirect', from);
      verdict = checked;
    }
    await this.clock?.awaitHop(to);
    this.observer?.passed(door, to, verdict, from);
    return undefined;
  }

  /**
   * A navigation of a page the crawler did not open (a popup, a `target=_blank` link), each hop:
   * a redirect hop whose referrer is the page that opened it. Not http(s) (`about:blank`): allowed.
   */
  async otherPage(url: string, referrer: string | undefined): Promise<Checked> {
    if (!isHttp(url)) return undefined;
    return this.redirectHop(url, referrer as string, 'popup');
  }

  /**
   * A sub-resource of a page (script, image, stylesheet, frame, XHR, a worker's fetch, a WebSocket
   * as its http(s) URL): checked with `blockSubresources`, against its own origin's robots.txt.
   * Sub-resources do not count for crawl-delay (as Google's renderer).
   */
  async subresource(url: string, referrer: string | undefined): Promise<Checked> {
    if (!this.options.blockSubresources || !isHttp(url)) return undefined;
    const verdict = await this.verdicts.verdict(url, 'subresource');
    if (!verdict.allowed) return skipFromVerdict(verdict, 'subresource', referrer);
    this.observer?.passed('subresource', url, verdict, referrer);
    return undefined;
  }

  /**
   * A sub-resource that cannot wait for a verdict (a WebSocket jsdom connects a promise turn after
   * it is made, a synchronous XHR): as {@link subresource}, from the verdict at hand. `'not at hand'`
   * when its origin's robots.txt is not in memory: not known to be allowed, so the caller refuses it,
   * and may ask {@link subresource} for the verdict to report.
   */
  subresourceNow(url: string, referrer: string | undefined): Checked | 'not at hand' {
    if (!this.options.blockSubresources || !isHttp(url)) return undefined;
    const verdict = this.verdicts.atHand(url, 'subresource');
    if (verdict === undefined) return 'not at hand';
    if (!verdict.allowed) return skipFromVerdict(verdict, 'subresource', referrer);
    this.observer?.passed('subresource', url, verdict, referrer);
    return undefined;
  }

  /** A URL `context.sendRequest()` is about to request (asked for, rewritten by a hook, or a hop), from the page `from`. */
  async sendRequest(url: string, from: string): Promise<Checked> {
    // Learnt about as a redirect target is: an API's sitemaps are not the crawl's business.
    return this.robotsThenUsage(url, 'send-request', from, 'redirect', 'send-request');
  }

  /**
   * Heed's own fetch of `url` (a sitemap file, each of its hops): `undefined` once robots.txt allows
   * it and its origin's crawl-delay slot is due, else why it must not be fetched. The send itself
   * is claimed right before the request leaves (`CrawlClock.beforeSend`). Rejects with the signal's
   * reason as soon as `signal` aborts.
   */
  async ownFetch(url: string, signal?: AbortSignal): Promise<string | undefined> {
    const verdict = await abortable(this.verdicts.verdict(url, 'sitemap'), signal);
    if (!verdict.allowed) return skipFromVerdict(verdict, 'sitemap').message;
    await this.clock?.awaitSlot(url, signal);
    this.observer?.passed('sitemap-file', url, verdict);
    return undefined;
  }

  /** The answer of a page, with `purposes`: the skip its usage verdict (URL, headers, meta tags) calls for. */
  response(report: UsageReport | undefined, pageUrl: string): Checked {
    return this.usage.skipOf(report, pageUrl, 'response', safeOrigin(pageUrl));
  }

  /**
   * A page answered `402 Payment Required` (pay-per-crawl: the site wants paying, or a signature it
   * accepts): a skip with the price asked, so the crawler neither hands the page to the handler nor
   * retries it as a failure. Always a skip: there is nothing to allow.
   */
  paymentRequired(url: string, price: string): SkipEvent {
    return paymentSkip(url, safeOrigin(url), this.options.productToken, price);
  }

  /** robots.txt, then with `purposes` the usage preferences; on the spot when neither has to wait. */
  private page(url: string, stage: SkipStage, from?: string, request?: object): Checked | Promise<Checked> {
    // Only the check before the fetch lets a request go; the enqueue doors let it into the queue.
    const door = stage === 'before-fetch' ? 'before-fetch' : undefined;
    const verdict = this.usage.active ? undefined : this.verdicts.atHand(url);
    if (verdict === undefined) return this.robotsThenUsage(url, stage, from, 'page', door, request);
    if (!verdict.allowed) return skipFromVerdict(verdict, stage, from);
    if (door !== undefined) this.observer?.passed(door, url, verdict, from, request);
    return undefined;
  }

  /**
   * `door`: the door the request leaves by when allowed, told to the observer; none for the enqueue
   * doors. `request`: the queue's request, for the check before the fetch.
   */
  private async robotsThenUsage(
    url: string,
    stage: SkipStage,
    from: string | undefined,
    use: UrlUse,
    door?: PassDoor,
    request?: object,
  ): Promise<Checked> {
    const verdict = await this.verdicts.verdict(url, use);
    if (!verdict.allowed) return skipFromVerdict(verdict, stage, from);
    const skip = await this.usage.skipFor(url, stage, verdict.origin, from);
    if (skip === undefined && door !== undefined) this.observer?.passed(door, url, verdict, from, request);
    return skip;
  }
}

/** What a tap logs, once, for a request that reached the handler without the queue's check. */
export function uncheckedMessage(url: string, checkedWhen: 'before its fetch' | 'after its fetch'): string {
  const noDelay = checkedWhen === 'before its fetch' ? ' (crawl-delay cannot be applied to such requests)' : '';
  return (
    `RobotsPlugin: ${url} reached the request handler without passing Heed's check in the request queue's fetchNextRequest(); ` +
    `it is checked here instead, ${checkedWhen}${noDelay}. Logged once.`
  );
}

/**
 * Whether `a` and `b` name the same URL: equal, or equal once parsed (`http://a.example` and
 * `http://a.example/`, a host's case, default ports). Every door compares URLs with this.
 */
export function sameUrl(a: string, b: string): boolean {
  return a === b || normalized(a) === normalized(b);
}

function normalized(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function isHttp(url: string): boolean {
  return /^https?:/i.test(url);
}

/** Why the page `source` comes from does not let `url` be followed (`nofollow`), if it does not. */
function nofollowSource(url: string, source: EnqueueSource): string | undefined {
  const { page } = source;
  if (page === undefined || !source.referrer) return undefined;
  return page.nofollowSource ?? (page.nofollowLinks.has(url) ? 'the link is rel="nofollow"' : undefined);
}
