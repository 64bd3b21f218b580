/**
 * The sitemap budget. One {@link SitemapBudget} per plugin bounds the work of all origins together:
 * how many sitemap files are open at once (each holds at most a few stream chunks and the parser's
 * bounded buffers, so this caps the bytes in flight and decompressed) and how many bytes of parsed
 * URLs wait for room in the crawler's queue. Per origin, a {@link Clock} runs the origin's total time
 * budget and each file's timeout; it is paused while the feeder waits on the crawler (back-pressure),
 * because then the crawl has work and is not waiting on sitemaps.
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
}

/** The budget shared by every origin of one plugin: open files and buffered URL bytes. */
export class SitemapBudget {
  private fetching = 0;
  private buffered = 0;
  private readonly fetchWaiters: (() => void)[] = [];
  private byteWaiters: (() => void)[] = [];

  constructor(readonly limits: SitemapBudgetLimits) {}

  /** Files being read and URL bytes buffered right now. */
  usage(): { readonly fetching: number; readonly bufferedBytes: number } {
    return { fetching: this.fetching, bufferedBytes: this.buffered };
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
