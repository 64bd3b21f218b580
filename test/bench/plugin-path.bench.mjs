/**
 * What users run: the check a crawl makes with the plugin, side by side with what it
 * replaces, every figure a ratio with its spread over rounds, never an absolute rate. The ratios to
 * robots-parser and to Crawlee's check are information; the targets are targets.bench.mjs's and
 * link-dense.bench.mjs's.
 *
 *   1. Plugin path, warm: `await manager.decide(url, token)` (what the plugin's guard calls for every
 *      URL; 100 cached origins, the 100 typical ~2 KB files of generate.mjs) against Crawlee 3.18's
 *      own warm check (`await crawler.isAllowedBasedOnRobotsTxtFile(url)`, its robots cache holding
 *      the same files) and against the bare parser's `robots.isAllowed(url, token)`
 *      on the same (file, URL) pairs — target ≤ 1.3× its cost. Interleaved rounds in one process.
 *   2. @heed/parser against robots-parser after a long warm-up (interleaved rounds in one process):
 *      2 KB files, the 500 KiB file.
 *   3. The same, cold: each round is two fresh processes (one per library, order alternating) that
 *      run a mixed workload (parse the 100 files, parse the 500 KiB file and check it) and then time
 *      one pass over URLs they have never seen: 2 KB files, the 500 KiB file.
 *   4. Memory per cached origin on the plugin path (manager + store + parsed + compiled + the
 *      verdicts handed out), after 100 `decide()` calls per origin.
 *   5. A crawl's CPU time with the plugin over the same crawl without it, robots.txt cached (the
 *      `warm` crawl of crawl.bench.mjs, scaled down: `--crawl-pages`, `--crawl-rounds`) — ≤ 1.03×.
 *
 *   node test/bench/run.mjs plugin-path [--rounds=7] [--crawl-pages=600] [--crawl-rounds=5]
 *       [--only=warm,parser,cold,memory,crawl] [--no-write]
 *   HEED_AB_MANAGER=/path/to/other/manager/dist/bundle.js: section 1 also times that build's
 *       `decide()` (or `isAllowed()` when it has none) in the same rounds (A/B of an optimisation).
 *
 * Writes its table to the "## What users run" section of BENCHMARKS.md after a full run.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import robotsParser from 'robots-parser';
import { parseRobotsTxt } from '../../packages/parser/dist/bundle.js';
import { MemoryStore, RobotsManager, originOf } from '../../packages/manager/dist/bundle.js';
import { decideRecord } from '../../packages/manager/dist/policy.js';
import { okFetchOutcome } from '../support/records.mjs';
import { DATA_DIR, ORIGIN, generate } from './generate.mjs';

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const TOKEN = 'HeedBot';
const UA = 'HeedBot/1.0 (+https://example.com/bot)';
const ROBOTS_URL = `${ORIGIN}/robots.txt`;
const quiet = { debug() {}, info() {}, warning() {}, error() {} };
let sink = 0;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

function loadData() {
  const typicalBuffers = readdirSync(DATA_DIR + 'typical')
    .filter((n) => n.endsWith('.txt'))
    .sort()
    .map((n) => readFileSync(DATA_DIR + 'typical/' + n));
  return {
    typicalBuffers,
    typical: typicalBuffers.map((b) => b.toString('utf8')),
    big: readFileSync(DATA_DIR + 'big.robots.txt', 'utf8'),
    urls: readFileSync(DATA_DIR + 'urls.txt', 'utf8')
      .split('\n')
      .filter(Boolean),
  };
}

// --- 3 (child side). A cold process: mixed workload, then one pass over unseen URLs ---------------
const coldChild = option('cold-child');
if (coldChild !== undefined) {
  const { typical, big, urls } = loadData();
  const lib = coldChild.startsWith('heed')
    ? { parse: (body) => parseRobotsTxt(body), check: (robots, url) => robots.isAllowed(url, TOKEN) }
    : { parse: (body) => robotsParser(ROBOTS_URL, body), check: (robots, url) => robots.isAllowed(url, TOKEN) === true };
  // The mixed workload before the timed passes: parse 100 files, parse the 500 KiB file and check it.
  const files = typical.map((body) => lib.parse(body));
  const bigParsed = lib.parse(big);
  for (let i = 0; i < 20; i++) sink += lib.check(bigParsed, urls[i]) ? 1 : 0;
  // One pass each over URLs neither this process nor the workload above has seen.
  const bigUrls = urls.slice(1_000, 1_300);
  let start = performance.now();
  for (const url of bigUrls) sink += lib.check(bigParsed, url) ? 1 : 0;
  const bigMs = performance.now() - start;
  const typicalUrls = urls.slice(50_000, 80_000);
  // `heed-compiled`: each file's rules compiled for the token before the pass (Heed compiles them on
  // a file's second check, its first walks them; robots-parser while parsing), to show what that
  // share of the pass is.
  if (coldChild === 'heed-compiled') for (const file of files) for (let k = 0; k < 2; k++) sink += lib.check(file, '/') ? 1 : 0;
  start = performance.now();
  for (let i = 0; i < typicalUrls.length; i++) sink += lib.check(files[i % files.length], typicalUrls[i]) ? 1 : 0;
  const typicalMs = performance.now() - start;
  // The same pass again in the same process: what the pass costs once the code is warm.
  start = performance.now();
  for (let i = 0; i < typicalUrls.length; i++) sink += lib.check(files[i % files.length], typicalUrls[i]) ? 1 : 0;
  const typicalAgainMs = performance.now() - start;
  process.stdout.write(
    JSON.stringify({ bigMs, bigChecks: bigUrls.length, typicalMs, typicalAgainMs, typicalChecks: typicalUrls.length, sink }),
  );
  process.exit(0);
}

if (typeof globalThis.gc !== 'function') {
  console.error('plugin-path.bench.mjs needs --expose-gc (node --expose-gc test/bench/plugin-path.bench.mjs)');
  process.exit(2);
}
const gc = globalThis.gc;
const ROUNDS = Math.max(5, Number(option('rounds') ?? 7) || 7);
const CRAWL_PAGES = Math.max(100, Number(option('crawl-pages') ?? 600) || 600);
const CRAWL_ROUNDS = Math.max(3, Number(option('crawl-rounds') ?? 5) || 5);
const ONLY = option('only')?.split(',');
const section = (name) => ONLY === undefined || ONLY.includes(name);
const WRITE = ONLY === undefined && !process.argv.includes('--no-write');
/** Every timed run lasts at least this long, so timer resolution does not matter. */
const ROUND_MS = 300;

