/**
 * Runs one crawl (crawl-worker.mjs) in a fresh `node --expose-gc` process, bounded in time: the process
 * is killed when it has not finished within `timeoutMs`, or as soon as it reports `stopAfterPages`
 * pages handled. Never rejects for a slow or stuck crawl: the outcome says what happened.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./crawl-worker.mjs', import.meta.url));

/**
 * @param {object} job what crawl-worker.mjs takes: { variant, startUrls, userAgent, minConcurrency,
 *   maxConcurrency, stopAfterPages?, maxRequestsPerCrawl?, prewarmOrigins?, measureHeap?, proxyUrl?, maxOldSpaceMb?, heed?: { cacheSize, storeEntries, maxCacheBytes?, storeBytes? }, heedOptions? }
 * @param {number} timeoutMs wall time the crawl may take (from the fork) before it is killed
 * @returns {Promise<{ outcome: 'finished' | 'stopped' | 'timeout' | 'error', result?: object,
 *   stoppedAt?: { pages: number, ms: number }, error?: string, wallMs: number }>}
 */
export function runCrawl(job, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    // CRAWL_CPU_PROF: the worker profiles its `crawler.run()` (the measured window) into that folder.
    const execArgv = ['--expose-gc', ...(job.maxOldSpaceMb ? [`--max-old-space-size=${job.maxOldSpaceMb}`] : [])];
    const child = fork(WORKER, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A finished crawl exits by itself (and writes its profile, if any); anything else is killed now.
      const grace = outcome.outcome === 'finished' ? 5_000 : 0;
      const kill = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      if (grace) setTimeout(kill, grace).unref();
      else kill();
      resolve({ ...outcome, wallMs: performance.now() - started });
    };
    const timer = setTimeout(() => settle({ outcome: 'timeout' }), timeoutMs);
    child.on('message', (message) => {
      if (message.type === 'progress') settle({ outcome: 'stopped', stoppedAt: { pages: message.pages, ms: message.ms } });
      else if (message.type === 'done') settle({ outcome: 'finished', result: message.result });
      else if (message.type === 'error') settle({ outcome: 'error', error: message.message });
    });
    child.on('exit', (code, signal) =>
      settle({ outcome: 'error', error: `the crawl process exited (${signal ?? code}) without a result` }),
    );
    child.send(job);
  });
}
