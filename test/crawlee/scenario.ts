/**
 * The site every crawler test crawls: three origins.
 *
 * A (`a`): robots.txt with a `*` group, a `heedbot` group and an `otherbot` group, two sitemaps
 *   (an XML index pointing at a gzipped urlset, and a text sitemap); pages linking to allowed and
 *   disallowed pages of A and B, redirects to allowed and disallowed targets (same and other
 *   origin), nofollow pages (meta robots, heedbot meta, X-Robots-Tag), a noindex page, a
 *   rel="nofollow" link, a disallowed image.
 * B (`b`): robots.txt disallowing /blocked.
 * C (`c`): robots.txt answering 503 until `cRobotsOk` is set, then 200 allowing everything.
 */
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { page, redirect, startSite, text, type Site, type SiteOrigin } from './site.js';

export interface Scenario {
  readonly site: Site;
  readonly a: SiteOrigin;
  readonly b: SiteOrigin;
  readonly c: SiteOrigin;
  /** Switch C's robots.txt from 503 to 200. */
  setCRobotsOk(ok: boolean): void;
  /** Paths of A that HeedBot must never request. */
  readonly aNeverForHeedbot: readonly string[];
  /** Paths of B no crawler may request. */
  readonly bNever: readonly string[];
  /** URLs HeedBot must have handled (final URLs after redirects). */
  readonly heedbotMustHandle: readonly string[];
}

