/**
 * Heed's own fetches of content obey robots.txt and crawl-delay like any page: the sitemap files
 * robots.txt names, nested sitemaps and each redirect hop of them are fetched only when their own
 * origin's robots.txt allows it (that robots.txt read first), hops only under the cross-host rule,
 * and every request to an origin — page, redirect hop, sitemap file — keeps its crawl-delay. A real
 * CheerioCrawler against loopback hosts (127.0.0.2, .3, …) that record every request.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin } from '@heed/crawlee';
import { crawleeCheerio, crawleeCore, crawleeHttp, freshConfig, page, redirect, text, type Site, type SiteOrigin } from './site.js';
import { sitemapIndex, startHosts, urlset, xml } from './sitemaps-hosts.js';
import { watchEventLoop } from '../support/event-loop-holds.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

async function crawl(start: string, proxyConfiguration?: import('@crawlee/core').ProxyConfiguration) {
  const manager = new RobotsManager({ userAgent: UA });
  const warnings: string[] = [];
  const crawler = new crawleeCheerio.CheerioCrawler(
    {
      maxConcurrency: 4,
      requestHandler: async ({ enqueueLinks }) => void (await enqueueLinks()),
      ...(proxyConfiguration ? { proxyConfiguration } : {}),
    },
    freshConfig(),
  );
  crawler.log.warning = (message: string) => void warnings.push(message);
  const plugin = await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false });
  try {
    await crawler.run([start]);
  } finally {
    await manager.close();
  }
  return { stats: plugin.stats, warnings: warnings.join('\n') };
}

let site: Site | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function hosts(count: number): Promise<SiteOrigin[]> {
  site = await startHosts(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].slice(0, count));
  return site.origins;
}

describe("sitemap fetches obey the target origin's robots.txt", () => {
  it("never requests a Sitemap: URL on another host that the host's robots.txt disallows (read first)", async () => {
    const [a, victim] = (await hosts(2)) as [SiteOrigin, SiteOrigin];
    a.routes.set('/robots.txt', text(`User-agent: *\nAllow: /\nSitemap: ${victim.url('/private/x?delete=1')}\n`));
    a.routes.set('/', page('home', []));
    victim.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    victim.routes.set('/private/x?delete=1', xml(urlset([a.url('/from-victim')])));

    const { stats, warnings } = await crawl(a.url('/'));
    expect(victim.paths()).toEqual(['/robots.txt']);
    expect(a.count('/')).toBe(1);
    expect(stats.sitemapsSkipped).toBe(1);
    expect(warnings).toMatch(
      /sitemap http:\/\/127\.0\.0\.3:\d+\/private\/x\?delete=1: not fetched: disallowed for HeedBot by "Disallow: \/private"/,
    );
  });

  it('never requests the sitemap files under the site’s own disallowed paths, nested ones included', async () => {
    const [a] = (await hosts(1)) as [SiteOrigin];
    a.routes.set(
      '/robots.txt',
      text(`User-agent: *\nDisallow: /private\nSitemap: ${a.url('/private/sitemap.xml')}\nSitemap: ${a.url('/index.xml')}\n`),
    );
    a.routes.set('/private/sitemap.xml', xml(urlset([a.url('/p-hidden')])));
    a.routes.set('/index.xml', xml(sitemapIndex([a.url('/private/nested.xml'), a.url('/open.xml')])));
    a.routes.set('/private/nested.xml', xml(urlset([a.url('/p-nested')])));
    a.routes.set('/open.xml', xml(urlset([a.url('/p-open')])));
    for (const path of ['/', '/p-hidden', '/p-nested', '/p-open']) a.routes.set(path, page(path, []));

    const { stats } = await crawl(a.url('/'));
    expect(a.paths().filter((path) => path.startsWith('/private'))).toEqual([]);
    expect(a.count('/p-hidden')).toBe(0);
    expect(a.count('/p-nested')).toBe(0);
    // What robots.txt allows still comes through.
    expect(a.count('/index.xml')).toBe(1);
    expect(a.count('/p-open')).toBe(1);
    expect(stats.sitemapsSkipped).toBe(2);
  });

  it('never follows a sitemap redirect into a disallowed path (same host or another) nor off the site', async () => {
    const [a, c, d] = (await hosts(3)) as [SiteOrigin, SiteOrigin, SiteOrigin];
    a.routes.set(
      '/robots.txt',
      text(
        'User-agent: *\nDisallow: /private\n' +
          [a.url('/moved.xml'), a.url('/away.xml'), c.url('/for-a.xml'), a.url('/ok.xml')].map((u) => `Sitemap: ${u}\n`).join(''),
      ),
    );
    // Same host, into its disallowed path.
    a.routes.set('/moved.xml', redirect(a.url('/private/sitemap.xml')));
    a.routes.set('/private/sitemap.xml', xml(urlset([a.url('/p-private')])));
    // A file A vouches for on C, moved by C into C's disallowed path.
    c.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    c.routes.set('/for-a.xml', redirect(c.url('/private/for-a.xml')));
    c.routes.set('/private/for-a.xml', xml(urlset([a.url('/p-from-c')])));
    // A file of A moved to a third host D, which allows everything: off the site, not followed.
    a.routes.set('/away.xml', redirect(d.url('/sitemap.xml')));
    d.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    d.routes.set('/sitemap.xml', xml(urlset([a.url('/p-from-d')])));
    // An allowed redirect is still followed.
    a.routes.set('/ok.xml', redirect(a.url('/real.xml')));
    a.routes.set('/real.xml', xml(urlset([a.url('/p-ok')])));
    for (const path of ['/', '/p-private', '/p-from-c', '/p-from-d', '/p-ok']) a.routes.set(path, page(path, []));

    const { stats, warnings } = await crawl(a.url('/'));
    expect(a.paths().filter((path) => path.startsWith('/private'))).toEqual([]);
    expect(c.paths().filter((path) => path.startsWith('/private'))).toEqual([]);
    expect(d.paths()).toEqual([]);
    expect(a.count('/real.xml')).toBe(1);
    expect(a.count('/p-ok')).toBe(1);
    for (const path of ['/p-private', '/p-from-c', '/p-from-d']) expect(a.count(path)).toBe(0);
    expect(stats.sitemapsSkipped).toBe(3);
    expect(warnings).toMatch(/redirects to http:\/\/127\.0\.0\.4:\d+\/sitemap\.xml, not followed: outside the site/);
  });
});

describe('crawl-delay counts every request to the origin', () => {
  it('spaces pages, redirect hops and sitemap files of the origin by its delay', async () => {
    const loop = watchEventLoop();
    onTestFinished(() => loop.stop());
    const [a] = (await hosts(1)) as [SiteOrigin];
    a.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: 1\nSitemap: ${a.url('/s1.xml')}\nSitemap: ${a.url('/moved.xml')}\n`));
    a.routes.set('/', page('home', ['/r']));
    a.routes.set('/r', redirect(a.url('/after-r')));
    a.routes.set('/s1.xml', xml(urlset([a.url('/p1')])));
    a.routes.set('/moved.xml', redirect(a.url('/s2.xml')));
    a.routes.set('/s2.xml', xml(urlset([a.url('/p2')])));
    for (const path of ['/after-r', '/p1', '/p2']) a.routes.set(path, page(path, []));

    await crawl(a.url('/'));
    const hits = a.hits.filter((hit) => hit.path !== '/robots.txt');
    // Every page, hop and sitemap still comes through.
    expect(hits.map((hit) => hit.path).sort()).toEqual(['/', '/after-r', '/moved.xml', '/p1', '/p2', '/r', '/s1.xml', '/s2.xml']);
    const gaps = hits.slice(1).map((hit, i) => ({ to: hit.path, gap: hit.at - hits[i]!.at }));
    console.log(`Crawl-delay 1 s: ${hits.length} requests, smallest gap ${Math.min(...gaps.map(({ gap }) => gap))} ms`);
    expect(gaps.filter(({ gap }) => gap < 900 - loop.longestMs())).toEqual([]);
  });

  it('counts the delay from when a sitemap request leaves, however long after it was let through', async () => {
    const loop = watchEventLoop();
    onTestFinished(() => loop.stop());
    const [a] = (await hosts(1)) as [SiteOrigin];
    a.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: 1\nSitemap: ${a.url('/s1.xml')}\n`));
    a.routes.set('/', page('home', []));
    a.routes.set('/s1.xml', xml(urlset([a.url('/p1')])));
    a.routes.set('/p1', page('/p1', []));
    // A proxy service that takes a while to name the proxy of Heed's own fetches (its sessions are
    // `heed_…`), and then says to go direct: the sitemap file leaves well after its crawl-delay slot.
    const proxyConfiguration = new crawleeCore.ProxyConfiguration({
      newUrlFunction: async (sessionId) => {
        if (String(sessionId).startsWith('heed_')) await new Promise((resolve) => setTimeout(resolve, 600));
        return null;
      },
    });

    await crawl(a.url('/'), proxyConfiguration);
    const hits = a.hits.filter((hit) => hit.path !== '/robots.txt');
    expect(hits.map((hit) => hit.path).sort()).toEqual(['/', '/p1', '/s1.xml']);
    const gaps = hits.slice(1).map((hit, i) => ({ to: hit.path, gap: hit.at - hits[i]!.at }));
    expect(gaps.filter(({ gap }) => gap < 900 - loop.longestMs())).toEqual([]);
  });

  it('HttpCrawler: each hop of a redirect chain waits for the delay of its origin', async () => {
    const loop = watchEventLoop();
    onTestFinished(() => loop.stop());
    const [a] = (await hosts(1)) as [SiteOrigin];
    a.routes.set('/robots.txt', text('User-agent: *\nCrawl-delay: 0.4\n'));
    a.routes.set('/start', redirect('/hop1'));
    a.routes.set('/hop1', redirect('/hop2'));
    a.routes.set('/hop2', redirect('/end'));
    a.routes.set('/end', page('end', []));
    const manager = new RobotsManager({ userAgent: UA });
    const crawler = new crawleeHttp.HttpCrawler({ requestHandler: async () => {} }, freshConfig());
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, logSummary: false, sitemaps: false });
    try {
      await crawler.run([a.url('/start')]);
    } finally {
      await manager.close();
    }
    const hits = a.hits.filter((hit) => hit.path !== '/robots.txt');
    expect(hits.map((hit) => hit.path)).toEqual(['/start', '/hop1', '/hop2', '/end']);
    const gaps = hits.slice(1).map((hit, i) => ({ to: hit.path, gap: hit.at - hits[i]!.at }));
    expect(gaps.filter(({ gap }) => gap < 350 - loop.longestMs())).toEqual([]);
  });
});
