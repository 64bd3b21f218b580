/**
 * @heed/parser against robots-parser (the parser Crawlee uses), side by side in one run on the same
 * data (test/bench/generate.mjs). Each figure is the median of several rounds; the two libraries
 * alternate inside every round so that machine noise hits both alike. The ratios are what matter.
 *
 * Run: `npm run bench -- parser` (builds first), or `node --expose-gc test/bench/parser.bench.mjs`
 * after `npm run build`. Options:
 *   --rounds=N          rounds per figure (default 7, at least 5)
 *   --full-agreement    compare the verdicts of all 100k URLs on the 500 KiB file too (robots-parser
 *                       needs about two minutes for that; by default every 10th URL)
 *   --only=a,b          some sections: parse, check, heap, corpus, hostile, agreement (for --cpu-prof)
 *   --corpus-every=N    corpus section: every Nth real file (default 10)
 *   --lib=heed|rp       one library only (for --cpu-prof; no ratios)
 * HEED_PARSER_DIST=/path/to/dist/index.js measures another build of the parser (A/B comparisons).
 * HEED_CORPUS_DIR=/path/to/real-robots/ reads the real files of the corpus section from there
 * (default: the sample in test/fixtures/real-robots-sample/).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import robotsParser from 'robots-parser';
import { DATA_DIR, ORIGIN, generate } from './generate.mjs';

const parserEntry = process.env.HEED_PARSER_DIST
  ? pathToFileURL(process.env.HEED_PARSER_DIST).href
  : '../../packages/parser/dist/bundle.js';
const { parseRobotsTxt } = await import(parserEntry);

if (typeof globalThis.gc !== 'function') {
  console.error('parser.bench.mjs needs --expose-gc (node --expose-gc test/bench/parser.bench.mjs)');
  process.exit(2);
}
const gc = globalThis.gc;
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Math.max(5, Number(option('rounds') ?? 7) || 7);
const FULL_AGREEMENT = process.argv.includes('--full-agreement');
const ONLY = option('only')?.split(',');
const section = (name) => ONLY === undefined || ONLY.includes(name);
/** Every round of a throughput figure runs at least this long, so timer resolution does not matter. */
const ROUND_MS = 250;
/** The product token both libraries are asked about; it is named by no group, so `*` applies. */
const UA = 'HeedBot';
const ROBOTS_URL = `${ORIGIN}/robots.txt`;

const manifest = generate();
const big = readFileSync(DATA_DIR + 'big.robots.txt', 'utf8');
const bigBytes = Buffer.byteLength(big);
const typicalBuffers = readdirSync(DATA_DIR + 'typical')
  .filter((n) => n.endsWith('.txt'))
  .sort()
  .map((n) => readFileSync(DATA_DIR + 'typical/' + n));
const typical = typicalBuffers.map((b) => b.toString('utf8'));
const typicalBytes = typicalBuffers.reduce((sum, b) => sum + b.length, 0);
const urls = readFileSync(DATA_DIR + 'urls.txt', 'utf8')
  .split('\n')
  .filter(Boolean);
const hostile = readFileSync(DATA_DIR + 'hostile.robots.txt', 'utf8');
const hostileUrls = readFileSync(DATA_DIR + 'hostile-urls.txt', 'utf8')
  .split('\n')
  .filter(Boolean);

/** The two libraries behind one interface: parse a body, check a URL. */
const heed = { name: '@heed/parser', parse: (body) => parseRobotsTxt(body), check: (robots, url) => robots.isAllowed(url, UA) };
const rp = {
  name: 'robots-parser',
  parse: (body) => robotsParser(ROBOTS_URL, body),
  check: (robots, url) => robots.isAllowed(url, UA) === true,
};
const lib = option('lib');
const libraries = lib === 'heed' ? [heed] : lib === 'rp' ? [rp] : [heed, rp];
const both = libraries.length === 2;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const now = () => performance.now();
/** Alternates which library goes first, round by round. */
const inRoundOrder = (round) => (round % 2 ? [...libraries].reverse() : libraries);
let sink = 0; // results feed this so the engine cannot drop the work

/**
 * Median throughput over ROUNDS rounds, libraries interleaved: `unit(lib)` does `size` units of work
 * and is repeated until the round lasts ROUND_MS.
 */
