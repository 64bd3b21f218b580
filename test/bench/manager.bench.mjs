/**
 * @heed/manager benchmarks (built package: run `npm run build` first, or `npm run bench -- manager`):
 *
 *   1. Warm checks: `await manager.isAllowed(url)` on origins whose robots.txt is cached (100
 *      origins, the 100 typical ~2 KB files of test/bench/generate.mjs, URLs from urls.txt), against
 *      the bare parser's `robots.isAllowed(url, token)` on the same (file, URL) pairs, and against
 *      the peer: Crawlee's own warm check, `await crawler.isAllowedBasedOnRobotsTxtFile(url)` of a
 *      BasicCrawler with `respectRobotsTxtFile` whose robots cache holds the same 100 files (what a
 *      crawler without Heed runs before every request). Median of several rounds, the three
 *      interleaved so machine noise hits them alike.
 *   2. Cold start: N origins (default 10,000), each a real HTTP server on its own loopback address
 *      127.x.y.z, all fetched through one manager with bounded concurrency (`prefetch`).
 *   3. Memory per cached origin: heap retained by a manager + MemoryStore holding N origins (raw
 *      record + parsed rules, each checked once), after GC; and of 2,000 origins checked 100
 *      times each (their agents' rules compiled, which a file's second check does).
 *
 * Prints a markdown table and writes it to the "## @heed/manager" section of BENCHMARKS.md.
 *
 *   node --expose-gc test/bench/manager.bench.mjs [--rounds=7] [--origins=10000] [--concurrency=50]
 *       [--no-write]  (do not touch BENCHMARKS.md)
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseRobotsTxt } from '../../packages/parser/dist/bundle.js';
import { MemoryStore, RobotsManager } from '../../packages/manager/dist/bundle.js';
import { decideRecord } from '../../packages/manager/dist/policy.js';
import { okFetchOutcome } from '../support/records.mjs';
import { DATA_DIR, generate } from './generate.mjs';

if (typeof globalThis.gc !== 'function') {
  console.error('manager.bench.mjs needs --expose-gc (node --expose-gc test/bench/manager.bench.mjs)');
  process.exit(2);
}
const gc = globalThis.gc;
// Crawlee is a peer dependency of @heed/crawlee: resolve it from there (the root has no Crawlee).
const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
const { BasicCrawler } = crawleeRequire('@crawlee/basic');
const { RobotsTxtFile } = crawleeRequire('@crawlee/utils');
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Math.max(5, Number(option('rounds') ?? 7) || 7);
const ORIGINS = Math.max(100, Number(option('origins') ?? 10_000) || 10_000);
const CONCURRENCY = Math.max(1, Number(option('concurrency') ?? 50) || 50);
const WRITE = !process.argv.includes('--no-write');
const ROUND_MS = 300;
const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const TOKEN = 'HeedBot';
const quiet = { debug() {}, info() {}, warning() {}, error() {} };

generate();
const typical = readdirSync(DATA_DIR + 'typical')
  .filter((n) => n.endsWith('.txt'))
  .sort()
  .map((n) => readFileSync(DATA_DIR + 'typical/' + n));
const typicalBytes = typical.reduce((sum, b) => sum + b.length, 0) / typical.length;
const paths = readFileSync(DATA_DIR + 'urls.txt', 'utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 20_000)
  .map((url) => url.slice('https://www.example.com'.length));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString('en-US');
let sink = 0;

/** A record as the manager would have stored it after fetching `body` with a 200. */
function okRecord(origin, body, now = Date.now()) {
  return decideRecord(origin, okFetchOutcome(origin, body, now), undefined, now);
}

