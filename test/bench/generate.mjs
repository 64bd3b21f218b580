/**
 * Writes the benchmark data to test/bench/data/ (git-ignored), deterministically: the same seed
 * gives the same bytes on every machine, so figures from two runs compare the same work.
 *
 *   big.robots.txt        ~500 KiB (below 512,000 bytes): ~10k rules in ~30 groups, ~40% with `*`,
 *                          ~15% with `$`, ~100 sitemap lines
 *   typical/NNN.robots.txt 100 files of ~2 KB, modelled on real sites' files (Drupal, WordPress,
 *                          shops, news)
 *   urls.txt              100,000 URLs of https://www.example.com, one per line
 *   hostile.robots.txt    ~500 KiB of patterns like `/*a*a*a*a*a*a*a*a*a*b`
 *   hostile-urls.txt      2,000-character URLs made to walk those patterns as far as they go
 *   manifest.json         generator version, seed and what was written
 *
 * Usage: node test/bench/generate.mjs [--force]. Without --force, data of the current generator
 * version is kept (run.mjs calls this before every run).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Bump when the output changes, so run.mjs regenerates stale data. */
export const GENERATOR_VERSION = 2;
export const SEED = 0x5eed_2026;
export const ORIGIN = 'https://www.example.com';
export const DATA_DIR = fileURLToPath(new URL('./data/', import.meta.url));

const BIG_MAX_BYTES = 511_000; // the issue asks for ~500 KiB and strictly below 512,000 bytes
const HOSTILE_MAX_BYTES = 511_000;

/** mulberry32: small, fast, good enough for test data, and the same in every engine. */
function prng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

const SECTIONS = [
  'products',
  'product',
  'category',
  'catalog',
  'collections',
  'search',
  'cart',
  'checkout',
  'account',
  'user',
  'users',
  'login',
  'api',
  'static',
  'assets',
  'images',
  'media',
  'blog',
  'news',
  'articles',
  'tag',
  'tags',
  'author',
  'wp-admin',
  'wp-content',
  'wp-includes',
  'admin',
  'private',
  'tmp',
  'cgi-bin',
  'print',
  'share',
  'feeds',
  'reviews',
  'compare',
  'wishlist',
  'help',
  'support',
  'docs',
  'en',
  'de',
  'fr',
  'es',
  'it',
  'ja',
  'en-us',
  'en-gb',
  'stores',
  'deals',
  'events',
  'jobs',
  'careers',
  'forum',
  'community',
  'video',
  'videos',
  'podcast',
  'downloads',
  'files',
  'uploads',
  'sites',
  'modules',
  'themes',
  'includes',
  'node',
  'comment',
  'profile',
  'members',
  'orders',
  'returns',
  'gift-cards',
  'brands',
  'sale',
  'outlet',
];
const WORDS = [
  'outdoor',
  'garden',
  'furniture',
  'kitchen',
  'bath',
  'lighting',
  'mens',
  'womens',
  'kids',
  'shoes',
  'running',
  'trail',
  'jacket',
  'winter',
  'summer',
  'sale',
  'new',
  'arrivals',
  'best',
  'sellers',
  'home',
  'decor',
  'office',
  'chairs',
  'tables',
  'laptops',
  'phones',
  'tablets',
  'audio',
  'camera',
  'gaming',
  'books',
  'fiction',
  'history',
  'science',
  'travel',
  'recipes',
  'health',
  'fitness',
  'beauty',
  'skin',
  'care',
  'hair',
  'watches',
  'jewelry',
  'bags',
  'wallets',
  'toys',
  'games',
  'puzzles',
  'sports',
  'bikes',
  'parts',
  'tools',
  'power',
  'hand',
  'paint',
  'flooring',
  'storage',
  'pets',
  'dog',
  'cat',
  'food',
  'coffee',
  'tea',
  'wine',
  'music',
  'movies',
  'tv',
  'series',
  'world',
  'politics',
  'business',
  'markets',
  'tech',
  'opinion',
  'culture',
  'style',
  'local',
  'weather',
  'sports-news',
  'live',
  'updates',
  'guide',
  'review',
  'how-to',
  'top-10',
  'black-friday',
  'cyber-monday',
  'holiday',
  'gift',
  'ideas',
  'print',
  'amp',
  'feed',
];
const QUERY_KEYS = [
  'sort',
  'order',
  'page',
  'ref',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'sessionid',
  'sid',
  'filter',
  'color',
  'size',
  'q',
  'lang',
  'view',
  'format',
  'limit',
  'offset',
  'price',
  'brand',
  'replytocom',
  'share',
];
const EXTENSIONS = ['.pdf', '.php', '.html', '.htm', '.json', '.xml', '.jpg', '.png', '.css', '.js', '.zip', '.aspx'];
const NAMED_AGENTS = [
  'Googlebot',
  'Googlebot-Image',
  'Googlebot-News',
  'Bingbot',
  'Slurp',
  'DuckDuckBot',
  'Baiduspider',
  'YandexBot',
  'Applebot',
  'GPTBot',
  'CCBot',
  'ChatGPT-User',
  'Google-Extended',
  'anthropic-ai',
  'ClaudeBot',
  'Bytespider',
  'AhrefsBot',
  'SemrushBot',
  'MJ12bot',
  'DotBot',
  'PetalBot',
  'facebookexternalhit',
  'Twitterbot',
  'LinkedInBot',
  'Pinterestbot',
  'Amazonbot',
  'AdsBot-Google',
  'Mediapartners-Google',
  'Seznambot',
  'Sogou',
  'Exabot',
  'ia_archiver',
  'rogerbot',
  'BLEXBot',
  'MauiBot',
  'Nutch',
];

