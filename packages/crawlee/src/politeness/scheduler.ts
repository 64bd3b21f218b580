/**
 * Crawl-delay per origin. A request whose origin was fetched less than `delay` ago is not held in
 * a task slot (that would hold back every other origin): the scheduler answers how long it must
 * wait, and the crawler puts it back into the queue for that long, the way Crawlee's own
 * `sameDomainDelaySecs` does. Slots are handed out in order, so ten waiting requests of one origin
 * leave at `delay` intervals instead of all retrying at once. Right before a request leaves,
 * {@link CrawlDelayScheduler.claimSend} keeps the gap from the last one really sent, and a page
 * answered `429`/`503` pauses its origin ({@link CrawlDelayScheduler.pause}).
 *
 * This is the clock of one process. With a store that keeps a crawl clock for the fleet
 * (`RedisStore`), the guard asks the store first and this clock decides only while the store cannot
 * answer (see `politeness/shared-slots.ts`).
 */
import { MAX_TIMER_MS } from '../timers.js';

/** What the scheduler keeps of one origin. */
interface OriginClock {
  /** The crawl-delay in ms, once known (from robots.txt, via the manager). */
  delayMs: number | undefined;
  /** Start time of the last fetch granted (or reserved) for the origin. */
  lastSlot: number | undefined;
  /** When its last fetch really started (see {@link CrawlDelayScheduler.claimSend}). */
  lastStart: number | undefined;
  /** No fetch before this time (a `Retry-After`, see {@link CrawlDelayScheduler.pause}). */
  pausedUntil: number | undefined;
}

/**
 * Origins kept at most (a bound on memory in a broad crawl) once their delay has run out: past
 * it, the least recently used such origin is forgotten. An origin still inside its delay (its last
 * slot, granted or reserved, less than its delay ago or still ahead) is never forgotten, so the
 * bound is soft: this many plus the origins fetched within the last `maxCrawlDelaySecs`. A
 * forgotten origin's delay is asked for again (from the manager's cache) before its next request
 * is let go, so forgetting never lets two fetches of an origin out closer than its delay.
 */
export const MAX_IDLE_ORIGINS = 10_000;
/** Oldest origins looked at per new origin past the bound (keeps each call O(1)). */
const EVICTION_SCAN = 8;

export class CrawlDelayScheduler {
  /** origin → its clock, least recently used first (Map order; moved to the end on use). */
  private readonly clocks = new Map<string, OriginClock>();
  /** request key → the slot reserved for it. */
  private readonly reserved = new Map<string, number>();
  /** Counts what may end an origin's "no delay, no pause": a delay set, a pause, an origin forgotten. */
  private changes = 0;
  /** The origin {@link acquire} last let go at once for having no delay and no pause, and the {@link changes} it was at. */
  private lastFree = '';
  private lastFreeAt = -1;

  constructor(
    private readonly maxDelayMs: number,
    private readonly maxIdleOrigins = MAX_IDLE_ORIGINS,
  ) {}

  /** Origins whose clock is kept (see {@link MAX_IDLE_ORIGINS}). */
  get size(): number {
    return this.clocks.size;
  }

  /** Whether the crawl-delay of `origin` is known (else ask the manager and {@link setDelay} it before its fetch). */
  knows(origin: string): boolean {
    return this.clocks.get(origin)?.delayMs !== undefined;
  }

  /** Records the crawl-delay of an origin (seconds; `undefined` or 0: none). `now` is the time {@link acquire} is given. */
  setDelay(origin: string, seconds: number | undefined, now = Date.now()): void {
    this.changes++;
    const ms = seconds === undefined || !Number.isFinite(seconds) || seconds <= 0 ? 0 : Math.min(seconds * 1000, this.maxDelayMs);
    this.clockOf(origin, now).delayMs = ms;
    if (ms > 0) this.holdsBack = true;
  }

