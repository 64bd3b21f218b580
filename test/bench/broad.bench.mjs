/**
 * A broad crawl's robots.txt cache: many origins, each with its own real robots.txt, through one
 * `RobotsManager`. Origins come from a store that makes each record up when asked (the real-file
 * corpus of ../shared when it is there, else the repository's sample; each origin its own copy) and
 * counts its reads, so the figures are the manager's alone: no network, no fetch.
 *
 * Per size, twice: at the default `maxCacheBytes` (64 MiB), and with a bound large enough to hold
 * every origin:
 *   - what the cache charges per origin, and what the heap (plus buffers) grew by per origin held;
 *   - a first pass of 20 checks per origin, then warm passes over all origins in turn (check k of
 *     every origin, then check k + 1): µs per `decide()`, and the store reads of the warm passes (0
 *     while every origin is held; one per check when more origins come in turn than fit).
 * Then the same checks once more, each origin's in a row (as a crawl checks a page's links): µs per
 * `decide()`, the first of each origin's checks paying for its objects to come from memory. With
 * every origin held, three passes of each, in turn and in a row alternating: the median pass and
 * the spread (a single pass moved by a third from run to run); at the default bound one pass of
 * each, whose point is the store reads.
 * Printed with the growth ratios between sizes (the warm µs per check should stay flat while the
 * origins fit; the heap per origin too).
 *
 *   node --expose-gc test/bench/broad.bench.mjs [--origins=10000,100000,1000000] [--bounds=default,all] [--no-bands] [--no-write]
 *   npm run bench -- broad
 *
 * A million origins of real files take about 13 GB: the bench runs itself again with a heap to
 * match its largest size (`--max-old-space-size`) and the young generation the README gives a broad
 * crawl (`--max-semi-space-size=64`), and leaves out the sizes this machine's memory cannot hold,
 * saying so. The default bound's rows are made up to 20,000 origins only: past the
 * 4,900 or so it holds, every warm check parses its file again (what those rows show), and a
 * million such checks would take the better part of an hour.
 *
 * Writes the "## Broad crawls: the cache" section of BENCHMARKS.md unless --no-write.
 */

import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RobotsManager } from '../../packages/manager/dist/bundle.js';
import { boundHoldingAll, restartWithHeap, SEMI_SPACE } from './broad-heap.mjs';
import { writeSection } from './crawl/report.mjs';
import { madeUpStore } from './made-up-store.mjs';
import { files, filesSource } from './real-files.mjs';

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const MiB = 1024 * 1024;
/** Heap an origin of real files may take with every origin held, with room for the collector. */
const HEAP_PER_ORIGIN = 20 * 1024;
/** Memory left to the rest of the machine. */
const SPARE = 2048 * MiB;
const ASKED = (option('origins') ?? '10000,100000,1000000').split(',').map(Number);
const SIZES = ASKED.filter((count) => count * HEAP_PER_ORIGIN <= totalmem() - SPARE);
for (const count of ASKED.filter((c) => !SIZES.includes(c)))
  console.log(
    `Leaving out ${count.toLocaleString('en-US')} origins: they need about ${Math.ceil((count * HEAP_PER_ORIGIN) / 2 ** 30)} GiB, more than this machine has.`,
  );
// The heap the largest size needs (see broad-heap.mjs).
restartWithHeap(Math.ceil((Math.max(0, ...SIZES) * HEAP_PER_ORIGIN) / MiB), import.meta.url);
/** The default bound's rows stop here (see the header). */
const DEFAULT_BOUND_MAX_ORIGINS = 20_000;
const CHECKS = 20;
/** Passes of each kind with every origin held (see the header). */
const PASSES = 3;
/** Origins per file-size band (each band's files in turn). */
const BAND_ORIGINS = 5000;
const TITLE = '## Broad crawls: the cache';
const quiet = { debug() {}, info() {}, warning() {}, error() {} };

const meanBytes = files.reduce((sum, body) => sum + body.length, 0) / files.length;