// --- 1. warm checks --------------------------------------------------------------------------
async function warmChecks() {
  const store = new MemoryStore();
  const origins = typical.map((_, i) => `https://site-${i}.example`);
  for (const [i, origin] of origins.entries()) await store.set(origin, okRecord(origin, typical[i]), 86_400_000);
  const manager = new RobotsManager({ userAgent: UA, store, log: quiet });
  await manager.prefetch(origins);
  const robots = typical.map((body) => parseRobotsTxt(body));
  // The same (file, URL) pairs for both: URL k goes to origin k % 100.
  const urls = paths.map((path, k) => `${origins[k % origins.length]}${path}`);
  const files = paths.map((_, k) => robots[k % robots.length]);

  const runManager = async () => {
    let allowed = 0;
    for (let k = 0; k < urls.length; k++) if (await manager.isAllowed(urls[k])) allowed++;
    return allowed;
  };
  const runParser = async () => {
    let allowed = 0;
    for (let k = 0; k < urls.length; k++) if (files[k].isAllowed(urls[k], TOKEN)) allowed++;
    return allowed;
  };
  // The peer: Crawlee's check before each request, its robots cache (keyed by origin) already filled.
  const crawler = new BasicCrawler({ requestHandler() {}, respectRobotsTxtFile: { userAgent: TOKEN } });
  origins.forEach((origin, i) =>
    crawler.robotsTxtFileCache.add(origin, RobotsTxtFile.from(`${origin}/robots.txt`, typical[i].toString('utf8'))),
  );
  const runCrawlee = async () => {
    let allowed = 0;
    for (let k = 0; k < urls.length; k++) if (await crawler.isAllowedBasedOnRobotsTxtFile(urls[k])) allowed++;
    return allowed;
  };
  const a = await runManager();
  const b = await runParser();
  if (a !== b) throw new Error(`manager and parser disagree: ${a} vs ${b} allowed`);
  // robots-parser reads a few rules differently from Google (see the parser section): close, not equal.
  const c = await runCrawlee();
  if (Math.abs(c - a) > urls.length * 0.01) throw new Error(`Crawlee's check allows ${c} of ${urls.length}, Heed ${a}: not the same work`);

  const rates = { manager: [], parser: [], crawlee: [] };
  const runs = [
    ['manager', runManager],
    ['parser', runParser],
    ['crawlee', runCrawlee],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with a different one of the three, so none is always first after a pause.
    const order = [...runs.slice(round % 3), ...runs.slice(0, round % 3)];
    for (const [name, run] of order) {
      // Each run starts on a collected heap: the garbage of the one before (Crawlee's check allocates
      // a URL object per call) must not be swept on the next one's time.
      gc();
      let done = 0;
      const start = performance.now();
      let elapsed = 0;
      do {
        sink += await run();
        done += urls.length;
        elapsed = performance.now() - start;
      } while (elapsed < ROUND_MS);
      rates[name].push((done / elapsed) * 1000);
    }
  }
  const stats = manager.stats();
  await manager.close();
  const result = {
    manager: median(rates.manager),
    parser: median(rates.parser),
    crawlee: median(rates.crawlee),
    rounds: rates.manager,
    hits: stats.cache.hits,
    fetches: stats.fetches.total,
  };
  result.ratio = result.parser / result.manager;
  result.overCrawlee = median(rates.manager.map((rate, round) => rate / rates.crawlee[round]));
  console.log(
    `warm checks/s: manager ${fmt(result.manager)} [${rates.manager.map(fmt).join(', ')}], parser ${fmt(result.parser)} [${rates.parser.map(fmt).join(', ')}], Crawlee ${fmt(result.crawlee)} [${rates.crawlee.map(fmt).join(', ')}]; parser/manager ${result.ratio.toFixed(2)}x, manager/Crawlee ${result.overCrawlee.toFixed(1)}x`,
  );
  return result;
}

// --- 2. cold start ---------------------------------------------------------------------------
/** 127.a.b.c for origin i: distinct loopback addresses, avoiding .0 and .255 octets. */
const loopback = (i) => `127.${1 + Math.floor(i / 62_500)}.${1 + (Math.floor(i / 250) % 250)}.${1 + (i % 250)}`;

async function startServers(count) {
  let requests = 0;
  const handler = (req, res) => {
    requests++;
    const i =
      Number(
        req.socket.localAddress
          .replace(/^::ffff:/, '')
          .split('.')
          .reduce((acc, octet) => acc * 256 + Number(octet), 0),
      ) % typical.length;
    res.setHeader('content-type', 'text/plain');
    res.end(typical[i]);
  };
  const servers = [];
  let port = 0;
  // The first server picks a free port; the others use the same port on their own address.
  for (let i = 0; i < count; i++) {
    const server = http.createServer(handler);
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, loopback(i), () => resolve());
    });
    port = server.address().port;
    servers.push(server);
  }
  return {
    port,
    requests: () => requests,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ),
  };
}

