/**
 * A/B of two builds of @heed/parser in one process, on the path a crawl takes: each round times the
 * same work with both builds, one after the other (order alternating), by CPU time, and the figure
 * is the median of the per-round ratios (B's time over A's: above 1, A is faster).
 *
 *   cp -r packages/parser/dist /tmp/parser-a   # one build
 *   ... change, npm run build ...
 *   node --expose-gc test/bench/parser-ab.mjs /tmp/parser-a/index.js packages/parser/dist/index.js [--rounds=15]
 *
 * HEED_CORPUS_DIR names the real files (default: test/fixtures/real-robots-sample/); every 10th is read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DATA_DIR, generate } from './generate.mjs';

const [a, b] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (a === undefined || b === undefined || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc test/bench/parser-ab.mjs <a/dist/index.js> <b/dist/index.js> [--rounds=N]');
  process.exit(2);
}
const rounds = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 15);
const builds = [
  { name: 'A', parse: (await import(pathToFileURL(a).href)).parseRobotsTxt },
  { name: 'B', parse: (await import(pathToFileURL(b).href)).parseRobotsTxt },
];
generate();
const urls = readFileSync(DATA_DIR + 'urls.txt', 'utf8')
  .split('\n')
  .filter(Boolean);
const typical = readdirSync(DATA_DIR + 'typical')
  .filter((name) => name.endsWith('.txt'))
  .sort()
  .map((name) => readFileSync(DATA_DIR + 'typical/' + name, 'utf8'));
const big = readFileSync(DATA_DIR + 'big.robots.txt', 'utf8');
const hostile = readFileSync(DATA_DIR + 'hostile.robots.txt', 'utf8');
const hostileUrls = readFileSync(DATA_DIR + 'hostile-urls.txt', 'utf8')
  .split('\n')
  .filter(Boolean);
const dir = process.env.HEED_CORPUS_DIR ?? fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
const real = readdirSync(dir)
  .filter((name) => name !== 'README.md')
  .sort()
  .filter((_, i) => i % 10 === 0)
  .map((name) => readFileSync(`${dir.replace(/\/$/, '')}/${name}`, 'utf8'));
const UA = 'HeedBot';
let sink = 0;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];

/** `work(build)` returns a function doing one slice of work: prepared outside the timing. */
function compare(label, prepare) {
  const ratios = [];
  const times = { A: [], B: [] };
  for (const build of builds) prepare(build)(); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...builds].reverse() : builds;
    for (const build of order) {
      const run = prepare(build);
      globalThis.gc();
      const start = cpuMs();
      run();
      times[build.name].push(cpuMs() - start);
    }
    ratios.push(times.B[round] / times.A[round]);
  }
  const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  console.log(
    `${label}: A ${median(times.A).toFixed(1)} ms, B ${median(times.B).toFixed(1)} ms; B/A ${median(ratios).toFixed(2)} (rounds ${spread})`,
  );
}

const parsedAll = (build, bodies) => bodies.map((body) => build.parse(body));
const warm = new Map(
  builds.map((build) => [build.name, { typical: parsedAll(build, typical), real: parsedAll(build, real), big: build.parse(big) }]),
);
compare('warm checks, 2 KB files (100,000 URLs, URL i against file i mod 100)', (build) => () => {
  const files = warm.get(build.name).typical;
  for (let i = 0; i < urls.length; i++) sink += files[i % files.length].isAllowed(urls[i], UA) ? 1 : 0;
});
compare(`warm checks, ${real.length} real files × 100 URLs`, (build) => () => {
  for (const robots of warm.get(build.name).real) for (let i = 0; i < 100; i++) sink += robots.isAllowed(urls[i], UA) ? 1 : 0;
});
compare('warm checks, 500 KiB file (2,000 URLs)', (build) => () => {
  const robots = warm.get(build.name).big;
  for (let i = 0; i < urls.length; i += 50) sink += robots.isAllowed(urls[i], UA) ? 1 : 0;
});
compare('cold: parse + first check, 100 × 2 KB files', (build) => () => {
  for (let i = 0; i < typical.length; i++) sink += build.parse(typical[i]).isAllowed(urls[i], UA) ? 1 : 0;
});
compare(`cold: parse + 100 checks, ${real.length} real files`, (build) => () => {
  for (const body of real) {
    const robots = build.parse(body);
    for (let i = 0; i < 100; i++) sink += robots.isAllowed(urls[i], UA) ? 1 : 0;
  }
});
const hostileParsed = new Map(builds.map((build) => [build.name, build.parse(hostile)]));
compare(`hostile file, ${hostileUrls.length} URLs of 2,000 chars`, (build) => () => {
  const robots = hostileParsed.get(build.name);
  for (const url of hostileUrls) sink += robots.isAllowed(url, UA) ? 1 : 0;
});
console.log(`(sink ${sink})`);
