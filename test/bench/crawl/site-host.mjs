/**
 * The benchmark's handle on a site server process (server.mjs): start it, clear its log between
 * crawls, read the log, close it.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));

/** Waits for the next message of `type` from `child`, or rejects when the child exits first. */
function nextMessage(child, type) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message?.type !== type) return;
      cleanup();
      resolve(message);
    };
    const onExit = (code, signal) => {
      cleanup();
      reject(new Error(`the site server process exited (${signal ?? code}) before sending "${type}"`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Starts the servers of `config` (a SiteConfig of site.mjs) in their own process.
 * @returns {Promise<{ port: number, config: object, reset(): Promise<void>, log(): Promise<object>, close(): Promise<void> }>}
 */
export async function startSite(config) {
  const child = fork(SERVER, [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await nextMessage(child, 'ready');
  return {
    port,
    config,
    async reset() {
      const done = nextMessage(child, 'reset-done');
      child.send({ type: 'reset' });
      await done;
    },
    async log() {
      const answer = nextMessage(child, 'log');
      child.send({ type: 'log' });
      return (await answer).log;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
