/**
 * Reporting a skip, the one sequence every hook follows: count it (`plugin.stats`), log it the first
 * time (`logSkips`), hand it to the user's `onSkip`, and, where the URL was a Crawlee request, to Crawlee's `onSkippedRequest`.
 */
import type { SkipEvent } from './skip-events.js';
import type { SkipLog } from './skip-log.js';
import type { PluginStats } from './stats.js';

/** Everything needed to report skips, shared by the hooks of one attached crawler. */
export class Skips {
  /** Told of every skip first (option `records`). */
  recorder: { skipped(event: SkipEvent): void } | undefined;

  constructor(
    private readonly stats: PluginStats,
    private readonly onSkip: ((event: SkipEvent) => void | Promise<void>) | undefined,
    /** Crawlee's skip path (`handleSkippedRequest`, 3.13.8+), which calls the user's `onSkippedRequest`. */
    private readonly notifyCrawlee: (url: string) => Promise<void>,
    private readonly logError: (message: string, error: unknown) => void,
    /** The line per skipped URL (option `logSkips`). */
    private readonly skipLog?: SkipLog,
  ) {}

  /** Counts the skip and tells the user: the plugin's `onSkip`, and Crawlee's `onSkippedRequest` for Crawlee requests. */
  async report(event: SkipEvent): Promise<void> {
    this.recorder?.skipped(event);
    const first = this.stats.countSkip(event);
    this.skipLog?.write(event, first);
    if (this.onSkip) {
      try {
        await this.onSkip(event);
      } catch (error) {
        // A throwing callback must not turn a skip into a failed request.
        this.logError('RobotsPlugin: the onSkip callback threw', error);
      }
    }
    // Sub-resources and sendRequest() calls are not Crawlee requests: Crawlee has nothing to be told.
    if (event.stage !== 'subresource' && event.stage !== 'send-request') await this.notifyCrawlee(event.url);
  }
}