async function coldStart(count) {
  const setupStart = performance.now();
  const servers = await startServers(count);
  const setupMs = performance.now() - setupStart;
  const urls = Array.from({ length: count }, (_, i) => `http://${loopback(i)}:${servers.port}/some/page`);
  const manager = new RobotsManager({ userAgent: UA, log: quiet, maxConcurrency: CONCURRENCY, cacheSize: count, timeoutSecs: 30 });
  // got-scraping loads on the first fetch; keep that one-off cost out of the figure.
  const warmServer = http.createServer((_req, res) => res.end('User-agent: *\n'));
  await new Promise((resolve) => warmServer.listen(0, '127.0.0.1', resolve));
  const warmManager = new RobotsManager({ userAgent: UA, log: quiet });
  await warmManager.isAllowed(`http://127.0.0.1:${warmServer.address().port}/`);
  await warmManager.close();
  await new Promise((resolve) => warmServer.close(resolve));
  const start = performance.now();
  await manager.prefetch(urls);
  const ms = performance.now() - start;
  const stats = manager.stats();
  let allowed = 0;
  for (const url of urls) if (await manager.isAllowed(url)) allowed++;
  await manager.close();
  await servers.close();
  const result = {
    origins: count,
    ms,
    perSecond: (count / ms) * 1000,
    requests: servers.requests(),
    ok: stats.fetches.ok,
    failed: stats.fetches.total - stats.fetches.ok,
    allowed,
    setupMs,
  };
  console.log(
    `cold start: ${count} origins in ${(ms / 1000).toFixed(2)} s (${fmt(result.perSecond)} origins/s, concurrency ${CONCURRENCY}); server saw ${result.requests} requests; ${result.ok} ok, ${result.failed} failed; servers up in ${(setupMs / 1000).toFixed(1)} s`,
  );
  return result;
}

// --- 3. memory per cached origin -------------------------------------------------------------
/** Heap plus ArrayBuffer backing stores: typed arrays keep their bytes outside the JS heap. */
const used = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

/**
 * `checks` per origin: 1 measures a parsed file as most are kept; 100 one a crawler keeps checking
 * (its compiled agent and the manager's per-origin state made).
 */
async function memoryPerOrigin(count, checks) {
  const samples = [];
  for (let round = 0; round < 3; round++) {
    gc();
    gc();
    const before = used();
    const store = new MemoryStore({ maxEntries: count });
    const origins = Array.from({ length: count }, (_, i) => `https://origin-${round}-${i}.example`);
    const now = Date.now();
    for (const [i, origin] of origins.entries())
      await store.set(origin, okRecord(origin, Buffer.from(typical[i % typical.length]), now), 86_400_000);
    // Every origin must stay cached to be measured: a byte bound well above what they take.
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, cacheSize: count, maxCacheBytes: 2 ** 30 });
    await manager.prefetch(origins);
    // A file's first check walks the agent's rules; its second compiles them.
    for (const origin of origins) for (let k = 0; k < checks; k++) sink += (await manager.isAllowed(`${origin}/some/page/${k}`)) ? 1 : 0;
    gc();
    gc();
    const after = used();
    samples.push((after - before) / count);
    if (manager.stats().cache.entries !== count) throw new Error('not every origin stayed cached');
    await manager.close();
    await store.close();
  }
  // The parser's share: the same files parsed and checked once, nothing else.
  const parserSamples = [];
  for (let round = 0; round < 3; round++) {
    gc();
    gc();
    const before = used();
    const kept = [];
    for (let i = 0; i < count; i++) {
      const robots = parseRobotsTxt(Buffer.from(typical[i % typical.length]));
      for (let k = 0; k < checks; k++) sink += robots.isAllowed(`https://origin-${i}.example/some/page/${k}`, TOKEN) ? 1 : 0;
      kept.push(robots);
    }
    gc();
    gc();
    parserSamples.push((used() - before) / count);
    sink += kept.length;
    kept.length = 0; // nothing of this round may survive into the next one's baseline
  }
  const result = { bytes: median(samples), samples, parserBytes: median(parserSamples) };
  console.log(
    `memory per cached origin after ${checks} check(s) (raw record + parsed + compiled, ~${fmt(typicalBytes)} B file): ${fmt(result.bytes)} B [${samples.map(fmt).join(', ')}], of which the parsed file ${fmt(result.parserBytes)} B [${parserSamples.map(fmt).join(', ')}]`,
  );
  return result;
}

/**
 * How fast this machine runs plain JavaScript: ns per character of a loop summing `charCodeAt` over a
 * 1 MB string (best of 5). Absolute rates scale with it: the figure says how to read them on another machine.
 */
function calibrate() {
  const text = 'abcdefghij'.repeat(100_000);
  const sum = () => {
    let total = 0;
    for (let i = 0; i < text.length; i++) total = (total + text.charCodeAt(i)) | 0;
    return total;
  };
  for (let i = 0; i < 5; i++) sink += sum();
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    for (let r = 0; r < 10; r++) sink += sum();
    best = Math.min(best, ((performance.now() - start) * 1e6) / (10 * text.length));
  }
  return best;
}

