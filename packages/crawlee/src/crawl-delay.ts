/**
 * Crawl-delay per origin. A request whose origin was fetched less than `delay` ago is not held in
 * a task slot (that would hold back every other origin): the scheduler answers how long it must
 * wait, and the crawler puts it back into the queue for that long, the way Crawlee's own
 * `sameDomainDelaySecs` does. Slots are handed out in order, so ten waiting requests of one origin
 * leave at `delay` intervals instead of all retrying at once.
 */
import { MAX_TIMER_MS } from '@heed/parser/internal';

export class CrawlDelayScheduler {
  /** origin → delay in ms, once known (from robots.txt, via the manager). */
  private readonly delays = new Map<string, number>();
  /** origin → start time of the last fetch granted (or reserved) for it. */
  private readonly lastSlot = new Map<string, number>();
  /** origin → when its last fetch really started (reported by {@link started}). */
  private readonly lastStart = new Map<string, number>();
  /** request key → origin, for requests let go whose start is not reported yet. */
  private readonly granted = new Map<string, string>();
  /** request key → the slot reserved for it. */
  private readonly reserved = new Map<string, number>();

  constructor(private readonly maxDelayMs: number) {}

  /** Records the crawl-delay of an origin (seconds; `undefined` or 0: none). */
  setDelay(origin: string, seconds: number | undefined): void {
    const ms = seconds === undefined || !Number.isFinite(seconds) || seconds <= 0 ? 0 : Math.min(seconds * 1000, this.maxDelayMs);
    this.delays.set(origin, ms);
  }

  /**
   * Asks to fetch `origin` now for the request `key`. Returns 0 when it may go (the slot is taken),
   * else the milliseconds to wait before asking again (a later slot is reserved for `key`). A slot
   * is also never sooner than `delay` after the origin's last fetch really started (see
   * {@link started}): on a busy machine a request let go at t may reach the site well after t.
   */
  acquire(origin: string, key: string, now: number): number {
    const delay = this.delays.get(origin) ?? 0;
    const lastStart = this.lastStart.get(origin);
    const earliest = lastStart === undefined ? -Infinity : lastStart + delay;
    const slot = this.reserved.get(key);
    if (slot !== undefined) {
      const due = Math.max(slot, earliest);
      if (now >= due) {
        this.reserved.delete(key);
        this.grant(origin, key, delay);
        return 0;
      }
      return due - now;
    }
    const last = this.lastSlot.get(origin);
    const free = Math.max(last === undefined ? now : last + delay, earliest);
    if (now >= free) {
      this.lastSlot.set(origin, now);
      this.grant(origin, key, delay);
      return 0;
    }
    this.reserved.set(key, free);
    this.lastSlot.set(origin, free);
    return free - now;
  }

  /**
   * The request `key`, let go by {@link acquire}, is being fetched now (the crawler's last step
   * before the request leaves). Later slots of its origin count from here.
   */
  started(key: string, now: number): void {
    const origin = this.granted.get(key);
    if (origin === undefined) return;
    this.granted.delete(key);
    this.lastStart.set(origin, Math.max(this.lastStart.get(origin) ?? now, now));
  }

  /** Remembers that `key` was let go, so that its start moves the origin's clock. */
  private grant(origin: string, key: string, delay: number): void {
    // Only delayed origins need the start time; bounded so a crawler that never reports starts
    // (a custom crawler might not) cannot grow it without end.
    if (delay <= 0) return;
    if (this.granted.size >= MAX_GRANTED) this.granted.delete(this.granted.keys().next().value as string);
    this.granted.set(key, origin);
  }
}

/** Requests let go whose start is awaited, at most (the oldest is forgotten first). */
const MAX_GRANTED = 10_000;

/**
 * A wait as a timer can hold it. Node fires a longer timer after 1 ms, so a long queue of one
 * origin's requests (35,800 at a 60 s crawl-delay) would turn into a busy re-queue loop; capped,
 * the request asks again when it wakes and keeps its reserved slot.
 */
export function timerDelay(waitMs: number): number {
  return Math.min(Math.max(0, waitMs), MAX_TIMER_MS);
}
