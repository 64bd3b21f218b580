import { gzipSync } from 'node:zlib';
import { blogRobotsLines, DEMO_BOT, shopRobotsLines } from './robots-files.js';
import type { DemoOriginName, DemoOrigins } from './types.js';

/** A canned answer. Routes are looked up by path with query first, then by path alone. */
export interface Route {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

export type SiteRoutes = Readonly<Record<DemoOriginName, ReadonlyMap<string, Route>>>;

interface PageSpec {
  readonly title: string;
  readonly text: string;
  /** `href`s exactly as written in the page: relative for the same origin, absolute otherwise. */
  readonly links?: readonly string[];
  /** Extra `<head>` markup (meta robots, stylesheets, scripts). */
  readonly head?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(spec: PageSpec): Route {
  const links = (spec.links ?? []).map((href) => `      <li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></li>`);
  const body = [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8">',
    `    <title>${escapeHtml(spec.title)}</title>`,
    ...(spec.head === undefined ? [] : [`    ${spec.head}`]),
    '  </head>',
    '  <body>',
    `    <h1>${escapeHtml(spec.title)}</h1>`,
    `    <p>${escapeHtml(spec.text)}</p>`,
    '    <ul>',
    ...links,
    '    </ul>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', ...spec.headers }, body };
}

const text = (body: string, contentType = 'text/plain; charset=utf-8'): Route => ({
  status: 200,
  headers: { 'content-type': contentType },
  body,
});

const redirect = (status: 301 | 302, location: string): Route => ({ status, headers: { location }, body: '' });

function urlset(urls: readonly string[]): string {
  const entries = urls.map((url) => `  <url><loc>${escapeHtml(url)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

function sitemapIndex(urls: readonly string[]): string {
  const entries = urls.map((url) => `  <sitemap><loc>${escapeHtml(url)}</loc></sitemap>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** What every shop page loads: a stylesheet (allowed) and a tracking script (disallowed for everyone). */
const SHOP_HEAD = '<link rel="stylesheet" href="/static/site.css"><script src="/tracking/pixel.js"></script>';

const shopPage = (spec: PageSpec): Route => page({ ...spec, head: [SHOP_HEAD, spec.head ?? ''].join('') });

/** Shop sitemap entries: the plain XML sitemap of pages. */
export const SHOP_PAGES_SITEMAP_PATHS = ['/', '/products/', '/products/gizmo', '/private/old-press-kit'] as const;
/** Shop sitemap entries: the gzipped XML sitemap of products. */
export const SHOP_PRODUCTS_SITEMAP_PATHS = ['/products/widget', '/products/gadget'] as const;
/** Blog sitemap entries: the text sitemap. */
export const BLOG_SITEMAP_PATHS = ['/', '/posts/1', '/posts/2', '/posts/3', '/drafts/upcoming'] as const;

function shopRoutes(origins: DemoOrigins): Map<string, Route> {
  const shop = (path: string): string => `${origins.shop}${path}`;
  return new Map<string, Route>([
    ['/robots.txt', text(shopRobotsLines(origins).join('\n') + '\n')],
    [
      '/',
      shopPage({
        title: 'Demo shop',
        text: 'The start page links to allowed pages, disallowed ones, a redirect into a disallowed area and three other origins.',
        links: [
          '/products/',
          '/products/?sort=price',
          '/products/?page=2',
          '/files/catalog.pdf',
          '/files/catalog.pdf.html',
          '/private/',
          '/private/press/',
          '/members/',
          '/cart',
          '/go/account',
          '/nofollow-page',
          '/noindex-page',
          `${origins.blog}/`,
          `${origins.blog}/drafts/upcoming`,
          `${origins.docs}/`,
          `${origins.mirror}/`,
        ],
      }),
    ],
    ['/products/', shopPage({ title: 'Products', text: 'All products.', links: ['/products/widget', '/'] })],
    ['/products/widget', shopPage({ title: 'Widget', text: 'Linked and in the gzipped sitemap.', links: ['/products/'] })],
    ['/products/gadget', shopPage({ title: 'Gadget', text: 'Only in the gzipped sitemap.', links: ['/products/'] })],
    ['/products/gizmo', shopPage({ title: 'Gizmo', text: 'Only in the XML sitemap.', links: ['/products/'] })],
    ['/files/catalog.pdf', { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4\n% demo\n' }],
    [
      '/files/catalog.pdf.html',
      shopPage({ title: 'Catalog (HTML)', text: '"/*.pdf$" does not match: the URL goes on after ".pdf".', links: ['/'] }),
    ],
    ['/private/', shopPage({ title: 'Private', text: 'Disallowed for everyone.', links: ['/private/account'] })],
    ['/private/account', shopPage({ title: 'Account', text: 'Disallowed: reached only through the /go/account redirect.' })],
    ['/private/old-press-kit', shopPage({ title: 'Old press kit', text: 'Disallowed, but listed in the sitemap.' })],
    ['/private/press/', shopPage({ title: 'Press', text: `Allowed for ${DEMO_BOT} by the longer Allow line.`, links: ['/'] })],
    ['/members/', shopPage({ title: 'Members', text: `Disallowed in the * group, which does not apply to ${DEMO_BOT}.`, links: ['/'] })],
    ['/cart', shopPage({ title: 'Cart', text: `Disallowed for ${DEMO_BOT} only.`, links: ['/'] })],
    ['/go/account', redirect(302, '/private/account')],
    [
      '/nofollow-page',
      shopPage({
        title: 'Nofollow',
        text: 'Its meta robots tag says nofollow: its links must not be followed.',
        head: '<meta name="robots" content="nofollow">',
        links: ['/nofollow-target'],
      }),
    ],
    ['/nofollow-target', shopPage({ title: 'Nofollow target', text: 'Linked only from a nofollow page.' })],
    [
      '/noindex-page',
      shopPage({
        title: 'Noindex',
        text: 'Its meta robots tag says noindex: crawl it, follow its links, do not store it.',
        head: '<meta name="robots" content="noindex">',
        links: ['/products/widget'],
      }),
    ],
    ['/static/site.css', text('body { font-family: sans-serif; }\n', 'text/css; charset=utf-8')],
    ['/tracking/pixel.js', text('/* a tracking script that robots.txt disallows */\n', 'text/javascript; charset=utf-8')],
    [
      '/sitemap-index.xml',
      text(sitemapIndex([shop('/sitemaps/pages.xml'), shop('/sitemaps/products.xml.gz')]), 'application/xml; charset=utf-8'),
    ],
    ['/sitemaps/pages.xml', text(urlset(SHOP_PAGES_SITEMAP_PATHS.map(shop)), 'application/xml; charset=utf-8')],
    [
      '/sitemaps/products.xml.gz',
      { status: 200, headers: { 'content-type': 'application/gzip' }, body: gzipSync(urlset(SHOP_PRODUCTS_SITEMAP_PATHS.map(shop))) },
    ],
  ]);
}

function blogRoutes(origins: DemoOrigins): Map<string, Route> {
  return new Map<string, Route>([
    ['/robots.txt', redirect(301, '/site/robots.txt')],
    ['/site/robots.txt', text(blogRobotsLines(origins).join('\n') + '\n')],
    [
      '/',
      page({
        title: 'Demo blog',
        text: 'Its robots.txt asks for a crawl-delay.',
        links: ['/posts/1', '/posts/2', '/drafts/upcoming', `${origins.shop}/`],
      }),
    ],
    ['/posts/1', page({ title: 'Post 1', text: 'Linked and in the text sitemap.', links: ['/posts/2', '/'] })],
    ['/posts/2', page({ title: 'Post 2', text: 'Linked and in the text sitemap.', links: ['/'] })],
    ['/posts/3', page({ title: 'Post 3', text: 'Only in the text sitemap.', links: ['/'] })],
    ['/drafts/upcoming', page({ title: 'Upcoming draft', text: 'Disallowed.' })],
    ['/sitemap.txt', text(BLOG_SITEMAP_PATHS.map((path) => `${origins.blog}${path}`).join('\n') + '\n')],
  ]);
}

function docsRoutes(origins: DemoOrigins): Map<string, Route> {
  // No /robots.txt route: it answers 404, so everything here may be crawled.
  return new Map<string, Route>([
    ['/', page({ title: 'Demo docs', text: 'No robots.txt here (404).', links: ['/guide', '/reference', '/print', `${origins.shop}/`] })],
    ['/guide', page({ title: 'Guide', text: 'An ordinary page.', links: ['/'] })],
    [
      '/reference',
      page({
        title: 'Reference',
        text: `Its X-Robots-Tag header says nofollow to ${DEMO_BOT} only.`,
        headers: { 'x-robots-tag': `${DEMO_BOT}: nofollow` },
        links: ['/reference/internals'],
      }),
    ],
    ['/reference/internals', page({ title: 'Internals', text: 'Linked only from a page that is nofollow for the demo bot.' })],
    [
      '/print',
      page({ title: 'Print view', text: 'Its X-Robots-Tag header says noindex.', headers: { 'x-robots-tag': 'noindex' }, links: ['/'] }),
    ],
  ]);
}

function mirrorRoutes(): Map<string, Route> {
  return new Map<string, Route>([
    [
      '/robots.txt',
      {
        status: 503,
        headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': '3600' },
        body: '<!doctype html><title>503</title><h1>Service unavailable</h1><p>Back soon.</p>\n',
      },
    ],
    ['/', page({ title: 'Mirror', text: 'Its robots.txt answers 503: nothing here may be fetched.', links: ['/catalog'] })],
    ['/catalog', page({ title: 'Mirror catalog', text: 'Never fetched.' })],
  ]);
}

/** Every canned answer of the demo site, by origin. */
export function buildRoutes(origins: DemoOrigins): SiteRoutes {
  return { shop: shopRoutes(origins), blog: blogRoutes(origins), docs: docsRoutes(origins), mirror: mirrorRoutes() };
}

/** The answer for a path (query included), falling back to the path without its query, else 404. */
export function findRoute(routes: ReadonlyMap<string, Route>, pathWithQuery: string): Route {
  const exact = routes.get(pathWithQuery);
  if (exact !== undefined) return exact;
  const pathOnly = pathWithQuery.split('?', 1)[0] ?? '/';
  return routes.get(pathOnly) ?? NOT_FOUND;
}

const NOT_FOUND: Route = {
  status: 404,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!doctype html><title>404</title><h1>Not found</h1>\n',
};