const manifest = generate();
const { typicalBuffers, typical, big, urls } = loadData();
const paths = urls.slice(0, 20_000).map((url) => url.slice(ORIGIN.length));
const rows = [];
/**
 * The target column of the ratios to robots-parser and to Crawlee's check (robots-parser inside): they
 * move with the data and the machine's load, so they are information; the targets are absolute
 * figures of Heed's own (targets.bench.mjs) and the link-dense crawl (link-dense.bench.mjs).
 */
const INFORMATION = 'information (see Targets)';
/** One row of the result table: what, the ratio (median and spread of the per-round ratios), target. */
function row(measure, ratios, target, met, note = '') {
  const value = `${median(ratios).toFixed(2)}× (rounds ${spread(ratios)})`;
  rows.push({ measure, value, target, met, note });
  console.log(
    `  ${measure}: ${value}${met === undefined ? '' : `; target ${target}: ${met ? 'met' : 'NOT MET'}`}${note ? ` — ${note}` : ''}`,
  );
}

/**
 * CPU time of this process in ms. Rounds are timed by it, not by the wall clock: on a shared machine
 * a round preempted by another process would otherwise count time it did not run.
 */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Times each contender for at least ROUND_MS of CPU per round, contenders interleaved in a rotating order. */
async function interleaved(contenders, rounds, perRun) {
  const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  const entries = Object.entries(contenders);
  for (let round = 0; round < rounds; round++) {
    const order = [...entries.slice(round % entries.length), ...entries.slice(0, round % entries.length)];
    for (const [name, run] of order) {
      gc(); // one contender's garbage is not swept on another's time
      let done = 0;
      let elapsed = 0;
      const start = cpuMs();
      do {
        sink += await run();
        done += perRun;
        elapsed = cpuMs() - start;
      } while (elapsed < ROUND_MS);
      rates[name].push((done / elapsed) * 1000);
    }
  }
  return rates;
}

