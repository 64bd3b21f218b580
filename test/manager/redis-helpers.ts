/** Starting a real, throw-away redis-server on a free loopback port for the store tests. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { deadPort } from './helpers.js';

/** Whether `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).status === 0;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop()`). */
  restart(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await deadPort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async stop() {
      const running = child;
      if (running === undefined || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
    restart: start,
  };
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not start listening on 127.0.0.1:${port}`);
}

/** Sends one command over a raw RESP connection and returns the reply text (enough for GET/SET/KEYS). */
export function redisCommand(port: number, ...args: string[]): Promise<string> {
  const payload = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.once('connect', () => socket.write(payload));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (isCompleteReply(reply)) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.once('error', reject);
  });
}

function isCompleteReply(reply: string): boolean {
  if (!reply.endsWith('\r\n')) return false;
  if (reply.startsWith('$')) {
    const length = Number(reply.slice(1, reply.indexOf('\r\n')));
    return length < 0 || Buffer.byteLength(reply) >= reply.indexOf('\r\n') + 2 + length + 2;
  }
  if (reply.startsWith('*')) {
    const count = Number(reply.slice(1, reply.indexOf('\r\n')));
    return count <= 0 || reply.split('\r\n').length - 1 >= 1 + 2 * count;
  }
  return true;
}