function makeVocabulary(r) {
  const word = () => r.pick(WORDS);
  const slug = () => {
    const parts = [word()];
    for (let n = r.int(0, 3); n > 0; n--) parts.push(word());
    return parts.join('-');
  };
  const id = () => String(r.int(1, 999_999));
  const segment = () => (r.chance(0.25) ? `${r.pick(['item', 'p', 'c', 'id'])}-${id()}` : slug());
  const query = (pairs = r.int(1, 3)) => {
    const out = [];
    for (let i = 0; i < pairs; i++) out.push(`${r.pick(QUERY_KEYS)}=${r.chance(0.5) ? word() : id()}`);
    return out.join('&');
  };
  /** A path a site has: /section/segment/segment[.ext][?query]. */
  const path = (depth = r.int(1, 4)) => {
    let p = `/${r.pick(SECTIONS)}`;
    for (let i = 1; i < depth; i++) p += `/${segment()}`;
    if (r.chance(0.2)) p += r.pick(EXTENSIONS);
    else if (r.chance(0.5)) p += '/';
    return p;
  };
  return { word, slug, id, segment, query, path };
}

/** One rule pattern: ~40% with `*`, ~15% ending in `$` (some both), the rest plain prefixes. */
function makePattern(r, v, depth = [1, 4]) {
  const wildcard = r.chance(0.4);
  const anchored = r.chance(0.15);
  let pattern;
  if (!wildcard) {
    pattern = r.chance(0.08) ? `/?q=${r.pick(SECTIONS)}/${v.slug()}/` : v.path(r.int(depth[0], depth[1]));
    if (anchored) pattern = pattern.replace(/\/$/, '') + r.pick(['', '.html', '/']);
  } else {
    switch (r.int(0, 6)) {
      case 0:
        pattern = `/*?${r.pick(QUERY_KEYS)}=`;
        break;
      case 1:
        pattern = `/${r.pick(SECTIONS)}/*/${v.slug()}`;
        break;
      case 2:
        pattern = `/*${r.pick(EXTENSIONS)}`;
        break;
      case 3:
        pattern = `${v.path(r.int(1, 3)).replace(/\/$/, '')}/*?${r.pick(QUERY_KEYS)}=`;
        break;
      case 4:
        pattern = `/*/${r.pick(SECTIONS)}/${v.segment()}`;
        break;
      case 5:
        pattern = `/${r.pick(SECTIONS)}/*-${v.word()}-*${r.pick(EXTENSIONS)}`;
        break;
      default:
        pattern = `/${r.pick(SECTIONS)}/${v.segment()}/*&${r.pick(QUERY_KEYS)}=*`;
        break;
    }
  }
  if (anchored && !pattern.endsWith('*')) pattern += '$';
  return pattern;
}