/** A record as the manager would have stored it after fetching `body` with a 200. */
function okRecord(origin, body, now = Date.now()) {
  return decideRecord(origin, okFetchOutcome(origin, body, now), undefined, now);
}

async function warmManager(Manager, Store, origins) {
  const store = new Store();
  for (const [i, origin] of origins.entries()) await store.set(origin, okRecord(origin, typicalBuffers[i]), 86_400_000);
  const manager = new Manager({ userAgent: UA, store, log: quiet });
  await manager.prefetch(origins);
  return manager;
}

console.log(`# What users run — ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${ROUNDS} rounds`,
);

// --- 1. the plugin path, warm --------------------------------------------------------------------
if (section('warm')) {
  console.log('\nplugin path, warm (100 cached origins, typical 2 KB files)');
  const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
  const { BasicCrawler } = crawleeRequire('@crawlee/basic');
  const { RobotsTxtFile } = crawleeRequire('@crawlee/utils');
  const origins = typical.map((_, i) => `https://site-${i}.example`);
  const manager = await warmManager(RobotsManager, MemoryStore, origins);
  const robots = typical.map((body) => parseRobotsTxt(body));
  // The same (file, URL) pairs for all: URL k goes to origin k % 100.
  const pairUrls = paths.map((path, k) => `${origins[k % origins.length]}${path}`);
  const files = paths.map((_, k) => robots[k % robots.length]);
  const byOrigin = new Map(origins.map((origin, i) => [origin, robots[i]]));
  const crawler = new BasicCrawler({ requestHandler() {}, respectRobotsTxtFile: { userAgent: TOKEN } });
  origins.forEach((origin, i) => crawler.robotsTxtFileCache.add(origin, RobotsTxtFile.from(`${origin}/robots.txt`, typical[i])));
  const contenders = {
    plugin: async () => {
      let allowed = 0;
      // As the guard calls it: one awaited verdict per URL.
      for (let k = 0; k < pairUrls.length; k++) if ((await manager.decide(pairUrls[k], TOKEN)).allowed) allowed++;
      return allowed;
    },
    parser: async () => {
      let allowed = 0;
      for (let k = 0; k < pairUrls.length; k++) if (files[k].isAllowed(pairUrls[k], TOKEN)) allowed++;
      return allowed;
    },
    crawlee: async () => {
      let allowed = 0;
      for (let k = 0; k < pairUrls.length; k++) if (await crawler.isAllowedBasedOnRobotsTxtFile(pairUrls[k])) allowed++;
      return allowed;
    },
    // The least any per-origin cache adds to the parser: the URL's origin, one Map lookup by it.
    floor: async () => {
      let allowed = 0;
      for (let k = 0; k < pairUrls.length; k++) if (byOrigin.get(originOf(pairUrls[k])).isAllowed(pairUrls[k], TOKEN)) allowed++;
      return allowed;
    },
  };
  const abPath = process.env.HEED_AB_MANAGER;
  let other;
  if (abPath) {
    const ab = await import(pathToFileURL(abPath).href);
    other = await warmManager(ab.RobotsManager, ab.MemoryStore, origins);
    // HEED_AB_METHOD=check times that build's check(), for a build that has one. A build whose
    // decide() answers a warm check at once (not a promise) is awaited only for a promise, as its guard did.
    const hasDecide = typeof other.decide === 'function' && process.env.HEED_AB_METHOD !== 'check';
    const viaCheck = process.env.HEED_AB_METHOD === 'check';
    contenders.ab = async () => {
      let allowed = 0;
      if (viaCheck)
        for (let k = 0; k < pairUrls.length; k++) {
          if ((await other.check(pairUrls[k], TOKEN)).allowed) allowed++;
        }
      else if (hasDecide)
        for (let k = 0; k < pairUrls.length; k++) {
          const pending = other.decide(pairUrls[k], TOKEN);
          if ((pending instanceof Promise ? await pending : pending).allowed) allowed++;
        }
      else for (let k = 0; k < pairUrls.length; k++) if (await other.isAllowed(pairUrls[k], TOKEN)) allowed++;
      return allowed;
    };
  }
  // The same work: the plugin path and the parser agree exactly; robots-parser reads a few rules
  // differently from Google (see the parser bench), so Crawlee's count is close, not equal.
  const a = await contenders.plugin();
  const b = await contenders.parser();
  const c = await contenders.crawlee();
  if (a !== b) throw new Error(`plugin path and parser disagree: ${a} vs ${b} allowed`);
  if (Math.abs(c - a) > pairUrls.length * 0.01)
    throw new Error(`Crawlee's check allows ${c} of ${pairUrls.length}, Heed ${a}: not the same work`);
  // A long warm-up: a crawl checks millions of URLs.
  for (let i = 0; i < 20; i++) for (const run of Object.values(contenders)) sink += await run();
  const rates = await interleaved(contenders, ROUNDS, pairUrls.length);
  const perRound = (f) => rates.plugin.map((rate, round) => f(rate, round));
  row(
    "Plugin path (`await manager.decide(url, token)`) over Crawlee 3.18's warm check (`await crawler.isAllowedBasedOnRobotsTxtFile(url)`), speed",
    perRound((rate, r) => rate / rates.crawlee[r]),
    INFORMATION,
    undefined,
  );
  row(
    "Plugin path's cost over the bare parser's `robots.isAllowed(url, token)`, same (file, URL) pairs",
    perRound((rate, r) => rates.parser[r] / rate),
    '≤ 1.3×',
    median(perRound((rate, r) => rates.parser[r] / rate)) <= 1.3,
  );
  row(
    'Bound: the least a per-origin cache adds, `byOrigin.get(originOf(url)).isAllowed(url, token)` (a `Map`, no recency, no expiry, no verdict object), cost over the bare parser',
    rates.floor.map((rate, r) => rates.parser[r] / rate),
    '—',
    undefined,
    'the floor of the row above',
  );
  if (other) {
    const ab = perRound((rate, r) => rate / rates.ab[r]);
    console.log(`  A/B: this build's plugin path over ${abPath}: ${median(ab).toFixed(3)}× as fast (rounds ${spread(ab)})`);
    await other.close();
  }
  await manager.close();
}

