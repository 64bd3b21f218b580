import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { parseRobotsTxt } from '@heed/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT, DEMO_ORIGIN_NAMES, OTHER_BOT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

// robots-parser is CommonJS whose types declare an ES default export: loaded the way Node loads it, typed as its function.
const robotsParser = createRequire(import.meta.url)('robots-parser') as typeof import('robots-parser').default;

let site: DemoSite;
const seen: string[] = [];

beforeAll(async () => {
  site = await startDemoSite({ onRequest: (request) => seen.push(`${request.origin} ${request.path}`) });
});
afterAll(async () => {
  await site.close();
});

const get = (url: string, init: RequestInit = {}): Promise<Response> =>
  fetch(url, { redirect: 'manual', headers: { 'user-agent': 'demo-site-test' }, ...init });

describe('each origin has its robots.txt situation, over real HTTP', () => {
  it('runs every origin on its own loopback port', () => {
    const ports = DEMO_ORIGIN_NAMES.map((name) => new URL(site.origins[name]).port);
    expect(new Set(ports).size).toBe(4);
    for (const name of DEMO_ORIGIN_NAMES) expect(site.origins[name]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('shop: 200 with wildcard, "$" and demo-bot rules and a sitemap index', async () => {
    const response = await get(`${site.origins.shop}/robots.txt`);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body.split('\n').slice(0, -1)).toEqual(site.expected.robots.shop.lines);
    expect(body).toContain(`User-agent: ${DEMO_BOT}`);
    expect(body).toContain('Disallow: /*?sort=');
    expect(body).toContain('Disallow: /*.pdf$');
    expect(body).toContain(`Sitemap: ${site.origins.shop}/sitemap-index.xml`);
  });

  it('blog: 301 to another path, which has a crawl-delay and a text sitemap', async () => {
    const redirect = await get(`${site.origins.blog}/robots.txt`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/site/robots.txt');
    const response = await get(new URL(redirect.headers.get('location') ?? '', site.origins.blog).href);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('Crawl-delay: 1');
    expect(body).toContain(`Sitemap: ${site.origins.blog}/sitemap.txt`);
    expect(site.expected.robots.blog).toMatchObject({
      fetchPaths: ['/robots.txt', '/site/robots.txt'],
      statuses: [301, 200],
      crawlDelaySeconds: 1,
    });
  });

  it('docs: no robots.txt (404)', async () => {
    expect((await get(`${site.origins.docs}/robots.txt`)).status).toBe(404);
    expect(site.expected.robots.docs).toMatchObject({ policy: 'allow-all', reason: 'unavailable' });
  });

  it('mirror: robots.txt answers 503 with Retry-After', async () => {
    const response = await get(`${site.origins.mirror}/robots.txt`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('3600');
    expect(site.expected.robots.mirror).toMatchObject({ policy: 'disallow-all', reason: 'unreachable' });
  });

  it('every expected status of a robots.txt fetch chain is what the site answers', async () => {
    for (const name of DEMO_ORIGIN_NAMES) {
      const { fetchPaths, statuses } = site.expected.robots[name];
      const answered = await Promise.all(fetchPaths.map(async (path) => (await get(`${site.origins[name]}${path}`)).status));
      expect(answered, name).toEqual(statuses);
    }
  });
});

describe('sitemaps named by robots.txt', () => {
  const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');

  it('lists every expected sitemap URL across an index, a gzipped sitemap and a text sitemap', async () => {
    const index = await get(`${site.origins.shop}/sitemap-index.xml`);
    expect(index.status).toBe(200);
    const indexXml = await index.text();
    expect(indexXml).toContain('<sitemapindex');
    const found: string[] = [];
    for (const sitemapUrl of locs(indexXml)) {
      const response = await get(sitemapUrl);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      const xml = sitemapUrl.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      found.push(...locs(xml));
    }
    expect(locs(indexXml).some((url) => url.endsWith('.xml.gz'))).toBe(true);
    const text = await (await get(`${site.origins.blog}/sitemap.txt`)).text();
    found.push(...text.split('\n').filter((line) => line !== ''));
    expect(found.sort()).toEqual([...site.expected.sitemapUrls].sort());
  });

  it('includes sitemap-only pages that nothing links to', async () => {
    const linked = new Set<string>();
    for (const url of site.expected.urls.filter((entry) => entry.kind === 'page' && entry.demoCrawl === 'crawled')) {
      const html = await (await get(url.url)).text();
      for (const [, href] of html.matchAll(/<a href="([^"]+)"/g)) linked.add(new URL(href ?? '', url.url).href);
    }
    const sitemapOnly = site.expected.urls.filter((url) => url.discoveredBy.length === 1 && url.discoveredBy[0] === 'sitemap');
    expect(sitemapOnly.map((url) => url.path)).toEqual(['/products/gadget', '/products/gizmo', '/private/old-press-kit', '/posts/3']);
    for (const url of sitemapOnly) {
      expect(linked.has(url.url), url.url).toBe(false);
      expect(site.expected.sitemapUrls).toContain(url.url);
    }
  });
});

describe('pages', () => {
  it('answers 200 for every expected page, file and sub-resource', async () => {
    for (const url of site.expected.urls.filter((entry) => entry.kind !== 'redirect')) {
      expect((await get(url.url)).status, url.url).toBe(200);
    }
  });

  it('redirects an allowed page into a disallowed area', async () => {
    const response = await get(site.url('shop', '/go/account'));
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get('location') ?? '', site.origins.shop).href;
    const expectedTarget = site.expected.urls.find((url) => url.url === target);
    expect(expectedTarget?.demoBot.allowed).toBe(false);
  });

  it('carries meta robots tags and X-Robots-Tag headers where the expected outcome says', async () => {
    const nofollow = await (await get(site.url('shop', '/nofollow-page'))).text();
    expect(nofollow).toContain('<meta name="robots" content="nofollow">');
    const noindex = await (await get(site.url('shop', '/noindex-page'))).text();
    expect(noindex).toContain('<meta name="robots" content="noindex">');
    expect((await get(site.url('docs', '/reference'))).headers.get('x-robots-tag')).toBe(`${DEMO_BOT}: nofollow`);
    expect((await get(site.url('docs', '/print'))).headers.get('x-robots-tag')).toBe('noindex');
    const withDirectives = site.expected.urls.filter((url) => url.pageDirectives !== undefined).map((url) => url.path);
    expect(withDirectives).toEqual(['/nofollow-page', '/noindex-page', '/reference', '/print']);
  });

  it('links across origins, including into a disallowed area of another origin', async () => {
    const html = await (await get(site.url('shop', '/'))).text();
    for (const url of [
      `${site.origins.blog}/`,
      `${site.origins.blog}/drafts/upcoming`,
      `${site.origins.docs}/`,
      `${site.origins.mirror}/`,
    ]) {
      expect(html).toContain(`href="${url}"`);
    }
  });
});

describe('the expected verdicts', () => {
  it('agree with an independent parser (robots-parser), deciding line numbers included', async () => {
    for (const name of ['shop', 'blog'] as const) {
      const robotsUrl = `${site.origins[name]}/robots.txt`;
      const parsed = robotsParser(robotsUrl, (site.expected.robots[name].lines ?? []).join('\n'));
      for (const url of site.expected.urls.filter((entry) => entry.origin === name)) {
        for (const [bot, verdict] of [
          [DEMO_BOT, url.demoBot],
          [OTHER_BOT, url.otherBots],
        ] as const) {
          expect(parsed.isAllowed(url.url, bot), `${bot} ${url.url}`).toBe(verdict.allowed);
          expect(parsed.getMatchingLineNumber(url.url, bot), `${bot} ${url.url}`).toBe(verdict.decidingLine?.line ?? -1);
        }
      }
    }
  });

  it('agree with @heed/parser, deciding line numbers included', () => {
    for (const name of ['shop', 'blog'] as const) {
      const robots = parseRobotsTxt((site.expected.robots[name].lines ?? []).join('\n'));
      for (const url of site.expected.urls.filter((entry) => entry.origin === name)) {
        for (const [bot, verdict] of [
          [DEMO_BOT, url.demoBot],
          [OTHER_BOT, url.otherBots],
        ] as const) {
          const explanation = robots.explain(url.url, bot);
          expect(explanation.allowed, `${bot} ${url.url}`).toBe(verdict.allowed);
          expect(explanation.line, `${bot} ${url.url}`).toBe(verdict.decidingLine?.line ?? 0);
        }
      }
    }
    expect(parseRobotsTxt((site.expected.robots.blog.lines ?? []).join('\n')).crawlDelay(DEMO_BOT)).toBe(1);
  });

  it('list what a full crawl fetches and what it never fetches, without overlap', () => {
    const { crawled, neverFetched } = site.expected;
    expect(crawled).toHaveLength(19);
    expect(crawled.filter((url) => neverFetched.includes(url))).toEqual([]);
    expect(neverFetched).toContain(site.url('shop', '/private/account'));
    expect(neverFetched).toContain(site.url('mirror', '/'));
    expect(site.expected.allowedSitemapUrls).not.toContain(site.url('shop', '/private/old-press-kit'));
  });
});

describe('the request log', () => {
  it('records origin, method, path with query, user-agent, time and status of every request', async () => {
    const before = Date.now();
    await get(site.url('shop', '/products/?sort=price'), { headers: { 'user-agent': 'LogCheck/1.0' } });
    const entry = site.requests.at(-1);
    expect(entry).toMatchObject({ origin: 'shop', method: 'GET', path: '/products/?sort=price', userAgent: 'LogCheck/1.0', status: 200 });
    expect(entry?.time).toBeGreaterThanOrEqual(before);
    expect(seen.at(-1)).toBe('shop /products/?sort=price');
    expect(seen.length).toBe(site.requests.length);
  });

  it('close() stops every origin and is safe to call twice', async () => {
    const other = await startDemoSite();
    await other.close();
    await other.close();
    await expect(fetch(`${other.origins.shop}/robots.txt`)).rejects.toThrow();
  });
});