// --- run, report ------------------------------------------------------------------------------
const nsPerChar = calibrate();
console.log(`calibration: ${nsPerChar.toFixed(2)} ns per character of a charCodeAt loop`);
const warm = await warmChecks();
let cold;
try {
  cold = await coldStart(ORIGINS);
} catch (error) {
  console.error(`cold start with ${ORIGINS} origins failed (${error.message}); retrying with 1,000`);
  cold = await coldStart(1_000);
}
const memory = await memoryPerOrigin(Math.min(ORIGINS, 10_000), 1);
const memoryHot = await memoryPerOrigin(Math.min(ORIGINS, 2_000), 100);

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const table = [
  '| Measure | Result |',
  '|---|---|',
  // No absolute rate is a target: this machine's speed moves with its load; the ratios are in plugin-path.bench.mjs.
  `| Warm checks/s, \`await manager.isAllowed(url)\`, ${typical.length} cached origins, typical ~${(typicalBytes / 1000).toFixed(1)} KB files | ${fmt(warm.manager)} (rounds ${fmt(Math.min(...warm.rounds))}–${fmt(Math.max(...warm.rounds))}) |`,
  `| Bare parser \`robots.isAllowed(url, token)\`, same pairs | ${fmt(warm.parser)} |`,
  `| Parser / manager (target ≤ 2×) | ${warm.ratio.toFixed(2)}× (${warm.ratio <= 2 ? 'met' : '**not met**'}) |`,
  `| Peer: Crawlee 3's own warm check, \`await crawler.isAllowedBasedOnRobotsTxtFile(url)\`, same files in its robots cache | ${fmt(warm.crawlee)}: Heed is **${warm.overCrawlee.toFixed(1)}×** as fast (median of per-round ratios) |`,
  `| Cold start: ${fmt(cold.origins)} origins on distinct loopback addresses, concurrency ${CONCURRENCY} | ${(cold.ms / 1000).toFixed(2)} s (${fmt(cold.perSecond)} origins/s; ${fmt(cold.requests)} requests, ${fmt(cold.failed)} failed) |`,
  `| Memory per cached origin checked once (record + parsed rules) | ${fmt(memory.bytes)} B (parsed file alone: ${fmt(memory.parserBytes)} B; the manager's own share ${fmt(memory.bytes - memory.parserBytes)} B, mostly the raw body kept as base64 for the store and the stale-copy fallback) |`,
  `| Memory per cached origin checked 100 times | ${fmt(memoryHot.bytes)} B (parsed file alone: ${fmt(memoryHot.parserBytes)} B) |`,
].join('\n');
console.log(`\n${table}\n`);

if (WRITE) {
  const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
  const section = [
    '## @heed/manager',
    '',
    `Command: \`npm run bench -- manager\` (= \`npm run build && node --expose-gc test/bench/run.mjs manager\`). Medians of ${ROUNDS} rounds; ${machine}; ${new Date().toISOString().slice(0, 10)}. Machine speed: ${nsPerChar.toFixed(2)} ns per character of a plain \`charCodeAt\` loop (best of 5); absolute rates scale with it, so compare this figure before comparing rates across machines.`,
    '',
    table,
    '',
    'Warm checks go through `originOf()` and the in-process LRU (lru-cache, keyed by origin; expiry by its TTL against a time refreshed',
    'every 250 ms, not `Date.now()`, which costs ~60 ns on this VM) and the parser; a warm `isAllowed` is `decide()`,',
    'the plugin\'s check (see "What users run" for its own ratios), as one of two settled promises. The peer row is what a',
    "crawler without Heed runs before each request (Crawlee's `new URL(url).origin`, its LRU, robots-parser),",
    'timed in the same rounds on the same (file, URL) pairs. Memory is shown for an origin checked once and one',
    'checked 100 times: a crawler keeps checking the origins it crawls.',
    'Cold start counts every fetch (got-scraping, one TCP connection per origin, parse, store) from `prefetch()`',
    'to the last record; the servers are node `http` servers in the same process, so the figure is the',
    "manager's own cost, not a network's. Memory counts `heapUsed + arrayBuffers` (typed arrays keep their",
    'bytes outside the JS heap). The machine (2 vCPU) is shared with other jobs: absolute figures move by up',
    'to 2× between runs, so read the ratio; run it when `uptime` shows a load below 1. Every timed run starts',
    "on a collected heap, so one contender's garbage is not swept on another's time (Crawlee's check allocates",
    'a `URL` per call).',
    '',
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf('## @heed/manager');
  let next;
  if (start === -1) next = `${current.trimEnd()}\n\n${section}`;
  else {
    const after = current.indexOf('\n## ', start + 1);
    next = current.slice(0, start) + section + (after === -1 ? '' : `\n${current.slice(after + 1)}`);
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
  console.log(`wrote the "## @heed/manager" section of ${file}`);
}
if (sink === -1) console.log(sink);
