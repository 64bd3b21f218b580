/**
 * A broad crawl's robots.txt fetches: how fast one `RobotsManager` fetches the files of origins it
 * has not seen, against got-scraping alone asking the same server for the same files at the same
 * concurrency; and what a `RedisStore` holds per origin once they are fetched.
 *
 * Every origin is a host name of its own (`o<i>.example`), each serving its own real robots.txt
 * (the real-file corpus of ../shared when it is there, else the repository's sample), all answered
 * by one forward proxy on 127.0.0.1: the manager's `proxyUrl` and got-scraping's. got-scraping is
 * called as the manager calls it (no generated browser headers, no retry, HTTP/1.1, the body read
 * whole), so the ratio is what the manager adds: its queue, the status policy, decoding, parsing,
 * the record and its store, and the verdict.
 *
 * Rounds alternate, each on origins no earlier round asked for, which of the two goes first
 * alternating too (a machine's drift within a round pair falls on each side in turn). Each round's
 * CPU time (the process's, all threads: the proxy's answers and the collector included) is read
 * beside its wall time: the rate is what the target is about, CPU per origin the steadier reading.
 * The Redis part fetches its own origins through a manager whose store is a RedisStore on a
 * redis-server started for it on a free loopback port (skipped when redis-server is missing).
 *
 *   node --expose-gc test/bench/broad-fetch.bench.mjs [--origins=2000] [--concurrency=20] [--rounds=9] [--redis-origins=10000] [--no-write]
 *   npm run bench -- broad-fetch
 *
 * Writes the "## Broad crawls: fetching new origins" section of BENCHMARKS.md unless --no-write.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import net from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RedisStore, RobotsManager } from '../../packages/manager/dist/bundle.js';
import { writeSection } from './crawl/report.mjs';
import { files, filesSource } from './real-files.mjs';

const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ORIGINS = option('origins', 2000);
const CONCURRENCY = option('concurrency', 20);
const ROUNDS = option('rounds', 9);
const REDIS_ORIGINS = option('redis-origins', 10_000);
const TITLE = '## Broad crawls: fetching new origins';
/** The flags this run was given, for the command the section names (`--no-write` aside). */
const FLAGS = process.argv
  .slice(2)
  .filter((arg) => arg.startsWith('--') && arg !== '--no-write')
  .map((arg) => ` ${arg}`)
  .join('');
const UA = 'HeedBot/1.0';
const quiet = { debug() {}, info() {}, warning() {}, error() {} };

// got-scraping as the manager loads it: the manager package's own dependency (ESM only: its
// package.json is read for the file, as Node's resolver would from there).
const gotDir = new URL('../../packages/manager/node_modules/got-scraping/', import.meta.url);
const gotEntry = JSON.parse(readFileSync(new URL('package.json', gotDir), 'utf8')).exports.import;
const { gotScraping } = await import(new URL(gotEntry, gotDir).href);

/** The forward proxy: origin `o<i>.example` answers file i mod n (and its name) at /robots.txt, 404 elsewhere. */
function startProxy() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://invalid');
    const i = Number(/^o(\d+)\./.exec(url.hostname)?.[1] ?? -1);
    if (url.pathname !== '/robots.txt' || i < 0) {
      res.writeHead(404).end();
      return;
    }
    // Each origin's file its own (its own snapshot too), as on the web.
    res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(Buffer.concat([files[i % files.length], Buffer.from(`\n# ${url.hostname}\n`)]));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs `work(i)` for every i of [from, to), `CONCURRENCY` at a time; the wall and CPU time in ms. */
async function pooled(from, to, work) {
  let next = from;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < to) await work(next++);
    }),
  );
  const cpu = process.cpuUsage(cpuStart);
  return { wall: performance.now() - start, cpu: (cpu.user + cpu.system) / 1000 };
}

const originOf = (i) => `http://o${i}.example`;

async function gotRound(proxyUrl, from) {
  let bytes = 0;
  const time = await pooled(from, from + ORIGINS, async (i) => {
    const response = await gotScraping(`${originOf(i)}/robots.txt`, {
      proxyUrl,
      headers: { 'user-agent': UA, accept: 'text/plain' },
      useHeaderGenerator: false,
      headerGeneratorOptions: {},
      http2: false,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'buffer',
    });
    if (response.statusCode !== 200) throw new Error(`${originOf(i)}: ${response.statusCode}`);
    bytes += response.body.length;
  });
  return { ...time, bytes };
}

async function managerRound(proxyUrl, from, store) {
  const manager = new RobotsManager({ userAgent: UA, proxyUrl, log: quiet, maxConcurrency: CONCURRENCY, ...(store ? { store } : {}) });
  let allowed = 0;
  const time = await pooled(from, from + ORIGINS, async (i) => {
    if ((await manager.decide(`${originOf(i)}/some/page`)).allowed) allowed++;
  });
  await manager.close();
  return { ...time, allowed };
}