function bigFile(r, v) {
  const lines = ['# robots.txt for www.example.com', '# Generated benchmark data: ~10k rules in ~30 groups.', ''];
  const groupCount = 30;
  const ruleCount = 10_000;
  // The `*` groups (the ones the benchmark's product token falls back to) hold ~30% of the rules,
  // split in two groups that Google's semantics merge; the named groups share the rest.
  const sizes = [];
  let left = ruleCount;
  for (let g = 0; g < groupCount; g++) {
    const size = g === 0 ? 2_400 : g === 15 ? 600 : Math.max(20, Math.round(((ruleCount - 3_000) / (groupCount - 2)) * (0.5 + r.next())));
    sizes.push(Math.min(size, left));
    left -= sizes[g];
  }
  sizes[groupCount - 1] += Math.max(0, left);
  const agents = [...NAMED_AGENTS];
  const sitemapAt = new Set();
  while (sitemapAt.size < 100) sitemapAt.add(r.int(0, ruleCount - 1));
  let rule = 0;
  let sitemap = 0;
  for (let g = 0; g < groupCount; g++) {
    if (g === 0 || g === 15) lines.push('User-agent: *');
    else {
      // One or two named agents per group, never none (a group without agents would merge into the
      // previous one).
      const spare = agents.length - (groupCount - 1 - g);
      for (let n = spare > 0 && r.chance(0.4) ? 2 : 1; n > 0; n--)
        lines.push(`User-agent: ${agents.splice(r.int(0, agents.length - 1), 1)[0]}`);
    }
    if (r.chance(0.2)) lines.push(`Crawl-delay: ${r.int(1, 20)}`);
    for (let i = 0; i < sizes[g]; i++, rule++) {
      if (r.chance(0.01)) lines.push(`# ${v.slug().replace(/-/g, ' ')}`);
      lines.push(`${r.chance(0.2) ? 'Allow' : 'Disallow'}: ${makePattern(r, v, [2, 6])}`);
      if (sitemapAt.has(rule)) lines.push(`Sitemap: ${ORIGIN}/sitemaps/sitemap-${v.slug()}-${++sitemap}.xml`);
    }
    lines.push('');
  }
  lines.push('Host: www.example.com', 'Clean-param: ref&utm_source /products/');
  let text = lines.join('\n') + '\n';
  // Trim whole rule lines from the end until below the limit (the file stays well-formed).
  while (Buffer.byteLength(text) > BIG_MAX_BYTES) {
    const cut = text.lastIndexOf('\nDisallow: ', text.length - 2);
    const end = text.indexOf('\n', cut + 1);
    text = text.slice(0, cut) + text.slice(end);
  }
  return text;
}

const DRUPAL_HEADER = `#
# robots.txt
#
# This file is to prevent the crawling and indexing of certain parts
# of your site by web crawlers and spiders run by sites like Yahoo!
# and Google. By telling these "robots" where not to go on your site,
# you save bandwidth and server resources.
#
# For more information about the robots.txt standard, see:
# http://www.robotstxt.org/robotstxt.html
`;

