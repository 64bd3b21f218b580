/**
 * Crawl-delay and `Retry-After` kept for a fleet: the crawl clock of the manager's store
 * (`RobotsManager.crawlClock()`, `RedisStore`), asked before the process's own clock. A request
 * that must wait keeps the slot it reserved (its time on the store's clock, by request key), so
 * coming back for it takes no second slot: a fleet of N processes still makes one request per
 * delay. Every answer may be "cannot tell" (the store is down): the caller's own clock then decides.
 */
import type { SharedCrawlClock } from '@heed/manager';

/** Reserved slots remembered at most (past it the oldest is forgotten, and its request takes a new slot). */
const MAX_HELD = 100_000;

export class SharedSlots {
  /** request key → the slot it reserved, on the store's clock. */
  private readonly held = new Map<string, number>();

  constructor(private readonly clock: SharedCrawlClock) {}

  /**
   * Asks for `origin`'s next slot for the request `key`: 0 when it may go now, else the
   * milliseconds to wait (the slot is kept for `key`); `undefined` when the store cannot tell.
   */
  async acquire(origin: string, key: string, delayMs: number): Promise<number | undefined> {
    const slot = await this.clock.reserveCrawlSlot(origin, delayMs, this.held.get(key)).catch(cannotTell);
    if (slot === undefined) return undefined;
    this.held.delete(key);
    if (slot.waitMs <= 0) return 0;
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value as string);
    this.held.set(key, slot.at);
    return slot.waitMs;
  }

  /** Forgets the slot of `key` (its request will not come back for it). */
  cancel(key: string): void {
    this.held.delete(key);
  }

  /** Right before a request to `origin` leaves: 0 to go (recorded), the ms to wait, or `undefined` (cannot tell). */
  claimSend(origin: string, delayMs: number): Promise<number | undefined> {
    return this.clock.claimCrawlSend(origin, delayMs).catch(cannotTell);
  }

  /** A request to `origin` was written `agoMs` ago (see `RobotsStore.confirmCrawlSend`). */
  confirmSend(origin: string, delayMs: number, agoMs: number): Promise<boolean> {
    return this.clock.confirmCrawlSend(origin, delayMs, agoMs).catch(() => false);
  }

  /** Pauses `origin` for the fleet for `pauseMs`. Resolves to whether the store recorded it. */
  pause(origin: string, pauseMs: number): Promise<boolean> {
    return this.clock.pauseOrigin(origin, pauseMs).catch(() => false);
  }
}

/**
 * A store's clock that throws (a custom store; `RedisStore` answers `undefined` itself while Redis
 * is down) cannot tell either: the process's own clock decides, and the crawl goes on.
 */
function cannotTell(): undefined {
  return undefined;
}
