/**
 * A broad crawl with the plugin, as a user runs one: a CheerioCrawler (Crawlee 3.18, MemoryStorage)
 * given the front page of each of many origins, every origin a host name of its own (`o<i>.example`)
 * with its own real robots.txt (real-files.mjs), all reached through one forward proxy on 127.0.0.1
 * (crawl/broad-proxy.mjs, its own process) set as the crawler's `proxyConfiguration`. Each origin is
 * new to the crawl: the plugin fetches its robots.txt through the proxy (the crawler's session's),
 * then lets its page go or skips it. Side by side, in fresh processes, in turn: the same crawl
 * without robots handling, and with `RobotsPlugin.attach()` (its manager's cache and store sized to
 * hold every origin, as the README's scale section says; no sitemap feeding, which would add
 * requests the crawl without Heed does not make).
 *
 * Per crawl: pages handled, wall time, the crawler process's CPU per origin; with Heed, the heap the
 * plugin, its manager and its store hold once the crawl is done (released when they close, measured
 * after a full collection) per origin, and the process's RSS. The ratios to the crawl without Heed
 * are taken within each round.
 *
 *   node --expose-gc test/bench/broad-crawl.bench.mjs [--origins=100000] [--rounds=1] [--concurrency=50] [--file-bytes=300-900] [--no-write]
 *   npm run bench -- broad-crawl
 *
 * Writes the "## Broad crawls: the plugin" section of BENCHMARKS.md unless --no-write (with
 * --file-bytes, "## Broad crawls: typical files through the plugin").
 */
import { fork } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeSection } from './crawl/report.mjs';
import { runCrawl } from './crawl/run-crawl.mjs';
import { USER_AGENT, median } from './crawl/scenarios.mjs';
import { files, filesSource } from './real-files.mjs';

const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ORIGINS = option('origins', 100_000);
const ROUNDS = option('rounds', 1);
const CONCURRENCY = option('concurrency', 50);

const KiB = 1024;

// `--file-bytes=300-900`: only the real files of that size band (the median file's), for what a typical origin costs.
const BAND = process.argv.find((a) => a.startsWith('--file-bytes='))?.slice('--file-bytes='.length);
const [bandFrom, bandTo] = (BAND ?? '0-Infinity').split('-').map(Number);
const pool = files.filter((body) => body.length >= bandFrom && body.length < bandTo);
// A band's figures have a section of their own.
const TITLE = BAND === undefined ? '## Broad crawls: the plugin' : '## Broad crawls: typical files through the plugin';