// --- 2. the parser against robots-parser, warm ------------------------------------------------------
if (section('parser')) {
  console.log('\n@heed/parser against robots-parser, after a long warm-up');
  const heedFiles = typical.map((body) => parseRobotsTxt(body));
  const rpFiles = typical.map((body) => robotsParser(ROBOTS_URL, body));
  const heedBig = parseRobotsTxt(big);
  const rpBig = robotsParser(ROBOTS_URL, big);
  const many = urls.slice(0, 30_000);
  const sample = urls.filter((_, i) => i % 100 === 0).slice(0, 300);
  const emptyFiles = typical.map(() => parseRobotsTxt(''));
  const typicalPass = {
    heed: () => {
      let n = 0;
      for (let i = 0; i < many.length; i++) if (heedFiles[i % 100].isAllowed(many[i], TOKEN)) n++;
      return n;
    },
    rp: () => {
      let n = 0;
      for (let i = 0; i < many.length; i++) if (rpFiles[i % 100].isAllowed(many[i], TOKEN) === true) n++;
      return n;
    },
    // No rules: what a check costs before any matching (reading the URL, finding the agent's rules).
    empty: () => {
      let n = 0;
      for (let i = 0; i < many.length; i++) if (emptyFiles[i % 100].isAllowed(many[i], TOKEN)) n++;
      return n;
    },
  };
  const bigPass = {
    heed: () => {
      let n = 0;
      for (const url of sample) if (heedBig.isAllowed(url, TOKEN)) n++;
      return n;
    },
    rp: () => {
      let n = 0;
      for (const url of sample) if (rpBig.isAllowed(url, TOKEN) === true) n++;
      return n;
    },
  };
  const warmUpUntil = performance.now() + 3_000;
  while (performance.now() < warmUpUntil) for (const pass of [typicalPass, bigPass]) for (const run of Object.values(pass)) sink += run();
  const typicalRates = await interleaved(typicalPass, ROUNDS, many.length);
  const bigRates = await interleaved(bigPass, ROUNDS, sample.length);
  const overRp = (rates) => rates.heed.map((rate, r) => rate / rates.rp[r]);
  row(
    'Parser over robots-parser, warm, 2 KB files (30,000 URLs, URL i against file i mod 100)',
    overRp(typicalRates),
    INFORMATION,
    undefined,
  );
  const matcherShare = typicalRates.heed.map((rate, r) => 1 - rate / typicalRates.empty[r]);
  row(
    'Bound: the parser with no rules (URL read and call only) over robots-parser on the 2 KB files, warm: the ratio a matcher costing nothing would reach',
    typicalRates.empty.map((rate, r) => rate / typicalRates.rp[r]),
    '—',
    undefined,
    `matching is ${(100 * median(matcherShare)).toFixed(0)}% of a 2 KB check`,
  );
  row('Parser over robots-parser, warm, 500 KiB file (300 URLs)', overRp(bigRates), INFORMATION, undefined);
}

