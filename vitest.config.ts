import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import HeaviestFirst from './test/support/heaviest-first.js';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a failing test points at a TypeScript line. Each package
    // has one entry point; tests of private modules import them by relative path.
    alias: [
      { find: /^@heed\/parser$/, replacement: src('parser') },
      { find: /^@heed\/manager$/, replacement: src('manager') },
      { find: /^@heed\/crawlee$/, replacement: src('crawlee') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/network-guard.ts', 'test/support/quiet-crawlers.ts', 'test/support/fresh-crawlee.ts'],
    // What a passing test prints is left out of the log; a failing test's output is shown with it.
    silent: 'passed-only',
    // The log lists a file's tests only when one took longer than this: the slow ones worth knowing.
    slowTestThreshold: 5_000,
    // One build before every run: tests that spawn the compiled packages never build them themselves.
    // Then the list of what was skipped and why, printed last.
    globalSetup: ['test/support/global-setup.ts', 'test/support/skip-list.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The longest files first (test/support/heaviest-first.ts): a fresh clone has no durations of its own.
    sequence: { sequencer: HeaviestFirst },
    pool: 'forks',
    // Three forks on CI's two cores: most of the suite waits on loopback servers, browsers, npm and
    // timers, and a third fork fills the time the other two wait (a quarter off the wall time of
    // two). No test here bounds a time that load can stretch: costs are counted (calls, turns,
    // bytes, requests), deadlines are 10× the idle time, and timing ratios live in test:stress.
    // `--expose-gc`: memory tests read the heap after a collection.
    // Files share their worker (`isolate: false`): each fork loads Crawlee, got and the packages'
    // sources once, not once per file (a ninth of the suite's wall time, and of its CPU). What a
    // file could leave behind for the next is reset before each one (test/support/fresh-crawlee.ts;
    // the one module mock loads its modules afresh). `minForks` equals `maxForks`: vitest 3 ends a
    // run whose shared workers were started and stopped on demand with "Terminating worker thread".
    isolate: false,
    poolOptions: { forks: { maxForks: 3, minForks: 3, isolate: false, execArgv: ['--expose-gc'] } },
  },
});
