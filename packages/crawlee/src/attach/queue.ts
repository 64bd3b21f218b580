/**
 * The request queue a crawler reads from, wrapped through its public methods: this is where every
 * URL enters the crawl and where every request leaves it for the fetch, whatever the release.
 *
 * - `addRequest`, `addRequests`, `addRequestsBatched`: start URLs, `crawler.addRequests`,
 *   `context.addRequests`, `enqueueLinks` of every crawler kind, RequestList transfers. Batches
 *   are filtered with their origins fetched in parallel; links of a page (inside its
 *   `enqueueLinks`, see {@link enqueueScope}) also honour `nofollow`.
 * - `fetchNextRequest`: the check right before the fetch (the request ends as SKIPPED and is
 *   reported, never counted as failed) and crawl-delay per origin (the request is put back with
 *   `reclaimRequest` once its slot comes).
 * - `isFinished`: the crawl does not end while sitemaps are still being enqueued.
 *
 * Fail closed: a request that reaches `fetchNextRequest` without having passed the enqueue filter
 * (a path that bypassed it) is still checked there, and the bypass is logged once, loudly. A
 * request that reaches the handler without passing `fetchNextRequest` is checked there (see
 * `basic.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { timerDelay } from '../crawl-delay.js';
import { SharedRequestQueueError } from '../errors.js';
import { safeOrigin, urlOf, type FilterContext, type PageInfo, type RequestLike, type RobotsGuard } from '../guard.js';
import type { Skips } from '../report/skips.js';
import type { LogInternals, RequestInternals, RequestQueueLike } from './crawler-internals.js';
import { skipRequest } from './skip-request.js';

/** Where the requests being added come from, set around a page's `enqueueLinks` and the sitemap feeder. */
export interface EnqueueScope {
  /** The page whose links these are. */
  readonly referrer?: string;
  readonly page?: PageInfo;
  /** Also tell this callback (the `enqueueLinks` call's own `onSkippedRequest`). */
  readonly alsoNotify?: (url: string) => Promise<void>;
  /** Already checked (sitemap URLs): admitted as they are. */
  readonly prechecked?: boolean;
  /**
   * Set while a wrapped method runs, so the queue's own inner calls (`addRequestsBatched` →
   * `addRequests`) pass through.
   */
  readonly insideQueue?: boolean;
}

/**
 * The scope of the `addRequest*` calls in progress (AsyncLocalStorage follows them across awaits).
 * One storage for both uses: every storage in use adds work to every promise the process makes.
 */
export const enqueueScope = new AsyncLocalStorage<EnqueueScope>();

/** The scope of the queue's own inner calls. */
const INSIDE_QUEUE: EnqueueScope = Object.freeze({ insideQueue: true });
const insideQueue = <R>(run: () => R): R => enqueueScope.run(INSIDE_QUEUE, run);

/**
 * The plugin that judges each queue: the last to claim it. Requests of a queue two crawlers read at
 * once go to whichever asks first, so no plugin could judge them for the crawler that fetches:
 * a queue is claimed by one plugin at a time, and the wrappers of any other plugin pass through.
 * A crawler run after another on the same queue (Crawlee's default queue) takes it over.
 */
const queueOwners = new WeakMap<object, QueueHooks>();

/**
 * Throws {@link SharedRequestQueueError} when `queue` is claimed by another plugin whose crawler
 * may still read it (attached and not yet run, or running). `claimant`: the plugin asking.
 */
export function assertQueueFree(queue: RequestQueueLike, claimant?: QueueHooks): void {
  const owner = queueOwners.get(queue);
  if (owner !== undefined && owner !== claimant && owner.busy) throw new SharedRequestQueueError(queue.name ?? queue.id ?? 'default');
}

/**
 * Requests admitted and not yet fetched, counted by the queue wrappers: the crawler's pending
 * count on releases that do not expose one (an approximation: duplicates count until fetched).
 */
export class PendingRequests {
  private count = 0;

  get approximation(): number {
    return Math.max(0, this.count);
  }

  added(): void {
    this.count++;
  }

  taken(): void {
    this.count--;
  }
}

/** Work besides the queue's own that the crawl must wait for before it ends (the sitemap feeder). */
export interface BackgroundWork {
  idle(): boolean;
}