/** A ~2 KB file modelled on one of four common kinds of real robots.txt. */
function typicalFile(r, v, index) {
  const target = r.int(1_700, 2_400);
  const kind = index % 4;
  const head = [];
  const star = [];
  const tail = [];
  const sitemaps = [];
  if (kind === 0) {
    // Drupal: comment header, assets allowed, core files and paths disallowed.
    head.push(DRUPAL_HEADER, 'User-agent: *');
    if (r.chance(0.5)) head.push(`Crawl-delay: ${r.int(1, 10)}`);
    for (const dir of ['misc', 'modules', 'profiles', 'themes'])
      for (const ext of ['css$', 'css?', 'js$', 'js?']) star.push(`Allow: /${dir}/*.${ext}`);
    for (const dir of ['includes', 'misc', 'modules', 'profiles', 'scripts', 'themes']) star.push(`Disallow: /${dir}/`);
    for (const file of ['CHANGELOG.txt', 'cron.php', 'INSTALL.txt', 'install.php', 'update.php', 'xmlrpc.php'])
      star.push(`Disallow: /${file}`);
    for (const p of [
      'admin/',
      'comment/reply/',
      'filter/tips/',
      'node/add/',
      'search/',
      'user/register/',
      'user/password/',
      'user/login/',
    ]) {
      star.push(`Disallow: /${p}`, `Disallow: /?q=${p}`);
    }
  } else if (kind === 1) {
    // WordPress: wp-admin blocked except admin-ajax, AI crawlers blocked.
    head.push(`# ${v.slug().replace(/-/g, ' ')} — robots.txt`, 'User-agent: *');
    star.push(
      'Disallow: /wp-admin/',
      'Allow: /wp-admin/admin-ajax.php',
      'Disallow: /wp-login.php',
      'Disallow: /?s=',
      'Disallow: /search/',
      'Disallow: /*?replytocom=',
      'Disallow: /trackback/',
      'Disallow: /feed/$',
    );
    for (const bot of ['GPTBot', 'CCBot', 'ChatGPT-User', 'Google-Extended', 'anthropic-ai', 'ClaudeBot', 'Bytespider']) {
      if (r.chance(0.7)) tail.push('', `User-agent: ${bot}`, 'Disallow: /');
    }
    sitemaps.push(`Sitemap: ${ORIGIN}/wp-sitemap.xml`);
  } else if (kind === 2) {
    // A shop: carts, checkouts and faceted navigation blocked.
    head.push('# we use Shopify as our ecommerce platform', '', 'User-agent: *');
    star.push(
      'Disallow: /admin',
      'Disallow: /cart',
      'Disallow: /orders',
      'Disallow: /checkouts/',
      'Disallow: /checkout',
      'Disallow: /account',
    );
    star.push(
      'Disallow: /collections/*sort_by*',
      'Disallow: /*/collections/*sort_by*',
      'Disallow: /collections/*+*',
      'Disallow: /collections/*%2B*',
      'Disallow: /collections/*%2b*',
    );
    star.push(
      'Disallow: /*/collections/*filter*&*filter*',
      'Disallow: /blogs/*+*',
      'Disallow: /blogs/*%2B*',
      'Disallow: /*/blogs/*+*',
      'Disallow: /*design_theme_id*',
      'Disallow: /*preview_theme_id*',
      'Disallow: /*preview_script_id*',
      'Disallow: /search',
      'Disallow: /apple-app-site-association',
      'Disallow: /.well-known/shopify/monorail',
    );
    tail.push('', 'User-agent: adsbot-google', 'Disallow: /checkouts/', 'Disallow: /checkout', 'Disallow: /carts', 'Disallow: /orders');
    tail.push(
      '',
      'User-agent: Nutch',
      'Disallow: /',
      '',
      'User-agent: AhrefsBot',
      'Crawl-delay: 10',
      'Disallow: /admin',
      'Disallow: /cart',
      '',
      'User-agent: MJ12bot',
      'Crawl-Delay: 10',
      '',
      'User-agent: Pinterest',
      'Crawl-delay: 1',
    );
    sitemaps.push(`Sitemap: ${ORIGIN}/sitemap.xml`);
  } else {
    // A news site: search, APIs and paging blocked, a news group, several sitemaps.
    head.push('User-agent: *');
    star.push(
      'Disallow: /search',
      'Disallow: /api/',
      'Disallow: /*?page=',
      'Disallow: /*&page=',
      'Disallow: /preview/',
      'Disallow: /amp/*?',
      'Disallow: /*/print$',
      'Allow: /api/oembed',
      'Disallow: /newsletters/manage',
    );
    tail.push('', 'User-agent: Googlebot-News', 'Disallow: /sponsored/', 'Disallow: /partner-content/', 'Allow: /news/');
    for (const name of ['news', 'sections', 'articles', 'video']) sitemaps.push(`Sitemap: ${ORIGIN}/sitemaps/${name}.xml`);
  }
  // What a few real files have and parsers read differently: a missing colon, a typo Google
  // accepts, an `index.html` allow (which Google also reads as allowing the directory).
  if (r.chance(0.08)) star.push(`Disallow /${r.pick(SECTIONS)}/`);
  if (r.chance(0.05)) star.push(`Disalow: /${r.pick(SECTIONS)}/`);
  if (r.chance(0.05)) {
    const dir = r.pick(SECTIONS);
    star.push(`Disallow: /${dir}/`, `Allow: /${dir}/index.html`);
  }
  const render = () => [...head, ...star, ...tail, '', ...sitemaps].join('\n') + '\n';
  // Fill with site-specific rules until the file has its size, as real files grow over the years.
  while (Buffer.byteLength(render()) < target) {
    const pattern = r.chance(0.3) ? makePattern(r, v) : v.path(r.int(1, 3));
    star.push(`${r.chance(0.15) ? 'Allow' : 'Disallow'}: ${pattern}`);
  }
  return render();
}

