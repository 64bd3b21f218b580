/**
 * The sitemap budget. One {@link SitemapBudget} per plugin bounds the work of all origins together:
 * how many sitemap files are open at once (each holds at most a few stream chunks and the parser's
 * bounded buffers, so this caps the bytes in flight and decompressed), how many bytes of parsed
 * URLs wait for room in the crawler's queue, and how many bytes the readings hold to remember what
 * they have seen (sitemap files queued or read, URLs read), each origin's within its own bound too
 * ({@link HeldBytes}). Waiting frees buffered URLs (the crawler takes them); nothing frees what a
 * reading remembers but its end, so there an item beyond the bound is dropped, not waited for.
 * Per origin, a {@link Clock} runs the origin's total time budget and each file's timeout and stall
 * window; it is paused while the feeder waits on the crawler (back-pressure), because then the
 * crawl has work and is not waiting on sitemaps.
 */

/** A pausable countdown: fires once when `ms` of running time have passed. */
export class Countdown {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(
    ms: number,
    private readonly onExpire: () => void,
    running: boolean,
    /** Called once when the countdown expires or is stopped. */
    private readonly onDone: () => void = () => {},
  ) {
    this.remaining = ms;
    if (running) this.resume();
  }

  pause(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining -= performance.now() - this.startedAt;
  }

  resume(): void {
    if (this.done || this.timer !== undefined) return;
    this.startedAt = performance.now();
    this.timer = setTimeout(
      () => {
        this.done = true;
        this.timer = undefined;
        this.onDone();
        this.onExpire();
      },
      Math.max(0, this.remaining),
    );
    // A countdown never keeps the process alive on its own.
    this.timer.unref?.();
  }

  stop(): void {
    this.pause();
    if (this.done) return;
    this.done = true;
    this.onDone();
  }
}

/** The countdowns of one origin's sitemap work, paused and resumed together. */
export class Clock {
  private readonly countdowns = new Set<Countdown>();
  private paused = false;

  /** A countdown that runs while this clock runs; `stop()` it when done. */
  countdown(ms: number, onExpire: () => void): Countdown {
    const countdown: Countdown = new Countdown(ms, onExpire, !this.paused, () => this.countdowns.delete(countdown));
    this.countdowns.add(countdown);
    return countdown;
  }

  /** Stops every countdown's time from running (the wait that follows is not sitemap work). */
  pause(): void {
    this.paused = true;
    for (const c of this.countdowns) c.pause();
  }

  resume(): void {
    this.paused = false;
    for (const c of this.countdowns) c.resume();
  }
}

export interface SitemapBudgetLimits {
  /** Sitemap files read at once, across all origins. */
  readonly maxConcurrentFetches: number;
  /** Bytes of parsed sitemap URLs waiting for room in the crawler's queue, across all origins. */
  readonly maxBufferedBytes: number;
  /** Bytes the readings of all origins hold to remember what they have seen. Default: no bound. */
  readonly maxHeldBytes?: number;
}

/** The budget shared by every origin of one plugin: open files, buffered URL bytes, held bytes. */
export class SitemapBudget {
  private fetching = 0;
  private buffered = 0;
  private held = 0;
  private readonly fetchWaiters: (() => void)[] = [];
  private byteWaiters: (() => void)[] = [];

  constructor(readonly limits: SitemapBudgetLimits) {}

  /** Files being read, URL bytes buffered and bytes held right now. */
  usage(): { readonly fetching: number; readonly bufferedBytes: number; readonly heldBytes: number } {
    return { fetching: this.fetching, bufferedBytes: this.buffered, heldBytes: this.held };
  }

  /** Counts `bytes` as held when they fit under `maxHeldBytes`; `false` (nothing counted) when not. */
  tryHold(bytes: number): boolean {
    if (this.held + bytes > (this.limits.maxHeldBytes ?? Infinity)) return false;
    this.held += bytes;
    return true;
  }

  releaseHeld(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /**
   * Waits for a fetch slot; resolves to its release function, or to `undefined` when `signal`
   * aborted first.
   */
  async acquireFetch(signal?: AbortSignal): Promise<(() => void) | undefined> {
    while (this.fetching >= this.limits.maxConcurrentFetches && !signal?.aborted) {
      await waitFor(this.fetchWaiters, signal);
    }
    if (signal?.aborted) {
      // A wake-up this waiter received goes to the next one.
      if (this.fetching < this.limits.maxConcurrentFetches) this.fetchWaiters.shift()?.();
      return undefined;
    }
    this.fetching++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.fetching--;
      this.fetchWaiters.shift()?.();
    };
  }

  /**
   * Reserves `bytes` of buffer for parsed URLs, waiting while the buffer is full (one reservation
   * always fits in an empty buffer, so a long URL cannot stall for good). Resolves `false` when
   * `signal` aborted first.
   */
  async reserveBytes(bytes: number, signal?: AbortSignal): Promise<boolean> {
    while (this.buffered > 0 && this.buffered + bytes > this.limits.maxBufferedBytes) {
      if (signal?.aborted) return false;
      await waitFor(this.byteWaiters, signal);
    }
    if (signal?.aborted) return false;
    this.buffered += bytes;
    return true;
  }

  releaseBytes(bytes: number): void {
    this.buffered = Math.max(0, this.buffered - bytes);
    // Every waiter re-checks: several small reservations may fit now.
    const waiters = this.byteWaiters;
    this.byteWaiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * What one origin's sitemap reading remembers, in bytes, within its own bound and the plugin's
 * {@link SitemapBudget}: an item is remembered only when {@link tryHold} says both have room, and
 * everything is given back at once when the reading ends ({@link releaseAll}).
 */
export class HeldBytes {
  private held = 0;

  constructor(
    readonly maxBytes: number,
    private readonly budget?: SitemapBudget,
  ) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /** Counts `bytes` as held when both bounds allow; `false` (nothing counted) when not. */
  tryHold(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    if (this.budget && !this.budget.tryHold(bytes)) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back everything held: the reading has ended, and what it remembered with it. */
  releaseAll(): void {
    this.budget?.releaseHeld(this.held);
    this.held = 0;
  }
}

/** Resolves when woken through `waiters` or when `signal` aborts. */
function waitFor(waiters: (() => void)[], signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      const i = waiters.indexOf(wake);
      if (i >= 0) waiters.splice(i, 1);
      resolve();
    };
    waiters.push(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
