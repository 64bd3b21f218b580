/**
 * The crawl clock of one attached crawler: every door that sends a request to a site asks it the
 * same way, so `Crawl-delay` and `Retry-After` hold for pages, redirect hops, popups and Heed's own
 * sitemap fetches alike.
 *
 * - {@link CrawlClock.slotFor}: a page leaving the queue takes its origin's next slot, or learns how
 *   long to wait (it then goes back to the queue and holds no task slot);
 * - {@link CrawlClock.awaitHop}: a request already under way (a redirect hop, a browser's popup)
 *   cannot go back to the queue, so it waits here for its slot, then claims its send;
 * - {@link CrawlClock.beforeSend}: the last step before any request leaves keeps the gap from the
 *   last one really sent (a request may leave a while after its slot on a busy machine);
 * - {@link CrawlClock.confirmSent}: once the answer is in, the real send time moves the clock;
 * - {@link CrawlClock.pause}: a `429` / `503` with `Retry-After` holds the origin back.
 *
 * Each origin's delay is learnt from the manager on first sight. With a store that keeps a clock for
 * the fleet (`RedisStore`), the store decides, and this process's scheduler alone only while it
 * cannot tell; but what this process knows still holds when the store has lost it (a Redis
 * restarted empty): its own last send keeps the delay, and a pause it saw holds and is put back.
 */
import { originOf, type SharedCrawlClock } from '@heed/manager';
import { abortable, sleep } from './abort.js';
import { timerDelay, type CrawlDelayScheduler } from './scheduler.js';
import { SharedSlots } from './shared-slots.js';

/**
 * How much later this process's pause may end than the fleet's before the fleet's counts as lost:
 * the store's copy ends a few ms earlier or later as the two clocks read it (set after this
 * process's, read before it, in whole ms), and a pause lost to a Redis restart is seconds.
 */
const LOST_PAUSE_SLACK_MS = 100;

export class CrawlClock {
  /** The crawl clock of the manager's store, shared by every process on it, if it keeps one. */
  private readonly shared: SharedSlots | undefined;
  /** Delay lookups in progress, by origin (deleted when answered: at most one per origin being asked). */
  private readonly delayLookups = new Map<string, Promise<number | undefined>>();
  /** Numbers the scheduler keys of {@link awaitSlot}'s waits (no Crawlee request id looks like them). */
  private waits = 0;

  /**
   * @param scheduler this process's clock.
   * @param fleetClock the store's clock, when the manager's store keeps one.
   * @param askDelay the crawl-delay of a URL's origin in seconds (`undefined`: none), from the manager.
   */
  constructor(
    readonly scheduler: CrawlDelayScheduler,
    fleetClock: SharedCrawlClock | undefined,
    private readonly askDelay: (url: string) => Promise<number | undefined>,
  ) {
    this.shared = fleetClock === undefined ? undefined : new SharedSlots(fleetClock);
  }

  /**
   * Whether the clock at send has nothing to do: no origin of this crawl has had a crawl-delay or
   * a pause, and no store shares a clock with other processes. The hooks around each request's send
   * then return at once.
   */
  get idle(): boolean {
    return this.shared === undefined && !this.scheduler.holdsBack;
  }

  /**
   * Whether a request to `origin` may go now, its delay known and nothing held back (this process's
   * clock, the last origin it let go at once: see `CrawlDelayScheduler.goesAtOnce`). Never with a
   * fleet's clock, which another process may have paused.
   */
  goesAtOnce(origin: string): boolean {
    return this.shared === undefined && this.scheduler.goesAtOnce(origin);
  }

  /**
   * Asks the manager for the crawl-delay of `origin` unless the scheduler knows it (it forgets idle
   * origins past its bound): `undefined` when known, else the lookup, which records the delay and
   * resolves to it. Called on first sight of an allowed URL, so the delay is known by its fetch.
   */
  learnDelay(origin: string, url: string): Promise<number | undefined> | undefined {
    const { scheduler } = this;
    if (this.goesAtOnce(origin) || scheduler.knows(origin)) return undefined;
    let lookup = this.delayLookups.get(origin);
    if (lookup === undefined) {
      lookup = this.askDelay(url)
        .catch(() => undefined)
        .then((seconds) => {
          scheduler.setDelay(origin, seconds);
          return seconds;
        })
        .finally(() => this.delayLookups.delete(origin));
      this.delayLookups.set(origin, lookup);
    }
    return lookup;
  }

  /**
   * How long the request `key` for `url` (of `origin`) must wait for its crawl-delay slot: 0 when
   * it may go now (the slot is taken), else the milliseconds until its slot, reserved for `key`
   * (ask again then, with the same key). The delay is learnt first when unknown, and set again
   * right before the slot is asked for if the scheduler forgot the origin meanwhile.
   *
   * A number, not a promise, when this process's clock decides and the delay is known: the check
   * before every fetch asks, and the link-dense crawl bench pays for a promise per page.
   */
  slotFor(origin: string, url: string, key: string): number | Promise<number> {
    const learning = this.learnDelay(origin, url);
    if (learning === undefined) return this.slotOf(origin, key);
    return learning.then((seconds) => {
      if (!this.scheduler.knows(origin)) this.scheduler.setDelay(origin, seconds);
      return this.slotOf(origin, key);
    });
  }

  private slotOf(origin: string, key: string): number | Promise<number> {
    const { scheduler } = this;
    if (this.goesAtOnce(origin)) return 0;
    const delayMs = scheduler.delayOf(origin);
    if (this.shared !== undefined) return this.sharedSlot(this.shared, origin, key, delayMs);
    return scheduler.acquire(origin, key, Date.now());
  }

