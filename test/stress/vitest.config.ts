/**
 * `pnpm test:stress`: the full-scale runs behind the CI-scale regression tests, slow by
 * design (minutes), not part of `vitest run`. Same source aliases and network guard as the tests.
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    include: ['test/stress/**/*.stress.ts'],
    setupFiles: base.test?.setupFiles ?? [],
    pool: 'forks',
    testTimeout: 900_000,
    hookTimeout: 300_000,
    // One at a time: the figures are per run.
    fileParallelism: false,
  },
});
