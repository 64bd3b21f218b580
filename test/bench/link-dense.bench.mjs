/**
 * The per-link cost of robots handling on a real crawl: a CheerioCrawler (Crawlee 3.18, MemoryStorage)
 * over a link-dense site — one loopback origin of 3,000 pages, each linking 40 pages of the site, a
 * typical ~2 KB robots.txt none of whose rules matches a page — stopping after 1,000 pages
 * (`maxRequestsPerCrawl`). About 40,000 links go through `enqueueLinks` per crawl, so what each link
 * costs shows; the matching itself is a small share of it. Three variants: no robots handling,
 * Crawlee's `respectRobotsTxtFile: true`, Heed (`RobotsPlugin.attach`), and the control (below).
 * Each crawl is a fresh process (the robots.txt fetch and parse are part of it), the variants
 * interleaved in a rotating order. The
 * figure is the crawler process's CPU time per page; a variant's ratio to no robots handling is taken
 * within each round (the round's crawls ran back to back, under the same load), then the median and
 * the spread of those ratios are reported. Target: Heed ≤ 1.02× and at or below Crawlee's built-in.
 *
 *   node test/bench/run.mjs link-dense [--rounds=8] [--pages=3000] [--links=40] [--max-pages=1000]
 *     [--concurrency=50] [--min-concurrency=10] [--variants=none,heed] [--ab=/other/checkout --ab-label=text]
 *     [--profiled=2 | --no-profile] [--no-control] [--no-write] [--heed-options='{"identifyPages":false}'] [--signed]
 *
 * The control: each round also crawls without robots handling a second time. Its ratios to the first
 * are what this measure reads for identical code: their spread gives how closely a median of this
 * many rounds is known (95%), printed beside the target with the rounds its margin would need. A run
 * that knows its medians less closely than the target's margin cannot judge that target.
 *
 * `--profiled`: after the timed rounds, that many profiled crawls of each variant but none, from which
 * the robots handling's own CPU is read (crawl/attribution.mjs): the whole crawl's CPU moves with the
 * machine by more than either check costs, so only this ranks Heed against the built-in.
 *
 * `--heed-options`: `RobotsPlugin.attach()` options (JSON) for the Heed crawls, to read what a feature
 * costs; such a run is not written to BENCHMARKS.md.
 *
 * `--signed`: one more variant in the same rounds, Heed with `signature` (every page request and
 * robots.txt signed, Web Bot Auth, with a key made for the run): what signing costs a crawl.
 *
 * `--ab`: another checkout whose packages are built; its Heed runs as a fourth variant in the same
 * rounds, so a change is measured against the build before it under the same load.
 *
 * Needs the built packages (`npm run bench` builds them). Writes the "## Link-dense crawl" section of
 * BENCHMARKS.md unless --no-write. Profile one variant's crawl (the .cpuprofile files land in the folder):
 *   CRAWL_CPU_PROF=/tmp/prof node --expose-gc test/bench/link-dense.bench.mjs --rounds=1 --no-write
 * With crawls of `--variants=none,heed` in the folder, `node test/bench/crawl/profile-shares.mjs /tmp/prof`
 * reads what Heed makes the rest of the crawl spend.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { attributionTable, denseTable, writeSection } from './crawl/report.mjs';
import { dense } from './crawl/scenarios.mjs';

/** The text after `--<name>=` on the command line, or undefined. */
const argValue = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const option = (name, fallback) => {
  const raw = argValue(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`--${name} expects a positive whole number, got "${raw}".`);
    process.exit(2);
  }
  return value;
};
/** `--<name>=<JSON object>`, or undefined. */
function jsonOption(name) {
  const raw = argValue(name);
  if (raw === undefined) return undefined;
  let value;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    console.error(`--${name} expects a JSON object, e.g. --${name}='{"identifyPages":false}'; ${String(error)}`);
    process.exit(2);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    console.error(`--${name} expects a JSON object, e.g. --${name}='{"identifyPages":false}', got ${raw}.`);
    process.exit(2);
  }
  return value;
}
const variants = argValue('variants')?.split(',');
const heedOptions = jsonOption('heed-options');
const abRoot = argValue('ab');
const DENSE = {
  rounds: option('rounds', 8),
  pages: option('pages', 3_000),
  linksPerPage: option('links', 40),
  maxPages: option('max-pages', 1_000),
  minConcurrency: option('min-concurrency', 10),
  attributionCrawls: process.argv.includes('--no-profile') ? 0 : option('profiled', 2),
  // The control needs the crawl it is compared with: a run of chosen variants without `none` has none.
  control: !process.argv.includes('--no-control') && (!variants || variants.includes('none')),
  maxConcurrency: option('concurrency', 50),
  timeoutMs: 300_000,
  ...(variants ? { variants } : {}),
  ...(heedOptions ? { heedOptions } : {}),
  // Another checkout whose packages are built: its Heed runs as a fourth variant (an A/B of a change).
  ...(abRoot ? { abRoot, abLabel: argValue('ab-label') } : {}),
  ...(process.argv.includes('--signed') ? { signedOptions: await signedOptions() } : {}),
};
/** `signature` options with a key made for this run. */
async function signedOptions() {
  const { generateKeyPair } = await import('../../packages/manager/dist/bundle.js');
  return {
    signature: { key: generateKeyPair().privateJwk, signatureAgent: 'https://heed.example/.well-known/http-message-signatures-directory' },
  };
}
const TARGET = 1.02;
// The table is the defaults' crawl: a run of chosen variants or of other plugin options is not written.
const WRITE = !variants && !heedOptions && !process.argv.includes('--no-write');
export const DENSE_TITLE = '## Link-dense crawl: the per-link cost';

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const startedAt = new Date();
const loadAtStart = loadavg()[0];
console.log(
  `link-dense: ${DENSE.pages} pages × ${DENSE.linksPerPage} links, ${DENSE.maxPages} pages per crawl, ${DENSE.rounds} rounds (${machine}; load ${loadAtStart.toFixed(1)}) ...`,
);
if (heedOptions) console.log(`Heed crawls with ${JSON.stringify(heedOptions)} (not written to BENCHMARKS.md)`);
const result = await dense(DENSE);
const { markdown, heed, crawlee, met, control, resolves } = denseTable(result, TARGET, DENSE.abLabel);
console.log(`\n${markdown}\n`);
console.log(
  `target: crawl CPU with Heed ≤ ${TARGET}× none and ≤ Crawlee's built-in (${crawlee.toFixed(3)}×): ${heed.toFixed(3)}× — ${met ? 'met' : 'NOT MET'}`,
);
const margin = `${((TARGET - 1) * 100).toFixed(0)}%`;
const controlLine = control
  ? `the control (no robots handling, crawled twice a round) reads ${control.median.toFixed(3)}× for identical code (rounds ${control.low.toFixed(3)}–${control.high.toFixed(3)}, standard deviation ${control.sd.toFixed(3)}): a median of ${DENSE.rounds} rounds is known to ±${(control.halfWidth * 100).toFixed(1)}% (95%), ${
      resolves
        ? `so this run resolves the target's ${margin} margin`
        : `so this run cannot tell ${margin} apart and its verdict on that margin is the machine's; about ${control.roundsForMargin} rounds would resolve it`
    }`
  : undefined;
if (controlLine) console.log(controlLine);
const own = attributionTable(result.attribution, DENSE.abLabel);
if (own.markdown) console.log(`\n${own.markdown}\n`);
if (own.heedAtOrBelow !== undefined) {
  console.log(
    `robots handling's share of the crawl's CPU: Heed ${(own.heed * 100).toFixed(2)}% (${own.heedMs.toFixed(0)} ms per 1,000 pages), Crawlee's built-in ${(own.builtin * 100).toFixed(2)}% (${own.builtinMs.toFixed(0)} ms) — Heed ${own.heedAtOrBelow ? 'at or below' : 'ABOVE'} the built-in`,
  );
}