function memory() {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function run(count, maxCacheBytes, pool = files) {
  const began = performance.now();
  const before = memory();
  const rssBefore = process.memoryUsage().rss;
  const store = madeUpStore(pool);
  const manager = new RobotsManager({ userAgent: 'HeedBot/1.0', store, log: quiet, cacheSize: Math.max(10_000, count), maxCacheBytes });
  const origins = Array.from({ length: count }, (_, i) => `https://o${i}.example`);
  for (const origin of origins) for (let k = 0; k < CHECKS; k++) await manager.decide(`${origin}/p/${k}?q=${k}`);
  const filled = performance.now();
  const { cache } = manager.stats();
  const heldBytes = memory() - before;
  const rssGrown = process.memoryUsage().rss - rssBefore;
  store.reads = 0;
  const passes = maxCacheBytes === undefined ? 1 : PASSES;
  const turns = [];
  const rows = [];
  /** CPU µs per check of `pass`. */
  const timed = async (pass) => {
    const start = process.cpuUsage();
    await pass();
    const cpu = process.cpuUsage(start);
    return (cpu.user + cpu.system) / (count * CHECKS);
  };
  let turnSeconds = 0;
  for (let p = 0; p < passes; p++) {
    const turnBegan = performance.now();
    turns.push(
      await timed(async () => {
        for (let k = 0; k < CHECKS; k++) for (const origin of origins) await manager.decide(`${origin}/p/${k}?q=${k}`);
      }),
    );
    turnSeconds += (performance.now() - turnBegan) / 1000;
    // As a crawl checks a page's links: each origin's checks in a row, the origins in turn.
    rows.push(
      await timed(async () => {
        for (const origin of origins) for (let k = 0; k < CHECKS; k++) await manager.decide(`${origin}/p/${k}?q=${k}`);
      }),
    );
  }
  const result = {
    count,
    held: cache.entries,
    chargedPerOrigin: cache.bytes / cache.entries,
    heapPerOrigin: heldBytes / cache.entries,
    rssPerOrigin: rssGrown / cache.entries,
    warmUs: middle(turns),
    warmSpread: spread(turns),
    rowUs: middle(rows),
    rowSpread: spread(rows),
    warmChecks: 2 * passes * count * CHECKS,
    warmReads: store.reads,
  };
  await manager.close();
  result.seconds = { fill: (filled - began) / 1000, pass: turnSeconds / passes, all: (performance.now() - began) / 1000 };
  return result;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const middle = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
/** The lowest and highest of `values`, or '' for one value. */
const spread = (values) => (values.length < 2 ? '' : `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`);
/** A figure in µs with its spread over passes, if there were several. */
const us = (value, range) => `${value.toFixed(2)}${range === '' ? '' : ` (${range})`}`;
// A first run, not counted: V8 compiles the manager's and the parser's code in it.
await run(500, undefined);
const rows = [];
const BOUNDS = (option('bounds') ?? 'default,all').split(',');
for (const [name, label, boundFor] of [
  ['default', 'default (64 MiB)', () => undefined],
  ['all', 'holds them all', boundHoldingAll],
]) {
  if (!BOUNDS.includes(name)) continue;
  for (const count of SIZES) {
    if (name === 'default' && count > DEFAULT_BOUND_MAX_ORIGINS) continue;
    const r = await run(count, boundFor(count));
    rows.push({ label, ...r });
    console.log(
      `${label}, ${count} origins: held ${r.held}, charged ${kb(r.chargedPerOrigin)}, heap ${kb(r.heapPerOrigin)} and RSS ${kb(r.rssPerOrigin)} per origin, warm decide ${us(r.warmUs, r.warmSpread)} µs (${us(r.rowUs, r.rowSpread)} µs in a row), ${r.warmReads} store reads in ${r.warmChecks} warm checks (${r.seconds.fill.toFixed(0)} s to fill, ${r.seconds.pass.toFixed(0)} s a warm pass in turn, ${r.seconds.all.toFixed(0)} s in all)`,
    );
  }
}

// What an origin costs by the size of its file: the corpus's median file is about 560 B, its mean
// 4 KB (a few large files pull it up).
const BANDS = [
  [0, 300],
  [300, 900],
  [900, 2000],
  [2000, 8000],
];
const sizes = files.map((body) => body.length).sort((a, b) => a - b);
const median = sizes[Math.floor(sizes.length / 2)];
const bandRows = [];
for (const [from, to] of process.argv.includes('--no-bands') ? [] : BANDS) {
  const pool = files.filter((body) => body.length >= from && body.length < to);
  if (pool.length === 0) continue;
  const r = await run(BAND_ORIGINS, 4096 * MiB, pool);
  const mean = pool.reduce((sum, body) => sum + body.length, 0) / pool.length;
  bandRows.push({ from, to, files: pool.length, mean, ...r });
  console.log(
    `files of ${from}-${to} B (${pool.length}, ${Math.round(mean)} B on average): heap ${kb(r.heapPerOrigin)} and charged ${kb(r.chargedPerOrigin)} per origin`,
  );
}

const ratio = (rowsOf, field) => {
  const first = rowsOf[0];
  const last = rowsOf.at(-1);
  return `${(last[field] / first[field]).toFixed(2)}× from ${first.count.toLocaleString('en-US')} to ${last.count.toLocaleString('en-US')} origins`;
};
/** Each size against the one before it: the origins' growth, the heap's (in all, not per origin), the warm check's. */
const steps = (rowsOf) =>
  rowsOf
    .slice(1)
    .map((row, i) => {
      const before = rowsOf[i];
      const heap = (row.heapPerOrigin * row.held) / (before.heapPerOrigin * before.held);
      return `${before.count.toLocaleString('en-US')} to ${row.count.toLocaleString('en-US')} origins (${(row.count / before.count).toFixed(0)}×): heap ${heap.toFixed(2)}×, warm check ${(row.warmUs / before.warmUs).toFixed(2)}×`;
    })
    .join('; ') || 'one size only';
const table = [
  `| \`maxCacheBytes\` | origins | held | charged per origin | heap per origin held | RSS grown per origin | warm \`decide()\`, origins in turn (CPU µs) | warm, an origin's ${CHECKS} checks in a row (CPU µs) | store reads in the warm passes |`,
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.count.toLocaleString('en-US')} | ${r.held.toLocaleString('en-US')} | ${kb(r.chargedPerOrigin)} | ${kb(r.heapPerOrigin)} | ${kb(r.rssPerOrigin)} | ${us(r.warmUs, r.warmSpread)} | ${us(r.rowUs, r.rowSpread)} | ${r.warmReads.toLocaleString('en-US')} of ${r.warmChecks.toLocaleString('en-US')} |`,
  ),
];
const all = rows.filter((r) => r.label === 'holds them all');
const body = [
  `Origins each serving its own copy of a real robots.txt (${files.length.toLocaleString('en-US')} files of ${filesSource}, ${Math.round(meanBytes).toLocaleString('en-US')} B on average) through one manager, from a store that makes the records up (no fetch); ${CHECKS} checks per origin, then a warm pass over all origins in turn (check k of every origin, then check k + 1), then the same checks with each origin's ${CHECKS} in a row, as a crawl checks a page's links. With every origin held, ${PASSES} passes of each, alternating: the median pass, the lowest and highest in brackets; at the default bound one of each. Node.js runs with \`${SEMI_SPACE}\`, as the README advises for a broad crawl. Command: \`node --expose-gc test/bench/broad.bench.mjs\` (\`npm run bench -- broad\`), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.`,
  '',
  ...table,
  '',
  `Growth with every origin held: warm check ${ratio(all, 'warmUs')} (in a row ${ratio(all, 'rowUs')}), heap per origin ${ratio(all, 'heapPerOrigin')}. Step by step: ${steps(all)}.`,
  '',
  `By the size of the file (${BAND_ORIGINS.toLocaleString('en-US')} origins each, all held; the median file is ${median.toLocaleString('en-US')} B):`,
  '',
  '| file size | files | mean size | heap per origin held | charged per origin | warm `decide()`, in turn (CPU µs) | in a row (CPU µs) |',
  '|---|---|---|---|---|---|---|',
  ...bandRows.map(
    (r) =>
      `| ${r.from.toLocaleString('en-US')}–${r.to.toLocaleString('en-US')} B | ${r.files.toLocaleString('en-US')} | ${Math.round(r.mean).toLocaleString('en-US')} B | ${kb(r.heapPerOrigin)} | ${kb(r.chargedPerOrigin)} | ${us(r.warmUs, r.warmSpread)} | ${us(r.rowUs, r.rowSpread)} |`,
  ),
].join('\n');
console.log(`\n${body}`);
if (!process.argv.includes('--no-write')) writeSection(fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url)), body, TITLE);
