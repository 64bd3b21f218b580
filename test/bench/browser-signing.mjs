/**
 * What option `signature` costs a browser crawl: a PlaywrightCrawler on Debian's Chromium crawls
 * the same loopback site (pages of 6 sub-resources each) with Heed attached, unsigned and signed,
 * the two interleaved round by round. Signing makes Heed's DevTools session pause every request of
 * a page, not only its documents, and sign each: a round trip to Node.js and a signature per
 * request. CPU is read machine-wide (`/proc/stat`: Chromium's processes included, which a process's
 * own CPU time would miss), so the machine must be otherwise idle; the figure is the median of the
 * rounds' ratios, with a control (the unsigned crawl run twice a round) saying how far the machine
 * lets one run tell.
 *
 *   npm run build && node test/bench/browser-signing.mjs [--rounds=5] [--pages=60]
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { generateKeyPair } from '../../packages/manager/dist/bundle.js';
import { RobotsPlugin } from '../../packages/crawlee/dist/bundle.js';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = arg('rounds', 5);
const PAGES = arg('pages', 60);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The crawler packages @heed/crawlee is developed against (the root has none of its own).
const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));
const { PlaywrightCrawler } = crawleeRequire('@crawlee/playwright');
const { Configuration } = crawleeRequire('@crawlee/core');
const { chromium } = crawleeRequire('playwright');
const KEY = generateKeyPair().privateJwk;

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  if (path === '/robots.txt') return res.end('User-agent: *\nDisallow: /private\n');
  if (path.startsWith('/asset/')) {
    res.setHeader('content-type', path.endsWith('.js') ? 'text/javascript' : path.endsWith('.css') ? 'text/css' : 'image/svg+xml');
    return res.end(path.endsWith('.svg') ? '<svg xmlns="http://www.w3.org/2000/svg"/>' : '/* */');
  }
  const n = Number(path.slice(3)) || 0;
  const assets = ['a.svg', 'b.svg', 'c.svg', 'd.css', 'e.js', 'f.js'].map((name) => `/asset/${n}-${name}`);
  res.setHeader('content-type', 'text/html');
  res.end(
    `<html><head><link rel="icon" href="data:,">${assets
      .filter((a) => a.endsWith('.css'))
      .map((a) => `<link rel="stylesheet" href="${a}">`)
      .join('')}` +
      `${assets
        .filter((a) => a.endsWith('.js'))
        .map((a) => `<script src="${a}"></script>`)
        .join('')}</head><body>` +
      `${assets
        .filter((a) => a.endsWith('.svg'))
        .map((a) => `<img src="${a}">`)
        .join('')}</body></html>`,
  );
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

/** Machine-wide busy CPU seconds so far (all processes: Chromium's included). */
function busySecs() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}

async function crawl(signed) {
  const config = new Configuration({ persistStorage: false });
  const crawler = new PlaywrightCrawler(
    {
      headless: true,
      maxConcurrency: 4,
      browserPoolOptions: { useFingerprints: false },
      launchContext: { launcher: chromium, launchOptions: { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] } },
      requestHandler: async () => {},
    },
    config,
  );
  crawler.log.setLevel(0);
  const plugin = await RobotsPlugin.attach(crawler, {
    userAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
    sitemaps: false,
    logSummary: false,
    ...(signed ? { signature: { key: KEY, signatureAgent: 'https://heed.example/.well-known/http-message-signatures-directory' } } : {}),
  });
  const before = busySecs();
  await crawler.run(Array.from({ length: PAGES }, (_, i) => `${base}/p/${i}`));
  const used = busySecs() - before;
  await plugin.close();
  return (used / PAGES) * 1000;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
await crawl(false); // warm: the first launch, the modules' first run
const rows = { unsigned: [], again: [], signed: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? ['unsigned', 'signed', 'again'] : ['signed', 'again', 'unsigned'];
  for (const variant of order) rows[variant].push(await crawl(variant === 'signed'));
  console.log(`round ${round}: ${order.map((v) => `${v} ${rows[v].at(-1).toFixed(0)} ms`).join(', ')} of CPU per page`);
}
server.close();
const ratio = (variant) => median(rows[variant].map((ms, i) => ms / rows.unsigned[i]));
console.log(`\n| Heed on a PlaywrightCrawler | median CPU per page (machine-wide) | vs unsigned (median of rounds) |`);
console.log(`|---|---|---|`);
console.log(`| unsigned | ${median(rows.unsigned).toFixed(0)} ms | 1 |`);
console.log(`| unsigned, again (the control) | ${median(rows.again).toFixed(0)} ms | ${ratio('again').toFixed(3)}× |`);
console.log(`| signed | ${median(rows.signed).toFixed(0)} ms | ${ratio('signed').toFixed(3)}× |`);
console.log(
  `\n${PAGES} pages of 6 sub-resources a crawl, ${ROUNDS} rounds; load ${(await import('node:os')).loadavg()[0].toFixed(1)} at the end`,
);
