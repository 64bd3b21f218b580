/**
 * What the plugin keeps about each Crawlee request while the crawl handles it, in one record per
 * request: the URL its check before the fetch was made for, what was read of its page, its usage
 * verdict, and the skip it was stopped for mid-navigation. One record rather than a weak map per
 * fact because, in a crawl's busy heap, each weak-map entry made for a new object costs
 * microseconds (its identity hash, the table's growth, the collector's ephemeron pass), and every
 * page went through several.
 */
import type { UsageReport } from '@heed/manager';
import type { PageInfo } from './guard.js';
import type { SkipEvent } from './report/skip-events.js';

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
}
