/**
 * The floor under a broad crawl's warm check in turn, beside `RobotsManager#decide()` in the same
 * process: the least any per-origin cache of Node.js can do for a check, against what Heed does.
 *
 * One manager is filled as broad.bench.mjs fills it (origins each serving its own copy of a real
 * robots.txt, from a store that makes the records up, 20 checks per origin), and beside it a bare
 * `Map` from each origin to a small object, set as each origin is filled, so its entries lie among
 * the manager's objects in the heap as a crawler's own per-origin data would. Then passes over all
 * origins in turn (check k of every origin, then check k + 1), alternating:
 *   - bare: the origin cut from the URL (`slice` at the first `/` after the scheme), one `Map`
 *     lookup, a settled promise of a new two-field object, awaited;
 *   - Heed: `await manager.decide(url)`.
 * Printed: CPU µs per check of each, the median of the passes and their spread, and the ratio.
 *
 *   node --expose-gc test/bench/turn-floor.mjs [--origins=100000] [--passes=3]
 *
 * A million origins take about 12 GB (the manager's); the script starts itself again with a heap
 * to match and the young generation the README gives a broad crawl. Not part of `npm run bench`:
 * it explains a figure of "Broad crawls: the cache", it is not one.
 */
import { RobotsManager } from '../../packages/manager/dist/bundle.js';
import { boundHoldingAll, restartWithHeap } from './broad-heap.mjs';
import { madeUpStore } from './made-up-store.mjs';

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** A whole number of at least 1 given as `--name=`, or `fallback`; anything else ends the script with what was wrong. */
function countOption(name, fallback) {
  const given = option(name);
  const value = given === undefined ? fallback : Number(given);
  if (Number.isInteger(value) && value >= 1) return value;
  console.error(`--${name}=${given}: expected a whole number of at least 1`);
  process.exit(2);
}
const COUNT = countOption('origins', 100_000);
const PASSES = countOption('passes', 3);
const CHECKS = 20;
// Heap for the manager's origins (about 20 KB each with room for the collector; see broad-heap.mjs).
restartWithHeap(Math.ceil((COUNT * 20 * 1024) / 2 ** 20), import.meta.url);

const quiet = { debug() {}, info() {}, warning() {}, error() {} };
const store = madeUpStore();
const manager = new RobotsManager({
  userAgent: 'HeedBot/1.0',
  store,
  log: quiet,
  cacheSize: Math.max(10_000, COUNT),
  maxCacheBytes: boundHoldingAll(COUNT),
});
const origins = Array.from({ length: COUNT }, (_, i) => `https://o${i}.example`);
const bare = new Map();
const began = performance.now();
for (const origin of origins) {
  for (let k = 0; k < CHECKS; k++) await manager.decide(`${origin}/p/${k}?q=${k}`);
  const url = `${origin}/p/0?q=0`;
  bare.set(url.slice(0, url.indexOf('/', 8)), { allowed: true, line: 0 });
}
global.gc();
console.log(
  `${COUNT.toLocaleString('en-US')} origins filled in ${((performance.now() - began) / 1000).toFixed(0)} s, heap ${(process.memoryUsage().heapUsed / 2 ** 30).toFixed(1)} GiB`,
);

/** CPU µs per check of one pass in turn through `check`. */
async function inTurn(check) {
  const start = process.cpuUsage();
  let allowed = 0;
  for (let k = 0; k < CHECKS; k++) for (const origin of origins) if ((await check(`${origin}/p/${k}?q=${k}`)).allowed) allowed++;
  const cpu = process.cpuUsage(start);
  if (allowed < 0) throw new Error('unreachable');
  return (cpu.user + cpu.system) / (COUNT * CHECKS);
}
const bareCheck = (url) => {
  const entry = bare.get(url.slice(0, url.indexOf('/', 8)));
  return Promise.resolve({ allowed: entry.allowed, url });
};
const heedCheck = (url) => manager.decide(url);

const passes = { bare: [], heed: [] };
for (let p = 0; p < PASSES; p++) {
  for (const [name, check] of p % 2 === 0
    ? [
        ['bare', bareCheck],
        ['heed', heedCheck],
      ]
    : [
        ['heed', heedCheck],
        ['bare', bareCheck],
      ]) {
    passes[name].push(await inTurn(check));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const shown = (values) => `${median(values).toFixed(2)} µs (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
console.log(
  `in turn, CPU per check, median of ${PASSES} passes: bare Map ${shown(passes.bare)}, Heed decide() ${shown(passes.heed)}, ratio ${(median(passes.heed) / median(passes.bare)).toFixed(2)}×`,
);
await manager.close();
