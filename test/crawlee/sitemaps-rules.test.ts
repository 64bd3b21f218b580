/**
 * Which sitemap entries are read, and how, with a real crawler where it
 * matters, on hosts that differ by hostname (127.0.0.2, .3, …), plus the bounds of the numeric
 * sitemap options.
 *
 * 5. One scope rule: nested sitemaps outside the site are not fetched; a robots.txt `Sitemap:` on
 *    another host is read, but its URLs on that host are kept only when that host's robots.txt names
 *    the sitemap (cross-submission), and its URLs on a third host never. (Before: an index on A naming a sitemap on D got D's sitemap
 *    fetched and D's pages crawled; a `Sitemap:` in A's robots.txt pointing to C got C's pages crawled.)
 * 6. `<loc>` as the protocol defines it, and XML faults cost only themselves. (Before: one unescaped
 *    `&` in a 1,000-URL sitemap gave 0 entries; a comment inside `<loc>` gave its tail as a relative
 *    URL, which was fetched.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { InvalidOptionsError, RobotsPlugin } from '@heed/crawlee';
import { parseSitemapStream, readSitemaps } from '../../packages/crawlee/src/sitemaps/index.js';
import { crawleeCheerio, freshConfig, page, text, type Site, type SiteOrigin } from './site.js';
import { NS, sitemapIndex, startHosts, urlset, xml } from './sitemaps-hosts.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function crawl(start: string, sitemaps: Record<string, unknown> = {}) {
  const manager = new RobotsManager({ userAgent: UA });
  const warnings: string[] = [];
  const crawler = new crawleeCheerio.CheerioCrawler({ maxConcurrency: 4, requestHandler: async () => {} }, freshConfig());
  crawler.log.warning = (message: string) => void warnings.push(message);
  const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false, sitemaps });
  try {
    await crawler.run([start]);
  } finally {
    await manager.close();
  }
  return { plugin, warnings: warnings.join('\n') };
}

describe('cross-host sitemaps follow one rule', () => {
  let site: Site;
  let a: SiteOrigin, c: SiteOrigin, d: SiteOrigin, e: SiteOrigin;

  beforeAll(async () => {
    site = await startHosts(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']);
    [a, c, d, e] = site.origins as [SiteOrigin, SiteOrigin, SiteOrigin, SiteOrigin];
    a.routes.set(
      '/robots.txt',
      text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/index.xml')}\nSitemap: ${c.url('/for-a.xml')}\nSitemap: ${e.url('/for-e.xml')}\n`),
    );
    a.routes.set('/index.xml', xml(sitemapIndex([a.url('/pages.xml'), d.url('/nested.xml')])));
    a.routes.set('/pages.xml', xml(urlset([a.url('/a1')])));
    // D: named by A's index only.
    d.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    d.routes.set('/nested.xml', xml(urlset([d.url('/d1'), a.url('/a-from-d')])));
    // C: hosts a sitemap A's robots.txt names, listing A's pages (cross-submission) and its own; C's robots.txt does not name it.
    c.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    c.routes.set('/for-a.xml', xml(urlset([a.url('/a-from-c'), c.url('/c1')])));
    // E: its own robots.txt names the sitemap A's robots.txt names too: E vouches for it.
    e.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${e.url('/for-e.xml')}\n`));
    // It also lists a page on C: a third host, dropped without asking C.
    e.routes.set('/for-e.xml', xml(urlset([e.url('/e1'), c.url('/c-from-e')])));
    for (const [o, path] of [
      [a, '/'],
      [a, '/a1'],
      [a, '/a-from-d'],
      [a, '/a-from-c'],
      [c, '/c1'],
      [c, '/c-from-e'],
      [d, '/d1'],
      [e, '/e1'],
    ] as const)
      o.routes.set(path, page(path, []));
  });

  afterAll(async () => {
    await site?.close();
  });

  it('never fetches a nested sitemap outside the site, nor crawls another host unless it vouches', async () => {
    const { warnings } = await crawl(a.url('/'));
    // The index's child on D: not fetched, so neither D's page nor the A page it lists.
    expect(d.count('/nested.xml')).toBe(0);
    expect(d.paths()).toEqual([]);
    expect(a.count('/a-from-d')).toBe(0);
    expect(warnings).toMatch(/lists the sitemap http:\/\/127\.0\.0\.4:\d+\/nested\.xml, outside the site/);
    // C's page: C's robots.txt does not name the sitemap listing it.
    expect(c.count('/c1')).toBe(0);
    // A's own pages, including those listed by the sitemap on C that A's robots.txt names.
    expect(a.count('/a1')).toBe(1);
    expect(a.count('/a-from-c')).toBe(1);
    expect(warnings).toMatch(/\d sitemap URL\(s\) outside the site .* not in a sitemap their own host's robots\.txt names/);
    // E's page: E's robots.txt names the sitemap (cross-submission). C's page listed there: not E's to vouch for.
    expect(e.count('/e1')).toBe(1);
    expect(c.count('/c-from-e')).toBe(0);
  });

  it("follows the enqueue strategy: with 'all', every host is in the site", async () => {
    for (const o of site.origins) o.hits.length = 0;
    await crawl(a.url('/'), { enqueueStrategy: 'all' });
    expect(d.count('/nested.xml')).toBe(1);
    expect(d.count('/d1')).toBe(1);
    expect(c.count('/c1')).toBe(1);
  });
});

describe('<loc> as the protocol defines it', () => {
  let site: Site;
  let a: SiteOrigin;

  beforeAll(async () => {
    site = await startHosts(['127.0.0.6']);
    a = site.origins[0]!;
    const many = Array.from({ length: 1_000 }, (_, i) => a.url(`/item/${i}`));
    // One unescaped & in the middle of a 1,000-URL sitemap, as real generators produce.
    const withAmp = many.map((u, i) => (i === 500 ? `${u}?a=1&b=2` : u));
    a.routes.set('/amp.xml', xml(urlset(withAmp)));
    a.routes.set('/cut.xml', xml(urlset(many).slice(0, urlset(many).indexOf(a.url('/item/700'))) + a.url('/item/7')));
    a.routes.set(
      '/tricky.xml',
      xml(
        `<?xml version="1.0"?><urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
          `<url><loc>${a.url('/page')}<!-- moved -->secret-tail</loc></url>` +
          `<url><loc><![CDATA[${a.url('/cdata?x=1&y=2')}]]></loc></url>` +
          `<url><loc>\n   ${a.url('/entities?x=1&amp;y=&#50;')}\n  </loc><image:image><image:loc>${a.url('/photo.jpg')}</image:loc></image:image></url>` +
          '<url><loc>/relative/path</loc></url>' +
          '<url><loc>ftp://example.com/file</loc></url>' +
          '</urlset>',
      ),
    );
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${a.url('/tricky.xml')}\n`));
    for (const path of ['/', '/page', '/pagesecret-tail', '/cdata?x=1&y=2', '/entities?x=1&y=2']) a.routes.set(path, page(path, []));
  });

  afterAll(async () => {
    await site?.close();
  });

  it('keeps every entry of a 1,000-URL sitemap with one unescaped &', async () => {
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps(
        [a.url('/amp.xml')],
        { userAgent: UA, maxBytes: 1_000_000, timeoutMs: 10_000, maxDepth: 0 },
        { onProblem: (m) => problems.push(m) },
      ),
    );
    expect(urls).toHaveLength(1_000);
    expect(urls[500]!.url).toBe(a.url('/item/500?a=1&b=2'));
    expect(problems.join()).toMatch(/malformed XML, 1 error\(s\), parsing went on/);
  });

  it('keeps the entries before a file is cut off', async () => {
    const urls = await collect(readSitemaps([a.url('/cut.xml')], { userAgent: UA, maxBytes: 1_000_000, timeoutMs: 10_000, maxDepth: 0 }));
    expect(urls).toHaveLength(700);
  });

  it('reads text content: comments left out, CDATA and entities decoded; relative values dropped, never fetched', async () => {
    const { warnings } = await crawl(a.url('/'));
    const paths = a.paths();
    expect(paths).toContain('/pagesecret-tail');
    expect(paths).not.toContain('/secret-tail');
    expect(paths).not.toContain('/relative/path');
    expect(paths).not.toContain('/photo.jpg');
    expect(warnings).toMatch(/not an absolute http\(s\) URL/);

    const problems: string[] = [];
    const entries = await collect(parseSitemapStream([await (await fetch(a.url('/tricky.xml'))).text()], (m) => problems.push(m)));
    expect(entries).toEqual([
      { kind: 'url', loc: a.url('/pagesecret-tail') },
      { kind: 'url', loc: a.url('/cdata?x=1&y=2') },
      { kind: 'url', loc: a.url('/entities?x=1&y=2') },
    ]);
    expect(problems.join()).toMatch(/2 <loc> value\(s\) not an absolute http\(s\) URL, dropped \(first: "\/relative\/path"\)/);
  });

  it('parses a sitemap split at any byte, multi-byte characters included', async () => {
    const body = Buffer.from(urlset([a.url('/caf%C3%A9'), `${a.url('/')}café`, a.url('/x?q=ü&amp;r=1')]));
    const whole = await collect(parseSitemapStream([body]));
    for (const size of [1, 2, 3, 7]) {
      const pieces: Uint8Array[] = [];
      for (let i = 0; i < body.length; i += size) pieces.push(body.subarray(i, i + size));
      expect(await collect(parseSitemapStream(pieces))).toEqual(whole);
    }
    expect(whole.map((e) => e.loc)).toEqual([a.url('/caf%C3%A9'), a.url('/caf%C3%A9'), a.url('/x?q=%C3%BC&r=1')]);
  });

  it('reads plain-text sitemaps line by line, overlong lines skipped without being held', async () => {
    const problems: string[] = [];
    const lines = [`${a.url('/t1')}\r\n`, 'x'.repeat(100_000), `\n${a.url('/t2')}\n`, 'not a url\n', a.url('/t3')];
    const entries = await collect(parseSitemapStream(lines, (m) => problems.push(m)));
    expect(entries.map((e) => e.loc)).toEqual([a.url('/t1'), a.url('/t2'), a.url('/t3')]);
    expect(problems.join()).toMatch(/2 line\(s\) not an absolute http\(s\) URL/);
  });

  it('abandons hostile shapes that would grow the parser: deep nesting, endless attributes', async () => {
    for (const body of [
      `<urlset><url><loc>${a.url('/ok')}</loc></url>${'<a>'.repeat(100_000)}`,
      `<urlset><url><loc>${a.url('/ok')}</loc></url><a ${Array.from({ length: 10_000 }, (_, i) => `x${i}="1"`).join(' ')}>`,
    ]) {
      const problems: string[] = [];
      const entries = await collect(parseSitemapStream([body], (m) => problems.push(m)));
      expect(entries.map((e) => e.loc)).toEqual([a.url('/ok')]);
      expect(problems.join()).toMatch(/the rest of the file is skipped, the 1 entries before it kept/);
    }
  });
});

describe('numeric sitemap options are bounded', () => {
  const attach = (sitemaps: Record<string, unknown>) =>
    RobotsPlugin.attach(new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig()), {
      userAgent: UA,
      manager: new RobotsManager({ userAgent: UA }),
      sitemaps,
    });

  it.each([
    ['maxBytes', Infinity, /sitemaps\.maxBytes.*whole number of bytes from 0 to 1,073,741,824/],
    ['maxBytes', 2 ** 40, /sitemaps\.maxBytes/],
    ['timeoutSecs', 2_147_483.648, /sitemaps\.timeoutSecs.*from 0\.001 to 2,147,483\.647 \(the longest a Node\.js timer waits/],
    ['maxTimePerOriginSecs', Infinity, /sitemaps\.maxTimePerOriginSecs.*seconds from 0\.001 to 2,147,483\.647/],
    ['stallSecs', 0, /sitemaps\.stallSecs.*seconds from 0\.001 to 2,147,483\.647/],
    ['maxUrlsPerOrigin', Infinity, /sitemaps\.maxUrlsPerOrigin/],
    ['maxDepth', 1.5, /sitemaps\.maxDepth.*whole number from 0 to 10/],
    ['maxConcurrency', 0, /sitemaps\.maxConcurrency.*from 1 to 64/],
    ['maxBufferedBytes', Number.NaN, /sitemaps\.maxBufferedBytes/],
    ['maxHeldBytesPerOrigin', 1_000, /sitemaps\.maxHeldBytesPerOrigin.*whole number of bytes from 65,536 to 1,073,741,824/],
    ['maxHeldBytes', 2 ** 31, /sitemaps\.maxHeldBytes.*whole number of bytes from 65,536 to 1,073,741,824/],
    ['maxPendingRequests', '100', /sitemaps\.maxPendingRequests.*got "100"/],
  ])('rejects sitemaps.%s = %s', async (key, value, message) => {
    const attempt = attach({ [key]: value });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('accepts the bounds themselves, and documents the defaults', async () => {
    const plugin = await attach({ timeoutSecs: 2_147_483.647, maxTimePerOriginSecs: 0.001, maxConcurrency: 64, maxBytes: 1 });
    const sitemaps = plugin.options.sitemaps;
    expect(sitemaps && [sitemaps.timeoutSecs, sitemaps.maxTimePerOriginSecs, sitemaps.maxConcurrency, sitemaps.maxBufferedBytes]).toEqual([
      2_147_483.647,
      0.001,
      64,
      16 * 1024 * 1024,
    ]);
    await plugin.close();
    const defaults = (await attach({})).options.sitemaps;
    expect(
      defaults && [
        defaults.maxTimePerOriginSecs,
        defaults.maxConcurrency,
        defaults.maxFilesPerOrigin,
        defaults.stallSecs,
        defaults.maxHeldBytesPerOrigin,
        defaults.maxHeldBytes,
      ],
    ).toEqual([120, 4, 100, 5, 16 * 1024 * 1024, 128 * 1024 * 1024]);
  });
});
