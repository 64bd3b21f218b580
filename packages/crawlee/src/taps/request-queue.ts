/**
 * The request queue a crawler reads from, wrapped through its public methods: this is where every
 * URL enters the crawl and where every request leaves it for the fetch, whatever the release.
 *
 * - `addRequest`, `addRequests`, `addRequestsBatched`: start URLs, `crawler.addRequests`,
 *   `context.addRequests`, `enqueueLinks` of every crawler kind, RequestList transfers. Batches
 *   are filtered with their origins fetched in parallel; links of a page (inside its
 *   `enqueueLinks`, see {@link QueueHooks.enqueueFrom}) also honour `nofollow`.
 * - `fetchNextRequest`: the check right before the fetch (the request ends as SKIPPED and is
 *   reported, never counted as failed) and crawl-delay per origin (the request is put back with
 *   `reclaimRequest` once its slot comes).
 * - `isFinished`: the crawl does not end while sitemaps are still being enqueued.
 *
 * Where a batch comes from (a page's links, Heed's own sitemap entries, the queue's own inner calls)
 * is told explicitly on Crawlee 3: a page's `enqueueLinks` is handed a stand-in for the queue (its
 * `requestQueue` option, see {@link QueueHooks.enqueueFrom}), and requests already judged are known
 * by identity (the queue passes request objects on as they are). On Crawlee 4, whose `enqueueLinks`
 * reaches the queue through `crawler.addRequests`, an AsyncLocalStorage carries it. Not on 3: on
 * Node 20 every storage in use adds work to each promise the process makes, a cost a link-dense
 * crawl notices (BENCHMARKS.md, "Link-dense crawl").
 *
 * Fail closed: a request that reaches `fetchNextRequest` without having passed the enqueue filter
 * (a path that bypassed it) is still checked there, and the bypass is logged once, loudly. A
 * request that reaches the handler without passing `fetchNextRequest` is checked there (see
 * `basic.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SharedRequestQueueError } from '../errors.js';
import { urlOf, type FilterContext, type RequestLike } from '../guard/batch-filter.js';
import type { RobotsGuard } from '../guard/guard.js';
import type { CheckedUrls, PageInfo } from '../guard/request-notes.js';
import { safeOrigin } from '../guard/verdicts.js';
import { timerDelay } from '../politeness/scheduler.js';
import type { Skips } from '../report/skips.js';
import type { SkipEvent } from '../report/skip-events.js';
import type { LogInternals, RequestInternals, RequestQueueLike } from './crawler-shape.js';
import { skipRequest } from './skip-request.js';
import { isUrlListSource, requestsOfList, type UrlListDeps } from '../sources/url-lists.js';

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
 * The scope of the `addRequest*` calls in progress on Crawlee 4 (AsyncLocalStorage follows them
 * across awaits). Never entered on Crawlee 3, where it then costs nothing.
 */
const enqueueScope = new AsyncLocalStorage<EnqueueScope>();

/** The scope of the queue's own inner calls. */
const INSIDE_QUEUE: EnqueueScope = Object.freeze({ insideQueue: true });
const PRECHECKED: EnqueueScope = Object.freeze({ prechecked: true });
const NO_SCOPE: EnqueueScope = Object.freeze({});

/** A wrapped queue and its own methods, as they were before the wrappers. */
interface QueueMethods {
  readonly queue: RequestQueueLike;
  /** Who judges the queue now (the queue's entry in `queueOwners`, read without a lookup). */
  readonly claim: QueueClaim;
  addRequest(request: unknown, options?: unknown): Promise<unknown>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
  addRequestsBatched(requests: unknown, options?: unknown): Promise<unknown>;
  fetchNextRequest(): Promise<RequestInternals | null | undefined>;
  isFinished(): Promise<boolean>;
}

/**
 * The plugin that judges each queue: the last to claim it. Requests of a queue two crawlers read at
 * once go to whichever asks first, so no plugin could judge them for the crawler that fetches:
 * a queue is claimed by one plugin at a time, and the wrappers of any other plugin pass through.
 * A crawler run after another on the same queue (Crawlee's default queue) takes it over.
 */
const queueOwners = new WeakMap<object, QueueClaim>();

/**
 * A queue's owner, in a record each wrapper keeps: the wrappers ask on every page whether they
 * still judge their queue, and a weak-map lookup costs a crawl's busy heap far more than a field.
 */
interface QueueClaim {
  owner: QueueHooks | undefined;
}

