import {
  BLOG_CRAWL_DELAY_SECONDS,
  blogRobotsLines,
  DEMO_BOT,
  DEMO_USER_AGENT,
  lineNumberOf,
  OTHER_BOT,
  shopRobotsLines,
} from './robots-files.js';
import { BLOG_SITEMAP_PATHS, SHOP_PAGES_SITEMAP_PATHS, SHOP_PRODUCTS_SITEMAP_PATHS } from './routes.js';
import type { DemoOriginName, DemoOrigins } from './types.js';

/** Why a URL is allowed or not, in the manager's words. */
export type ExpectedReason =
  /** A robots.txt group decided (possibly with no matching rule: then allowed). */
  | 'rules'
  /** robots.txt answered 4xx: everything is allowed. */
  | 'unavailable'
  /** robots.txt answered 5xx: nothing is allowed. */
  | 'unreachable';

/** What an origin's robots.txt means for the whole origin. */
export type ExpectedPolicy = 'rules' | 'allow-all' | 'disallow-all';

/** The robots.txt situation of one origin. */
export interface ExpectedRobots {
  readonly origin: DemoOriginName;
  /** One sentence for people: what is special about this origin's robots.txt. */
  readonly situation: string;
  /** Paths requested to fetch robots.txt, in order (a redirect adds one). */
  readonly fetchPaths: readonly string[];
  /** Status of each of those requests. */
  readonly statuses: readonly number[];
  readonly policy: ExpectedPolicy;
  readonly reason: ExpectedReason;
  /** `Crawl-delay` that applies to the demo bot, in seconds, if any. */
  readonly crawlDelaySeconds?: number;
  /** Absolute `Sitemap:` URLs of the robots.txt. */
  readonly sitemaps: readonly string[];
  /** The robots.txt lines as served, when there are rules. */
  readonly lines?: readonly string[];
}

/** A verdict for one user-agent. */
export interface ExpectedVerdict {
  readonly allowed: boolean;
  readonly reason: ExpectedReason;
  /** The robots.txt line that decided (1-based number and its text), when a rule matched. */
  readonly decidingLine?: { readonly line: number; readonly text: string };
}

/** How a crawler comes across a URL. */
export type Discovery = 'start' | 'link' | 'cross-origin-link' | 'sitemap' | 'redirect' | 'subresource' | 'nofollow-link';

/** What a HeedDemoBot crawl of the whole site (from the shop's start page, sitemaps on) does with a URL. */
export type DemoCrawlOutcome =
  /** Fetched and handed to the request handler. */
  | 'crawled'
  /** Fetched; it redirects into a disallowed area, and that redirect is not followed. */
  | 'redirect-not-followed'
  /** Never fetched: robots.txt rules disallow it. */
  | 'skipped-robots'
  /** Never fetched: the origin's robots.txt answered 5xx. */
  | 'skipped-unreachable'
  /** Never enqueued: only a nofollow page links to it. */
  | 'not-followed'
  /** Loaded by browser crawlers as a page's sub-resource (allowed); HTML crawlers never ask for it. */
  | 'subresource';

/** One URL of the demo site and everything a test may want to assert about it. */
export interface ExpectedUrl {
  readonly origin: DemoOriginName;
  /** Path with query, as a crawler requests it. */
  readonly path: string;
  /** Absolute URL. */
  readonly url: string;
  readonly kind: 'page' | 'redirect' | 'file' | 'subresource';
  readonly discoveredBy: readonly Discovery[];
  /** Verdict for {@link DEMO_BOT}. */
  readonly demoBot: ExpectedVerdict;
  /** Verdict for any other bot ({@link OTHER_BOT}): the `*` groups. */
  readonly otherBots: ExpectedVerdict;
  readonly demoCrawl: DemoCrawlOutcome;
  /** Page-level robots directives that apply to the demo bot (meta tag or X-Robots-Tag header). */
  readonly pageDirectives?: { readonly noindex?: boolean; readonly nofollow?: boolean; readonly source: 'meta' | 'header' };
  /** Why, in one sentence. */
  readonly why: string;
}

