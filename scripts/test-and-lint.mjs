#!/usr/bin/env node
/**
 * The tests, the typecheck and the lint side by side, for `npm test` (after the install). The
 * packages and examples are built first, once, since the tests run what they compile. Then the
 * test run starts, and beside it the typecheck of everything (`npm run typecheck`: the docs' code
 * blocks and `test/` too; on a built tree it only checks) and the lint: the test run waits on
 * servers, browsers and timers for part of its time, and the single-threaded checkers fill it.
 * The tests write to the terminal as they go; the checkers' output is held and printed after them,
 * so the two never interleave. Exits non-zero when any of them failed, saying which.
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

// The build the tests need, before them: its errors stop the run here, with tsc's own words.
const built = await shown('npm', ['run', '--silent', 'build']);
if (built !== 0) {
  console.error('npm test: the build failed (npm run build); fix the errors above first');
  process.exit(1);
}

// Each checker after the other: together they are about one core's work beside the tests.
const checks = (async () => {
  const typecheck = await held('npm', ['run', '--silent', 'typecheck']);
  const eslint = await held(bin('eslint'), ['.']);
  const prettier = await held(bin('prettier'), ['--check', '.', '--log-level', 'warn']);
  return {
    typecheck,
    lint: { code: eslint.code || prettier.code, output: `${eslint.output}${prettier.output}` },
  };
})();
// HEED_WHOLE_SUITE: the packages are packed as built, not rebuilt under the running tests (test/compat/consumer.ts).
// HEED_BUILT: the tests' own setup need not build them again (test/support/global-setup.ts).
const tests = await shown(bin('vitest'), ['run', ...process.argv.slice(2)], { ...process.env, HEED_WHOLE_SUITE: '1', HEED_BUILT: '1' });
const { typecheck, lint } = await checks;

const verdict = (code) => (code === 0 ? 'clean' : 'FAILED');
process.stdout.write(`\ntypecheck (npm run typecheck): ${verdict(typecheck.code)}\n${typecheck.code === 0 ? '' : typecheck.output}`);
process.stdout.write(`lint (eslint ., prettier --check .): ${verdict(lint.code)}\n${lint.output}`);
const failed = [tests !== 0 && 'tests failed', typecheck.code !== 0 && 'typecheck failed', lint.code !== 0 && 'lint failed'].filter(
  Boolean,
);
if (failed.length > 0) {
  console.error(`npm test: ${failed.join(', ')}`);
  process.exit(1);
}