function throughput(label, unit, size) {
  const rates = new Map(libraries.map((l) => [l.name, []]));
  for (const l of libraries) unit(l); // warm-up: JIT and lazily compiled state
  for (let round = 0; round < ROUNDS; round++) {
    for (const l of inRoundOrder(round)) {
      gc(); // the other library's garbage is not this one's to collect
      let done = 0;
      let elapsed = 0;
      const start = now();
      do {
        unit(l);
        done++;
        elapsed = now() - start;
      } while (elapsed < ROUND_MS);
      rates.get(l.name).push((done * size) / (elapsed / 1000));
    }
  }
  const result = Object.fromEntries(libraries.map((l) => [l.name, median(rates.get(l.name))]));
  console.log(`  ${label}: ${libraries.map((l) => `${l.name} ${format(result[l.name])}`).join(', ')}`);
  return result;
}

function format(value) {
  if (value === undefined) return '—';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return value >= 100 ? value.toFixed(0) : value.toFixed(2);
}

function describeUrl(url) {
  const path = url.slice(ORIGIN.length);
  return `${path.slice(0, 12)}… (${path.length} chars)`;
}

console.log(`# @heed/parser vs robots-parser — ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; ${ROUNDS} rounds, medians`,
);
console.log(`data: ${JSON.stringify(manifest)}`);
console.log('');
const results = {};

