/**
 * A robots store for the broad-crawl benches: it makes origin i's record up when asked, from file
 * i mod n of a pool of real robots.txt bodies (each origin its own copy, its name appended), and
 * counts its reads. No network, no fetch: what a bench then measures is the manager's alone.
 */
import { files } from './real-files.mjs';

/** A store that makes origin i's record from file i mod n of `pool` when asked, and counts its reads. */
export function madeUpStore(pool = files) {
  const now = Date.now();
  const store = {
    reads: 0,
    async get(origin) {
      store.reads++;
      const i = Number(/\d+/.exec(origin)[0]);
      const body = Buffer.concat([pool[i % pool.length], Buffer.from(`\n# ${origin}\n`)]);
      return {
        version: 1,
        origin,
        status: 'ok',
        httpStatus: 200,
        fetchedAt: now,
        expiresAt: now + 86_400_000,
        body: body.toString('base64'),
      };
    },
    async set() {},
    async delete() {},
  };
  return store;
}
