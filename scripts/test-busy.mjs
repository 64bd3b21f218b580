#!/usr/bin/env node
/**
 * Runs the test command beside a CPU load of one busy process per core, as on a CI machine or a
 * laptop doing other work, and says for each run whether it passed and how long it took. The
 * suite must pass this way: a test whose bound is a speed, not a behaviour, fails here first.
 *
 *   node scripts/test-busy.mjs                 npm test, once
 *   node scripts/test-busy.mjs --runs=3        three times in a row (each with the load)
 *   node scripts/test-busy.mjs -- npx vitest run test/crawlee
 *                                              any other command
 *
 * Exits 0 when every run passed. The busy processes end with it, also on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes === -1 ? args : args.slice(0, dashes);
const command = dashes === -1 ? ['npm', 'test'] : args.slice(dashes + 1);
const runsArg = own.find((arg) => arg.startsWith('--runs='));
const runs = runsArg === undefined ? 1 : Number(runsArg.slice('--runs='.length));
const unknown = own.filter((arg) => arg !== runsArg);
if (unknown.length > 0 || !Number.isInteger(runs) || runs < 1 || command.length === 0) {
  console.error(
    `test-busy: ${unknown.length > 0 ? `unknown option ${unknown.join(' ')}` : 'bad --runs or empty command'}; ` +
      'usage: node scripts/test-busy.mjs [--runs=N] [-- command ...]',
  );
  process.exit(2);
}

const cores = availableParallelism();
const busy = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBusy = () => busy.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopBusy);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`test-busy: ${cores} busy processes (one per core) beside \`${command.join(' ')}\`, ${runs} run(s)`);
const results = [];
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
    child.on('error', (error) => {
      console.error(`test-busy: cannot run ${command[0]}: ${error.message}`);
      resolve(127);
    });
  });
  const minutes = (Date.now() - started) / 60_000;
  results.push({ run, code, minutes });
  console.log(`test-busy: run ${run} of ${runs} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes.toFixed(1)} min`);
}
stopBusy();
const failed = results.filter((result) => result.code !== 0);
console.log(
  `test-busy: ${results.length - failed.length} of ${results.length} passed with every core busy; ` +
    results.map((result) => `${result.minutes.toFixed(1)} min`).join(', '),
);
process.exit(failed.length === 0 ? 0 : 1);
