/**
 * The benchmark site, as pure data: which origins exist (one loopback address each), which pages an
 * origin has, what a page links to, what its robots.txt says and which paths that robots.txt
 * disallows. The server process (server.mjs) serves it and the benchmark (crawl.bench.mjs) checks the
 * server's log against it, so both read the same definition.
 *
 * An origin has pages /p/0 … /p/(P-1); /p/k links to /p/(2k+1) and /p/(2k+2) (a binary tree, so every
 * page is reachable from /p/0), and to page k of origin (o+k+1) mod N (so every origin is reached from
 * a few start origins). With `disallowedLinks` a page also links to one URL its robots.txt
 * disallows (/private/k, /p/k?sort=price or /files/k.pdf, by k mod 3) and every other page to a
 * disallowed URL of another origin (which must be checked against that origin's robots.txt, not the
 * page's).
 */

/**
 * @typedef {'rules' | 'allow-all-linked' | 'delay' | '503' | 'hang'} RobotsMode
 *   rules: robots.txt with disallowed paths, answered at once; allow-all-linked: the same rules, and no
 *   page links to anything they disallow; delay: the same rules, answered after `robotsDelayMs`;
 *   503: robots.txt answers 503 Service Unavailable; hang: robots.txt is accepted and never answered.
 */

/**
 * @typedef {object} SiteConfig
 * @property {number} origins         how many origins (distinct loopback addresses)
 * @property {number} pagesPerOrigin  pages /p/0 … /p/(P-1) on each origin
 * @property {number} block           second octet of the addresses (127.<block>.x.y), one per scenario
 * @property {RobotsMode} robots      how every origin's robots.txt answers
 * @property {number} [robotsDelayMs] for `delay`
 * @property {boolean} disallowedLinks pages link to disallowed URLs too
 * @property {number} [padBytes]      filler text per page, so a page weighs what a small real one does
 * @property {number} [linksPerPage]  link-dense pages: each page links this many pages of its own origin
 *                                    (and nothing else), see `denseLinks`
 * @property {boolean} [typicalRobots] robots.txt is `TYPICAL_ROBOTS` (~2 KB, none of its rules matches a page)
 */

/** 127.<block>.a.b for origin i: distinct addresses, no .0 or .255 octets (250 per third octet). */
export const originAddress = (block, i) => `127.${block}.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

/** The origin index of an address made by `originAddress`, or -1. */
export function originIndex(address) {
  const parts = address.replace(/^::ffff:/, '').split('.');
  if (parts.length !== 4) return -1;
  return (Number(parts[2]) - 1) * 250 + (Number(parts[3]) - 1);
}

export const originUrl = (config, port, i) => `http://${originAddress(config.block, i)}:${port}`;

/**
 * A typical ~2 KB robots.txt (a shop's: admin, cart, checkout, faceted navigation, AI crawlers shut
 * out) whose rules match none of the benchmark's pages (/p/k): every check runs the matcher over a
 * real-sized group and allows. No crawl-delay for the crawler, so the crawl is not throttled, and no
 * `Sitemap:` line, so the crawl is the links alone (and no request leaves the loopback interface).
 */
export const TYPICAL_ROBOTS = [
  '# we use Shopify as our ecommerce platform',
  '# robots.txt of a benchmark shop',
  '',
  'User-agent: *',
  ...[
    '/admin',
    '/cart',
    '/orders',
    '/checkouts/',
    '/checkout',
    '/account',
    '/collections/*sort_by*',
    '/*/collections/*sort_by*',
    '/collections/*+*',
    '/collections/*%2B*',
    '/collections/*%2b*',
    '/*/collections/*filter*&*filter*',
    '/blogs/*+*',
    '/blogs/*%2B*',
    '/blogs/*%2b*',
    '/*/blogs/*with=*',
    '/*?*oseid=*',
    '/*preview_theme_id*',
    '/*preview_script_id*',
    '/policies/',
    '/*/policies/',
    '/*/*?*ls=*&ls=*',
    '/*/*?*ls%3D*%3Fls%3D*',
    '/*/*?*ls%3d*%3fls%3d*',
    '/search',
    '/apple-app-site-association',
    '/.well-known/shopify/monorail',
    '/cdn/wpm/*.js',
    '/recommendations/products',
    '/*/recommendations/products',
    '/products/*/recommendations',
    '/wp-admin/',
    '/wp-login.php',
    '/*?replytocom=',
    '/trackback/',
    '/feed/$',
    '/*.json$',
    '/*?sessionid=',
    '/*&sessionid=',
    '/tmp/',
    '/cgi-bin/',
    '/internal/',
    '/print/',
  ].map((path) => `Disallow: ${path}`),
  'Allow: /wp-admin/admin-ajax.php',
  'Allow: /search/help',
  '',
  ...['GPTBot', 'CCBot', 'ChatGPT-User', 'Google-Extended', 'anthropic-ai', 'ClaudeBot', 'Bytespider'].flatMap((bot) => [
    `User-agent: ${bot}`,
    'Disallow: /',
    '',
  ]),
  'User-agent: AdsBot-Google',
  'Disallow: /checkouts/',
  'Disallow: /checkout',
  'Disallow: /carts',
  'Disallow: /orders',
  'Disallow: /*?*oseid=*',
  'Disallow: /*preview_theme_id*',
  'Disallow: /*preview_script_id*',
  '',
  'User-agent: Nutch',
  'Disallow: /',
  '',
  'User-agent: MJ12bot',
  'Crawl-delay: 10',
  '',
  'User-agent: Pinterest',
  'Crawl-delay: 1',
  '',
].join('\n');

