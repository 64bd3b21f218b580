/**
 * The stress runs under the V8 profiler and a GC trace, e.g. the 50,000-URL feed:
 *   npx vitest run --config test/stress/profile.config.ts -t '50,000-URL' > gc.log
 * writes a .cpuprofile per worker to $HEED_PROFILE_DIR (default /tmp/heed-profile), to open in
 * Chrome DevTools; `--trace-gc` lines go to stdout. (NODE_OPTIONS does not take `--trace-gc`, and
 * the tests run in forks: hence the pool's execArgv.)
 */
import { defineConfig } from 'vitest/config';
import stress from './vitest.config.js';

const dir = process.env['HEED_PROFILE_DIR'] ?? '/tmp/heed-profile';

export default defineConfig({
  ...stress,
  test: {
    ...stress.test,
    poolOptions: { forks: { execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--trace-gc'] } },
  },
});