function claimOf(queue: RequestQueueLike): QueueClaim {
  let claim = queueOwners.get(queue);
  if (claim === undefined) {
    claim = { owner: undefined };
    queueOwners.set(queue, claim);
  }
  return claim;
}

/**
 * Throws {@link SharedRequestQueueError} when `queue` is claimed by another plugin whose crawler
 * may still read it (attached and not yet run, or running). `claimant`: the plugin asking.
 */
export function assertQueueFree(queue: RequestQueueLike, claimant?: QueueHooks): void {
  const owner = queueOwners.get(queue)?.owner;
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
  readonly checkedBeforeFetch: CheckedUrls;
  /**
   * URLs admitted by the enqueue filter, the first {@link MAX_ADMITTED_URLS}: a fetched request
   * missing here bypassed it. Only the bypass warning reads it; every request is checked before its
   * fetch whether it is found here or not.
   */
  private readonly admitted = new Set<string>();
  /** Whether a URL was admitted past the bound of {@link admitted} (a URL missing since may have been admitted). */
  private admittedForgotten = false;
  /** Each wrapped queue's own methods. */
  private readonly originals = new WeakMap<object, QueueMethods>();
  /**
   * Request objects admitted by this plugin: the queue's inner calls (`addRequestsBatched` →
   * `addRequests`) hand them on as they are, and pass. Strings are made objects when admitted.
   */
  private readonly admittedItems = new WeakSet<object>();
  /** Request objects already judged (sitemap entries): admitted without a second check. */
  private readonly checkedItems = new WeakSet<object>();
  /** The queue the crawler reads, as last wrapped: a page's `enqueueLinks` adds there. */
  private current: RequestQueueLike | undefined;
  /** The own methods of {@link current}. */
  private currentMethods: QueueMethods | undefined;
  private background: BackgroundWork | undefined;
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
    private readonly log: LogInternals,
    /** Scopes travel in an AsyncLocalStorage (Crawlee 4), not explicitly (Crawlee 3). */
    private readonly asyncScopes = false,
  ) {
    this.checkedBeforeFetch = guard.notes.checkedUrls;
  }

  /** The crawl does not end while `work` is busy (the sitemap feeder). */
  alsoWaitFor(work: BackgroundWork): void {
    this.background = work;
  }

  /**
   * `requestsFromUrl` sources entering the queue are read Heed's way (`sources/url-lists.ts`), not
   * downloaded by Crawlee: replaced by the requests their file lists, which are then judged.
   */
  readUrlListsWith(deps: UrlListDeps): void {
    this.urlLists = deps;
  }

  private urlLists: UrlListDeps | undefined;

  /** `item`, or the requests of its file when it is a `requestsFromUrl` source (see {@link readUrlListsWith}). */
  private async expanded(item: RequestLike): Promise<readonly RequestLike[]> {
    if (this.urlLists === undefined || !isUrlListSource(item)) return [item];
    return await requestsOfList(item, this.urlLists);
  }

  /**
   * Claims `queue` and installs the wrappers on it (once per queue object).
   * @throws SharedRequestQueueError when another plugin's crawler may still read it.
   */
  wrap(queue: RequestQueueLike): void {
    assertQueueFree(queue, this);
    const claim = claimOf(queue);
    claim.owner = this;
    this.current = queue;
    const wrapped = this.originals.get(queue);
    if (wrapped !== undefined) {
      this.currentMethods = wrapped;
      return;
    }
    const original: QueueMethods = {
      queue,
      claim,
      addRequest: queue.addRequest.bind(queue),
      addRequests: queue.addRequests.bind(queue),
      addRequestsBatched: queue.addRequestsBatched.bind(queue),
      fetchNextRequest: queue.fetchNextRequest.bind(queue),
      isFinished: queue.isFinished.bind(queue),
    };
    this.originals.set(queue, original);
    this.currentMethods = original;
    queue.addRequest = (request: unknown, options?: unknown) => this.addRequest(original, request, options, undefined);
    queue.addRequests = (requests: unknown, options?: unknown) => this.addRequests(original, requests, options, undefined);
    queue.addRequestsBatched = (requests: unknown, options?: unknown) => this.addRequestsBatched(original, requests, options, undefined);
    queue.fetchNextRequest = async () => {
      if (this.passThrough(original)) return original.fetchNextRequest();
      for (;;) {
        const request = await original.fetchNextRequest();
        if (!request) return request;
        this.pending.taken();
        const released = this.releaseForFetch(queue, request);
        if (released instanceof Promise ? await released : released) return request;
      }
    };
    queue.isFinished = async () => (await original.isFinished()) && (this.passThrough(original) || (this.background?.idle() ?? true));
  }

  /**
   * Runs a page's `enqueueLinks` (`enqueue`, called with `options`) so that the links it adds are
   * judged as that page's: `nofollow`, the referrer of each skip, the call's own `onSkippedRequest`.
   */
  enqueueFrom<R>(scope: EnqueueScope, options: Record<string, unknown> | undefined, enqueue: (options?: Record<string, unknown>) => R): R {
    if (this.asyncScopes) return enqueueScope.run(scope, () => enqueue(options));
    // The queue `enqueueLinks` would add to (the call's own, else the crawler's), if this plugin wrapped it.
    const target = (options?.['requestQueue'] ?? this.current) as RequestQueueLike | undefined;
    const original = target === undefined ? undefined : target === this.current ? this.currentMethods : this.originals.get(target);
    // A queue another plugin has claimed since: its own wrappers judge what is added.
    if (original === undefined || original.claim.owner !== this) return enqueue(options);
    // Copied with `Object.assign`, not a spread: this runs once a page, mostly before V8 optimises
    // it, and an unoptimised spread costs several times as much.
    return enqueue(Object.assign({}, options, { requestQueue: this.standIn(original, scope) }));
  }

  /** Adds requests Heed has already judged (sitemap entries) through `add`: they are admitted as they are. */
  addChecked<R>(items: readonly object[], add: () => R): R {
    if (this.asyncScopes) return enqueueScope.run(PRECHECKED, add);
    for (const item of items) this.checkedItems.add(item);
    return add();
  }

  /**
   * The queue as one page's `enqueueLinks` sees it: what it adds is judged with the page's scope.
   * Crawlee 3's `enqueueLinks` reads only these methods of it. A plain object, not one made from
   * the queue: a queue used as a prototype would change shape under Crawlee's own code.
   */
  private standIn(original: QueueMethods, scope: EnqueueScope): RequestQueueLike {
    const { queue } = original;
    return {
      name: queue.name,
      id: queue.id,
      addRequest: (request: unknown, options?: unknown) => this.addRequest(original, request, options, scope),
      addRequests: (requests: unknown, options?: unknown) => this.addRequests(original, requests, options, scope),
      addRequestsBatched: (requests: unknown, options?: unknown) => this.addRequestsBatched(original, requests, options, scope),
      fetchNextRequest: () => queue.fetchNextRequest(),
      markRequestHandled: (request: RequestInternals) => queue.markRequestHandled(request),
      reclaimRequest: (request: RequestInternals, options?: { forefront?: boolean }) => queue.reclaimRequest(request, options),
      isFinished: () => queue.isFinished(),
    };
  }

  /** Another plugin claimed the queue since (its wrappers judge), or this is the queue's own inner call (Crawlee 4). */
  private passThrough(original: QueueMethods): boolean {
    return original.claim.owner !== this || (this.asyncScopes && enqueueScope.getStore()?.insideQueue === true);
  }

  private insideQueue<R>(run: () => R): R {
    return this.asyncScopes ? enqueueScope.run(INSIDE_QUEUE, run) : run();
  }

  /** The scope of a call: the one given (a page's stand-in), else on Crawlee 4 the storage's. */
  private scopeOf(given: EnqueueScope | undefined): EnqueueScope {
    return given ?? (this.asyncScopes ? enqueueScope.getStore() : undefined) ?? NO_SCOPE;
  }

  private async addRequest(original: QueueMethods, request: unknown, options: unknown, scope: EnqueueScope | undefined): Promise<unknown> {
    if (this.passThrough(original)) return original.addRequest(request, options);
    if (this.urlLists !== undefined && isUrlListSource(request)) {
      // One source, many requests: added as a batch, answered with the first, as Crawlee answers it.
      const kept = await this.admit([request as RequestLike], this.scopeOf(scope));
      const added = (await this.insideQueue(() => original.addRequests(kept, options))) as { processedRequests?: unknown[] } | undefined;
      return (
        added?.processedRequests?.[0] ?? {
          requestId: undefined,
          uniqueKey: request.requestsFromUrl,
          wasAlreadyPresent: true,
          wasAlreadyHandled: true,
        }
      );
    }
    const [kept] = await this.admit([request as RequestLike], this.scopeOf(scope));
    if (kept === undefined) {
      // Not added: answered the way the queue answers a request it already had and handled.
      const url = urlOf(request as RequestLike) ?? '';
      return { requestId: undefined, uniqueKey: url, wasAlreadyPresent: true, wasAlreadyHandled: true };
    }
    return this.insideQueue(() => original.addRequest(kept, options));
  }

  private async addRequests(
    original: QueueMethods,
    requests: unknown,
    options: unknown,
    scope: EnqueueScope | undefined,
  ): Promise<unknown> {
    if (this.passThrough(original) || !isIterableLike(requests)) return original.addRequests(requests, options);
    const kept = await this.admit(requests, this.scopeOf(scope));
    return this.insideQueue(() => original.addRequests(kept, options));
  }

  private addRequestsBatched(
    original: QueueMethods,
    requests: unknown,
    options: unknown,
    scope: EnqueueScope | undefined,
  ): Promise<unknown> {
    // With no budget left (`maxRequestsPerCrawl` reached), the queue adds none of them and reports
    // each as over its limit: judging them would cost a crawl near its end for every link again.
    if (this.passThrough(original) || hasNoBudget(options)) return original.addRequestsBatched(requests, options);
    return this.admitBatched(original, requests, options, scope);
  }

  private async admitBatched(
    original: QueueMethods,
    requests: unknown,
    options: unknown,
    scope: EnqueueScope | undefined,
  ): Promise<unknown> {
    // Arrays stay arrays (3.13–3.17 iterate them synchronously); iterables the release accepted
    // (3.18: async generators) are filtered lazily.
    const input = Array.isArray(requests)
      ? await this.admit(requests as RequestLike[], this.scopeOf(scope))
      : isIterableLike(requests)
        ? this.admitFrom(requests, this.scopeOf(scope))
        : requests;
    return this.insideQueue(() => original.addRequestsBatched(input, options));
  }

  /**
   * Checks a request taken from the queue. True: it may be fetched now. False: it was skipped
   * (marked handled as SKIPPED, reported) or deferred for its origin's crawl-delay. A promise only
   * when something has to be waited for (the record of a new origin, a skip's bookkeeping, a fleet's
   * clock): the check before each fetch is otherwise made without one.
   */
  private releaseForFetch(queue: RequestQueueLike, request: RequestInternals): boolean | Promise<boolean> {
    // Past the bound a missing URL may have been forgotten: a bypass is then not known, only possible.
    if (!this.admitted.has(request.url) && !this.admittedForgotten) this.noteBypass(request.url);
    const check = this.guard.checkpoints.beforeFetch(request.url, request);
    if (check instanceof Promise) return check.then((skip) => this.releaseChecked(queue, request, skip));
    return this.releaseChecked(queue, request, check);
  }

  private releaseChecked(queue: RequestQueueLike, request: RequestInternals, skip: SkipEvent | undefined): boolean | Promise<boolean> {
    if (skip !== undefined) return skipRequest(request, skip, this.skips, () => queue.markRequestHandled(request)).then(() => false);
    const { clock } = this.guard;
    const origin = safeOrigin(request.url);
    if (clock === undefined || !origin) {
      this.checkedBeforeFetch.set(request, request.url);
      return true;
    }
    // The request keeps the slot it reserved (on the fleet's clock too) while it waits, and takes
    // it when it comes back.
    const slot = clock.slotFor(origin, request.url, request.id ?? request.uniqueKey);
    if (typeof slot !== 'number') return slot.then((wait) => this.releaseAfter(queue, request, wait));
    return this.releaseAfter(queue, request, slot);
  }

  /** Releases `request` now (`wait` 0), or defers it until its slot comes. */
  private releaseAfter(queue: RequestQueueLike, request: RequestInternals, wait: number): boolean {
    if (wait > 0) {
      this.guard.stats.crawlDelayDeferrals++;
      this.pending.added();
      // The request stays locked (in progress) while it waits, so the crawl does not end; it goes
      // back to the head of the queue when its slot comes (or, past the longest timer, asks again then).
      setTimeout(() => {
        queue.reclaimRequest(request, { forefront: true }).catch((error: unknown) => {
          this.log.warning(`RobotsPlugin: could not put ${request.url} back after its crawl-delay: ${String(error)}`);
        });
      }, timerDelay(wait));
      return false;
    }
    this.checkedBeforeFetch.set(request, request.url);
    return true;
  }

  /**
   * The requests of `items` the guard allows, in order; skips are reported. An array (what
   * `enqueueLinks` hands over) is judged in batches, without a promise per request. Requests this
   * plugin admitted before (the queue's inner calls) pass as they are.
   */
  private async admit(items: Iterable<RequestLike> | AsyncIterable<RequestLike>, scope: EnqueueScope): Promise<RequestLike[]> {
    const kept: RequestLike[] = [];
    if (!Array.isArray(items)) {
      for await (const item of this.admitFrom(items, scope)) kept.push(item);
      return kept;
    }
    const size = this.guard.options.prefetchBatchSize;
    let context: FilterContext | undefined;
    let batch: RequestLike[] = [];
    const judge = async () => {
      context ??= filterContext(scope);
      for (const item of await this.guard.filter.filterBatch(batch, context)) kept.push(this.countAdmitted(item));
      batch = [];
    };
    for (const given of items as RequestLike[]) {
      if (this.urlLists !== undefined && isUrlListSource(given)) {
        for (const listed of await this.expanded(given)) {
          batch.push(listed);
          if (batch.length >= size) await judge();
        }
        continue;
      }
      const item = asObject(given);
      const known = this.knownItem(item, scope);
      if (known === undefined) {
        batch.push(item);
        if (batch.length >= size) await judge();
        continue;
      }
      if (batch.length > 0) await judge();
      kept.push(known);
    }
    if (batch.length > 0) await judge();
    return kept;
  }

  /**
   * `item` as it is admitted without a check (admitted before: as it is; judged before: counted
   * now), or `undefined` when it is to be judged.
   */
  private knownItem(item: RequestLike, scope: EnqueueScope): RequestLike | undefined {
    if (typeof item !== 'object' || item === null) return undefined;
    if (this.admittedItems.has(item)) return item;
    if (scope.prechecked || this.checkedItems.has(item)) return this.countAdmitted(item);
    return undefined;
  }

  /** The requests of `items` the guard allows, as they are asked for, judged with `scope`. */
  private async *admitFrom(items: Iterable<RequestLike> | AsyncIterable<RequestLike>, scope: EnqueueScope): AsyncGenerator<RequestLike> {
    const size = this.guard.options.prefetchBatchSize;
    let context: FilterContext | undefined;
    let batch: RequestLike[] = [];
    for await (const given of items) {
      const list = this.urlLists !== undefined && isUrlListSource(given);
      const item = asObject(given);
      const known = list ? undefined : this.knownItem(item, scope);
      if (known === undefined) {
        batch.push(...(list ? await this.expanded(given) : [item]));
        if (batch.length < size) continue;
      }
      if (batch.length > 0) {
        context ??= filterContext(scope);
        for (const admitted of await this.guard.filter.filterBatch(batch, context)) yield this.countAdmitted(admitted);
        batch = [];
      }
      if (known !== undefined) yield known;
    }
    if (batch.length > 0) {
      context ??= filterContext(scope);
      for (const admitted of await this.guard.filter.filterBatch(batch, context)) yield this.countAdmitted(admitted);
    }
  }

  /** Counts `item` as admitted into the queue (pending, and remembered for the bypass warning). */
  private countAdmitted(item: RequestLike): RequestLike {
    if (typeof item === 'object' && item !== null) this.admittedItems.add(item);
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
  // Fields set one by one rather than spread in: made once a page, mostly by unoptimised code.
  const context: { -readonly [K in keyof FilterContext]: FilterContext[K] } = { stage: 'enqueue' };
  if (scope.referrer !== undefined) context.referrer = scope.referrer;
  if (scope.page) context.page = scope.page;
  if (scope.alsoNotify) context.alsoNotify = scope.alsoNotify;
  return context;
}

/**
 * Whether an `addRequestsBatched` call may add no request at all: `maxNewRequests: 0`, which
 * `enqueueLinks` passes once the crawler's `maxRequestsPerCrawl` is used up (3.18 and 4.x; earlier
 * releases cut the list before the call). The queue then adds nothing and reports every request
 * as over its limit.
 */
function hasNoBudget(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { maxNewRequests?: unknown }).maxNewRequests === 0;
}

/** A URL string as the request object the queue would make of it, so that it is known when handed on. */
function asObject(item: RequestLike): RequestLike {
  return typeof item === 'string' ? { url: item } : item;
}

function isIterableLike(value: unknown): value is Iterable<RequestLike> | AsyncIterable<RequestLike> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
      typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  );
}