export async function startScenario(): Promise<Scenario> {
  const site = await startSite(3);
  const [a, b, c] = site.origins as [SiteOrigin, SiteOrigin, SiteOrigin];
  let cRobotsOk = false;

  a.routes.set(
    '/robots.txt',
    text(
      [
        'User-agent: *',
        'Disallow: /private',
        '',
        'User-agent: heedbot',
        'Disallow: /private',
        'Disallow: /secret-heed',
        '',
        'User-agent: otherbot',
        'Disallow: /private',
        'Disallow: /other-only',
        '',
        `Sitemap: ${a.url('/sitemap-index.xml')}`,
        `Sitemap: ${a.url('/sitemap.txt')}`,
      ].join('\n'),
    ),
  );
  a.routes.set(
    '/',
    page('A home', [
      '/page1',
      '/private/linked',
      '/secret-heed',
      '/other-only',
      '/redirect-to-private',
      '/redirect-to-ok',
      '/redirect-cross-blocked',
      '/nofollow-page',
      '/heed-nofollow-page',
      '/xrt-page',
      '/noindex-page',
      '/rel-page',
      '/with-assets',
      '/js-redirect',
      '/early-js-redirect',
      b.url('/'),
      b.url('/blocked'),
      c.url('/'),
    ]),
  );
  a.routes.set('/page1', page('A page 1', ['/', '/private/from-page1']));
  a.routes.set('/secret-heed', page('secret for heedbot', []));
  a.routes.set('/other-only', page('secret for otherbot', []));
  a.routes.set('/redirect-to-private', redirect('/private/redirected'));
  a.routes.set('/redirect-to-ok', redirect('/ok-target'));
  a.routes.set('/ok-target', page('redirect target', []));
  a.routes.set('/redirect-cross-blocked', redirect(b.url('/blocked/redirected')));
  a.routes.set('/nofollow-page', page('nofollow', ['/only-from-nofollow'], '<meta name="robots" content="nofollow">'));
  // The more specific token wins: robots says follow, heedbot says nofollow.
  a.routes.set(
    '/heed-nofollow-page',
    page(
      'heed nofollow',
      ['/only-from-heed-nofollow'],
      '<meta name="robots" content="follow"><meta name="HeedBot" content="nofollow, noarchive">',
    ),
  );
  a.routes.set('/xrt-page', { ...page('xrt', ['/only-from-xrt']), headers: { 'x-robots-tag': 'heedbot: nofollow' } });
  a.routes.set('/noindex-page', page('noindex', [], '<meta name="robots" content="noindex, max-snippet:20">'));
  a.routes.set('/rel-page', page('rel', ['/rel-followed'], '', '<a rel="nofollow ugc" href="/rel-target">x</a>'));
  a.routes.set('/with-assets', page('assets', [], '', '<img src="/private/pixel.png"><img src="/ok-pixel.png">'));
  a.routes.set('/ok-pixel.png', { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(0) });
  a.routes.set(
    '/js-redirect',
    page(
      'js redirect',
      [],
      '',
      "<script>addEventListener('load', () => setTimeout(() => { location.href = '/private/js-target'; }, 50))</script>",
    ),
  );
  a.routes.set('/early-js-redirect', page('early js redirect', [], "<script>location.replace('/private/early-js-target')</script>"));
  a.routes.set('/rel-followed', page('rel followed', []));
  a.routes.set('/rel-target', page('rel target', []));
  a.routes.set('/only-from-nofollow', page('x', []));
  a.routes.set('/only-from-heed-nofollow', page('x', []));
  a.routes.set('/only-from-xrt', page('x', []));
  a.routes.set('/sitemap-index.xml', {
    headers: { 'content-type': 'application/xml' },
    body:
      '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      `<sitemap><loc>${a.url('/sitemap-pages.xml.gz')}</loc></sitemap></sitemapindex>`,
  });
  a.routes.set('/sitemap-pages.xml.gz', {
    headers: { 'content-type': 'application/gzip' },
    body: gzipSync(
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<url><loc>${a.url('/sitemap-only')}</loc></url>` +
        `<url><loc>${a.url('/private/from-sitemap')}</loc></url>` +
        // Another host name (same port as B): dropped by the default same-hostname filter.
        `<url><loc>${b.url('/from-a-sitemap').replace('127.0.0.1', 'localhost')}</loc></url>` +
        '</urlset>',
    ),
  });
  a.routes.set('/sitemap.txt', text(`${a.url('/from-text-sitemap')}\n${a.url('/private/from-text-sitemap')}\n`));
  a.routes.set('/sitemap-only', page('sitemap only', []));
  a.routes.set('/from-text-sitemap', page('text sitemap', []));

  b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /blocked\n'));
  b.routes.set('/', page('B home', ['/blocked/linked-from-b', '/b-page']));
  b.routes.set('/b-page', page('B page', []));

  c.routes.set('/robots.txt', () => (cRobotsOk ? text('User-agent: *\nAllow: /\n') : text('down for maintenance', 503)));
  c.routes.set('/', page('C home', ['/c-page']));
  c.routes.set('/c-page', page('C page', []));

  return {
    site,
    a,
    b,
    c,
    setCRobotsOk: (ok) => {
      cRobotsOk = ok;
    },
    aNeverForHeedbot: [
      '/private/linked',
      '/private/from-page1',
      '/private/redirected',
      '/private/from-sitemap',
      '/private/from-text-sitemap',
      '/private/start',
      '/private/pixel.png',
      '/private/js-target',
      '/private/early-js-target',
      '/secret-heed',
      '/only-from-nofollow',
      '/only-from-heed-nofollow',
      '/only-from-xrt',
      '/rel-target',
    ],
    bNever: ['/blocked', '/blocked/linked-from-b', '/blocked/redirected', '/blocked/start', '/from-a-sitemap'],
    heedbotMustHandle: [
      a.url('/'),
      a.url('/page1'),
      a.url('/other-only'),
      a.url('/ok-target'),
      a.url('/nofollow-page'),
      a.url('/heed-nofollow-page'),
      a.url('/xrt-page'),
      a.url('/noindex-page'),
      a.url('/rel-page'),
      a.url('/rel-followed'),
      a.url('/with-assets'),
      a.url('/js-redirect'),
      a.url('/sitemap-only'),
      a.url('/from-text-sitemap'),
      b.url('/'),
      b.url('/b-page'),
    ],
  };
}

/** Paths of `origin` that appear in its request log and in `forbidden` (a disallowed path prefix). */
function forbiddenHits(origin: SiteOrigin, forbidden: readonly string[]): string[] {
  return origin.paths().filter((path) => forbidden.some((f) => path === f || path.startsWith(`${f}/`) || path.startsWith(`${f}?`)));
}

/**
 * Asserts that the HeedBot crawl of the scenario requested no disallowed path: nothing under
 * origin A's `/private`, nothing A's or B's rules forbid HeedBot.
 */
export function expectNoDisallowedRequests(s: Scenario): void {
  expect(s.a.paths().filter((p) => p.startsWith('/private'))).toEqual([]);
  expect(forbiddenHits(s.a, s.aNeverForHeedbot)).toEqual([]);
  expect(forbiddenHits(s.b, s.bNever)).toEqual([]);
}
