/** Runs the built `heed` command as a user would, for the CLI tests. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const heed = root + 'packages/cli/dist/heed.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs heed asynchronously (the servers live in the test's process and must keep answering), killed
 * after `killAfterMs` (a run that does not end fails its test, it does not hang the suite).
 */
export function run(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = [], killAfterMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, heed, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
