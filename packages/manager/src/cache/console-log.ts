/**
 * The default log: warnings and errors to the console, debug and info dropped, so problems that
 * change crawl behaviour (Redis down) are seen even when no `log` was passed. One line per event,
 * the data as JSON on the same line (as Crawlee's log writes it), so a log reader can grep it.
 */
import type { Log } from './store.js';

export const consoleLog: Log = Object.freeze({
  debug() {},
  info() {},
  warning(message: string, data?: Record<string, unknown>) {
    console.warn(`[heed] WARN ${message}${dataText(data)}`);
  },
  error(message: string, data?: Record<string, unknown>) {
    console.error(`[heed] ERROR ${message}${dataText(data)}`);
  },
});

function dataText(data: Record<string, unknown> | undefined): string {
  if (data === undefined) return '';
  try {
    return ` ${JSON.stringify(data)}`;
  } catch {
    // A value JSON cannot write (a cycle, a BigInt): the keys still say what was there.
    return ` {${Object.keys(data).join(', ')}}`;
  }
}
