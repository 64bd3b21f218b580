/**
 * A throwaway `redis-server` on a free loopback port, for when `REDIS_URL` is not set: no
 * persistence, stopped with the fleet.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { MissingPrerequisiteError } from '@heed/demo-site';

/** A running local Redis. */
export interface LocalRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  stop(): Promise<void>;
}

/** Thrown when `redis-server` cannot be started; says how to get one. */
export class RedisServerStartError extends MissingPrerequisiteError {
  override readonly name = 'RedisServerStartError';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` (from PATH, or `command`) on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startLocalRedis(command = 'redis-server', readyTimeoutMs = 10_000): Promise<LocalRedis> {
  const port = await freePort();
  const child = spawn(command, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    let output = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill();
      reject(new RedisServerStartError(`${why}. Install Redis (Debian: apt-get install redis-server) or set REDIS_URL to a running one.`));
    };
    const timer = setTimeout(
      () => fail(`redis-server did not report ready within ${readyTimeoutMs} ms (output: ${output.slice(-300)})`),
      readyTimeoutMs,
    );
    child.once('error', (error) => fail(`cannot start ${command}: ${error.message}`));
    const onEarlyExit = (code: number | null): void =>
      fail(`${command} exited with code ${code} before it was ready (output: ${output.slice(-300)})`);
    child.once('exit', onEarlyExit);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.off('exit', onEarlyExit);
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