/** A URL a crawler would check: ~45% built from a rule (so verdicts mix), the rest site paths. */
function makeUrl(r, v, patterns) {
  const kind = r.next();
  let path;
  if (kind < 0.45) {
    const pattern = r.pick(patterns);
    const anchored = pattern.endsWith('$');
    path = (anchored ? pattern.slice(0, -1) : pattern).replace(/\*/g, () => (r.chance(0.3) ? '' : v.segment()));
    if (!anchored || r.chance(0.3)) {
      if (r.chance(0.5)) path += `${path.endsWith('/') ? '' : '/'}${v.segment()}`;
      if (r.chance(0.3)) path += `${path.includes('?') ? '&' : '?'}${v.query()}`;
    }
  } else if (kind < 0.85) {
    path = v.path();
    if (r.chance(0.3)) path += `?${v.query()}`;
  } else if (kind < 0.95) {
    // Tracking-laden URLs with long queries.
    path = `${v.path()}?${v.query(r.int(8, 40))}`;
  } else {
    // What crawlers also meet: escapes, non-ASCII, fragments, index pages, mixed case.
    path = r.pick([
      () => `/${r.pick(SECTIONS)}/caf%c3%a9-${v.word()}`,
      () => `/${r.pick(SECTIONS)}/café-${v.word()}/`,
      () => `${v.path()}#${v.word()}`,
      () => `/${r.pick(SECTIONS)}/index.html`,
      () => `/${r.pick(SECTIONS).toUpperCase()}/${v.slug()}`,
      () => `/${r.pick(SECTIONS)}/${v.slug()}%20${v.word()}`,
    ])();
  }
  if (!path.startsWith('/')) path = '/' + path;
  return ORIGIN + path;
}

