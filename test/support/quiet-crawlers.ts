/**
 * Crawlers in tests log warnings and errors only: a whole run's INFO lines (each crawl's start,
 * statistics and summary) would bury what a failing test says. A test about the log sets the level
 * it reads, or spies on the logger's methods, which see every call whatever the level. The level is
 * set on `@crawlee/core`'s log (the `@apify/log` instance every crawler's log is a child of), loaded
 * from @heed/crawlee's own dependencies as test/crawlee/site.ts loads Crawlee.
 */
import { createRequire } from 'node:module';

const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
// `@apify/log` itself rather than `@crawlee/core`: the same instance, loaded in a tenth of the time.
const apifyLog = createRequire(crawleeRequire.resolve('@crawlee/core'))('@apify/log') as {
  default: Pick<import('@crawlee/core').Log, 'setLevel'>;
  LogLevel: typeof import('@crawlee/core').LogLevel;
};
apifyLog.default.setLevel(apifyLog.LogLevel.WARNING);