// The options this run was given, so the written command reproduces it.
const givenOptions = process.argv
  .slice(2)
  .filter((arg) => arg.startsWith('--'))
  .map((arg) => ` ${arg}`)
  .join('');
const elapsedMin = (Date.now() - startedAt.getTime()) / 60_000;
if (WRITE) {
  const body = [
    `Command: \`npm run bench -- link-dense${givenOptions}\` (= \`npm run build && node --expose-gc test/bench/run.mjs link-dense${givenOptions}\`), run`,
    `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${elapsedMin.toFixed(0)} minutes. ${machine}; load average ${loadAtStart.toFixed(1)} at the start.`,
    '',
    `A CheerioCrawler (Crawlee 3.18, \`Configuration({ persistStorage: false })\`, \`maxConcurrency\` ${DENSE.maxConcurrency}, \`minConcurrency\` ${DENSE.minConcurrency},`,
    `\`maxRequestsPerCrawl\` ${DENSE.maxPages}, \`enqueueLinks({ strategy: 'all' })\`) from /p/0 of one loopback origin of ${DENSE.pages.toLocaleString('en-US')} pages of ~2.5 KB,`,
    `each linking ${DENSE.linksPerPage} pages of the site: about ${(DENSE.maxPages * DENSE.linksPerPage).toLocaleString('en-US')} links go through \`enqueueLinks\` per crawl. robots.txt is a`,
    'typical ~2 KB shop file (`TYPICAL_ROBOTS` in test/bench/crawl/site.mjs) none of whose rules matches a page. Each crawl is a',
    'fresh process (its robots.txt fetch included); the variants run interleaved in a rotating order. The figure is the',
    "crawler process's CPU time (user + system) of `crawler.run()` per page handled; each variant's ratio to no robots",
    `handling is taken within a round, and the table gives the median of the ${DENSE.rounds} rounds' ratios and their spread (lowest–highest).`,
    ...(DENSE.control
      ? [
          'The control is a second crawl without robots handling in each round, in the same rotation: the same code, so its',
          'ratio is what this measure reads when nothing differs.',
        ]
      : []),
    '',
    markdown,
    ...(controlLine ? ['', `${controlLine[0].toUpperCase()}${controlLine.slice(1)}.`] : []),
    ...(own.markdown
      ? [
          '',
          `What the robots handling itself spent, from a CPU profile of ${DENSE.attributionCrawls} more crawls per variant (sampled every 250 µs, apart`,
          'from the timed rounds): each sample counted to the innermost frame of package code on its stack, Node internals and',
          "builtins to their caller (test/bench/crawl/attribution.mjs). Heed is its three packages' code; Crawlee's built-in is",
          "robots-parser and Crawlee's robots functions. The share is read within each crawl, so a slower minute of the",
          "machine moves it little: it ranks the two, which the whole crawl's CPU cannot (see the notes).",
          '',
          own.markdown,
          '',
          `Heed's own share of the crawl's CPU ${own.heedAtOrBelow ? 'is at or below' : 'is above'} the built-in check's: ${(own.heed * 100).toFixed(2)}% against ${(own.builtin * 100).toFixed(2)}% (${own.heedMs.toFixed(0)} ms against ${own.builtinMs.toFixed(0)} ms per 1,000 pages).`,
        ]
      : []),
  ].join('\n');
  const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
  writeSection(file, body, DENSE_TITLE);
  console.log(`wrote the link-dense section of ${file}`);
}
console.log(`link-dense benchmark: ${elapsedMin.toFixed(1)} minutes`);