function startProxy() {
  const child = fork(fileURLToPath(new URL('./crawl/broad-proxy.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...(BAND === undefined ? {} : { BROAD_FILE_BYTES: BAND }) },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, url: `http://127.0.0.1:${message.port}` }));
    child.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before it listened`)));
  });
}

function countsOf(child) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ type: 'counts' });
  });
}

const proxy = await startProxy();
const startUrls = Array.from({ length: ORIGINS }, (_, i) => `http://o${i}.example/`);
// Room for every origin: real files average about 13 KB held per origin in the manager.
const room = Math.max(256 * KiB * KiB, ORIGINS * 32 * KiB);
const job = (variant) => ({
  variant,
  startUrls,
  userAgent: USER_AGENT,
  minConcurrency: Math.min(10, CONCURRENCY),
  maxConcurrency: CONCURRENCY,
  proxyUrl: proxy.url,
  measureHeap: true,
  heapSampleMs: 3_600_000,
  maxOldSpaceMb: Math.max(4096, Math.ceil((ORIGINS * 48 * KiB) / KiB / KiB)),
  heed: { cacheSize: ORIGINS + 1_000, storeEntries: ORIGINS + 1_000, maxCacheBytes: room, storeBytes: room },
  heedOptions: { sitemaps: false, logSkips: false },
});

const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['none', 'heed'] : ['heed', 'none'];
  const crawls = {};
  for (const variant of order) {
    const before = await countsOf(proxy.child);
    const outcome = await runCrawl(job(variant), 3 * 3_600_000);
    if (outcome.outcome !== 'finished') throw new Error(`the ${variant} crawl did not finish: ${outcome.outcome} ${outcome.error ?? ''}`);
    const after = await countsOf(proxy.child);
    crawls[variant] = { ...outcome.result, robots: after.robots - before.robots, served: after.pages - before.pages };
    const r = crawls[variant];
    console.log(
      `round ${round + 1}, ${variant}: ${r.pages.toLocaleString('en-US')} pages in ${(r.ms / 1000).toFixed(0)} s, CPU ${((r.cpuMs * 1000) / ORIGINS).toFixed(0)} µs per origin, ${r.robots.toLocaleString('en-US')} robots.txt fetched, ${r.requestsFailed} failed` +
        (variant === 'heed'
          ? `; Heed holds ${(r.heap.heedRetained / r.manager.cache.entries / KiB).toFixed(1)} KB per origin (${r.manager.cache.entries.toLocaleString('en-US')} held), RSS ${(r.heap.rss / KiB / KiB).toFixed(0)} MB`
          : `; RSS ${(r.heap.rss / KiB / KiB).toFixed(0)} MB`),
    );
  }
  rounds.push(crawls);
}
proxy.child.disconnect();

const last = rounds.at(-1);
const cpuRatios = rounds.map((r) => r.heed.cpuMs / r.none.cpuMs);
const wallRatios = rounds.map((r) => r.heed.ms / r.none.ms);
const perOrigin = (r) => (r.heap.heedRetained / r.manager.cache.entries / KiB).toFixed(1);
const n = (value) => Math.round(value).toLocaleString('en-US');
const body = [
  `A CheerioCrawler (Crawlee 3.18) given the front page of ${n(ORIGINS)} origins, each a host name of its own serving its own copy of a real robots.txt (${pool.length.toLocaleString('en-US')} files of ${filesSource}${BAND === undefined ? '' : `, those of ${BAND} B`}), all through one loopback proxy set as the crawler's proxy; ${CONCURRENCY} pages at a time; each crawl a fresh process, with and without \`RobotsPlugin.attach()\` in turn (its manager and store sized to hold every origin, no sitemap feeding). ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}. Command: \`node --expose-gc test/bench/broad-crawl.bench.mjs --origins=${ORIGINS}${BAND === undefined ? '' : ` --file-bytes=${BAND}`}\` (\`npm run bench -- broad-crawl\`), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.`,
  '',
  '| crawl | pages handled | wall time | CPU per origin | robots.txt fetched | RSS at the end | held by Heed per origin |',
  '|---|---|---|---|---|---|---|',
  ...['none', 'heed'].map((variant) => {
    const r = last[variant];
    return `| ${variant === 'none' ? 'without robots handling' : 'with Heed'} | ${n(r.pages)} | ${n(r.ms / 1000)} s | ${n((r.cpuMs * 1000) / ORIGINS)} µs | ${n(r.robots)} | ${n(r.heap.rss / KiB / KiB)} MB | ${variant === 'heed' ? `${perOrigin(r)} KB (${n(r.manager.cache.entries)} origins held)` : '–'} |`;
  }),
  '',
  `With Heed the crawl took ${median(wallRatios).toFixed(2)}× the time and ${median(cpuRatios).toFixed(2)}× the CPU of the crawl without it (${rounds.length === 1 ? 'one round' : `median of ${rounds.length} rounds: ${cpuRatios.map((r) => r.toFixed(2)).join(', ')}`}): every origin's robots.txt fetched, parsed and checked, against a crawl that fetches one page per origin. Pages robots.txt disallows are skipped, so the crawl with Heed handles fewer.`,
].join('\n');
console.log(`\n${body}`);
if (!process.argv.includes('--no-write')) writeSection(fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url)), body, TITLE);
