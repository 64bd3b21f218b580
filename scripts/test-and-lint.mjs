#!/usr/bin/env node
/**
 * The tests and the lint side by side, for `npm test` (after the install and the typecheck, which
 * builds everything both read): the test run waits on servers, browsers and timers for much of its
 * time, and ESLint's type-aware pass fills the cores it leaves idle. The tests write to the terminal
 * as they go; the lint's output is held and printed after them, so the two never interleave. Exits
 * non-zero when either failed, saying which.
 *
 * Arguments are passed on to `vitest run` (e.g. a file filter).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;

/** Runs `command`, its output held; resolves with its exit code and that output. */
function held(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 127, output: `${command}: ${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** Runs `command` with the terminal as its output; resolves with its exit code. */
function shown(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const lint = (async () => {
  const eslint = await held(bin('eslint'), ['.']);
  const prettier = await held(bin('prettier'), ['--check', '.', '--log-level', 'warn']);
  return { code: eslint.code || prettier.code, output: `${eslint.output}${prettier.output}` };
})();
// HEED_WHOLE_SUITE: the packages are packed as built, not rebuilt under the running tests (test/compat/consumer.ts).
const tests = await shown(bin('vitest'), ['run', ...process.argv.slice(2)], { ...process.env, HEED_WHOLE_SUITE: '1' });
const linted = await lint;

process.stdout.write(`\nlint (eslint ., prettier --check .): ${linted.code === 0 ? 'clean' : 'FAILED'}\n${linted.output}`);
if (tests !== 0 || linted.code !== 0) {
  console.error(`npm test: ${[tests !== 0 ? 'tests failed' : '', linted.code !== 0 ? 'lint failed' : ''].filter(Boolean).join(', ')}`);
  process.exit(1);
}
