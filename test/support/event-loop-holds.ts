/**
 * How late a loopback site's stamps can come. The site stamps a request when this process's event
 * loop reads it, and the crawler under test shares that loop: a stamp comes late by as long as the
 * loop was held, and the gap after it looks that much shorter. A lower bound on a gap less the
 * longest hold seen stays a bound on the crawler, not on the machine's load; without the wait it
 * bounds, the gaps are a few milliseconds, far below.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Starts watching the event loop; `longestMs()` is its longest hold since, `stop()` ends the watch. */
export function watchEventLoop(): { longestMs(): number; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return { longestMs: () => histogram.max / 1e6, stop: () => histogram.disable() };
}
