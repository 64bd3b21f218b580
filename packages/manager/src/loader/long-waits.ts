/**
 * A line when loading a file keeps callers waiting: a robots.txt that hangs holds every check of its
 * origin for up to `timeoutSecs`, and without a word the crawl looks stuck. Once a load has run
 * {@link FIRST_REPORT_MS}, and every {@link REPORT_EVERY_MS} after, one info line says which file,
 * for how long, how many calls wait on it, and what it waits on (its fetch, under the timeout, and
 * the fetch slots: a full queue means it waits for a slot first).
 */
import type { Log } from '../cache/store.js';

/** Waits shorter than this are normal fetches: no line. */
export const FIRST_REPORT_MS = 5_000;
/** Then a line this often while the wait lasts. */
export const REPORT_EVERY_MS = 15_000;

/** The fetch slots, as the manager's queue counts them. */
export interface SlotCounts {
  /** Fetches running. */
  readonly pending: number;
  /** Fetches waiting for a slot. */
  readonly size: number;
}

interface Wait {
  readonly since: number;
  waiters: number;
  timer: NodeJS.Timeout;
}

export class LongWaits {
  private readonly waits = new Map<string, Wait>();

  /** `urlOf` gives the file's URL for an origin (`https://x/robots.txt`). */
  constructor(
    private readonly urlOf: (origin: string) => string,
    private readonly timeoutMs: number,
    private readonly slots: SlotCounts,
    private readonly log: Log,
  ) {}

  /** A load of `origin`'s file started (`key` names the load). */
  started(key: string, origin: string): void {
    const wait: Wait = { since: Date.now(), waiters: 0, timer: setTimeout(() => this.report(key, origin), FIRST_REPORT_MS) };
    // A wait report must never keep a process alive.
    wait.timer.unref();
    this.waits.set(key, wait);
  }

  /** One more call waits on the load of `key`. */
  joined(key: string): void {
    const wait = this.waits.get(key);
    if (wait !== undefined) wait.waiters++;
  }

  /** The load of `key` settled. */
  ended(key: string): void {
    const wait = this.waits.get(key);
    if (wait === undefined) return;
    clearTimeout(wait.timer);
    this.waits.delete(key);
  }

  private report(key: string, origin: string): void {
    const wait = this.waits.get(key);
    if (wait === undefined) return;
    const secs = Math.round((Date.now() - wait.since) / 1000);
    const calls = wait.waiters === 1 ? '1 call' : `${wait.waiters} calls`;
    const verb = wait.waiters === 1 ? 'waits' : 'wait';
    const running = `${this.slots.pending} fetch${this.slots.pending === 1 ? '' : 'es'} running`;
    const queued = this.slots.size > 0 ? `, ${this.slots.size} queued for a fetch slot` : '';
    this.log.info(
      `waiting ${secs} s for ${this.urlOf(origin)}: ${calls} for ${origin} ${verb} on it (fetch timeout ${this.timeoutMs / 1000} s; ${running}${queued})`,
    );
    wait.timer = setTimeout(() => this.report(key, origin), REPORT_EVERY_MS);
    wait.timer.unref();
  }
}
