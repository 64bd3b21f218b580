/**
 * The one way the command line builds a `RobotsManager`: from the options the flags stand for, and
 * with a log that drops everything, because the command prints its own account of each fetch (a
 * warning on stderr would only repeat it, and would break `--json` readers that merge the streams).
 */
import { RobotsManager, type Log, type RobotsManagerOptions } from '@heed/manager';

const silent: Log = Object.freeze({
  debug() {},
  info() {},
  warning() {},
  error() {},
});

/** A manager that fetches and judges as a crawler configured with `options` would; close it after use. */
export function openManager(options: RobotsManagerOptions): RobotsManager {
  return new RobotsManager({ ...options, log: silent });
}