/** The whole expected outcome of crawling the demo site. */
export interface ExpectedOutcome {
  /** Full User-Agent header the demo crawl sends. */
  readonly userAgent: string;
  /** Product token matched against robots.txt groups (`HeedDemoBot`). */
  readonly productToken: string;
  /** A product token with no group of its own (`HeedOtherBot`). */
  readonly otherProductToken: string;
  /** Where the demo crawl starts: the shop's start page. */
  readonly startUrls: readonly string[];
  readonly robots: Readonly<Record<DemoOriginName, ExpectedRobots>>;
  readonly urls: readonly ExpectedUrl[];
  /** Absolute URLs of the pages a full demo crawl hands to its request handler. */
  readonly crawled: readonly string[];
  /** Absolute URLs the site must never see requested by the demo bot. */
  readonly neverFetched: readonly string[];
  /** Every URL listed in the sitemaps that robots.txt files name (indexes resolved). */
  readonly sitemapUrls: readonly string[];
  /** Those sitemap URLs the demo bot may fetch. */
  readonly allowedSitemapUrls: readonly string[];
}

/** Computes the expected outcome of crawling the demo site running at `origins`. */
export function expectedOutcome(origins: DemoOrigins): ExpectedOutcome {
  const shopLines = shopRobotsLines(origins);
  const blogLines = blogRobotsLines(origins);
  const demoGroup = `User-agent: ${DEMO_BOT}`;
  const starGroup = 'User-agent: *';

  const shopRule = (text: string, group: string): ExpectedVerdict => ({
    allowed: text.startsWith('Allow:'),
    reason: 'rules',
    decidingLine: { line: lineNumberOf(shopLines, text, group), text },
  });
  const blogRule = (text: string): ExpectedVerdict => ({
    allowed: false,
    reason: 'rules',
    decidingLine: { line: lineNumberOf(blogLines, text, starGroup), text },
  });
  const noRule: ExpectedVerdict = { allowed: true, reason: 'rules' };
  const noRobots: ExpectedVerdict = { allowed: true, reason: 'unavailable' };
  const robots503: ExpectedVerdict = { allowed: false, reason: 'unreachable' };

  type Row = Omit<ExpectedUrl, 'url' | 'kind'> & { readonly kind?: ExpectedUrl['kind'] };
  const rows: Row[] = [
    // shop: rules with wildcards and `$`, and a group of the demo bot's own.
    {
      origin: 'shop',
      path: '/',
      discoveredBy: ['start', 'link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'No rule matches.',
    },
    {
      origin: 'shop',
      path: '/products/',
      discoveredBy: ['link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'No rule matches.',
    },
    {
      origin: 'shop',
      path: '/products/?sort=price',
      discoveredBy: ['link'],
      demoBot: shopRule('Disallow: /*?sort=', demoGroup),
      otherBots: noRule,
      demoCrawl: 'skipped-robots',
      why: '"*" matches any characters before "?sort=".',
    },
    {
      origin: 'shop',
      path: '/products/?page=2',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'Only sorting parameters are disallowed.',
    },
    {
      origin: 'shop',
      path: '/products/widget',
      discoveredBy: ['link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'Linked, and listed in the gzipped sitemap.',
    },
    {
      origin: 'shop',
      path: '/products/gadget',
      discoveredBy: ['sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'Found only through the gzipped sitemap of the sitemap index.',
    },
    {
      origin: 'shop',
      path: '/products/gizmo',
      discoveredBy: ['sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'Found only through the XML sitemap of the sitemap index.',
    },
    {
      origin: 'shop',
      path: '/files/catalog.pdf',
      kind: 'file',
      discoveredBy: ['link'],
      demoBot: shopRule('Disallow: /*.pdf$', demoGroup),
      otherBots: noRule,
      demoCrawl: 'skipped-robots',
      why: '"$" anchors the pattern at the end of the URL, which ends in ".pdf".',
    },
    {
      origin: 'shop',
      path: '/files/catalog.pdf.html',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: '"/*.pdf$" does not match: the URL goes on after ".pdf".',
    },
    {
      origin: 'shop',
      path: '/private/',
      discoveredBy: ['link'],
      demoBot: shopRule('Disallow: /private/', demoGroup),
      otherBots: shopRule('Disallow: /private/', starGroup),
      demoCrawl: 'skipped-robots',
      why: 'Disallowed for everyone.',
    },
    {
      origin: 'shop',
      path: '/private/press/',
      discoveredBy: ['link'],
      demoBot: shopRule('Allow: /private/press/', demoGroup),
      otherBots: shopRule('Disallow: /private/', starGroup),
      demoCrawl: 'crawled',
      why: 'The longer Allow line wins over "Disallow: /private/" in the demo bot\'s group.',
    },
    {
      origin: 'shop',
      path: '/private/account',
      discoveredBy: ['redirect'],
      demoBot: shopRule('Disallow: /private/', demoGroup),
      otherBots: shopRule('Disallow: /private/', starGroup),
      demoCrawl: 'skipped-robots',
      why: 'Reached only through the /go/account redirect, which must not be followed.',
    },
    {
      origin: 'shop',
      path: '/private/old-press-kit',
      discoveredBy: ['sitemap'],
      demoBot: shopRule('Disallow: /private/', demoGroup),
      otherBots: shopRule('Disallow: /private/', starGroup),
      demoCrawl: 'skipped-robots',
      why: 'Listed in the sitemap, but disallowed: sitemaps do not override robots.txt.',
    },
    {
      origin: 'shop',
      path: '/members/',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: shopRule('Disallow: /members/', starGroup),
      demoCrawl: 'crawled',
      why: 'Disallowed in the * group, which does not apply to a bot with a group of its own.',
    },
    {
      origin: 'shop',
      path: '/cart',
      discoveredBy: ['link'],
      demoBot: shopRule('Disallow: /cart', demoGroup),
      otherBots: noRule,
      demoCrawl: 'skipped-robots',
      why: "Disallowed in the demo bot's group only.",
    },
    {
      origin: 'shop',
      path: '/go/account',
      kind: 'redirect',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'redirect-not-followed',
      why: 'Allowed, but it redirects (302) into /private/.',
    },
    {
      origin: 'shop',
      path: '/nofollow-page',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      pageDirectives: { nofollow: true, source: 'meta' },
      why: '<meta name="robots" content="nofollow">: crawl it, do not follow its links.',
    },
    {
      origin: 'shop',
      path: '/nofollow-target',
      discoveredBy: ['nofollow-link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'not-followed',
      why: 'Linked only from a nofollow page.',
    },
    {
      origin: 'shop',
      path: '/noindex-page',
      discoveredBy: ['link'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      pageDirectives: { noindex: true, source: 'meta' },
      why: '<meta name="robots" content="noindex">: crawl it and follow its links, but do not store it.',
    },
    {
      origin: 'shop',
      path: '/static/site.css',
      kind: 'subresource',
      discoveredBy: ['subresource'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'subresource',
      why: 'A stylesheet every shop page loads.',
    },
    {
      origin: 'shop',
      path: '/tracking/pixel.js',
      kind: 'subresource',
      discoveredBy: ['subresource'],
      demoBot: shopRule('Disallow: /tracking/', demoGroup),
      otherBots: shopRule('Disallow: /tracking/', starGroup),
      demoCrawl: 'skipped-robots',
      why: 'A script every shop page loads; browser crawlers must block it.',
    },
    // blog: robots.txt redirects (301), asks for a crawl-delay, lists a text sitemap.
    {
      origin: 'blog',
      path: '/',
      discoveredBy: ['cross-origin-link', 'link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'No rule matches.',
    },
    {
      origin: 'blog',
      path: '/posts/1',
      discoveredBy: ['link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'No rule matches.',
    },
    {
      origin: 'blog',
      path: '/posts/2',
      discoveredBy: ['link', 'sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'No rule matches.',
    },
    {
      origin: 'blog',
      path: '/posts/3',
      discoveredBy: ['sitemap'],
      demoBot: noRule,
      otherBots: noRule,
      demoCrawl: 'crawled',
      why: 'Found only through the text sitemap.',
    },
    {
      origin: 'blog',
      path: '/drafts/upcoming',
      discoveredBy: ['cross-origin-link', 'link', 'sitemap'],
      demoBot: blogRule('Disallow: /drafts/'),
      otherBots: blogRule('Disallow: /drafts/'),
      demoCrawl: 'skipped-robots',
      why: 'Disallowed; the shop links to it across origins too.',
    },
    // docs: robots.txt is missing (404), so everything is allowed; X-Robots-Tag headers.
    {
      origin: 'docs',
      path: '/',
      discoveredBy: ['cross-origin-link'],
      demoBot: noRobots,
      otherBots: noRobots,
      demoCrawl: 'crawled',
      why: 'robots.txt is 404: everything is allowed.',
    },
    {
      origin: 'docs',
      path: '/guide',
      discoveredBy: ['link'],
      demoBot: noRobots,
      otherBots: noRobots,
      demoCrawl: 'crawled',
      why: 'robots.txt is 404: everything is allowed.',
    },
    {
      origin: 'docs',
      path: '/reference',
      discoveredBy: ['link'],
      demoBot: noRobots,
      otherBots: noRobots,
      demoCrawl: 'crawled',
      pageDirectives: { nofollow: true, source: 'header' },
      why: `X-Robots-Tag: ${DEMO_BOT}: nofollow applies to the demo bot only.`,
    },
    {
      origin: 'docs',
      path: '/reference/internals',
      discoveredBy: ['nofollow-link'],
      demoBot: noRobots,
      otherBots: noRobots,
      demoCrawl: 'not-followed',
      why: 'Linked only from a page that is nofollow for the demo bot (other bots follow it).',
    },
    {
      origin: 'docs',
      path: '/print',
      discoveredBy: ['link'],
      demoBot: noRobots,
      otherBots: noRobots,
      demoCrawl: 'crawled',
      pageDirectives: { noindex: true, source: 'header' },
      why: 'X-Robots-Tag: noindex: crawl it, do not store it.',
    },
    // mirror: robots.txt answers 503, so nothing may be fetched.
    {
      origin: 'mirror',
      path: '/',
      discoveredBy: ['cross-origin-link'],
      demoBot: robots503,
      otherBots: robots503,
      demoCrawl: 'skipped-unreachable',
      why: 'robots.txt is 503: the whole origin is off limits until it recovers.',
    },
  ];

  const urls: ExpectedUrl[] = rows.map((row) => ({ ...row, kind: row.kind ?? 'page', url: `${origins[row.origin]}${row.path}` }));
  const urlsWhere = (keep: (url: ExpectedUrl) => boolean): string[] => urls.filter(keep).map((url) => url.url);

  const robots: Record<DemoOriginName, ExpectedRobots> = {
    shop: {
      origin: 'shop',
      situation: `200 with wildcard and "$" rules, a group for ${DEMO_BOT}, and a sitemap index (XML + gzipped XML).`,
      fetchPaths: ['/robots.txt'],
      statuses: [200],
      policy: 'rules',
      reason: 'rules',
      sitemaps: [`${origins.shop}/sitemap-index.xml`],
      lines: shopLines,
    },
    blog: {
      origin: 'blog',
      situation: `301 to /site/robots.txt, with a ${BLOG_CRAWL_DELAY_SECONDS} s crawl-delay and a text sitemap.`,
      fetchPaths: ['/robots.txt', '/site/robots.txt'],
      statuses: [301, 200],
      policy: 'rules',
      reason: 'rules',
      crawlDelaySeconds: BLOG_CRAWL_DELAY_SECONDS,
      sitemaps: [`${origins.blog}/sitemap.txt`],
      lines: blogLines,
    },
    docs: {
      origin: 'docs',
      situation: '404: no robots.txt, so everything is allowed. Pages carry X-Robots-Tag headers.',
      fetchPaths: ['/robots.txt'],
      statuses: [404],
      policy: 'allow-all',
      reason: 'unavailable',
      sitemaps: [],
    },
    mirror: {
      origin: 'mirror',
      situation: '503 (Retry-After: 3600): the origin is unreachable, so nothing may be fetched.',
      fetchPaths: ['/robots.txt'],
      statuses: [503],
      policy: 'disallow-all',
      reason: 'unreachable',
      sitemaps: [],
    },
  };

  const sitemapUrls = [
    ...SHOP_PAGES_SITEMAP_PATHS.map((path) => `${origins.shop}${path}`),
    ...SHOP_PRODUCTS_SITEMAP_PATHS.map((path) => `${origins.shop}${path}`),
    ...BLOG_SITEMAP_PATHS.map((path) => `${origins.blog}${path}`),
  ];
  const disallowedForDemoBot = new Set(urlsWhere((url) => !url.demoBot.allowed));

  return {
    userAgent: DEMO_USER_AGENT,
    productToken: DEMO_BOT,
    otherProductToken: OTHER_BOT,
    startUrls: [`${origins.shop}/`],
    robots,
    urls,
    crawled: urlsWhere((url) => url.demoCrawl === 'crawled'),
    neverFetched: urlsWhere((url) => ['skipped-robots', 'skipped-unreachable', 'not-followed'].includes(url.demoCrawl)),
    sitemapUrls,
    allowedSitemapUrls: sitemapUrls.filter((url) => !disallowedForDemoBot.has(url)),
  };
}