// --- parse ---------------------------------------------------------------------------------------
if (section('parse')) {
  console.log('parse');
  results.parseBig = throughput(
    '500 KiB file, MB/s',
    (l) => {
      sink += l.parse(big) ? 1 : 0;
    },
    bigBytes / 1e6,
  );
  results.parseTypical = throughput(
    '100 × 2 KB files, MB/s',
    (l) => {
      for (const body of typical) sink += l.parse(body) ? 1 : 0;
    },
    typicalBytes / 1e6,
  );
  // Parse plus the first check: Heed walks an agent's rules on a file's first check and compiles
  // them on its second; robots-parser compiles while parsing.
  const times = new Map(libraries.map((l) => [l.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const l of inRoundOrder(round)) {
      const start = now();
      sink += l.check(l.parse(big), urls[round]) ? 1 : 0;
      times.get(l.name).push(now() - start);
    }
  }
  results.firstCheck = Object.fromEntries(libraries.map((l) => [l.name, median(times.get(l.name))]));
  console.log(
    `  500 KiB file, parse + first isAllowed, ms: ${libraries.map((l) => `${l.name} ${results.firstCheck[l.name].toFixed(1)}`).join(', ')}`,
  );
}

// --- isAllowed -----------------------------------------------------------------------------------
const bigParsed = new Map(libraries.map((l) => [l.name, l.parse(big)]));
const typicalParsed = new Map(libraries.map((l) => [l.name, typical.map((body) => l.parse(body))]));
if (section('check')) {
  console.log('isAllowed');
  // robots-parser checks about a thousand URLs a second on this file: both libraries get the same
  // evenly spaced sample of 2,000 URLs (all 100k are used on the 2 KB files).
  const sample = urls.filter((_, i) => i % 50 === 0);
  results.checkBig = throughput(
    `500 KiB file, checks/s (${sample.length} URLs)`,
    (l) => {
      const robots = bigParsed.get(l.name);
      for (const url of sample) sink += l.check(robots, url) ? 1 : 0;
    },
    sample.length,
  );
  results.checkTypical = throughput(
    `2 KB files, checks/s (${urls.length} URLs, URL i against file i mod 100)`,
    (l) => {
      const files = typicalParsed.get(l.name);
      for (let i = 0; i < urls.length; i++) sink += l.check(files[i % files.length], urls[i]) ? 1 : 0;
    },
    urls.length,
  );
}

// --- retained heap -------------------------------------------------------------------------------
if (section('heap')) {
  // Each parse gets a fresh body string, dropped after parsing, so whatever a parsed object keeps
  // alive (the body too, through sliced strings) is counted. One isAllowed per object counts lazily
  // compiled state.
  console.log('retained heap');
  const COPIES = 10;
  /** What a crawler does with a cached origin: checks many of its URLs. */
  const HOT_CHECKS = 100;
  const probe = `${ORIGIN}/products/outdoor-garden/item-1234?sort=price`;
  /** Built in its own frame, so no local variable keeps the last object alive after it returns. */
  const parseAndKeep = (l, checks) => {
    const kept = new Array(COPIES * typicalBuffers.length);
    let k = 0;
    for (let copy = 0; copy < COPIES; copy++) {
      for (const buffer of typicalBuffers) {
        const robots = l.parse(buffer.toString('utf8'));
        for (let i = 0; i < checks; i++) sink += l.check(robots, probe) ? 1 : 0;
        kept[k++] = robots;
      }
    }
    return kept;
  };
  // Heap plus ArrayBuffer backing stores: typed arrays keep their bytes outside the JS heap, and a
  // fair count must include them.
  const used = () => {
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const retainedPerFile = (l, checks = 1) => {
    gc();
    gc();
    const before = used();
    let kept = parseAndKeep(l, checks);
    gc();
    gc();
    const perFile = (used() - before) / kept.length;
    kept = undefined;
    return perFile;
  };
  for (const l of libraries) retainedPerFile(l); // warm-up: code and shared structures
  const samples = new Map(libraries.map((l) => [l.name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const l of inRoundOrder(round)) samples.get(l.name).push(retainedPerFile(l));
  results.heap = Object.fromEntries(libraries.map((l) => [l.name, median(samples.get(l.name))]));
  console.log(
    `  bytes per parsed 2 KB file: ${libraries
      .map(
        (l) =>
          `${l.name} ${results.heap[l.name].toFixed(0)} [${samples
            .get(l.name)
            .map((v) => v.toFixed(0))
            .join(', ')}]`,
      )
      .join('; ')}`,
  );
  // A file a crawler keeps checking: what it costs after HOT_CHECKS checks.
  const hotSamples = new Map(libraries.map((l) => [l.name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const l of inRoundOrder(round)) hotSamples.get(l.name).push(retainedPerFile(l, HOT_CHECKS));
  results.heapHot = Object.fromEntries(libraries.map((l) => [l.name, median(hotSamples.get(l.name))]));
  console.log(
    `  bytes per parsed 2 KB file after ${HOT_CHECKS} checks: ${libraries
      .map(
        (l) =>
          `${l.name} ${results.heapHot[l.name].toFixed(0)} [${hotSamples
            .get(l.name)
            .map((v) => v.toFixed(0))
            .join(', ')}]`,
      )
      .join('; ')}`,
  );
}

// --- real files: memory and checks per cached origin, on the path a crawl takes ----------------------
if (section('corpus')) {
  const dir = process.env.HEED_CORPUS_DIR ?? fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
  const every = Math.max(1, Number(option('corpus-every') ?? 10) || 10);
  const names = readdirSync(dir)
    .filter((name) => name !== 'README.md')
    .sort()
    .filter((_, i) => i % every === 0);
  const bodies = names.map((name) => readFileSync(`${dir.replace(/\/$/, '')}/${name}`));
  const bytes = bodies.reduce((sum, body) => sum + body.length, 0);
  /** URLs checked per origin, as a crawl of each site checks many of its pages. */
  const CHECKS = 100;
  const crawlUrls = urls.slice(0, CHECKS);
  console.log(`real files (${names.length} of ${dir}, mean ${Math.round(bytes / names.length)} bytes), ${CHECKS} URLs each`);
  const used = () => {
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  /** Built in its own frame, so no local variable keeps the last object alive after it returns. */
  const parseAndCheck = (l, checks) => {
    const kept = new Array(bodies.length);
    bodies.forEach((body, k) => {
      const robots = l.parse(body.toString('utf8'));
      for (let i = 0; i < checks; i++) sink += l.check(robots, crawlUrls[i]) ? 1 : 0;
      kept[k] = robots;
    });
    return kept;
  };
  const retainedPerOrigin = (l, checks) => {
    gc();
    gc();
    const before = used();
    let kept = parseAndCheck(l, checks);
    gc();
    gc();
    const perOrigin = (used() - before) / kept.length;
    kept = undefined;
    return perOrigin;
  };
  for (const checks of [0, CHECKS]) {
    for (const l of libraries) retainedPerOrigin(l, checks); // warm-up
    const samples = new Map(libraries.map((l) => [l.name, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const l of inRoundOrder(round)) samples.get(l.name).push(retainedPerOrigin(l, checks));
    const result = Object.fromEntries(libraries.map((l) => [l.name, median(samples.get(l.name))]));
    results[checks === 0 ? 'corpusHeapParsed' : 'corpusHeap'] = result;
    console.log(
      `  bytes per parsed real file after ${checks} checks: ${libraries.map((l) => `${l.name} ${result[l.name].toFixed(0)}`).join('; ')}`,
    );
  }
  const parsed = new Map(libraries.map((l) => [l.name, bodies.map((body) => l.parse(body.toString('utf8')))]));
  results.corpusCheck = throughput(
    `real files, checks/s (${CHECKS} URLs against each file)`,
    (l) => {
      for (const robots of parsed.get(l.name)) for (const url of crawlUrls) sink += l.check(robots, url) ? 1 : 0;
    },
    bodies.length * CHECKS,
  );
}

// --- hostile file ----------------------------------------------------------------------------------
if (section('hostile')) {
  console.log(`hostile file (${manifest.hostile.rules} rules like /*a*a*a*a*a*b, ${hostileUrls.length} URLs of 2,000 chars)`);
  results.hostile = {};
  if (libraries.includes(heed)) {
    const robots = heed.parse(hostile);
    const start = now();
    heed.check(robots, hostileUrls[0]);
    const firstCheckMs = now() - start;
    const perUrl = hostileUrls.map((url) => {
      const times = [];
      for (let round = 0; round < ROUNDS; round++) {
        const t = now();
        sink += heed.check(robots, url) ? 1 : 0;
        times.push(now() - t);
      }
      return { url, ms: median(times) };
    });
    const worst = perUrl.reduce((a, b) => (b.ms > a.ms ? b : a));
    results.hostile.heed = { firstCheckMs, worstMs: worst.ms, worstUrl: describeUrl(worst.url) };
    console.log(
      `  @heed/parser: first check (walks the rules; the second compiles them) ${firstCheckMs.toFixed(1)} ms; worst per-check median ${worst.ms.toFixed(3)} ms for ${describeUrl(worst.url)}`,
    );
    for (const entry of perUrl) console.log(`    ${entry.ms.toFixed(3)} ms  ${describeUrl(entry.url)}`);
  }
  if (libraries.includes(rp)) {
    // robots-parser takes seconds per check here: one check of the first URL, not a median.
    const robots = rp.parse(hostile);
    const start = now();
    sink += rp.check(robots, hostileUrls[0]) ? 1 : 0;
    results.hostile.rp = { oneCheckMs: now() - start };
    console.log(`  robots-parser: one check of ${describeUrl(hostileUrls[0])}: ${results.hostile.rp.oneCheckMs.toFixed(0)} ms`);
  }
}

// --- agreement -------------------------------------------------------------------------------------
if (section('agreement') && both) {
  console.log("agreement (informative: where the verdicts differ, Heed follows Google's reference parser)");
  const disagreements = (heedFiles, rpFiles, list) => {
    let count = 0;
    const examples = [];
    for (let i = 0; i < list.length; i++) {
      const index = i % heedFiles.length;
      const a = heed.check(heedFiles[index], list[i]);
      const b = rp.check(rpFiles[index], list[i]);
      if (a === b) continue;
      count++;
      if (examples.length < 5) {
        const why = heedFiles[index].explain(list[i], UA);
        examples.push(
          `${list[i]} — Heed ${a ? 'allows' : 'disallows'} (line ${why.line}${why.rule ? `, ${why.rule.directive}: ${why.rule.pattern}` : ''}), robots-parser ${b ? 'allows' : 'disallows'}`,
        );
      }
    }
    return { count, checked: list.length, examples };
  };
  results.agreeTypical = disagreements(typicalParsed.get(heed.name), typicalParsed.get(rp.name), urls);
  results.agreeBig = disagreements(
    [bigParsed.get(heed.name)],
    [bigParsed.get(rp.name)],
    FULL_AGREEMENT ? urls : urls.filter((_, i) => i % 10 === 0),
  );
  for (const [label, result] of [
    ['2 KB files', results.agreeTypical],
    ['500 KiB file', results.agreeBig],
  ]) {
    console.log(
      `  ${label}: ${result.count} of ${result.checked} verdicts differ (${((100 * result.count) / result.checked).toFixed(2)}%)`,
    );
    for (const example of result.examples) console.log(`    e.g. ${example}`);
  }
}

// --- conformance -----------------------------------------------------------------------------------
// How often each library gives Google's verdict on Google's own conformance suite (test/conformance).
if (section('agreement') && both) {
  const suite = readFileSync(new URL('../conformance/google-spec-test.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  results.conformance = {};
  for (const l of libraries) {
    let agree = 0;
    for (const c of suite) {
      const body = c.robots_b64 !== undefined ? Buffer.from(c.robots_b64, 'base64').toString(l === heed ? 'latin1' : 'utf8') : c.robots;
      const url = c.canonical_url ?? c.url;
      const expected = (c.canonical_expected ?? c.expected) === 'ALLOWED';
      let verdict;
      try {
        verdict =
          l === heed
            ? parseRobotsTxt(c.robots_b64 !== undefined ? new Uint8Array(Buffer.from(c.robots_b64, 'base64')) : c.robots).isAllowed(
                url,
                c.ua,
              )
            : robotsParser(new URL('/robots.txt', url).href, body).isAllowed(url, c.ua) !== false;
      } catch {
        verdict = undefined;
      }
      if (verdict === expected) agree++;
    }
    results.conformance[l.name] = { agree, total: suite.length };
  }
  console.log(
    `  Google's conformance suite: ${libraries.map((l) => `${l.name} ${results.conformance[l.name].agree}/${results.conformance[l.name].total}`).join(', ')}`,
  );
}

// --- table -----------------------------------------------------------------------------------------
if (both) {
  const percent = (r) => `${r.count} (${((100 * r.count) / r.checked).toFixed(2)}%)`;
  const rows = [
    ['parse, 500 KiB file (MB/s)', results.parseBig, 'higher', 5],
    ['parse, 2 KB files (MB/s)', results.parseTypical, 'higher', 5],
    ['isAllowed, 500 KiB file (checks/s)', results.checkBig, 'higher', 100],
    ['isAllowed, 2 KB files (checks/s)', results.checkTypical, 'higher', 20],
    ['retained heap per parsed 2 KB file (bytes)', results.heap, 'lower', 1 / 3],
    ['retained heap per 2 KB file after 100 checks', results.heapHot, 'lower', undefined],
    ['isAllowed, real files, 100 URLs each (checks/s)', results.corpusCheck, 'higher', undefined],
    ['retained heap per real file, parsed, not checked (bytes)', results.corpusHeapParsed, 'lower', undefined],
    ['retained heap per real file after 100 checks (bytes)', results.corpusHeap, 'lower', undefined],
  ];
  const lines = ['| metric | @heed/parser | robots-parser | ratio | target | met |', '|---|---:|---:|---:|---:|:---:|'];
  for (const [metric, values, better, target] of rows) {
    if (values === undefined) continue;
    const ratio = values[heed.name] / values[rp.name];
    const met = better === 'higher' ? ratio >= target : ratio <= target;
    const shown = better === 'higher' ? `${ratio.toFixed(1)}×` : `${ratio.toFixed(2)}× (1/${(1 / ratio).toFixed(1)})`;
    if (target === undefined) {
      lines.push(`| ${metric} | ${format(values[heed.name])} | ${format(values[rp.name])} | ${shown} | — | info |`);
      continue;
    }
    lines.push(
      `| ${metric} | ${format(values[heed.name])} | ${format(values[rp.name])} | ${shown} | ${better === 'higher' ? `≥ ${target}×` : '≤ 1/3'} | ${met ? 'met' : '**not met**'} |`,
    );
  }
  if (results.firstCheck) {
    const f = results.firstCheck;
    lines.push(
      `| parse + first isAllowed, 500 KiB file (ms) | ${f[heed.name].toFixed(1)} | ${f[rp.name].toFixed(1)} | ${(f[heed.name] / f[rp.name]).toFixed(2)}× the time | — | info |`,
    );
  }
  if (results.hostile) {
    const h = results.hostile;
    lines.push(
      `| hostile file: worst isAllowed of ${hostileUrls.length} 2,000-char URLs (ms) | ${h.heed.worstMs.toFixed(3)} | ${h.rp.oneCheckMs.toFixed(0)} (one check) | — | < 1 ms | ${h.heed.worstMs < 1 ? 'met' : '**not met**'} |`,
    );
  }
  if (results.conformance) {
    const c = results.conformance;
    const share = (r) => `${r.agree}/${r.total} (${((100 * r.agree) / r.total).toFixed(1)}%)`;
    lines.push(`| Google's conformance suite: verdicts as Google's | ${share(c[heed.name])} | ${share(c[rp.name])} | | — | info |`);
  }
  if (results.agreeTypical) {
    lines.push(
      `| verdicts that differ, 2 KB files (${results.agreeTypical.checked} URLs) | ${percent(results.agreeTypical)} | | | — | info |`,
    );
    lines.push(`| verdicts that differ, 500 KiB file (${results.agreeBig.checked} URLs) | ${percent(results.agreeBig)} | | | — | info |`);
  }
  console.log('');
  console.log(lines.join('\n'));
  results.table = lines.join('\n');
}
writeFileSync(
  DATA_DIR + 'parser-results.json',
  JSON.stringify(
    { date: new Date().toISOString(), node: process.version, cpus: cpus().length, rounds: ROUNDS, ...results, sink },
    null,
    2,
  ) + '\n',
);