function hostileFile(r) {
  const lines = ['# Hostile patterns: each `*` multiplies the work of a backtracking matcher.', 'User-agent: *'];
  const letters = 'abcdefgh';
  let size = lines.join('\n').length;
  while (size < HOSTILE_MAX_BYTES - 100) {
    const letter = r.chance(0.6) ? 'a' : letters[r.int(0, letters.length - 1)];
    const stars = r.int(5, 30);
    let pattern = '/';
    for (let i = 0; i < stars; i++) pattern += `*${r.chance(0.85) ? letter : letter.repeat(r.int(2, 4))}`;
    pattern += `*${r.pick(['b', 'z', 'ab', 'q', letter === 'a' ? 'c' : 'a'])}`;
    if (r.chance(0.2)) pattern += '$';
    const line = `${r.chance(0.15) ? 'Allow' : 'Disallow'}: ${pattern}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

function hostileUrls(r) {
  const length = 2_000;
  const fill = (unit) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 1);
  const urls = [
    '/' + fill('a'),
    '/' + fill('a').slice(0, -1) + 'b',
    '/' + fill('ab'),
    '/' + fill('aab'),
    '/' + fill('abcdefgh'),
    '/?' + fill('a').slice(1),
    '/' + fill('%61'),
    '/' + fill('a/'),
    // Every letter the patterns need is there, in the wrong order: nothing matches, late.
    '/' + 'b'.repeat(1_000) + 'a'.repeat(999),
    '/' + 'bzqc'.repeat(250) + 'a'.repeat(999),
    '/' + 'abcdefghqz'.repeat(100) + 'a'.repeat(999),
  ];
  for (let i = 0; i < 12; i++) {
    let s = '/';
    while (s.length < length) s += r.chance(0.9) ? 'a' : 'abcdefghz'[r.int(0, 8)];
    urls.push(s.slice(0, length));
  }
  return urls.map((path) => ORIGIN + path);
}

export function generate({ force = false, log = console.log } = {}) {
  const manifestPath = DATA_DIR + 'manifest.json';
  if (!force && existsSync(manifestPath)) {
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (manifest.version === GENERATOR_VERSION && manifest.seed === SEED) return manifest;
    } catch {
      // A broken manifest means broken data: regenerate.
    }
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR + 'typical', { recursive: true });
  const r = prng(SEED);
  const v = makeVocabulary(r);

  const big = bigFile(r, v);
  writeFileSync(DATA_DIR + 'big.robots.txt', big);
  let typicalBytes = 0;
  for (let i = 0; i < 100; i++) {
    const file = typicalFile(r, v, i);
    typicalBytes += Buffer.byteLength(file);
    writeFileSync(`${DATA_DIR}typical/${String(i).padStart(3, '0')}.robots.txt`, file);
  }
  // URLs are drawn from the `*` groups' patterns (what the benchmark's token is checked against).
  const starPatterns = [];
  let inStar = false;
  for (const line of big.split('\n')) {
    if (/^user-agent:/i.test(line)) inStar = line.slice(11).trim() === '*';
    else if (inStar && /^(dis)?allow:/i.test(line)) starPatterns.push(line.slice(line.indexOf(':') + 1).trim());
  }
  const urls = [];
  for (let i = 0; i < 100_000; i++) urls.push(makeUrl(r, v, starPatterns));
  writeFileSync(DATA_DIR + 'urls.txt', urls.join('\n') + '\n');
  const hostile = hostileFile(r);
  writeFileSync(DATA_DIR + 'hostile.robots.txt', hostile);
  writeFileSync(DATA_DIR + 'hostile-urls.txt', hostileUrls(r).join('\n') + '\n');

  const count = (text, re) => text.split('\n').filter((line) => re.test(line)).length;
  const rules = big.split('\n').filter((line) => /^(dis)?allow:/i.test(line));
  const manifest = {
    version: GENERATOR_VERSION,
    seed: SEED,
    origin: ORIGIN,
    big: {
      bytes: Buffer.byteLength(big),
      rules: rules.length,
      wildcardRules: rules.filter((line) => line.includes('*')).length,
      anchoredRules: rules.filter((line) => line.trimEnd().endsWith('$')).length,
      groups: count(big, /^user-agent:/i) === 0 ? 0 : big.split(/\n\n+/).filter((block) => /^user-agent:/im.test(block)).length,
      sitemaps: count(big, /^sitemap:/i),
      starRules: starPatterns.length,
    },
    typical: { files: 100, bytes: typicalBytes, meanBytes: Math.round(typicalBytes / 100) },
    urls: {
      count: urls.length,
      meanLength: Math.round(urls.reduce((sum, url) => sum + url.length, 0) / urls.length),
      maxLength: Math.max(...urls.map((url) => url.length)),
    },
    hostile: { bytes: Buffer.byteLength(hostile), rules: count(hostile, /^(dis)?allow:/i) },
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  log(`bench data written to ${DATA_DIR}: ${JSON.stringify(manifest)}`);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  generate({ force: process.argv.includes('--force') });
}
