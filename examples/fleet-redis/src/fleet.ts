/**
 * A fleet of crawler processes sharing robots.txt records through Redis. Every worker starts at
 * the same moment and needs the same origins' robots.txt; Heed's Redis store gives one of them a
 * fetch lock per origin and the others wait for its record, so the whole fleet makes one robots.txt
 * fetch per origin.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLocalRedis, type LocalRedis } from './redis-server.js';
import type { WorkerReport, WorkerTask } from './worker-protocol.js';

/** Options of {@link runFleet}. */
export interface FleetOptions {
  /** Where the workers start; worker i starts at `startUrls[i % length]`. Required. */
  readonly startUrls: readonly string[];
  /** The crawlers' User-Agent. Required. */
  readonly userAgent: string;
  /** Worker processes. Default: `3`. */
  readonly workers?: number;
  /** Redis to share records through. Default: `REDIS_URL`, else a `redis-server` started on a free loopback port for the run. */
  readonly redisUrl?: string;
  /** Most pages per worker. Default: `50`. */
  readonly maxRequestsPerCrawl?: number;
  /** Seconds a worker may take. Default: `120`. */
  readonly workerTimeoutSecs?: number;
}

/** What the fleet did. */
export interface FleetSummary {
  readonly redisUrl: string;
  /** Whether the fleet started its own `redis-server`. */
  readonly startedRedis: boolean;
  readonly workers: readonly WorkerReport[];
  /** robots.txt fetches of all workers together: one per origin when the store does its job. */
  readonly robotsFetches: number;
  /** Origins read from Redis, all workers together. */
  readonly storeHits: number;
}

/** Thrown when a worker fails; carries its output. */
export class FleetWorkerError extends Error {
  override readonly name = 'FleetWorkerError';
}

/** The compiled worker script. From the sources (tests), the built one in `dist/`. */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  const beside = here.replace(/fleet\.[jt]s$/, 'worker.js');
  if (here.endsWith('.js') && existsSync(beside)) return beside;
  const built = fileURLToPath(new URL('../dist/worker.js', import.meta.url));
  if (!existsSync(built))
    throw new FleetWorkerError(`the worker script ${built} is missing: build the example first (tsc -b examples/fleet-redis).`);
  return built;
}

/** Runs the fleet to the end and returns what each worker did. */
export async function runFleet(options: FleetOptions): Promise<FleetSummary> {
  const count = options.workers ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new TypeError(`runFleet: "workers" must be a whole number ≥ 1, got ${count}`);
  const script = workerScript();
  const configuredUrl = options.redisUrl ?? process.env.REDIS_URL;
  let redis: LocalRedis | undefined;
  const redisUrl = configuredUrl !== undefined && configuredUrl !== '' ? configuredUrl : (redis = await startLocalRedis()).url;
  const keyPrefix = `heed:example-fleet:${randomUUID()}:`;

  try {
    const tasks: WorkerTask[] = Array.from({ length: count }, (_, index) => ({
      index,
      redisUrl,
      keyPrefix,
      userAgent: options.userAgent,
      startUrls: [options.startUrls[index % options.startUrls.length] ?? ''],
      maxRequestsPerCrawl: options.maxRequestsPerCrawl ?? 50,
    }));
    const workers = await Promise.all(tasks.map((task) => runWorker(script, task, (options.workerTimeoutSecs ?? 120) * 1000)));
    return {
      redisUrl,
      startedRedis: redis !== undefined,
      workers,
      robotsFetches: workers.reduce((sum, worker) => sum + worker.robotsFetches, 0),
      storeHits: workers.reduce((sum, worker) => sum + worker.storeHits, 0),
    };
  } finally {
    await redis?.stop();
  }
}

function runWorker(script: string, task: WorkerTask, timeoutMs: number): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [JSON.stringify(task)], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    let report: WorkerReport | undefined;
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('message', (message) => (report = message as WorkerReport));
    const timer = setTimeout(() => {
      child.kill();
      reject(new FleetWorkerError(`worker ${task.index} did not finish within ${timeoutMs} ms. Its output:\n${output.slice(-2000)}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0 && report !== undefined) resolve(report);
      else
        reject(
          new FleetWorkerError(
            `worker ${task.index} exited with code ${code}${report ? '' : ' without a report'}. Its output:\n${output.slice(-2000)}`,
          ),
        );
    });
  });
}
