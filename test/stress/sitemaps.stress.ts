/**
 * Sitemaps at full scale, default options, a real CheerioCrawler and the
 * plugin; figures printed and recorded in BENCHMARKS.md ("Sitemaps at scale"). Run:
 *   pnpm test:stress
 *
 * - a 50,000-URL sitemap (the protocol's maximum, ~7 MB): read and parsed, then fed into the queue,
 *   the event loop never held over 100 ms while it is fed;
 * - 100 origins, each serving two 50 MB bombs (gzipped zeros; a gzipped urlset repeating one URL);
 * - one origin whose index lists 200 one-GB bombs (gzip members of zeros, concatenated);
 * - hostile sitemaps: an index listing 700,000 fresh nested sitemaps (48 MB) in every file,
 *   memory bounded; 10 dripping or hanging sitemaps with default options, a 2-page crawl ends
 *   within about two `stallSecs`; 50,000 URLs with a bare `&` each, all kept; an index chain of
 *   50,000 nested sitemaps per file, live heap flat when 10 files may be read;
 * - growth in time, where `vitest run` counts (test/crawlee/sitemaps-scale.test.ts,
 *   sitemaps-hostile.test.ts): twice the entries of a sitemap, at most 2.5 times the time; four
 *   times the XML faults between entries, or the white space inside a `<loc>`, at most eight times.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { parseSitemapStream, readSitemaps } from '../../packages/crawlee/src/sitemaps/index.js';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';
import { mainThreadCpuMs, watchEventLoop, watchMemory } from '../crawlee/sitemaps-hosts.js';

// Collections before timed reads and heap samples, so that garbage of earlier work is not counted.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const MB = 1024 * 1024;
const sites: Site[] = [];

function urlset(count: number, url: (i: number) => string): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (let i = 0; i < count; i++)
    parts.push(`<url><loc>${url(i)}</loc><lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq></url>\n`);
  parts.push('</urlset>\n');
  return parts.join('');
}
const gz = (body: Buffer) => ({ headers: { 'content-type': 'application/gzip' }, body });
const report = (line: string) => console.log(`[stress] ${line}`);

afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
});

async function crawlWithPlugin(starts: string[], sitemaps: Record<string, unknown> = {}) {
  const manager = new RobotsManager({ userAgent: UA });
  let fedMs = 0;
  /** The longest the event loop was held while the sitemap was being fed (the crawl's start-up excluded). */
  let feedLoopMs = 0;
  const crawler = new crawleeCheerio.CheerioCrawler(
    {
      maxConcurrency: 4,
      requestHandler: async (ctx) => {
        if (sitemaps['stopWhenFed'] !== true) return;
        const started = performance.now();
        const feeding = watchEventLoop();
        await plugin.sitemapsDone();
        feedLoopMs = feeding.stop();
        fedMs = performance.now() - started;
        void ctx;
        crawler.stop();
      },
    },
    freshConfig(),
  );
  crawler.log.warning = () => {};
  const { stopWhenFed, ...options } = sitemaps;
  void stopWhenFed;
  const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false, sitemaps: options });
  const memory = watchMemory();
  const loop = watchEventLoop();
  const started = performance.now();
  await crawler.run(starts);
  const tookMs = performance.now() - started;
  const worstLoopMs = loop.stop();
  const rssGrowth = memory.stop();
  await manager.close();
  return { plugin, tookMs, fedMs, feedLoopMs, worstLoopMs, rssGrowth };
}