const proxy = await startProxy();
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
// A first round of each, not counted: V8 compiles both paths, and the sockets open.
let offset = 0;
await gotRound(proxyUrl, offset);
offset += ORIGINS;
await managerRound(proxyUrl, offset);
offset += ORIGINS;
const rates = { got: [], manager: [] };
/** CPU ms per 1,000 origins. */
const cpuPer1k = { got: [], manager: [] };
for (let round = 0; round < ROUNDS; round++) {
  const run = { got: () => gotRound(proxyUrl, offset), manager: () => managerRound(proxyUrl, offset) };
  for (const side of round % 2 === 0 ? ['got', 'manager'] : ['manager', 'got']) {
    const time = await run[side]();
    offset += ORIGINS;
    rates[side].push((ORIGINS / time.wall) * 1000);
    cpuPer1k[side].push((time.cpu / ORIGINS) * 1000);
  }
  console.log(
    `round ${round + 1}: got-scraping ${rates.got.at(-1).toFixed(0)} files/s, the manager ${rates.manager.at(-1).toFixed(0)} origins/s (${(rates.manager.at(-1) / rates.got.at(-1)).toFixed(2)}×); CPU per origin ${(cpuPer1k.manager.at(-1) / cpuPer1k.got.at(-1)).toFixed(2)}× got-scraping's`,
  );
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratios = rates.manager.map((rate, i) => rate / rates.got[i]);
const cpuRatios = cpuPer1k.manager.map((cpu, i) => cpu / cpuPer1k.got[i]);

/** Redis: a fresh server, `REDIS_ORIGINS` origins fetched into it; its memory and keys per origin ('skipped' for none). */
async function redisFigures() {
  if (REDIS_ORIGINS <= 0) return 'skipped';
  if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  try {
    await waitForPort(port);
    const url = `redis://127.0.0.1:${port}`;
    const store = new RedisStore({ url });
    const info = await redisCommand(port, 'INFO memory');
    const before = Number(/used_memory:(\d+)/.exec(info)[1]);
    const saved = ORIGINS;
    let from = offset;
    for (let done = 0; done < REDIS_ORIGINS; done += saved) {
      await managerRound(proxyUrl, from, store);
      from += saved;
    }
    const fetched = Math.ceil(REDIS_ORIGINS / saved) * saved;
    const after = Number(/used_memory:(\d+)/.exec(await redisCommand(port, 'INFO memory'))[1]);
    const keys = Number(/(\d+)/.exec(await redisCommand(port, 'DBSIZE'))[1]);
    await store.close();
    const bodies = files.reduce((sum, body) => sum + body.length, 0) / files.length;
    return { origins: fetched, bytesPerOrigin: (after - before) / fetched, keysPerOrigin: keys / fetched, meanBody: bodies };
  } finally {
    child.kill('SIGKILL');
  }
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port) {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      await new Promise((resolve) =>
        net
          .connect(port, '127.0.0.1')
          .once('connect', function () {
            this.destroy();
            resolve(true);
          })
          .once('error', () => resolve(false)),
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

/** One inline command's reply, as text. */
function redisCommand(port, command) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk;
      // A bulk reply ($n) is complete once its n bytes and CRLF are in; an integer (:n) at its CRLF.
      const bulk = /^\$(\d+)\r\n/.exec(reply);
      if ((bulk && Buffer.byteLength(reply) >= bulk[0].length + Number(bulk[1]) + 2) || (!bulk && reply.endsWith('\r\n'))) {
        socket.end();
        resolve(reply);
      }
    });
    socket.on('error', reject);
  });
}

const redis = await redisFigures();
proxy.close();

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const body = [
  `${ORIGINS.toLocaleString('en-US')} new origins a round, each a host name of its own with its own real robots.txt (${files.length.toLocaleString('en-US')} files of ${filesSource}), through one forward proxy on 127.0.0.1; ${CONCURRENCY} at a time (the manager's \`maxConcurrency\` and got-scraping's callers alike); ${ROUNDS} rounds of each, alternating, which goes first alternating too. Command: \`node --expose-gc test/bench/broad-fetch.bench.mjs${FLAGS}\` (\`npm run bench -- broad-fetch${FLAGS}\`), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.`,
  '',
  '| | median rate | rounds | CPU per 1,000 (median) |',
  '|---|---|---|---|',
  `| got-scraping alone (each file read whole) | ${fmt(median(rates.got))} files/s | ${rates.got.map(fmt).join(', ')} | ${fmt(median(cpuPer1k.got))} ms |`,
  `| \`RobotsManager#decide()\` on a new origin | ${fmt(median(rates.manager))} origins/s | ${rates.manager.map(fmt).join(', ')} | ${fmt(median(cpuPer1k.manager))} ms |`,
  '',
  `The manager's rate is ${median(ratios).toFixed(2)}× got-scraping's (median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')}; the target is at least 0.8×). Its CPU per origin is ${median(cpuRatios).toFixed(2)}× got-scraping's (${cpuRatios.map((r) => r.toFixed(2)).join(', ')}): at most 1.25× is the same target read off CPU time.`,
  '',
  redis === 'skipped'
    ? 'Redis: not measured (`--redis-origins=0`).'
    : redis === undefined
      ? 'Redis: not measured (no redis-server on this machine).'
      : `With a \`RedisStore\`: ${redis.origins.toLocaleString('en-US')} origins fetched into a fresh redis-server take ${fmt(redis.bytesPerOrigin)} B of its memory each (\`used_memory\`), ${redis.keysPerOrigin.toFixed(2)} keys each, for files of ${fmt(redis.meanBody)} B on average: about ${((redis.bytesPerOrigin * 1e6) / 2 ** 30).toFixed(1)} GiB of Redis per million origins.`,
].join('\n');
console.log(`\n${body}`);
if (!process.argv.includes('--no-write')) writeSection(fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url)), body, TITLE);
