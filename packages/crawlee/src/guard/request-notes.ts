/**
 * What the plugin keeps about each Crawlee request while the crawl handles it, in one record per
 * request: the URL its check before the fetch was made for, what was read of its page, its usage
 * verdict, and the skip it was stopped for mid-navigation. One record rather than a weak map per
 * fact because, in a crawl's busy heap, each weak-map entry made for a new object costs
 * microseconds (its identity hash, the table's growth, the collector's ephemeron pass), and every
 * page went through several.
 */
import type { UsageEvidence, UsageReport } from '@heed/manager';
import type { RobotsDirectives } from '../page-signals/meta-robots.js';
import type { SkipEvent } from '../report/skip-events.js';

/** What the plugin learnt from a fetched page, kept until its links are enqueued. */
export interface PageInfo {
  readonly directives: RobotsDirectives;
  /** Why links of the page are not followed (`meta robots`, `X-Robots-Tag`), when they are not. */
  readonly nofollowSource: string | undefined;
  readonly nofollowLinks: ReadonlySet<string>;
  /** With `purposes`: what the response headers and meta tags state about AI usage. */
  readonly usageEvidence?: readonly UsageEvidence[];
}

/** The facts kept about one request; each is `undefined` until known and again once used up. */
export interface RequestNote {
  /** The URL the check before the fetch was made for (a hook may rewrite `request.url` since). */
  checkedUrl: string | undefined;
  /** What was read of the page, while it is handled. */
  page: PageInfo | undefined;
  /** With `purposes`: the page's usage verdict, while it is handled. */
  usage: UsageReport | undefined;
  /** The skip the request was stopped for mid-navigation, until it is reported. */
  blocked: SkipEvent | undefined;
  /**
   * The browser page and answer of a page an AdaptivePlaywrightCrawler rendered, while it is
   * handled: Crawlee 3.13's browser rendering hands its handler neither.
   */
  rendered?: { readonly page: unknown; readonly response: unknown } | undefined;
}

/** The URLs requests were checked for before their fetch, by request (a weak map's methods, over the notes). */
export interface CheckedUrls {
  get(request: object): string | undefined;
  has(request: object): boolean;
  set(request: object, url: string): void;
}

export class RequestNotes {
  private readonly notes = new WeakMap<object, RequestNote>();

  /** The checked URL of each request, as the queue and the navigation checks read and write it. */
  readonly checkedUrls: CheckedUrls = {
    get: (request) => this.notes.get(request)?.checkedUrl,
    has: (request) => this.notes.get(request)?.checkedUrl !== undefined,
    set: (request, url) => {
      this.of(request).checkedUrl = url;
    },
  };

  /** The note of `request`, made on first use (it lives as long as the request object). */
  of(request: object): RequestNote {
    let note = this.notes.get(request);
    if (note === undefined) {
      note = { checkedUrl: undefined, page: undefined, usage: undefined, blocked: undefined };
      this.notes.set(request, note);
    }
    return note;
  }

  /** The note of `request`, if anything was noted about it. */
  peek(request: object): RequestNote | undefined {
    return this.notes.get(request);
  }

  /** Marks `request` as stopped mid-navigation: the tap that ends its handling ends it as `skip`. */
  block(request: object, skip: SkipEvent): void {
    this.of(request).blocked = skip;
  }

  /** Whether `request` was stopped mid-navigation. */
  isBlocked(request: object): boolean {
    return this.peek(request)?.blocked !== undefined;
  }

  /** The skip `request` was stopped for, forgotten as it is read (it is reported once). */
  takeBlocked(request: object): SkipEvent | undefined {
    const note = this.peek(request);
    if (note === undefined) return undefined;
    const skip = note.blocked;
    note.blocked = undefined;
    return skip;
  }

  /** What was read of the page of `request`, while it is handled. */
  pageOf(request: object): PageInfo | undefined {
    return this.peek(request)?.page;
  }

  /** The usage verdict of the page of `request`, while it is handled. */
  usageOf(request: object): UsageReport | undefined {
    return this.peek(request)?.usage;
  }
}