describe('sitemaps at scale', () => {
  it('a 50,000-URL sitemap: parsed in seconds, the event loop never held over 100 ms, all fed', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a = site.origins[0]!;
    const body = Buffer.from(urlset(50_000, (i) => a.url(`/products/item-${i}?ref=sitemap&amp;v=${i % 7}`)));
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/sitemap.xml')}\n`));
    a.routes.set('/sitemap.xml', { headers: { 'content-type': 'application/xml' }, body });
    a.routes.set('/', page('home', []));

    // got-scraping's first request loads its data synchronously (~60 ms once per process; in a crawl,
    // the crawler's own first fetch pays it): warm it up so the watch sees the sitemap work only.
    for await (const _ of readSitemaps([a.url('/robots.txt')], { userAgent: UA, maxBytes: MB, timeoutMs: 60_000, maxDepth: 0 }));
    const loop = watchEventLoop();
    const started = performance.now();
    let n = 0;
    for await (const _ of readSitemaps([a.url('/sitemap.xml')], { userAgent: UA, maxBytes: 50 * MB, timeoutMs: 60_000, maxDepth: 0 })) n++;
    const parseMs = performance.now() - started;
    const parseLoop = loop.stop();
    report(
      `50,000-URL sitemap (${(body.length / MB).toFixed(1)} MB): read+parsed in ${(parseMs / 1000).toFixed(2)} s, event loop held at most ${parseLoop.toFixed(0)} ms`,
    );
    expect(n).toBe(50_000);
    expect(parseLoop).toBeLessThan(100);
    // Measured 1–2 s on a loaded 2-core machine; before: 103 s.
    expect(parseMs).toBeLessThan(15_000);

    const run = await crawlWithPlugin([a.url('/')], {
      stopWhenFed: true,
      maxUrlsPerOrigin: 50_000,
      maxPendingRequests: 100_000,
      timeoutSecs: 600,
      maxTimePerOriginSecs: 600,
    });
    report(
      `50,000-URL sitemap into a CheerioCrawler's queue: ${(run.fedMs / 1000).toFixed(1)} s, event loop held at most ${run.feedLoopMs.toFixed(0)} ms while feeding ` +
        `(${run.worstLoopMs.toFixed(0)} ms over the whole crawl, Crawlee's start-up included), RSS +${(run.rssGrowth / MB).toFixed(0)} MB`,
    );
    expect(run.plugin.stats.sitemapUrlsEnqueued).toBe(50_000);
    // Most of this is Crawlee's own queue inserts (~0.5 ms a request on a loaded 2-core machine:
    // 20–25 s measured); before, parsing alone took 103 s and held the event loop all along.
    expect(run.fedMs).toBeLessThan(100_000);
    // The issue's target, on the main thread's CPU time per turn (a loaded machine's descheduling
    // and GC helper threads left out): one 100-URL batch per turn holds it 24–48 ms.
    expect(run.feedLoopMs).toBeLessThanOrEqual(100);
  });

  it('100 origins of 50 MB sitemap bombs: memory bounded, the crawl ends within the time budget', async () => {
    const site = await startSite(100);
    sites.push(site);
    const zeros = gzipSync(Buffer.alloc(50 * MB), { level: 1 });
    const oneUrl = site.origins[0]!.url('/same');
    const repeat = gzipSync(Buffer.from(urlset(Math.floor((50 * MB) / 115), () => oneUrl)), { level: 1 });
    for (const o of site.origins) {
      o.routes.set(
        '/robots.txt',
        text(`User-agent: *\nAllow: /\nSitemap: ${o.url('/repeat.xml.gz')}\nSitemap: ${o.url('/zeros.xml.gz')}\n`),
      );
      o.routes.set('/', page('home', []));
      o.routes.set('/same', page('same', []));
      o.routes.set('/repeat.xml.gz', gz(repeat));
      o.routes.set('/zeros.xml.gz', gz(zeros));
    }
    // A 30 s budget per origin (default 120 s): the same bound on memory and on the crawl's wait,
    // reached in a quarter of the time, so CI can run it.
    const run = await crawlWithPlugin(
      site.origins.map((o) => o.url('/')),
      { maxTimePerOriginSecs: 30 },
    );
    report(
      `100 origins × 2 bombs of 50 MB (maxTimePerOriginSecs 30): crawl ${(run.tookMs / 1000).toFixed(1)} s, ${run.plugin.stats.sitemapsRead} files read, RSS peak +${(run.rssGrowth / MB).toFixed(0)} MB, event loop held at most ${run.worstLoopMs.toFixed(0)} ms`,
    );
    expect(run.rssGrowth).toBeLessThan(300 * MB);
    // The budget per origin, the time waiting for a fetch slot included, bounds the crawl's wait.
    expect(run.tookMs).toBeLessThan(60_000);
  });

  it('an index listing 200 one-GB bombs: a one-page crawl ends in seconds', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a = site.origins[0]!;
    // 16 gzip members of 64 MB of zeros: 1 GB once inflated, 1 MB on the wire.
    const member = gzipSync(Buffer.alloc(64 * MB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member));
    const bombs = Array.from({ length: 200 }, (_, i) => a.url(`/bomb-${i}.xml.gz`));
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/index.xml')}\n`));
    a.routes.set('/index.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<sitemapindex>${bombs.map((b) => `<sitemap><loc>${b}</loc></sitemap>`).join('')}</sitemapindex>`,
    });
    a.routes.set('/', page('home', []));
    for (const b of bombs) a.routes.set(new URL(b).pathname, gz(bomb));
    const run = await crawlWithPlugin([a.url('/')]);
    report(
      `index of 200 one-GB bombs: one-page crawl ${(run.tookMs / 1000).toFixed(1)} s, ${run.plugin.stats.sitemapsRead} files read, RSS peak +${(run.rssGrowth / MB).toFixed(0)} MB`,
    );
    expect(run.tookMs).toBeLessThan(120_000);
  });
});

