/**
 * The contract suite (test/contract) on another Crawlee release, as test/compat/contract.test.ts
 * runs it: HEED_CONTRACT_CRAWLEE names the project (outside the workspace) where the packed Heed
 * is installed beside that release, and `@heed/*` resolve to the project's packages, so that the
 * plugin under test loads that release's `@crawlee/core` as a user's would.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageEntry } from '../support/package-entry.js';

const crawlee = process.env['HEED_CONTRACT_CRAWLEE'];
if (crawlee === undefined) throw new Error('HEED_CONTRACT_CRAWLEE names no project: test/compat/contract.test.ts sets it');
const { dir } = JSON.parse(crawlee) as { dir: string };
const installed = (name: string) => ({ find: new RegExp(`^${name}$`), replacement: packageEntry(dir, name) });

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  resolve: { alias: [installed('@heed/parser'), installed('@heed/manager'), installed('@heed/crawlee')] },
  test: {
    include: ['test/contract/contract.test.ts'],
    setupFiles: ['test/support/network-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
