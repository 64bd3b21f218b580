/**
 * Compressed sitemaps: every complete gzip member is read whatever bytes follow it; a damaged or
 * cut stream keeps the entries decoded so far and is reported.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSitemaps } from '../../packages/crawlee/src/sitemaps/index.js';
import { startSite, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const JUNK = Buffer.from('<!-- appended by a proxy -->\n');
const URLS = 1_000;

describe('compressed sitemaps', () => {
  let site: Site;
  let o: SiteOrigin;
  const urlset = () =>
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
    Array.from({ length: URLS }, (_, i) => `<url><loc>${o.url(`/page/${String(i)}`)}</loc><lastmod>2024-01-01</lastmod></url>`).join('') +
    '</urlset>';

  beforeAll(async () => {
    site = await startSite(1);
    o = site.origins[0]!;
    const gz = gzipSync(urlset());
    o.routes.set('/file-junk.xml.gz', { headers: { 'content-type': 'application/gzip' }, body: Buffer.concat([gz, JUNK]) });
    o.routes.set('/encoded-junk.xml', {
      headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' },
      body: Buffer.concat([gz, JUNK]),
    });
    o.routes.set('/file-cut.xml.gz', { headers: { 'content-type': 'application/gzip' }, body: gz.subarray(0, Math.floor(gz.length / 2)) });
    o.routes.set('/encoded-cut.xml', {
      headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' },
      body: gz.subarray(0, Math.floor(gz.length / 2)),
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  async function read(path: string): Promise<{ urls: number; problems: string[] }> {
    const problems: string[] = [];
    let urls = 0;
    for await (const _entry of readSitemaps(
      [o.url(path)],
      { userAgent: UA, maxBytes: 10_000_000, timeoutMs: 5_000, maxDepth: 0 },
      {
        onProblem: (message) => problems.push(message),
      },
    ))
      urls++;
    return { urls, problems };
  }

  it.each(['/file-junk.xml.gz', '/encoded-junk.xml'])('%s: a gzip stream followed by junk bytes yields every URL', async (path) => {
    expect(await read(path)).toEqual({ urls: URLS, problems: [] });
  });

  it.each(['/file-cut.xml.gz', '/encoded-cut.xml'])('%s: a gzip stream cut short keeps what was decoded and is reported', async (path) => {
    const { urls, problems } = await read(path);
    expect(urls).toBeGreaterThan(0);
    expect(urls).toBeLessThan(URLS);
    expect(problems.join('\n')).toMatch(/gzip data is damaged or cut short/);
  });
});