// --- 3. the parser against robots-parser, cold ------------------------------------------------------
function coldRun(lib) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), `--cold-child=${lib}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`cold ${lib} process exited with ${code}`))));
  });
}
if (section('cold')) {
  console.log('\n@heed/parser against robots-parser, cold: one pass over unseen URLs in a fresh process after a mixed workload');
  const typicalRatios = [];
  const bigRatios = [];
  const compiledRatios = [];
  const heedWarmUp = [];
  const rpWarmUp = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = {};
    const libs = ['heed', 'rp', 'heed-compiled'];
    for (const lib of round % 2 ? libs.reverse() : libs) result[lib] = await coldRun(lib);
    typicalRatios.push(result.rp.typicalMs / result.heed.typicalMs);
    bigRatios.push(result.rp.bigMs / result.heed.bigMs);
    compiledRatios.push(result.rp.typicalMs / result['heed-compiled'].typicalMs);
    heedWarmUp.push(result.heed.typicalMs / result.heed.typicalAgainMs);
    rpWarmUp.push(result.rp.typicalMs / result.rp.typicalAgainMs);
  }
  row('Parser over robots-parser, cold single pass, 2 KB files (30,000 unseen URLs)', typicalRatios, INFORMATION, undefined);
  row('Parser over robots-parser, cold single pass, 500 KiB file (300 unseen URLs)', bigRatios, INFORMATION, undefined);
  row(
    "Bound: the cold 2 KB pass with each file's rules compiled before it (Heed compiles them on a file's second check, robots-parser while parsing)",
    compiledRatios,
    '—',
    undefined,
  );
  row(
    "Bound: Heed's cold 2 KB pass over the same pass run again in its process (time of V8's warm-up: interpreter, then compiled code)",
    heedWarmUp,
    '—',
    undefined,
    `robots-parser's: ${median(rpWarmUp).toFixed(2)}× (rounds ${spread(rpWarmUp)})`,
  );
}

// --- 4. memory per cached origin on the plugin path ---------------------------------------------------
/** What a skip reads: `rule` (the plugin's), or `explain` (`HEED_SKIP_DETAIL=explain`: the groups too, for comparison). */
const SKIP_DETAIL = process.env.HEED_SKIP_DETAIL === 'explain' ? 'explain' : 'rule';
if (section('memory')) {
  console.log('\nmemory per cached origin on the plugin path');
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const COUNT = 2_000;
  const CHECKS = 100;
  const samples = [];
  for (let round = 0; round < 3; round++) {
    gc();
    gc();
    const before = used();
    const store = new MemoryStore({ maxEntries: COUNT });
    const origins = Array.from({ length: COUNT }, (_, i) => `https://origin-${round}-${i}.example`);
    const now = Date.now();
    for (const [i, origin] of origins.entries())
      await store.set(origin, okRecord(origin, typicalBuffers[i % typicalBuffers.length], now), 86_400_000);
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, cacheSize: COUNT, maxCacheBytes: 2 ** 30 });
    await manager.prefetch(origins);
    // Each origin's crawl-delay is asked for and each skip's rule read, as the plugin does.
    for (const origin of origins) {
      sink += (await manager.crawlDelay(`${origin}/`, TOKEN)) ?? 0;
      for (let k = 0; k < CHECKS; k++) {
        const verdict = await manager.decide(`${origin}${paths[k]}`, TOKEN);
        sink += verdict.allowed ? 1 : SKIP_DETAIL === 'explain' ? (verdict.explain()?.rule?.line ?? 0) : (verdict.rule()?.line ?? 0);
      }
    }
    gc();
    gc();
    samples.push((used() - before) / COUNT);
    if (manager.stats().cache.entries !== COUNT) throw new Error('not every origin stayed cached');
    await manager.close();
    await store.close();
  }
  const bytes = median(samples);
  const line = `${Math.round(bytes).toLocaleString('en-US')} B (rounds ${samples.map((s) => Math.round(s).toLocaleString('en-US')).join(', ')})`;
  rows.push({
    measure: `Memory per cached origin after ${CHECKS} plugin-path checks (record kept for the store + parsed file + compiled agent + decisions handed out, the crawl-delay asked for, each skip's rule read with ${SKIP_DETAIL === 'rule' ? '`verdict.rule()`, as the plugin does' : '`verdict.explain()`'}), typical ~2 KB file`,
    value: line,
    target: '—',
    met: undefined,
    note: '',
  });
  console.log(`  ${line}`);
}

