/**
 * Hostile and odd sitemaps (issue 24, items 5, 6 and 9), against real loopback servers, at CI
 * scale; the full scale is `pnpm test:stress` (test/stress/sitemaps.stress.ts).
 *
 * 9. XML faults cost only themselves. (Before: a sitemap with an unescaped `&` in every URL gave
 *    99 of its 5,000 URLs: the file was abandoned after 100 faults.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSitemapStream, readSitemaps } from '../../packages/crawlee/src/sitemaps/index.js';
import { startSite, type Site, type SiteOrigin } from './site.js';
import { mainThreadCpuMs } from './sitemaps-hosts.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const urlset = (entries: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n${entries.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}\n</urlset>\n`;
const xml = (body: string) => ({ headers: { 'content-type': 'application/xml' }, body });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('XML faults cost only themselves', () => {
  let site: Site;
  let a: SiteOrigin;

  beforeAll(async () => {
    site = await startSite(1);
    a = site.origins[0]!;
  });

  afterAll(async () => {
    await site?.close();
  });

  it('keeps all 5,000 URLs of a sitemap with a bare & in every one, each read as a literal &', async () => {
    a.routes.set('/amp.xml', xml(urlset(Array.from({ length: 5_000 }, (_, i) => a.url(`/item/${i}?utm_source=x&utm_medium=y&v=${i}`)))));
    const problems: string[] = [];
    const urls = await collect(
      readSitemaps(
        [a.url('/amp.xml')],
        { userAgent: UA, maxBytes: 10_000_000, timeoutMs: 30_000, maxDepth: 0 },
        { onProblem: (m) => problems.push(m) },
      ),
    );
    expect(urls).toHaveLength(5_000);
    expect(urls[4_999]!.url).toBe(a.url('/item/4999?utm_source=x&utm_medium=y&v=4999'));
    // Reported once, as faults parsing went on past; nothing skipped.
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/malformed XML, 10000 error\(s\), parsing went on past each/);
  });

  it('abandons a file of faults alone early, and a file of faults between entries costs linear time', async () => {
    // 4 MiB of bare & and no entry: abandoned after the first faults, not parsed to the 4 MiB bound.
    const problems: string[] = [];
    const lone = await collect(parseSitemapStream([`<urlset ${NS}><url><loc>`, '&'.repeat(4 * 1024 * 1024)], (m) => problems.push(m)));
    expect(lone).toEqual([]);
    expect(problems.join('\n')).toMatch(/101 XML errors against 0 entries .* the rest of the file is skipped/);

    // Hostile: as many faults as the entries pay for (8 each). Four times the file, at most eight
    // times the time, where a quadratic step would take sixteen (best of three, main-thread CPU
    // time, so a loaded machine's noise stays out).
    const hostile = (n: number) =>
      `<urlset ${NS}>` +
      Array.from({ length: n }, (_, i) => `<url><loc>http://a.example/${i}</loc></url>${'&&'.repeat(8)}`).join('') +
      '</urlset>';
    const cost = async (body: string) => {
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        const started = mainThreadCpuMs();
        expect((await collect(parseSitemapStream([body]))).length).toBe(body.split('</loc>').length - 1);
        best = Math.min(best, mainThreadCpuMs() - started);
      }
      return best;
    };
    const small = await cost(hostile(5_000));
    const large = await cost(hostile(20_000));
    console.log(`hostile XML, 8 faults per entry: 5,000 entries ${small.toFixed(0)} ms, 20,000 entries ${large.toFixed(0)} ms`);
    expect(large / small).toBeLessThanOrEqual(8);
    expect(large).toBeLessThan(10_000);
  });
});
