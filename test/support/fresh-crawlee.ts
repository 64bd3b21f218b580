/**
 * Test files share their worker process (`isolate: false` in vitest.config.ts): each worker loads
 * Crawlee once rather than once per file. Crawlee keeps process-wide state, the global
 * configuration and its in-memory storages (the default request queue, key-value store and
 * dataset, purged only on a process's first `run()`), so each file starts with them fresh, as it
 * would in a process of its own.
 */
import { createRequire } from 'node:module';

const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
const corePath = crawleeRequire.resolve('@crawlee/core');
// Only when an earlier file of this worker loaded Crawlee: loading it here would cost the files that never use it.
const core = crawleeRequire.cache[corePath]?.exports as typeof import('@crawlee/core') | undefined;
core?.Configuration.resetGlobalState();