// --- 5. a crawl with the plugin over the same crawl without it --------------------------------------
if (section('crawl')) {
  console.log(`\ncrawl CPU time, robots.txt cached: ${CRAWL_PAGES} pages, ${CRAWL_ROUNDS} rounds (no robots handling / Heed, alternating)`);
  const { warm } = await import('./crawl/scenarios.mjs');
  const result = await warm({
    minConcurrency: 50,
    maxConcurrency: 200,
    rounds: CRAWL_ROUNDS,
    pages: CRAWL_PAGES,
    origins: 10,
    timeoutMs: 300_000,
    variants: ['none', 'heed'],
  });
  const cpu = (variant) => result.runs[variant].map((r) => (r.outcome === 'finished' ? r.result.cpuMs : NaN));
  const none = cpu('none');
  const ratios = cpu('heed')
    .map((ms, round) => ms / none[round])
    .filter(Number.isFinite);
  row(
    `Crawl CPU time with the plugin over the same crawl without it (CheerioCrawler, ${result.expectedPages} pages over 10 origins, every link allowed, robots.txt cached; each crawl a fresh process)`,
    ratios,
    '≤ 1.03×',
    median(ratios) <= 1.03,
    `median CPU ${(median(none) / 1000).toFixed(2)} s without`,
  );
}

// --- report -------------------------------------------------------------------------------------
const table = [
  '| Measure | Ratio (median, spread over rounds) | Target | Met |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.measure} | ${r.value}${r.note ? `; ${r.note}` : ''} | ${r.target} | ${r.met === undefined ? '—' : r.met ? 'met' : '**not met**'} |`,
  ),
].join('\n');
console.log(`\n${table}\n`);

if (WRITE) {
  const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const text = [
    '## What users run',
    '',
    `Command: \`npm run bench -- plugin-path\` (= \`npm run build && node --expose-gc test/bench/run.mjs plugin-path\`). ${ROUNDS} rounds; ${machine}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end; ${new Date().toISOString().slice(0, 10)}. Data: \`test/bench/generate.mjs\` (seeded), ${JSON.stringify(manifest)}.`,
    '',
    table,
    '',
    'Every ratio is the median of per-round ratios, with the lowest and highest round; the contenders of a round run',
    "back to back, in a rotating order, each on a collected heap, each timed by the process's CPU time (not the wall clock: the machine is shared). The plugin path is `RobotsManager#decide()`, which the",
    "plugin's guard calls for every URL (what decided in detail, `verdict.explain()`, only for a URL it skips). The cold rows run",
    'each library in a fresh process (a pair per round, order alternating) that parses the 100 files and the 500 KiB',
    'file and checks it, then times one pass over URLs it has not seen. The crawl row is the `warm` crawl of',
    '`crawl.bench.mjs` scaled down (the full one: `npm run bench -- crawl`); the machine is shared (its load average',
    'is in the command line above), so the spread can be wide: read the median and the spread together.',
    '',
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf('## What users run');
  let next;
  if (start === -1) {
    // First section after the title: this is what a reader should see first.
    const firstSection = current.indexOf('\n## ');
    next =
      firstSection === -1
        ? `${current.trimEnd()}\n\n${text}`
        : `${current.slice(0, firstSection + 1)}${text}\n${current.slice(firstSection + 1)}`;
  } else {
    const after = current.indexOf('\n## ', start + 1);
    next = current.slice(0, start) + text + (after === -1 ? '' : `\n${current.slice(after + 1)}`);
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
  console.log(`wrote the "## What users run" section of ${file}`);
}
if (sink === -1) console.log(sink);
