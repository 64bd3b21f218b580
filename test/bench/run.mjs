/**
 * `npm run bench`: generates the benchmark data when it is missing or stale, then runs every
 * test/bench/*.bench.mjs in its own `node --expose-gc` process, one after the other, output streamed.
 *
 *   node test/bench/run.mjs            every benchmark
 *   node test/bench/run.mjs parser     only those whose file name contains "parser"
 *
 * Arguments starting with `--` are passed on to each benchmark (e.g. --rounds=9).
 * Exits non-zero when a benchmark fails.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const filters = args.filter((arg) => !arg.startsWith('--'));
const passOn = args.filter((arg) => arg.startsWith('--'));

const benches = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();
if (benches.length === 0) {
  console.error(`No benchmark in ${dir} matches ${filters.join(', ')}.`);
  process.exit(1);
}

generate();

function run(name) {
  return new Promise((resolve) => {
    console.log(`\n=== ${name} ===`);
    const child = spawn(process.execPath, ['--expose-gc', dir + name, ...passOn], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`Could not start ${name}: ${error.message}`);
      resolve(1);
    });
  });
}

const failed = [];
for (const name of benches) {
  if ((await run(name)) !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
