/**
 * The default log: warnings and errors to the console, debug and info dropped, so problems that
 * change crawl behaviour (Redis down) are seen even when no `log` was passed.
 */
import type { Log } from './store.js';

export const consoleLog: Log = Object.freeze({
  debug() {},
  info() {},
  warning(message: string, data?: Record<string, unknown>) {
    console.warn(`[heed] WARN ${message}`, data ?? '');
  },
  error(message: string, data?: Record<string, unknown>) {
    console.error(`[heed] ERROR ${message}`, data ?? '');
  },
});