/** The robots.txt body of every origin whose robots.txt answers (the same rules for every agent). */
export function robotsBody(i, config) {
  if (config?.typicalRobots) return TYPICAL_ROBOTS;
  return [
    `# robots.txt of benchmark origin ${i}`,
    'User-agent: *',
    'Disallow: /private/',
    'Disallow: /*?sort=',
    'Disallow: /*.pdf$',
    'Allow: /private/press/',
    '',
    'User-agent: OtherBot',
    'Disallow: /',
    '',
  ].join('\n');
}

/** Whether `pathAndQuery` is disallowed by `robotsBody` (for every user-agent but OtherBot). */
export function isDisallowedPath(pathAndQuery) {
  if (pathAndQuery.startsWith('/private/') && !pathAndQuery.startsWith('/private/press/')) return true;
  if (pathAndQuery.includes('?sort=')) return true;
  return pathAndQuery.endsWith('.pdf');
}

/** The page number of /p/k (no query), or -1 for any other path. */
export function pageNumber(pathAndQuery) {
  const match = /^\/p\/(\d+)$/.exec(pathAndQuery);
  return match ? Number(match[1]) : -1;
}

/**
 * The links of page k on a link-dense site: `linksPerPage` pages of its own origin, spread over the
 * whole site (k·L+1 … k·L+L modulo the page count, so a crawl from /p/0 reaches every page in few
 * hops), each a relative link the crawler resolves, most of them to pages already enqueued.
 */
function denseLinks(config, k) {
  const links = [];
  for (let j = 1; j <= config.linksPerPage; j++) links.push(`/p/${(k * config.linksPerPage + j) % config.pagesPerOrigin}`);
  return links;
}

/** The links on page k of origin o. */
export function pageLinks(config, port, o, k) {
  if (config.linksPerPage) return denseLinks(config, k);
  const links = [];
  for (const child of [2 * k + 1, 2 * k + 2]) if (child < config.pagesPerOrigin) links.push(`/p/${child}`);
  links.push(`${originUrl(config, port, (o + k + 1) % config.origins)}/p/${k}`);
  if (config.disallowedLinks) {
    links.push([`/private/${k}`, `/p/${k}?sort=price`, `/files/${k}.pdf`][k % 3]);
    if (k % 2 === 0) links.push(`${originUrl(config, port, (o + k + 7) % config.origins)}/private/from-${o}-${k}`);
  }
  return links;
}

const FILLER = 'Heed benchmark page text, about as long as a short article on a small site. ';

/** The HTML of page k of origin o. */
export function pageHtml(config, port, o, k) {
  const links = pageLinks(config, port, o, k)
    .map((href, n) => `<li><a href="${href}">link ${n}</a></li>`)
    .join('');
  const pad = FILLER.repeat(Math.ceil((config.padBytes ?? 0) / FILLER.length));
  return `<!doctype html><html><head><meta charset="utf-8"><title>Origin ${o} page ${k}</title></head><body><h1>Page ${k}</h1><p>${pad}</p><ul>${links}</ul></body></html>`;
}

/** Start URLs: /p/0 of every `every`-th origin. */
export function startUrls(config, port, every = 1) {
  const urls = [];
  for (let o = 0; o < config.origins; o += every) urls.push(`${originUrl(config, port, o)}/p/0`);
  return urls;
}

/** Every origin's base URL. */
export const allOrigins = (config, port) => Array.from({ length: config.origins }, (_, o) => originUrl(config, port, o));