  private async sharedSlot(shared: SharedSlots, origin: string, key: string, delayMs: number | undefined): Promise<number> {
    const { scheduler } = this;
    let wait = await shared.acquire(origin, key, delayMs ?? 0);
    if (wait === undefined) {
      // The store could not tell: this process's clock decides, with the delay in force (set again
      // if the scheduler forgot the origin during the wait for the store).
      if (delayMs !== undefined && !scheduler.knows(origin)) scheduler.setDelay(origin, delayMs / 1000);
      return scheduler.acquire(origin, key, Date.now());
    }
    // A pause this process saw holds even when the store has lost it: Redis restarted empty, or it
    // was down when the 429 or 503 came. It is put back for the whole fleet, and the request takes
    // a slot after it.
    const pauseLeft = scheduler.pauseLeft(origin, Date.now());
    if (pauseLeft > wait + LOST_PAUSE_SLACK_MS) {
      await shared.pause(origin, pauseLeft);
      wait = (await shared.acquire(origin, key, delayMs ?? 0)) ?? wait;
    }
    return Math.max(wait, scheduler.pauseLeft(origin, Date.now()));
  }

  /** Gives up the slot reserved for `key` (its request will not come back for it). */
  cancel(key: string): void {
    this.scheduler.cancel(key);
    this.shared?.cancel(key);
  }

  /**
   * Waits for the crawl-delay of `url`'s origin, for a request that cannot be put back into the
   * queue because it is already under way (a redirect hop, a browser's popup): its slot
   * ({@link awaitSlot}), then its send ({@link beforeSend}). Call it right before the request goes
   * out. Rejects with the signal's reason when `signal` aborts first (the slot is then given up).
   */
  async awaitHop(url: string, signal?: AbortSignal): Promise<void> {
    await this.awaitSlot(url, signal);
    await this.beforeSend(url, signal);
  }

  /**
   * Waits for the crawl-delay slot of `url`'s origin: learns the origin's delay if needed, reserves
   * its next slot (after every slot already given, pages included) and resolves when it is due. The
   * caller then claims the send with {@link beforeSend} at the last step before the request leaves
   * (a sitemap fetch does it in got's last `beforeRequest` hook, after the request is built). Each
   * wait holds one timer of at most the longest a timer can wait. Rejects with the signal's reason
   * when `signal` aborts first (the slot is then given up).
   */
  async awaitSlot(url: string, signal?: AbortSignal): Promise<void> {
    const origin = originOf(url);
    if (origin === undefined) return;
    const key = `\0heed-wait:${++this.waits}`;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const slot = this.slotFor(origin, url, key);
        const wait = typeof slot === 'number' ? slot : await abortable(slot, signal);
        if (wait <= 0) return;
        await sleep(timerDelay(wait), signal);
      }
    } catch (error) {
      this.cancel(key);
      throw error;
    }
  }

  /**
   * Call right before a request to `url` goes on the wire (got's last `beforeRequest` hook, a
   * browser's last pre-navigation hook, a `BasicCrawler`'s handler): resolves once it may go, and
   * from then on the origin's crawl-delay counts from this request. It waits only when the last
   * request to the origin (of any process sharing the store) left later than its slot said, less
   * than the delay ago, or while the origin is paused by a `Retry-After`. Rejects with the signal's
   * reason when `signal` aborts first.
   */
  async beforeSend(url: string, signal?: AbortSignal): Promise<void> {
    const { scheduler } = this;
    const origin = originOf(url);
    if (origin === undefined) return;
    for (;;) {
      signal?.throwIfAborted();
      const delay = scheduler.delayOf(origin) ?? 0;
      const asked = Date.now();
      // This process's clock holds first, the fleet's or not: its own last send and a pause it saw
      // are what the store may have lost (Redis restarted empty, or down when they happened).
      let wait = scheduler.sendWait(origin, asked);
      // An origin without a delay is not asked of the store here: only a pause holds it back, and
      // the fleet's pauses were asked for with its slot.
      if (wait <= 0 && delay > 0 && this.shared !== undefined) {
        const shared = await abortable(this.shared.claimSend(origin, delay), signal);
        // Recorded as sent when it was asked: never later than the store has it, so this process's
        // clock never holds back a request the store lets go.
        if (shared === undefined) wait = scheduler.claimSend(origin, Date.now());
        else {
          wait = shared;
          if (wait <= 0) scheduler.sent(origin, asked);
        }
      } else if (wait <= 0) wait = scheduler.claimSend(origin, asked);
      if (wait <= 0) return;
      await sleep(timerDelay(wait), signal);
    }
  }

  /**
   * A request to `url` was really written to the wire at `at` (got's timings once its answer is
   * in, a browser's interception as it lets the request go): later requests of its origin, of every
   * process sharing the store, count their delay from then when that is later than its
   * {@link beforeSend}. Never rejects.
   */
  async confirmSent(url: string, at: number): Promise<void> {
    const { scheduler } = this;
    const origin = originOf(url);
    if (origin === undefined) return;
    const delay = scheduler.delayOf(origin) ?? 0;
    if (delay <= 0) return;
    scheduler.sent(origin, at);
    await this.shared?.confirmSend(origin, delay, Date.now() - at);
  }

  /**
   * Pauses `url`'s origin for `pauseMs` (a page answered `429` or `503`): in this process, and for
   * every process sharing the store when it keeps a crawl clock. Requests waiting in the queue and
   * requests about to leave both wait for it. Never throws.
   */
  async pause(url: string, pauseMs: number): Promise<void> {
    const origin = originOf(url);
    if (origin === undefined || pauseMs <= 0) return;
    this.scheduler.pause(origin, Date.now() + pauseMs);
    await this.shared?.pause(origin, pauseMs);
  }
}