/** What the wrapped queue reports to the rest of the plugin. */
export class QueueHooks {
  /**
   * Requests that passed the check in `fetchNextRequest`, with the URL that was checked (the
   * handler's backstop looks here, and the check at the fetch compares a rewritten URL with it).
   */
  readonly checkedBeforeFetch = new WeakMap<object, string>();
  /**
   * URLs admitted by the enqueue filter, the first {@link MAX_ADMITTED_URLS}: a fetched request
   * missing here bypassed it. Only the bypass warning reads it; every request is checked before its
   * fetch whether it is found here or not.
   */
  private readonly admitted = new Set<string>();
  /** Whether a URL was admitted past the bound of {@link admitted} (a URL missing since may have been admitted). */
  private admittedForgotten = false;
  private readonly wrapped = new WeakSet<object>();
  private warnedBypass = false;
  /**
   * Whether this plugin's crawler may still read its queue: from `attach()` until its `run()` ends,
   * and during each later `run()`. Another plugin may claim the queue only while this is false.
   */
  busy = true;

  constructor(
    private readonly guard: RobotsGuard,
    private readonly skips: Skips,
    private readonly pending: PendingRequests,
    private readonly background: BackgroundWork | undefined,
    private readonly log: LogInternals,
  ) {}

  /**
   * Claims `queue` and installs the wrappers on it (once per queue object).
   * @throws SharedRequestQueueError when another plugin's crawler may still read it.
   */
  wrap(queue: RequestQueueLike): void {
    assertQueueFree(queue, this);
    queueOwners.set(queue, this);
    if (this.wrapped.has(queue)) return;
    this.wrapped.add(queue);
    // Another plugin claimed the queue since: its wrappers judge, these pass through.
    const passThrough = () => enqueueScope.getStore()?.insideQueue === true || queueOwners.get(queue) !== this;
    const original = {
      addRequest: queue.addRequest.bind(queue),
      addRequests: queue.addRequests.bind(queue),
      addRequestsBatched: queue.addRequestsBatched.bind(queue),
      fetchNextRequest: queue.fetchNextRequest.bind(queue),
      isFinished: queue.isFinished.bind(queue),
    };
    queue.addRequest = async (request: unknown, options?: unknown) => {
      if (passThrough()) return original.addRequest(request, options);
      const [kept] = await this.admit([request as RequestLike]);
      if (kept === undefined) {
        // Not added: answered the way the queue answers a request it already had and handled.
        const url = urlOf(request as RequestLike) ?? '';
        return { requestId: undefined, uniqueKey: url, wasAlreadyPresent: true, wasAlreadyHandled: true };
      }
      return insideQueue(() => original.addRequest(kept, options));
    };
    queue.addRequests = async (requests: unknown, options?: unknown) => {
      if (passThrough() || !isIterableLike(requests)) return original.addRequests(requests, options);
      const kept = await this.admit(requests);
      return insideQueue(() => original.addRequests(kept, options));
    };
    queue.addRequestsBatched = async (requests: unknown, options?: unknown) => {
      if (passThrough()) return original.addRequestsBatched(requests, options);
      // Arrays stay arrays (3.13–3.17 iterate them synchronously); iterables the release accepted
      // (3.18: async generators) are filtered lazily.
      const input = Array.isArray(requests)
        ? await this.admit(requests as RequestLike[])
        : isIterableLike(requests)
          ? this.admitLazily(requests)
          : requests;
      return insideQueue(() => original.addRequestsBatched(input, options));
    };
    queue.fetchNextRequest = async () => {
      if (passThrough()) return original.fetchNextRequest();
      for (;;) {
        const request = await original.fetchNextRequest();
        if (!request) return request;
        this.pending.taken();
        if (await this.releaseForFetch(queue, request)) return request;
      }
    };
    queue.isFinished = async () => (await original.isFinished()) && (passThrough() || (this.background?.idle() ?? true));
  }

  /**
   * Checks a request taken from the queue. True: it may be fetched now. False: it was skipped
   * (marked handled as SKIPPED, reported) or deferred for its origin's crawl-delay.
   */
  private async releaseForFetch(queue: RequestQueueLike, request: RequestInternals): Promise<boolean> {
    // Past the bound a missing URL may have been forgotten: a bypass is then not known, only possible.
    if (!this.admitted.has(request.url) && !this.admittedForgotten) this.noteBypass(request.url);
    const skip = await this.guard.skipFor(request.url, 'before-fetch');
    if (skip !== undefined) {
      await skipRequest(request, skip, this.skips, () => queue.markRequestHandled(request));
      return false;
    }
    const scheduler = this.guard.crawlDelays;
    const origin = safeOrigin(request.url);
    if (scheduler && origin) {
      // A forgotten (or not yet learnt) delay is learnt before the slot is asked for, and set again
      // right before it if the scheduler forgot the origin while other requests ran (no await
      // between the two, so the slot is given with the delay in force).
      const learning = this.guard.learnCrawlDelay(origin, request.url);
      if (learning !== undefined) {
        const seconds = await learning;
        if (!scheduler.knows(origin)) scheduler.setDelay(origin, seconds);
      }
      // The fleet's clock when the store keeps one: the request keeps the slot it reserved there
      // while it waits, and takes it when it comes back.
      const wait = await this.guard.crawlSlot(origin, request.id ?? request.uniqueKey);
      if (wait > 0) {
        this.guard.stats.crawlDelayDeferrals++;
        this.pending.added();
        // The request stays locked (in progress) while it waits, so the crawl does not end; it
        // goes back to the head of the queue when its slot comes (or, past the longest timer,
        // asks again then).
        setTimeout(() => {
          queue.reclaimRequest(request, { forefront: true }).catch((error: unknown) => {
            this.log.warning(`RobotsPlugin: could not put ${request.url} back after its crawl-delay: ${String(error)}`);
          });
        }, timerDelay(wait));
        return false;
      }
    }
    this.checkedBeforeFetch.set(request, request.url);
    return true;
  }

