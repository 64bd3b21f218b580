import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a failing test points at a TypeScript line.
    alias: {
      '@heed/parser': src('parser'),
      '@heed/manager': src('manager'),
      '@heed/crawlee': src('crawlee'),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/network-guard.ts'],
    // One build before every run: tests that spawn the compiled packages never build them themselves.
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
