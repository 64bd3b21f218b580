/**
 * A fleet of crawler workers for the politeness tests: each a process running `fleet-worker.mjs`
 * (a CheerioCrawler with Heed, on a RedisStore), and what the site saw of them.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Hit, SiteOrigin } from './site.js';

const WORKER = fileURLToPath(new URL('./fleet-worker.mjs', import.meta.url));

/** A line the worker's store logged, and when (the worker's `Date.now()`: one machine, one clock). */
export interface LoggedLine {
  readonly message: string;
  readonly at: number;
}

export interface WorkerResult {
  readonly handled: string[];
  readonly warnings: string[];
  /** What the store logged at info level: "Redis is reachable again" when an outage ends. */
  readonly infos: LoggedLine[];
  readonly failed: number;
}

/** One line a worker printed (see `fleet-worker.mjs`). */
export interface WorkerLine {
  readonly handled?: string;
  readonly log?: string;
  readonly message?: string;
  readonly at?: number;
  readonly done?: boolean;
  readonly failed?: number;
}

export interface WorkerOptions {
  /** Crawl each page's links too. */
  readonly enqueue?: boolean;
  /**
   * The worker's RedisStore `commandTimeoutSecs` (default 0.5). A worker whose event loop is held
   * longer (a busy machine loading Crawlee) times out on an answered command, and goes on its own
   * clock for a while: tests not about that raise it.
   */
  readonly commandTimeoutSecs?: number;
  /** Called with each line as the worker prints it, while it runs. */
  readonly onLine?: (line: WorkerLine) => void;
}

/** Runs one worker process to its end. */
export function runWorker(redisUrl: string, startUrls: string[], options: WorkerOptions = {}): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const settings = { redisUrl, startUrls, enqueue: options.enqueue ?? false, commandTimeoutSecs: options.commandTimeoutSecs ?? 0.5 };
    const child = spawn(process.execPath, [WORKER, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const lines: WorkerLine[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const complete = out.split('\n');
      out = complete.pop() ?? '';
      for (const text of complete) {
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as WorkerLine;
        lines.push(line);
        options.onLine?.(line);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const done = lines.find((line) => line.done);
      if (code !== 0 || done === undefined) {
        reject(new Error(`worker exited with ${code}:\n${lines.map((line) => JSON.stringify(line)).join('\n')}\n${out}\n${err}`));
        return;
      }
      resolve({
        handled: lines.flatMap((line) => (line.handled === undefined ? [] : [line.handled])),
        warnings: lines.flatMap((line) => (line.log === 'warning' ? [line.message ?? ''] : [])),
        infos: lines.flatMap((line) => (line.log === 'info' ? [{ message: line.message ?? '', at: line.at ?? NaN }] : [])),
        failed: done.failed ?? -1,
      });
    });
  });
}

/** Page requests the origin saw (robots.txt left out), in order of arrival. */
export function pageHits(origin: SiteOrigin): Hit[] {
  return origin.hits.filter((hit) => hit.path !== '/robots.txt').sort((a, b) => a.at - b.at);
}

/** The smallest gap between consecutive `hits`, in ms. */
export function smallestGap(hits: readonly Hit[]): number {
  let smallest = Infinity;
  for (let i = 1; i < hits.length; i++) smallest = Math.min(smallest, hits[i]!.at - hits[i - 1]!.at);
  return smallest;
}