  /**
   * The requests of `items` the guard allows, in order; skips are reported. An array (what
   * `enqueueLinks` hands over) is judged in batches, without a promise per request.
   */
  private async admit(items: Iterable<RequestLike> | AsyncIterable<RequestLike>): Promise<RequestLike[]> {
    const kept: RequestLike[] = [];
    if (!Array.isArray(items)) {
      for await (const item of this.admitLazily(items)) kept.push(item);
      return kept;
    }
    const scope = enqueueScope.getStore() ?? {};
    if (scope.prechecked) {
      for (const item of items as RequestLike[]) kept.push(this.countAdmitted(item));
      return kept;
    }
    const context = filterContext(scope);
    const size = this.guard.options.prefetchBatchSize;
    for (let start = 0; start < items.length; start += size) {
      const batch = items.length <= size ? (items as RequestLike[]) : (items as RequestLike[]).slice(start, start + size);
      for (const item of await this.guard.filterBatch(batch, context)) kept.push(this.countAdmitted(item));
    }
    return kept;
  }

  /**
   * The requests of `items` the guard allows, as they are asked for. The scope is read now: the
   * queue asks for them inside its own call, whose scope is {@link INSIDE_QUEUE}.
   */
  private admitLazily(items: Iterable<RequestLike> | AsyncIterable<RequestLike>): AsyncGenerator<RequestLike> {
    return this.admitFrom(items, enqueueScope.getStore() ?? {});
  }

  private async *admitFrom(items: Iterable<RequestLike> | AsyncIterable<RequestLike>, scope: EnqueueScope): AsyncGenerator<RequestLike> {
    const source = scope.prechecked ? items : this.guard.filter(items, filterContext(scope));
    for await (const item of source) yield this.countAdmitted(item);
  }

  /** Counts `item` as admitted into the queue (pending, and remembered for the bypass warning). */
  private countAdmitted(item: RequestLike): RequestLike {
    const url = urlOf(item);
    if (url !== undefined) this.noteAdmitted(url);
    this.pending.added();
    return item;
  }

  /**
   * Remembers `url` as admitted, up to the bound. The first URL past it ends the record: from then
   * on a missing URL may be one that was not remembered, so the bypass warning is no longer given
   * and nothing is looked up; keeping the most recent URLs instead would cost every link a
   * reordering for a set nobody reads.
   */
  private noteAdmitted(url: string): void {
    if (this.admittedForgotten) return;
    if (this.admitted.size < MAX_ADMITTED_URLS) this.admitted.add(url);
    else if (!this.admitted.has(url)) this.admittedForgotten = true;
  }

  private noteBypass(url: string): void {
    if (this.warnedBypass) return;
    this.warnedBypass = true;
    this.log.error(
      `RobotsPlugin: ${url} reached the crawler without passing Heed's enqueue check ` +
        "(the request queue's addRequest/addRequests/addRequestsBatched were bypassed, or the queue held it before attach()). " +
        'Such requests are still checked before the fetch, but nofollow cannot be applied to them. Logged once.',
    );
  }
}

/**
 * Admitted URLs remembered for the bypass warning, at most (a bound on memory in a long crawl).
 * A queue filled before `attach()` shows on the first requests fetched, long
 * before the bound is reached; past it the warning is no longer given (a URL not found may have
 * been forgotten), and every request is still checked before its fetch.
 */
export const MAX_ADMITTED_URLS = 50_000;

function filterContext(scope: EnqueueScope): FilterContext {
  return {
    stage: 'enqueue',
    ...(scope.referrer !== undefined ? { referrer: scope.referrer } : {}),
    ...(scope.page ? { page: scope.page } : {}),
    ...(scope.alsoNotify ? { alsoNotify: scope.alsoNotify } : {}),
  };
}

function isIterableLike(value: unknown): value is Iterable<RequestLike> | AsyncIterable<RequestLike> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
      typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  );
}
