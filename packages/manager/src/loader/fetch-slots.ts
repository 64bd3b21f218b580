/**
 * The manager's fetch slots: at most `concurrency` fetches run at once, over every origin and kind
 * of file; the others wait their turn in the order they came. A counter and a line of waiters, not
 * a general task queue: every new origin passes through here once, a broad crawl a million times.
 */
import type { SlotCounts } from './long-waits.js';

interface Waiter {
  readonly wake: () => void;
  cancelled: boolean;
}

export class FetchSlots implements SlotCounts {
  private running = 0;
  private waiting: Waiter[] = [];
  /** The first waiter of `waiting` still in line (those before it were woken or cancelled). */
  private head = 0;
  private cancelledInLine = 0;

  constructor(private readonly concurrency: number) {}

  /** Fetches running. */
  get pending(): number {
    return this.running;
  }

  /** Fetches waiting for a slot. */
  get size(): number {
    return this.waiting.length - this.head - this.cancelledInLine;
  }

  /**
   * Runs `task` once a slot is free, and frees the slot when it settles. `signal` aborted before
   * the task starts rejects with its reason; a running task is the signal's to end.
   */
  async add<T>(task: () => Promise<T>, { signal }: { readonly signal?: AbortSignal } = {}): Promise<T> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) this.running++;
    else await this.slot(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Waits in line; the slot is handed over already counted (see `release()`). */
  private slot(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        waiter.cancelled = true;
        this.cancelledInLine++;
        const reason: unknown = signal?.reason;
        reject(reason instanceof Error ? reason : new Error('the fetch was aborted while waiting for a slot', { cause: reason }));
      };
      const waiter: Waiter = {
        cancelled: false,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    while (this.head < this.waiting.length) {
      const next = this.waiting[this.head++]!;
      if (next.cancelled) {
        this.cancelledInLine--;
        continue;
      }
      this.compact();
      // The slot passes to the waiter: `running` stays as it is.
      next.wake();
      return;
    }
    this.compact();
    this.running--;
  }

  /** Drops the woken and cancelled waiters at the front once they are most of the line. */
  private compact(): void {
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
      return;
    }
    if (this.head < 1024 || this.head * 2 < this.waiting.length) return;
    this.waiting = this.waiting.slice(this.head);
    this.head = 0;
  }
}