  /**
   * Whether any origin has had a crawl-delay or a pause: until then no request is ever held back at
   * its send, and the hooks around the send have nothing to do.
   */
  holdsBack = false;

  /** The crawl-delay of `origin` in ms as in force (capped), once known. */
  delayOf(origin: string): number | undefined {
    return this.clocks.get(origin)?.delayMs;
  }

  /**
   * Holds `origin` back until `until` (a page answered `429` or `503`): no slot is given and no
   * request let go before then, reserved ones included. A later pause already set is kept.
   */
  pause(origin: string, until: number, now = Date.now()): void {
    this.changes++;
    const clock = this.clockOf(origin, now);
    clock.pausedUntil = Math.max(clock.pausedUntil ?? until, until);
    this.holdsBack = true;
  }

  /**
   * A request to `origin` is about to leave (the last step before it goes on the wire): 0 when it
   * may go, and it counts as the origin's last fetch from now; else the milliseconds to wait before
   * asking again (the last fetch started less than the delay ago, later than its slot said, or the
   * origin is paused). Slots space requests out; this keeps the gap when one leaves late.
   */
  claimSend(origin: string, now: number): number {
    const clock = this.clocks.get(origin);
    if (clock === undefined) return 0;
    const wait = sendWaitOf(clock, now);
    if (wait > 0) return wait;
    if ((clock.delayMs ?? 0) > 0) clock.lastStart = Math.max(clock.lastStart ?? now, now);
    return 0;
  }

  /**
   * The milliseconds before a request to `origin` may leave by this clock (0: now): a delay after
   * the last fetch that really started, and a pause. Records nothing, unlike {@link claimSend}: with
   * a fleet's clock the store claims the send, and this process's clock only holds back what it
   * knows and the store may have lost.
   */
  sendWait(origin: string, now: number): number {
    const clock = this.clocks.get(origin);
    return clock === undefined ? 0 : sendWaitOf(clock, now);
  }

  /** The milliseconds until the pause of `origin` ends (0: none in force). */
  pauseLeft(origin: string, now: number): number {
    const until = this.clocks.get(origin)?.pausedUntil;
    return until === undefined || until <= now ? 0 : until - now;
  }

  /**
   * Whether a request to `origin` may go now without asking {@link acquire}: it is the origin last
   * let go at once, and no delay, pause or forgetting happened since. A crawl's requests come in
   * runs of one origin, and this spares each the clock's map lookups (in a crawl's busy heap a
   * lookup by a new string costs about a microsecond). A request that reserved a slot back when
   * its origin had a delay may then go without handing the reservation back: the delay is gone,
   * and the reservation is dropped past the bound.
   */
  goesAtOnce(origin: string): boolean {
    return origin === this.lastFree && this.changes === this.lastFreeAt;
  }

  /**
   * Asks to fetch `origin` now for the request `key`. Returns 0 when it may go (the slot is taken),
   * else the milliseconds to wait before asking again (a later slot is reserved for `key`). A slot
   * is also never sooner than `delay` after the origin's last fetch really started (see
   * {@link claimSend}): on a busy machine a request let go at t may reach the site well after t.
   */
  acquire(origin: string, key: string, now: number): number {
    // Most origins have no delay and no pause: such a request goes now. Its clock is always idle
    // (forgetting it costs a second look at the manager's cache), so it is not moved to the recent end.
    const known = this.clocks.get(origin);
    if (known !== undefined && known.delayMs === 0 && (known.pausedUntil ?? -Infinity) <= now && !this.reserved.has(key)) {
      known.lastSlot = now;
      this.lastFree = origin;
      this.lastFreeAt = this.changes;
      return 0;
    }
    const clock = this.clockOf(origin, now);
    const delay = clock.delayMs ?? 0;
    const earliest = Math.max(clock.lastStart === undefined ? -Infinity : clock.lastStart + delay, clock.pausedUntil ?? -Infinity);
    const slot = this.reserved.get(key);
    if (slot !== undefined) {
      const due = Math.max(slot, earliest);
      if (now >= due) {
        this.reserved.delete(key);
        return 0;
      }
      return due - now;
    }
    const last = clock.lastSlot;
    const free = Math.max(last === undefined ? now : last + delay, earliest);
    if (now >= free) {
      clock.lastSlot = now;
      return 0;
    }
    // A reservation forgotten past the bound only loses its place: its request, back at its slot,
    // takes the next free one after the origin's last (never an earlier one).
    if (this.reserved.size >= MAX_RESERVED) this.reserved.delete(this.reserved.keys().next().value as string);
    this.reserved.set(key, free);
    clock.lastSlot = free;
    return free - now;
  }

