/**
 * Sitemaps: reading (XML, gzip, text, indexes, bounds) against a local server, and the feeder
 * putting them into a real crawler's queue (filters, per-origin bound, label, back-pressure, off).
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { readSitemaps } from '../../packages/crawlee/src/sitemaps/index.js';
import { crawleeCheerio, freshConfig, page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

const urlset = (urls: readonly string[]) =>
  '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  urls.map((u) => `<url><loc>${u}</loc><lastmod>2024-01-01</lastmod></url>`).join('') +
  '</urlset>';
const index = (urls: readonly string[]) =>
  '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('') +
  '</sitemapindex>';
const xml = (body: string) => ({ headers: { 'content-type': 'application/xml' }, body });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('reading sitemaps', () => {
  let site: Site;
  let o: SiteOrigin;
  const fetchOptions = { userAgent: UA, maxBytes: 1_000_000, timeoutMs: 5_000 };

  beforeAll(async () => {
    site = await startSite(1);
    o = site.origins[0]!;
    o.routes.set('/plain.xml', xml(urlset([o.url('/p1'), o.url('/p2')])));
    o.routes.set('/gz.xml.gz', { headers: { 'content-type': 'application/gzip' }, body: gzipSync(urlset([o.url('/g1')])) });
    o.routes.set('/list.txt', text(`${o.url('/t1')}\n  ${o.url('/t2')}  \nnot a url\n\n`));
    o.routes.set('/index.xml', xml(index([o.url('/level1.xml'), o.url('/index.xml')])));
    o.routes.set('/level1.xml', xml(index([o.url('/level2.xml'), o.url('/plain.xml')])));
    o.routes.set('/level2.xml', xml(urlset([o.url('/deep')])));
    o.routes.set('/big.xml', xml(urlset(Array.from({ length: 2_000 }, (_, i) => o.url(`/big/${i}`)))));
    o.routes.set('/broken.xml', xml(`${urlset([o.url('/ok')]).slice(0, -20)}<url><loc>`));
    o.routes.set('/down.xml', { status: 503, body: 'down' });
  });

  afterAll(async () => {
    await site?.close();
  });

  it("parses XML urlsets, gzipped files and text sitemaps, with the crawler's user-agent", async () => {
    const urls = await collect(
      readSitemaps([o.url('/plain.xml'), o.url('/gz.xml.gz'), o.url('/list.txt')], { ...fetchOptions, maxDepth: 0 }),
    );
    expect(urls.map((u) => u.url)).toEqual([o.url('/p1'), o.url('/p2'), o.url('/g1'), o.url('/t1'), o.url('/t2')]);
    expect(urls[2]).toEqual({ url: o.url('/g1'), sitemapUrl: o.url('/gz.xml.gz') });
    expect(new Set(o.hits.map((h) => h.userAgent))).toEqual(new Set([UA]));
  });

  it('follows indexes to maxDepth, each file once (a self-reference is no loop)', async () => {
    const read: string[] = [];
    const deep = await collect(
      readSitemaps([o.url('/index.xml')], { ...fetchOptions, maxDepth: 2 }, { onSitemapRead: (u) => read.push(u) }),
    );
    expect(deep.map((u) => u.url).sort()).toEqual([o.url('/deep'), o.url('/p1'), o.url('/p2')].sort());
    expect(read.filter((u) => u === o.url('/index.xml'))).toHaveLength(1);
    const shallow = await collect(readSitemaps([o.url('/index.xml')], { ...fetchOptions, maxDepth: 1 }));
    expect(shallow.map((u) => u.url).sort()).toEqual([]);
  });

  it('reads at most maxFiles files', async () => {
    const read: string[] = [];
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps(
        [o.url('/index.xml')],
        { ...fetchOptions, maxDepth: 5, maxFiles: 2 },
        { onSitemapRead: (u) => read.push(u), onProblem: (m) => problems.push(m) },
      ),
    );
    expect(read).toEqual([o.url('/index.xml'), o.url('/level1.xml')]);
    expect(urls).toEqual([]);
    expect(problems.join()).toMatch(/more than 2 sitemap files; the remaining 2 are not read/);
  });

  it('reads at most maxBytes and keeps the entries before the cut', async () => {
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps([o.url('/big.xml')], { ...fetchOptions, maxDepth: 0, maxBytes: 10_000 }, { onProblem: (m) => problems.push(m) }),
    );
    expect(urls.length).toBeGreaterThan(50);
    expect(urls.length).toBeLessThan(2_000);
    expect(urls[0]!.url).toBe(o.url('/big/0'));
    expect(problems.join()).toMatch(/larger than 10000 bytes/);
  });

  it('bounds decompression the same way', async () => {
    // 5 MB of gzipped URLs, one a line: only the first 100 kB of text is read.
    const lines = Array.from({ length: 100_000 }, (_, i) => o.url(`/z/${i}`)).join('\n');
    o.routes.set('/bomb.txt.gz', { headers: { 'content-type': 'application/gzip' }, body: gzipSync(lines) });
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps([o.url('/bomb.txt.gz')], { ...fetchOptions, maxDepth: 0, maxBytes: 100_000 }, { onProblem: (m) => problems.push(m) }),
    );
    const perLine = o.url('/z/00000').length + 1;
    expect(urls.length).toBeGreaterThan(100_000 / perLine - 2);
    expect(urls.length).toBeLessThanOrEqual(100_000 / (perLine - 4));
    expect(problems.join()).toMatch(/larger than 100000 bytes once decompressed/);
  });

  it('fetches through a proxy when one is set', async () => {
    // A forward HTTP proxy on 127.0.0.1 that logs what it forwards.
    const forwarded: string[] = [];
    const proxy = createServer((req, res) => {
      forwarded.push(String(req.url));
      const upstream = httpRequest(String(req.url), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const urls = await collect(readSitemaps([o.url('/plain.xml')], { ...fetchOptions, maxDepth: 0, proxyUrl }));
      expect(urls.map((u) => u.url)).toEqual([o.url('/p1'), o.url('/p2')]);
      expect(forwarded).toEqual([o.url('/plain.xml')]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('never throws on broken or unreachable sitemaps', async () => {
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps(
        [o.url('/broken.xml'), o.url('/down.xml'), 'http://127.0.0.1:1/nothing.xml', o.url('/plain.xml')],
        { ...fetchOptions, maxDepth: 0 },
        { onProblem: (m) => problems.push(m) },
      ),
    );
    expect(urls.map((u) => u.url)).toContain(o.url('/p1'));
    expect(problems.some((p) => p.includes('HTTP 503'))).toBe(true);
    expect(problems.some((p) => p.includes('could not be fetched'))).toBe(true);
  });
});

describe('sitemap URLs into the queue', () => {
  let site: Site;
  let a: SiteOrigin;
  let manager: RobotsManager;

  beforeAll(async () => {
    site = await startSite(1);
    a = site.origins[0]!;
    const pages = Array.from({ length: 60 }, (_, i) => a.url(`/item/${i}`));
    a.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /item/1\nSitemap: ${a.url('/sitemap.xml')}\n`));
    a.routes.set('/sitemap.xml', xml(urlset([...pages, a.url('/blog/post'), 'http://localhost:1/elsewhere', 'ftp://example.com/file'])));
    a.routes.set('/', page('home', []));
    a.routes.set('/blog/post', page('post', []));
    for (const url of pages) a.routes.set(new URL(url).pathname, page('item', []));
  });

  afterAll(async () => {
    await manager?.close();
    await site?.close();
  });

  async function crawl(options: Parameters<typeof RobotsPlugin.attach>[1]) {
    const handled: { url: string; label: string | undefined; pending: number }[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      {
        maxConcurrency: 2,
        requestHandler: async (ctx) => {
          handled.push({ url: ctx.request.url, label: ctx.request.label, pending: crawler['pendingRequestCountApproximation'] });
        },
      },
      freshConfig(),
    );
    const plugin = await RobotsPlugin.attach(crawler, { manager, logSummary: false, ...options });
    await crawler.run([a.url('/')]);
    return { handled, plugin };
  }

  beforeAll(() => {
    manager = new RobotsManager({ userAgent: UA });
  });

  it('enqueues same-hostname URLs robots.txt allows, with the label, in the background', async () => {
    const { handled, plugin } = await crawl({ userAgent: UA, sitemaps: { label: 'SITEMAP', maxPendingRequests: 10 } });
    const fromSitemap = handled.filter((h) => h.label === 'SITEMAP').map((h) => h.url);
    expect(fromSitemap).toHaveLength(60 - 11 + 1); // 60 items minus /item/1 and /item/10–19, plus the blog post
    expect(fromSitemap).not.toContain(a.url('/item/1'));
    expect(a.paths().filter((p) => /^\/item\/1\d?$/.test(p))).toEqual([]);
    expect(plugin.stats.skippedByStage.sitemap).toBe(11);
    // Back-pressure: the feeder waits while 10 requests are pending (batches of 10).
    expect(Math.max(...handled.map((h) => h.pending))).toBeLessThanOrEqual(20);
  });

  it('applies globs or regexps, then a filter function', async () => {
    const { handled } = await crawl({
      userAgent: UA,
      // Like enqueueLinks: a URL matching any glob or regexp is kept, then the function decides.
      sitemaps: { globs: [`${a.origin}/blog/**`], regexps: [/\/item\/[2-3]$/], filter: (url) => !url.endsWith('/3') },
    });
    expect(handled.map((h) => h.url).sort()).toEqual([a.url('/'), a.url('/blog/post'), a.url('/item/2')]);
  });

  it('stops at maxUrlsPerOrigin', async () => {
    const { handled } = await crawl({ userAgent: UA, sitemaps: { maxUrlsPerOrigin: 5 } });
    expect(handled).toHaveLength(1 + 5 - 1); // the 5 first kept URLs include the disallowed /item/1
  });

  it('can be turned off', async () => {
    const before = a.count('/sitemap.xml');
    const { handled } = await crawl({ userAgent: UA, sitemaps: false });
    expect(handled.map((h) => h.url)).toEqual([a.url('/')]);
    expect(a.count('/sitemap.xml')).toBe(before);
  });
});

describe('sitemap URLs and the enqueue check', () => {
  let site: Site;
  afterAll(async () => {
    await site?.close();
  });

  it('enter the queue through the plugin, not around it: no bypass is ever noted', async () => {
    site = await startSite(1);
    const o = site.origins[0]!;
    const listed = Array.from({ length: 30 }, (_, i) => o.url(`/listed-${i}`));
    o.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${o.url('/sitemap.xml')}\n`));
    o.routes.set('/sitemap.xml', xml(urlset(listed)));
    o.routes.set('/', page('home', []));
    for (const url of listed) o.routes.set(new URL(url).pathname, page('listed', []));
    const handled: string[] = [];
    const crawler = new crawleeCheerio.CheerioCrawler(
      { requestHandler: async ({ request }) => void handled.push(request.url) },
      freshConfig(),
    );
    const errors: string[] = [];
    const original = crawler.log.error.bind(crawler.log);
    crawler.log.error = (message: string, data?: Record<string, unknown>) => {
      errors.push(message);
      original(message, data);
    };
    const manager = new RobotsManager({ userAgent: UA });
    try {
      await RobotsPlugin.attach(crawler, { userAgent: UA, manager });
      // The origin is first seen while its start URL is being added to the queue: the feeding
      // task must not inherit that call's context.
      await crawler.run([o.url('/')]);
    } finally {
      await manager.close();
    }
    expect(handled.sort()).toEqual([o.url('/'), ...listed].sort());
    expect(errors.filter((message) => message.includes("without passing Heed's enqueue check"))).toEqual([]);
  });
});