describe('hostile sitemaps at full scale', () => {
  const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

  it('an index listing 700,000 fresh nested sitemaps in every file: memory bounded, the crawl ends', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a: SiteOrigin = site.origins[0]!;
    // Each file lists 700,000 sitemaps named after it, so none repeats: 44 MB. One template, its
    // file number (3 digits) written into a copy per file, so that serving costs no parsing-sized
    // garbage of its own.
    const stem = (file: string) => a.url(`/n-${file}`);
    const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n`];
    for (let i = 0; i < 700_000; i++) parts.push(`<sitemap><loc>${stem('###')}-${i}.xml</loc></sitemap>\n`);
    parts.push('</sitemapindex>\n');
    const template = Buffer.from(parts.join(''));
    const marks: number[] = [];
    for (let at = template.indexOf('###'); at >= 0; at = template.indexOf('###', at + 3)) marks.push(at);
    const fanOut = (file: number) => {
      const body = Buffer.from(template);
      const digits = String(file).padStart(3, '0');
      for (const at of marks) body.write(digits, at, 'latin1');
      return { headers: { 'content-type': 'application/xml' }, body };
    };
    report(`fan-out index: ${(template.length / MB).toFixed(0)} MB, 700,000 nested sitemaps`);
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/n-999.xml')}\n`));
    a.routes.set('/', page('home', []));
    // The file robots.txt names, and those the default maxFilesPerOrigin (100) lets be read after it.
    a.routes.set('/n-999.xml', () => fanOut(999));
    for (let i = 0; i < 100; i++) a.routes.set(`/n-999-${i}.xml`, () => fanOut(i));
    // Default options but a 60 s origin budget (default 120 s): before, memory grew all along it.
    const run = await crawlWithPlugin([a.url('/')], { maxTimePerOriginSecs: 60 });
    report(
      `700,000-sitemap fan-out per file: crawl ${(run.tookMs / 1000).toFixed(1)} s, ${run.plugin.stats.sitemapsRead} files read, RSS peak +${(run.rssGrowth / MB).toFixed(0)} MB`,
    );
    // Before: every location queued and remembered (+313 MB after 3 files here; 3 GB in 120 s in
    // the issue's run). Now at most maxFilesPerOrigin locations are queued: +39 MB, the parsing.
    expect(run.rssGrowth).toBeLessThan(150 * MB);
    expect(run.tookMs).toBeLessThan(90_000);
  });

  it('10 dripping or hanging sitemaps, default options: a 2-page crawl ends within about two stallSecs', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a: SiteOrigin = site.origins[0]!;
    // Dripping (even files: the status line, then a space every 500 ms) or hanging (odd: nothing).
    const open = new Set<ServerResponse>();
    const asked: string[] = [];
    const drips = createServer((req, res) => {
      // The host's robots.txt (read before its first sitemap) answers at once: nothing disallowed.
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      asked.push(req.url ?? '');
      open.add(res);
      if (Number(/\d+/.exec(req.url ?? '')?.[0]) % 2 === 1) return;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(`<urlset ${NS}>`);
      const timer = setInterval(() => res.write(' '), 500);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => drips.listen(0, '127.0.0.1', resolve));
    const dripUrl = (i: number) => `http://127.0.0.1:${(drips.address() as AddressInfo).port}/drip-${i}.xml`;
    a.routes.set(
      '/robots.txt',
      text(`User-agent: *\nAllow: /\n${Array.from({ length: 10 }, (_, i) => `Sitemap: ${dripUrl(i)}`).join('\n')}\n`),
    );
    a.routes.set('/', page('home', ['/two']));
    a.routes.set('/two', page('two', []));
    const manager = new RobotsManager({ userAgent: UA });
    const crawler = new crawleeCheerio.CheerioCrawler(
      { maxConcurrency: 2, requestHandler: async (ctx) => void (await ctx.enqueueLinks()) },
      freshConfig(),
    );
    crawler.log.warning = () => {};
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false });
    const started = performance.now();
    await crawler.run([a.url('/')]);
    const took = performance.now() - started;
    await manager.close();
    for (const res of open) res.destroy();
    drips.closeAllConnections();
    drips.close();
    report(
      `10 dripping/hanging sitemaps, default options (stallSecs 5): 2-page crawl ${(took / 1000).toFixed(1)} s, ${asked.length} files asked`,
    );
    expect(a.count('/two')).toBe(1);
    // Before: still running after 55 s (120 s, the origin budget).
    expect(took).toBeLessThan(20_000);
  });

  it('50,000 URLs with a bare & each: all kept', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a: SiteOrigin = site.origins[0]!;
    a.routes.set('/amp.xml', {
      headers: { 'content-type': 'application/xml' },
      body: Buffer.from(urlset(50_000, (i) => a.url(`/p/${i}?a=1&b=${i}`))),
    });
    const started = performance.now();
    let n = 0;
    let last = '';
    for await (const entry of readSitemaps([a.url('/amp.xml')], { userAgent: UA, maxBytes: 50 * MB, timeoutMs: 60_000, maxDepth: 0 })) {
      n++;
      last = entry.url;
    }
    report(`50,000 URLs with a bare & each: ${n} kept in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    expect(n).toBe(50_000);
    expect(last).toBe(a.url('/p/49999?a=1&b=49999'));
  });
});

describe('sitemap growth in time (counted at CI scale in test/crawlee/sitemaps-scale.test.ts and sitemaps-hostile.test.ts)', () => {
  const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
  const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
    const out: T[] = [];
    for await (const item of items) out.push(item);
    return out;
  };

  it('a large sitemap costs linear time: twice the entries, at most 2.5 times the time', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a = site.origins[0]!;
    for (const n of [20_000, 40_000])
      a.routes.set(`/sitemap-${n}.xml`, {
        headers: { 'content-type': 'application/xml' },
        body: Buffer.from(urlset(n, (i) => a.url(`/p/${i}`))),
      });
    // Each round reads both sizes back to back, garbage collected before each read, timed in the
    // main thread's CPU time (the server's sending included, the process being descheduled not);
    // the median of the rounds' ratios keeps a noisy machine's slow spells, which hit one read of a
    // pair, out of the verdict.
    const read = async (n: number) => {
      gc();
      const started = mainThreadCpuMs();
      let count = 0;
      for await (const _ of readSitemaps([a.url(`/sitemap-${n}.xml`)], {
        userAgent: UA,
        maxBytes: 50 * MB,
        timeoutMs: 60_000,
        maxDepth: 0,
      }))
        count++;
      expect(count).toBe(n);
      return mainThreadCpuMs() - started;
    };
    await read(20_000); // warm-up
    await read(40_000);
    const rounds: { small: number; large: number }[] = [];
    for (let round = 0; round < 7; round++) rounds.push({ small: await read(20_000), large: await read(40_000) });
    const ratios = rounds.map((r) => r.large / r.small).sort((x, y) => x - y);
    const median = ratios[3]!;
    const small = Math.min(...rounds.map((r) => r.small));
    report(
      `20,000 entries ${small.toFixed(0)} ms at best; 40,000 entries over 20,000: median ×${median.toFixed(2)} ` +
        `(rounds ×${ratios.map((r) => r.toFixed(2)).join(', ×')})`,
    );
    expect(median).toBeLessThanOrEqual(2.5);
    // Before, 20,000 entries took 27 s.
    expect(small).toBeLessThan(10_000);
  });

  it('a file of faults between entries costs linear time', async () => {
    // Hostile: as many faults as the entries pay for (8 each). Four times the file, at most eight
    // times the time, where a quadratic step would take sixteen (best of two, main-thread CPU
    // time, so a loaded machine's noise stays out).
    const hostile = (n: number) =>
      `<urlset ${NS}>` +
      Array.from({ length: n }, (_, i) => `<url><loc>http://a.example/${i}</loc></url>${'&&'.repeat(8)}`).join('') +
      '</urlset>';
    const cost = async (body: string) => {
      let best = Infinity;
      for (let round = 0; round < 2; round++) {
        const started = mainThreadCpuMs();
        expect((await collect(parseSitemapStream([body]))).length).toBe(body.split('</loc>').length - 1);
        best = Math.min(best, mainThreadCpuMs() - started);
      }
      return best;
    };
    const small = await cost(hostile(5_000));
    const large = await cost(hostile(20_000));
    report(`hostile XML, 8 faults per entry: 5,000 entries ${small.toFixed(0)} ms, 20,000 entries ${large.toFixed(0)} ms`);
    expect(large / small).toBeLessThanOrEqual(8);
    expect(large).toBeLessThan(10_000);
  });

  it('a <loc> of white space between two letters costs linear time (trimmed from each end, no backtracking)', async () => {
    // 200 such locations, 2,000 then 8,000 spaces inside each: four times the bytes, at most eight
    // times the time; an end-anchored regular expression would take sixteen and more.
    const spaced = (inner: number) =>
      `<urlset ${NS}>` + Array.from({ length: 200 }, () => `<url><loc>x${' '.repeat(inner)}x</loc></url>`).join('') + '</urlset>';
    // CPU time per parse over at least 40 ms of parsing (one parse of the smaller body is below the
    // clock's resolution), the best of three rounds: a collection landing in one round does not count.
    const cost = async (body: string) => {
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        let parses = 0;
        const started = mainThreadCpuMs();
        do {
          expect(await collect(parseSitemapStream([body]))).toEqual([]);
          parses++;
        } while (mainThreadCpuMs() - started < 40);
        best = Math.min(best, (mainThreadCpuMs() - started) / parses);
      }
      return best;
    };
    const small = await cost(spaced(2_000));
    const large = await cost(spaced(8_000));
    report(`<loc> of spaces: 2,000 inside ${small.toFixed(2)} ms, 8,000 inside ${large.toFixed(2)} ms per parse`);
    expect(large / small).toBeLessThanOrEqual(8);
  });

  it('an index chain listing 50,000 sitemaps per file: memory stays flat when only 10 files may be read', async () => {
    const site = await startSite(1);
    sites.push(site);
    const a = site.origins[0]!;
    const index = (urls: readonly string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
    // Every file an index of 50,000 sitemaps never listed before, each of them one more such index.
    const chain = (path: string) => ({
      headers: { 'content-type': 'application/xml' },
      body: index(Array.from({ length: 50_000 }, (_, i) => a.url(`${path.slice(0, -4)}-${i}.xml`))),
    });
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/c.xml')}\n`));
    a.routes.set('/c.xml', chain('/c.xml'));
    for (let i = 0; i < 10; i++) a.routes.set(`/c-${i}.xml`, chain(`/c-${i}.xml`));
    const problems: string[] = [];
    // The most heap that stayed live while the reading ran: sampled every 500 ms after a full
    // collection, so the garbage of parsing (tens of MB of XML) does not count, while anything the
    // reader keeps does.
    const live = (): number => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const start = live();
    let peak = start;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, live());
      samples++;
    }, 500);
    try {
      const urls = await collect(
        readSitemaps(
          [a.url('/c.xml')],
          { userAgent: UA, maxBytes: 50_000_000, timeoutMs: 30_000, maxDepth: 5, maxFiles: 10 },
          { onProblem: (m) => problems.push(m) },
        ),
      );
      expect(urls).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
    const grew = peak - start;
    report(`10 files of 50,000 nested sitemaps each: live heap grew at most ${(grew / MB).toFixed(0)} MB over ${samples} samples`);
    // A reading that never let the sampler run would measure nothing.
    expect(samples).toBeGreaterThanOrEqual(2);
    expect(a.paths().filter((p) => p.startsWith('/c')).length).toBe(10);
    // 10 files read, the rest (9 × 50,000 + 49,991 = 499,991 locations) dropped and reported once.
    expect(problems).toEqual([expect.stringMatching(/more than 10 sitemap files; the remaining 499991 are not read/)]);
    // Before: all 500,000 locations queued and remembered (110 MB of heap at the peak, garbage
    // included). Their URL strings alone take 46 MB of live heap; the reader now keeps about 5 MB.
    expect(grew).toBeLessThan(24 * MB);
  });
});
