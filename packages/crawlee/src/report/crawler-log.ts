/**
 * The lines Heed writes to the crawler's own log (`crawler.log`), one line per event, each starting
 * `RobotsPlugin:`. Many quote what came from the network (a `Sitemap:` URL of a robots.txt, a server's
 * error, a page's link): every message passes {@link printable} on its way out, here, so that no byte
 * of a site moves the cursor, retitles the terminal or forges a log line of its own.
 *
 * The manager's log, when the plugin creates the manager, is this log too: Heed's robots.txt
 * fetches and store trouble read like the rest of the crawl. The data goes on the same line, as
 * Crawlee's log writes it, its strings escaped alike.
 */
import type { Log } from '@heed/manager';
import { printable } from '@heed/parser';

type Data = Record<string, unknown> | undefined;

/** `data` with its string values escaped (Crawlee prints them as they are). */
function printableData(data: Data): Data {
  if (data === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = typeof value === 'string' ? printable(value) : value;
  return out;
}

/** `log` (the crawler's, which has the manager's `Log` methods) with every message and string of data escaped. */
export function printableLog(log: Log): Log {
  return {
    debug: (message, data) => log.debug(printable(message), printableData(data)),
    info: (message, data) => log.info(printable(message), printableData(data)),
    warning: (message, data) => log.warning(printable(message), printableData(data)),
    error: (message, data) => log.error(printable(message), printableData(data)),
  };
}

/** The manager's log: `log` (already {@link printableLog}) with `RobotsPlugin: ` first. */
export function managerLogOf(log: Log): Log {
  return {
    debug: (message, data) => log.debug(`RobotsPlugin: ${message}`, data),
    info: (message, data) => log.info(`RobotsPlugin: ${message}`, data),
    warning: (message, data) => log.warning(`RobotsPlugin: ${message}`, data),
    error: (message, data) => log.error(`RobotsPlugin: ${message}`, data),
  };
}
