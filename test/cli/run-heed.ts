/**
 * Runs the `heed` command for the CLI tests, two ways. `run` calls `runHeed` in the test's own
 * process, with collected streams: what the command line prints and the exit code it answers, at
 * no cost of a Node.js start (about half a second of CPU each). `spawnHeed` starts the built
 * `node packages/cli/dist/heed.js` as a user does, for what only a process shows: its exit code,
 * stdout flushed through a pipe before it ends, its memory, the streams and environment it hands on.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// The compiled module, as the package ships it (built by test/support/global-setup.ts), rather than
// src/cli.ts: the tests are of the CLI as shipped, and spawnHeed runs this same module. Vitest still
// resolves its @heed/parser and @heed/manager imports to their sources (vitest.config.ts).
import { runHeed } from '../../packages/cli/dist/cli.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const heed = root + 'packages/cli/dist/heed.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment heed runs with: the test's, colour left to the TTY, then `env`. */
const environment = (env: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env });

/**
 * Runs heed in this process, as the `heed` process would with `env`, and stdout and stderr on
 * pipes (or stdout on a terminal, with `stdoutIsTTY`). Relative paths are read from this
 * process's working directory.
 */
export async function run(args: readonly string[], env: Record<string, string> = {}, stdoutIsTTY = false): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runHeed(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: stdoutIsTTY },
    stderr: { write: (text: string) => (stderr += text) },
    env: environment(env),
  });
  return { code, stdout, stderr };
}

/**
 * Runs heed as its own process, asynchronously (the servers live in the test's process and must
 * keep answering), killed after `killAfterMs` (a run that does not end fails its test, it does
 * not hang the suite: its code is then null).
 */
export function spawnHeed(
  args: readonly string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  killAfterMs = 60_000,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, heed, ...args], { cwd: root, env: environment(env) });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    // Decoded as a stream, so a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
