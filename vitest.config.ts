import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
    setupFiles: ['test/support/network-guard.ts', 'test/support/quiet-crawlers.ts'],
    // What a passing test prints is left out of the log; a failing test's output is shown with it.
    silent: 'passed-only',
    // The log lists a file's tests only when one took longer than this: the slow ones worth knowing.
    slowTestThreshold: 5_000,
    // One build before every run: tests that spawn the compiled packages never build them themselves.
    // Then the list of what was skipped and why, printed last.
    globalSetup: ['test/support/global-setup.ts', 'test/support/skip-list.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest runs one fork less than the machine has cores: one fork on CI's two. Most of the
    // suite waits on loopback servers, browsers and timers, so two forks halve its wall time;
    // the timing assertions measure main-thread CPU time or ratios with wide margins.
    // `--expose-gc`: growth-ratio tests collect garbage before each timed round, so a major GC of
    // earlier work does not land in one size's rounds only.
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ['--expose-gc'] } },
  },
});
