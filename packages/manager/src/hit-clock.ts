/**
 * The clock of the cache-hit path. A warm check is a string match, a map lookup and a rule match;
 * on virtual machines `Date.now()` costs as much as a good part of that (about 60 ns here), so hits
 * read a time that a timer advances instead, re-read every so many hits as well, so that a long
 * run of checks that never yields to timers still sees time pass.
 */
export class HitClock {
  private current = Date.now();
  private reads = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  /** `resolutionMs`: how often the timer advances the clock. */
  constructor(readonly resolutionMs: number) {
    this.timer = setInterval(() => {
      this.current = Date.now();
    }, resolutionMs);
    // The clock must never keep a process alive.
    this.timer.unref();
  }

  /**
   * Whether `deadline` (ms since the epoch) is still ahead. Errs towards "passed": an entry is
   * let go up to `resolutionMs` early, never kept late while timers run.
   */
  before(deadline: number): boolean {
    if ((++this.reads & READS_PER_READING) === 0) this.current = Date.now();
    return this.current + this.resolutionMs < deadline;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The clock is read for real at least once per this many hits (plus one: a bit mask). */
const READS_PER_READING = 1023;
