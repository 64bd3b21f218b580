/**
 * The manager's log when the plugin creates the manager: the crawler's own log, so Heed's robots.txt
 * fetches and store trouble read like the rest of the crawl, one line per event, `RobotsPlugin:`
 * first. The data goes on the same line, as Crawlee's log writes it.
 */
import type { Log } from '@heed/manager';

/** `log`: the crawler's own (`crawler.log`), which has the manager's `Log` methods. */
export function managerLogOf(log: Log): Log {
  return {
    debug: (message, data) => log.debug(`RobotsPlugin: ${message}`, data),
    info: (message, data) => log.info(`RobotsPlugin: ${message}`, data),
    warning: (message, data) => log.warning(`RobotsPlugin: ${message}`, data),
    error: (message, data) => log.error(`RobotsPlugin: ${message}`, data),
  };
}
