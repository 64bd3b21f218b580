/**
 * The Node.js heap a broad-crawl bench runs in: a million origins of real files take gigabytes, more
 * than Node.js's default heap, and with a heap this large each young-generation collection is slow,
 * so the benches run with the young generation the README gives a broad crawl.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';

const MiB = 1024 * 1024;
/** The young generation the README gives a broad crawl. */
export const SEMI_SPACE = '--max-semi-space-size=64';
/** Set in the process started again, so that it never starts another. */
const RESTARTED = 'HEED_BENCH_RESTARTED';

/**
 * Unless this process has a heap of `neededMb` MiB and {@link SEMI_SPACE}, runs the script at
 * `scriptUrl` (the caller's `import.meta.url`) again in one that has, with the same arguments, and
 * exits with its status; else returns.
 */
export function restartWithHeap(neededMb, scriptUrl) {
  const limitMb = getHeapStatistics().heap_size_limit / MiB;
  if ((limitMb >= neededMb && process.execArgv.includes(SEMI_SPACE)) || process.env[RESTARTED] !== undefined) return;
  const heap = Math.max(neededMb + 1024, Math.ceil(limitMb));
  const args = ['--expose-gc', `--max-old-space-size=${heap}`, SEMI_SPACE, fileURLToPath(scriptUrl), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, [RESTARTED]: '1' } });
  process.exit(child.status ?? 1);
}

/** A manager's `maxCacheBytes` that holds `count` origins of real files (32 KB each, above their average), within the heap. */
export function boundHoldingAll(count) {
  return Math.min(Math.max(4096 * MiB, count * 32 * 1024), getHeapStatistics().heap_size_limit);
}