  /**
   * Gives up the slot reserved for `key` (its request will not come back for it). The origin's
   * next free slot stays where it was: a slot given up makes later requests wait longer, never less.
   */
  cancel(key: string): void {
    this.reserved.delete(key);
  }

  /**
   * A request to `origin` left at `now`, seen closer to the wire than {@link claimSend} (a browser's
   * interception of a page's first request, which may go out long after the pre-navigation hooks
   * while the browser starts; an HTTP request's upload time, known once its answer is in): later
   * slots count from here when it is later. An origin without a clock has no delay.
   */
  sent(origin: string, now: number): void {
    const clock = this.clocks.get(origin);
    if (clock !== undefined) clock.lastStart = Math.max(clock.lastStart ?? now, now);
  }

  /** The clock of `origin`, made the most recently used (a new one past the bound evicts idle ones). */
  private clockOf(origin: string, now: number): OriginClock {
    let clock = this.clocks.get(origin);
    if (clock !== undefined) {
      this.clocks.delete(origin);
    } else {
      clock = { delayMs: undefined, lastSlot: undefined, lastStart: undefined, pausedUntil: undefined };
      if (this.clocks.size >= this.maxIdleOrigins) this.evictIdle(now);
    }
    this.clocks.set(origin, clock);
    return clock;
  }

  /**
   * Forgets the least recently used origin whose delay has run out. An origin inside its delay is
   * moved to the end instead: forgetting it would let its next fetch go out early.
   */
  private evictIdle(now: number): void {
    for (let looked = 0; looked < EVICTION_SCAN; looked++) {
      const oldest = this.clocks.entries().next().value;
      if (oldest === undefined) return;
      const [origin, clock] = oldest;
      this.changes++;
      this.clocks.delete(origin);
      if (idle(clock, now)) return;
      this.clocks.set(origin, clock);
    }
  }
}

/** The milliseconds before a request may leave by `clock`: its delay after the last fetch that started, and its pause. */
function sendWaitOf(clock: OriginClock, now: number): number {
  const due = Math.max(clock.lastStart === undefined ? -Infinity : clock.lastStart + (clock.delayMs ?? 0), clock.pausedUntil ?? -Infinity);
  return now < due ? due - now : 0;
}

/** Whether forgetting `clock` cannot let a fetch of its origin out earlier than its delay allows. */
function idle(clock: OriginClock, now: number): boolean {
  const delay = clock.delayMs ?? 0;
  return (
    (clock.lastSlot === undefined || now >= clock.lastSlot + delay) &&
    (clock.lastStart === undefined || now >= clock.lastStart + delay) &&
    (clock.pausedUntil === undefined || now >= clock.pausedUntil)
  );
}

/** Requests waiting for a reserved slot, at most (the oldest reservation is forgotten first). */
const MAX_RESERVED = 100_000;

/**
 * A wait as a timer can hold it. Node fires a longer timer after 1 ms, so a long queue of one
 * origin's requests at a long crawl-delay would turn into a busy re-queue loop; capped,
 * the request asks again when it wakes and keeps its reserved slot.
 */
export function timerDelay(waitMs: number): number {
  return Math.min(Math.max(0, waitMs), MAX_TIMER_MS);
}
