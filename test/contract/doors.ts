/**
 * The doors of the contract suite: every way a request can leave a crawl, each with a disallowed URL
 * (under `/private`, which every origin's robots.txt disallows) that must never reach the server and
 * an allowed twin that must, so that no cell passes because nothing was requested at all. A door says
 * what the site serves for it, how the crawl meets it (start URLs, requests already queued, a
 * navigation hook's rewrite, what the request handler does on its page), which crawler kinds it
 * applies to, and what the server and the skip events must show afterwards.
 *
 * Every door lives on one site of four origins, crawled once per crawler kind: `pages` holds most
 * doors; `busy` answers `429` once (its pause must not slow the other doors); `slow` has a
 * `Crawl-delay`; `other` is the other origin a page opens a popup on.
 */
import { RobotsDisallowedError, type SkipEvent, type SkipStage } from '@heed/crawlee';
import { expect } from 'vitest';
import { page, redirect, text, type Hit, type Route, type RouteResponse, type SiteOrigin } from '../crawlee/site.js';
import type { KindTraits } from './kinds.js';

export const ORIGINS = ['pages', 'busy', 'slow', 'other'] as const;
export type OriginName = (typeof ORIGINS)[number];
export type DoorSite = Readonly<Record<OriginName, SiteOrigin>>;

/** What every origin's robots.txt says; a door may add lines for its origin. */
const ROBOTS_RULES = ['User-agent: *', 'Disallow: /private'];

/** A URL of the site: the origin it is on and its path. */
export interface SiteUrl {
  readonly origin: OriginName;
  readonly path: string;
}

/** What the `402` door's page asks, in its `crawler-price` header. */
const PRICE = 'USD 0.01';
const on = (origin: OriginName, path: string): SiteUrl => ({ origin, path });
const pages = (path: string) => on('pages', path);

/** A disallowed URL and the skip stage it must be reported at (none promised: nothing in Heed sees it to report). */
export interface Blocked extends SiteUrl {
  readonly stage?: SkipStage;
}

/** What the server and the skip events must show for a door on one crawler kind. */
export interface Expectation {
  /** Must never reach the server. */
  readonly blocked: readonly Blocked[];
  /** Must reach the server (the controls). */
  readonly reached: readonly SiteUrl[];
  /** Of `reached`, those the page requests while it is open (resources, popups): its handler waits for them. */
  readonly whileOpen?: readonly SiteUrl[];
  /**
   * Of `blocked`, those refused while the page is open after one of `whileOpen` reached the server
   * (the hop of a redirect answered then): its handler waits for their skip events too.
   */
  readonly skippedWhileOpen?: readonly SiteUrl[];
}

/** What the request handler of a door's page can do, whichever crawler kind handles it. */
export interface PageActions {
  /** Enqueues the page's links (`links` are its `<a href>`s, for a crawler that parses nothing). */
  enqueueLinks(links: readonly string[]): Promise<void>;
  /**
   * `context.sendRequest({ url })`, resolving to the status; with `timeoutMs`, the call's own timeout
   * set as the release takes it. Absent where the handler's context has none.
   */
  readonly sendRequest: ((url: string, timeoutMs?: number) => Promise<number>) | undefined;
}

/** The crawl a door's page is handled in: its site, and a place to write down what happened for the door's check. */
export interface PageRun {
  readonly site: DoorSite;
  note(key: string, value: string): void;
}

/** What one crawl left behind, for the doors to check. */
export interface CrawlRecord {
  readonly site: DoorSite;
  readonly skips: readonly SkipEvent[];
  readonly notes: ReadonlyMap<string, string>;
  /** The longest the crawling process's event loop stalled during the crawl: how late a stamp of the site can be. */
  readonly stampSlackMs: number;
  /**
   * Whether Heed learns when each page really left (got's timings on Crawlee 3's HTTP clients):
   * false for browsers (Puppeteer) and Crawlee 4's clients (Impit sends from its own threads and
   * says nothing of when), whose late sends Heed cannot count the next delay from.
   */
  readonly sendTimeKnown: boolean;
}

export interface Door {
  readonly id: string;
  /** The door as the docs name it: "a link enqueueLinks finds". */
  readonly title: string;
  readonly appliesTo: (kind: KindTraits) => boolean;
  /** Lines added to an origin's robots.txt. */
  readonly robots?: (site: DoorSite) => Partial<Record<OriginName, readonly string[]>>;
  /** The routes the door adds, by origin and path. */
  readonly routes: (site: DoorSite) => readonly (readonly [SiteUrl, Route])[];
  readonly start?: readonly SiteUrl[];
  /** Files of URLs given to `crawler.run()` as Crawlee's `{ requestsFromUrl }` sources, which Crawlee downloads itself. */
  readonly urlLists?: readonly SiteUrl[];
  /** Sitemaps the user names to the plugin (`plugin.addSitemaps()`), where a `SitemapRequestList` would read them unchecked. */
  readonly namedSitemaps?: readonly SiteUrl[];
  /** Put straight into the crawler's request queue before the plugin is attached. */
  readonly queued?: readonly SiteUrl[];
  /** What a `preNavigationHook` sets `request.url` to, by the request's path. */
  readonly rewrites?: Readonly<Record<string, SiteUrl>>;
  /** What the request handler does on the door's pages, by path. */
  readonly onPage?: Readonly<Record<string, (page: PageActions, run: PageRun) => Promise<void>>>;
  expect(kind: KindTraits): Expectation;
  /** Anything else the door promises (timing, what a call returned), checked after the crawl. */
  readonly check?: (record: CrawlRecord, kind: KindTraits) => void;
}

/** A page whose script runs `code`. */
const script = (title: string, code: string) => page(title, [], '', `<script>${code}</script>`);
const asset = (type: string, body: string): RouteResponse => ({ headers: { 'content-type': type }, body });
/** Pages served at each path: a leak then looks like success to the crawler, as it would on a real site. */
const EMPTY_URLSET = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>';
const pagesAt = (...urls: SiteUrl[]) => urls.map((url) => [url, page(url.path, [])] as const);
const wsUrl = (site: DoorSite, path: string) => site.pages.url(path).replace(/^http/, 'ws');
/**
 * A promise (as script) that fetches `paths` one after the other, each once the one before has
 * settled (answered or refused) or 2 s have passed: when the last reaches the server, the others
 * have been decided. (Puppeteer's request interception can hold a worker's request for good; the
 * next one must not wait for it.)
 */
const fetchesInTurn = (...paths: string[]) =>
  paths.reduce(
    (chain, path) => `${chain}.then(() => Promise.race([fetch('${path}').catch(() => {}), new Promise((r) => setTimeout(r, 2000))]))`,
    'Promise.resolve()',
  );
/**
 * Script that opens a WebSocket to `first`, then, once that one opened, failed or closed, to
 * `then`: when the allowed twin reaches the server, the disallowed one has been decided.
 */
const socketsInTurn = (first: string, then: string) =>
  `{ const s = new WebSocket('${first}'); let next = () => { next = () => {}; new WebSocket('${then}'); }; ` +
  `s.onopen = s.onerror = s.onclose = () => next(); }`;

/** Script run a second after the page's `load` event: Crawlee's navigation and its hooks are over by then. */
const afterLoad = (code: string) => `addEventListener('load', () => setTimeout(() => { ${code} }, 1000));`;

/** The sub-resources of the `subresource` door; `dom`: JSDOM loads it too (it fetches no images). */
const RESOURCES = [
  { name: 'img.png', tag: (src: string) => `<img src="${src}">`, type: 'image/png', body: '', dom: false },
  { name: 'style.css', tag: (src: string) => `<link rel="stylesheet" href="${src}">`, type: 'text/css', body: 'h1{}', dom: true },
  { name: 'script.js', tag: (src: string) => `<script src="${src}"></script>`, type: 'text/javascript', body: '1;', dom: true },
  { name: 'frame', tag: (src: string) => `<iframe src="${src}"></iframe>`, type: 'text/html', body: '<p>frame</p>', dom: true },
] as const;

/** Crawl-delay of the `slow` origin, seconds, and the pages crawled there. */
const CRAWL_DELAY_SECS = 1;
const SLOW_PAGES = ['/slow/0', '/slow/1', '/slow/2'].map((path) => on('slow', path));
const RETRY_AFTER_SECS = 1;
/** How late `/send-slow` answers, and the timeout the handler's `sendRequest()` call sets, ms. */
const SEND_SLOW_MS = 3000;
const SEND_TIMEOUT_MS = 300;

/**
 * Requests the site stamps as the crawl's own, for timing: robots.txt is exempt from crawl-delay by
 * RFC 9309 and a browser's favicon is a page resource, not a crawl request.
 */
function crawlHits(origin: SiteOrigin): Hit[] {
  return origin.hits.filter((hit) => hit.path !== '/robots.txt' && hit.path !== '/favicon.ico');
}

/**
 * The site stamps a request when its event loop reads it, in the crawler's own busy process: a stamp
 * comes late by as long as that loop was held up (the crawl's longest event-loop stall, which the
 * suite measures as `stampSlackMs`), and the gap before it looks that much shorter. So the bounds
 * are lower bounds only, less that slack and a margin; without the pause or the delay, requests
 * follow each other within milliseconds.
 */
const STAMP_MARGIN_MS = 100;
const atLeast = (ms: number, record: CrawlRecord) => ms - STAMP_MARGIN_MS - record.stampSlackMs;

export const DOORS = [
  {
    id: 'enqueue',
    title: 'a start URL, and a link `enqueueLinks` finds',
    appliesTo: () => true,
    routes: () => [
      [pages('/enqueue'), page('enqueue', ['/private/linked', '/ok/linked'])],
      ...pagesAt(pages('/private/start'), pages('/ok/start'), pages('/private/linked'), pages('/ok/linked')),
    ],
    start: [pages('/enqueue'), pages('/private/start'), pages('/ok/start')],
    onPage: { '/enqueue': (actions) => actions.enqueueLinks(['/private/linked', '/ok/linked']) },
    expect: () => ({
      blocked: [
        { ...pages('/private/start'), stage: 'enqueue' },
        { ...pages('/private/linked'), stage: 'enqueue' },
      ],
      reached: [pages('/ok/start'), pages('/ok/linked')],
    }),
  },
  {
    id: 'nofollow',
    title: 'a link of a page whose robots meta tag says `nofollow`',
    appliesTo: (kind) => kind.followsLinks,
    routes: () => [
      [pages('/nofollow'), page('nofollow', ['/nofollowed'], '<meta name="robots" content="nofollow">')],
      [pages('/follow'), page('follow', ['/ok/followed'])],
      // robots.txt allows it: only the page's own word keeps it out.
      ...pagesAt(pages('/nofollowed'), pages('/ok/followed')),
    ],
    start: [pages('/nofollow'), pages('/follow')],
    onPage: {
      '/nofollow': (actions) => actions.enqueueLinks(['/nofollowed']),
      '/follow': (actions) => actions.enqueueLinks(['/ok/followed']),
    },
    expect: () => ({ blocked: [{ ...pages('/nofollowed'), stage: 'enqueue' }], reached: [pages('/ok/followed')] }),
    check: ({ site, skips }) => {
      const url = site.pages.url('/nofollowed');
      expect(skips.filter((event) => event.url === url).map((event) => event.reason)).toContain('nofollow');
    },
  },
  {
    id: 'before-fetch',
    title: 'a request already in the request queue before `attach()`',
    appliesTo: () => true,
    routes: () => pagesAt(pages('/private/queued'), pages('/ok/queued')),
    queued: [pages('/private/queued'), pages('/ok/queued')],
    expect: () => ({ blocked: [{ ...pages('/private/queued'), stage: 'before-fetch' }], reached: [pages('/ok/queued')] }),
  },
  {
    id: 'rewrite',
    title: 'a `preNavigationHook` that sets `request.url`',
    appliesTo: (kind) => kind.navigationHooks,
    routes: () => pagesAt(pages('/rewrite'), pages('/rewrite-ok'), pages('/private/rewritten'), pages('/ok/rewritten')),
    start: [pages('/rewrite'), pages('/rewrite-ok')],
    rewrites: { '/rewrite': pages('/private/rewritten'), '/rewrite-ok': pages('/ok/rewritten') },
    expect: () => ({ blocked: [{ ...pages('/private/rewritten'), stage: 'before-fetch' }], reached: [pages('/ok/rewritten')] }),
  },
  {
    id: 'redirect',
    title: 'a redirect of the page, checked at every hop of its chain',
    appliesTo: (kind) => kind.fetchesPages,
    routes: () => [
      [pages('/hop'), redirect('/hop-2')],
      [pages('/hop-2'), redirect('/private/hop-target')],
      [pages('/hop-ok'), redirect('/ok/hop-target')],
      ...pagesAt(pages('/private/hop-target'), pages('/ok/hop-target')),
    ],
    start: [pages('/hop'), pages('/hop-ok')],
    expect: () => ({
      blocked: [{ ...pages('/private/hop-target'), stage: 'redirect' }],
      reached: [pages('/hop'), pages('/hop-2'), pages('/ok/hop-target')],
    }),
  },
  {
    id: 'subresource',
    title: "the page's images, stylesheets, scripts and frames",
    appliesTo: (kind) => kind.subresources !== 'none',
    routes: () => [
      [
        pages('/resources'),
        page('resources', [], '', RESOURCES.flatMap((r) => [r.tag(`/private/${r.name}`), r.tag(`/ok/${r.name}`)]).join('')),
      ],
      ...RESOURCES.flatMap((r) => [`/private/${r.name}`, `/ok/${r.name}`].map((path) => [pages(path), asset(r.type, r.body)] as const)),
    ],
    start: [pages('/resources')],
    expect: (kind) => {
      const loaded = RESOURCES.filter((r) => kind.subresources === 'browser' || r.dom);
      const twins = loaded.map((r) => pages(`/ok/${r.name}`));
      return {
        blocked: RESOURCES.map((r) => ({
          ...pages(`/private/${r.name}`),
          ...(loaded.includes(r) ? { stage: 'subresource' as const } : {}),
        })),
        reached: twins,
        whileOpen: twins,
      };
    },
  },
  {
    id: 'frame-resources',
    title: "a frame's own stylesheet and the frame within it",
    appliesTo: (kind) => kind.subresources !== 'none',
    routes: () => [
      [pages('/frames'), page('frames', [], '', '<iframe src="/framed"></iframe>')],
      [
        pages('/framed'),
        page(
          'framed',
          [],
          '<link rel="stylesheet" href="/private/framed.css"><link rel="stylesheet" href="/ok/framed.css">',
          '<iframe src="/private/nested-frame"></iframe><iframe src="/ok/nested-frame"></iframe>',
        ),
      ],
      [pages('/private/framed.css'), asset('text/css', 'h1{}')],
      [pages('/ok/framed.css'), asset('text/css', 'h1{}')],
      ...pagesAt(pages('/private/nested-frame'), pages('/ok/nested-frame')),
    ],
    start: [pages('/frames')],
    expect: () => {
      const twins = [pages('/framed'), pages('/ok/framed.css'), pages('/ok/nested-frame')];
      return {
        blocked: [
          { ...pages('/private/framed.css'), stage: 'subresource' },
          { ...pages('/private/nested-frame'), stage: 'subresource' },
        ],
        reached: twins,
        whileOpen: twins,
      };
    },
  },
  {
    id: 'subresource-redirect',
    title: "a redirect of a page's stylesheet",
    appliesTo: (kind) => kind.subresources !== 'none',
    routes: () => [
      [
        pages('/resource-hops'),
        page('resource hops', [], '<link rel="stylesheet" href="/style-hop"><link rel="stylesheet" href="/style-hop-ok">'),
      ],
      [pages('/style-hop'), redirect('/private/hop.css')],
      [pages('/style-hop-ok'), redirect('/ok/hop.css')],
      [pages('/private/hop.css'), asset('text/css', 'h1{}')],
      [pages('/ok/hop.css'), asset('text/css', 'h1{}')],
    ],
    start: [pages('/resource-hops')],
    expect: () => ({
      blocked: [{ ...pages('/private/hop.css'), stage: 'subresource' }],
      reached: [pages('/style-hop'), pages('/ok/hop.css')],
      whileOpen: [pages('/style-hop'), pages('/ok/hop.css')],
    }),
  },
  {
    id: 'script-request',
    title: "an `XMLHttpRequest` of the page's script",
    appliesTo: (kind) => kind.scripts,
    routes: () => [
      [
        pages('/xhr'),
        script(
          'xhr',
          // The twin once the disallowed request has settled: when it reaches the server, the other was decided.
          `const ask = (path, then) => { const r = new XMLHttpRequest(); r.open('GET', path); r.onloadend = then; r.send(); };
ask('/private/xhr', () => ask('/ok/xhr', () => {}));`,
        ),
      ],
      [pages('/private/xhr'), text('secret')],
      [pages('/ok/xhr'), text('ok')],
    ],
    start: [pages('/xhr')],
    expect: () => ({
      blocked: [{ ...pages('/private/xhr'), stage: 'subresource' }],
      reached: [pages('/ok/xhr')],
      whileOpen: [pages('/ok/xhr')],
    }),
  },
  {
    id: 'script-request-redirect',
    title: "a redirect of an `XMLHttpRequest` of the page's script",
    appliesTo: (kind) => kind.scripts,
    routes: () => [
      [
        pages('/xhr-hops'),
        script(
          'xhr hops',
          // The twin once the disallowed hop has settled, as in script-request.
          `const ask = (path, then) => { const r = new XMLHttpRequest(); r.open('GET', path); r.onloadend = then; r.send(); };
ask('/xhr-hop', () => ask('/xhr-hop-ok', () => {}));`,
        ),
      ],
      [pages('/xhr-hop'), redirect('/private/xhr-hop')],
      [pages('/xhr-hop-ok'), redirect('/ok/xhr-hop')],
      [pages('/private/xhr-hop'), text('secret')],
      [pages('/ok/xhr-hop'), text('ok')],
    ],
    start: [pages('/xhr-hops')],
    expect: () => ({
      blocked: [{ ...pages('/private/xhr-hop'), stage: 'subresource' }],
      reached: [pages('/xhr-hop'), pages('/ok/xhr-hop')],
      whileOpen: [pages('/ok/xhr-hop')],
    }),
  },
  {
    id: 'popup',
    title: 'a popup the page opens (`window.open`, a `target=_blank` link), of its origin or another, redirected or not',
    appliesTo: (kind) => kind.browser,
    routes: (site) => [
      [
        pages('/popup'),
        page(
          'popup',
          [],
          '',
          '<a id="no" target="_blank" href="/private/blank">no</a><a id="yes" target="_blank" href="/ok/blank">yes</a>' +
            `<script>window.open('/private/popup'); window.open('/ok/popup'); window.open('/popup-hop');
window.open('${site.other.url('/private/popup')}'); window.open('${site.other.url('/ok/popup')}');
document.getElementById('no').click(); document.getElementById('yes').click();</script>`,
        ),
      ],
      [pages('/popup-hop'), redirect('/private/popup-hop')],
      ...pagesAt(pages('/private/popup'), pages('/ok/popup'), pages('/private/popup-hop'), pages('/private/blank'), pages('/ok/blank')),
      ...pagesAt(on('other', '/private/popup'), on('other', '/ok/popup')),
    ],
    start: [pages('/popup')],
    expect: () => {
      const twins = [pages('/ok/popup'), pages('/popup-hop'), on('other', '/ok/popup'), pages('/ok/blank')];
      return {
        blocked: [
          { ...pages('/private/popup'), stage: 'redirect' },
          { ...pages('/private/popup-hop'), stage: 'redirect' },
          { ...on('other', '/private/popup'), stage: 'redirect' },
          { ...pages('/private/blank'), stage: 'redirect' },
        ],
        reached: twins,
        whileOpen: twins,
      };
    },
  },
  {
    id: 'popup-requests',
    title: "an `XMLHttpRequest` of a popup's script",
    appliesTo: (kind) => kind.browser,
    routes: () => [
      [pages('/popup-opener'), script('popup opener', `window.open('/popup-page');`)],
      [
        pages('/popup-page'),
        script(
          'popup page',
          afterLoad(`const ask = (path, then) => { const r = new XMLHttpRequest(); r.open('GET', path); r.onloadend = then; r.send(); };
ask('/private/popup-xhr', () => ask('/ok/popup-xhr', () => {}));`),
        ),
      ],
      [pages('/private/popup-xhr'), text('secret')],
      [pages('/ok/popup-xhr'), text('ok')],
    ],
    start: [pages('/popup-opener')],
    expect: () => ({
      blocked: [{ ...pages('/private/popup-xhr'), stage: 'subresource' }],
      reached: [pages('/ok/popup-xhr')],
      whileOpen: [pages('/ok/popup-xhr')],
    }),
  },
  {
    id: 'script-navigation',
    title: "a navigation of the page's script, while it loads or well after (Crawlee's hooks have run), direct or redirected",
    appliesTo: (kind) => kind.browser,
    routes: () => [
      [pages('/nav-early'), page('nav early', [], "<script>location.replace('/private/nav-early')</script>")],
      [pages('/nav-early-ok'), page('nav early ok', [], "<script>location.replace('/ok/nav-early')</script>")],
      // The direct one and the redirected one on pages of their own: one page's second navigation
      // can replace its first before the browser requests it (seen on a busy machine), and a
      // navigation never requested is nothing to refuse or report.
      [pages('/nav-late'), script('nav late', afterLoad(`location.href = '/private/nav-late';`))],
      [pages('/nav-late-hop'), script('nav late hop', afterLoad(`location.href = '/late-hop';`))],
      [pages('/late-hop'), redirect('/private/late-hop')],
      ...pagesAt(pages('/private/nav-early'), pages('/ok/nav-early'), pages('/private/nav-late'), pages('/private/late-hop')),
    ],
    start: [pages('/nav-early'), pages('/nav-early-ok'), pages('/nav-late'), pages('/nav-late-hop')],
    // A navigation while the page loads ends its request as a skip, like a redirect; one after it
    // loaded leaves the page where it is (answered `204 No Content`).
    expect: () => ({
      blocked: [
        { ...pages('/private/nav-early'), stage: 'redirect' },
        { ...pages('/private/nav-late'), stage: 'redirect' },
        { ...pages('/private/late-hop'), stage: 'redirect' },
      ],
      reached: [pages('/ok/nav-early'), pages('/late-hop')],
      whileOpen: [pages('/late-hop')],
      // A second after load, and its redirect once the site has answered: the pages stay open for them.
      skippedWhileOpen: [pages('/private/nav-late'), pages('/private/late-hop')],
    }),
  },
  {
    id: 'late-requests',
    title: "an `XMLHttpRequest` and an image of the page's script well after it loaded (Crawlee's hooks have run)",
    appliesTo: (kind) => kind.browser,
    routes: () => [
      [
        pages('/late'),
        script(
          'late',
          // Each twin once the disallowed request has settled: when it reaches the server, the other was decided.
          afterLoad(`const ask = (path, then) => { const r = new XMLHttpRequest(); r.open('GET', path); r.onloadend = then; r.send(); };
const show = (src, then) => { const i = new Image(); i.onload = i.onerror = then; i.src = src; };
ask('/private/late-xhr', () => ask('/ok/late-xhr', () => show('/private/late.png', () => show('/ok/late.png', () => {}))));`),
        ),
      ],
      [pages('/private/late-xhr'), text('secret')],
      [pages('/ok/late-xhr'), text('ok')],
      [pages('/private/late.png'), asset('image/png', '')],
      [pages('/ok/late.png'), asset('image/png', '')],
    ],
    start: [pages('/late')],
    expect: () => ({
      blocked: [
        { ...pages('/private/late-xhr'), stage: 'subresource' },
        { ...pages('/private/late.png'), stage: 'subresource' },
      ],
      reached: [pages('/ok/late-xhr'), pages('/ok/late.png')],
      whileOpen: [pages('/ok/late-xhr'), pages('/ok/late.png')],
    }),
  },
  {
    id: 'websocket',
    title: 'a WebSocket the page opens',
    appliesTo: (kind) => kind.scripts,
    routes: (site) => [[pages('/ws'), script('ws', socketsInTurn(wsUrl(site, '/private/ws'), wsUrl(site, '/ok/ws')))]],
    start: [pages('/ws')],
    // No skip event is promised: a closed WebSocket is the page's business, not a request of the crawl.
    expect: () => ({ blocked: [pages('/private/ws')], reached: [pages('/ok/ws')], whileOpen: [pages('/ok/ws')] }),
  },
  {
    id: 'popup-websocket',
    title: 'a WebSocket of a popup the page opens',
    appliesTo: (kind) => kind.browser,
    routes: (site) => [
      [pages('/popup-ws-opener'), script('popup ws opener', `window.open('/popup-ws');`)],
      [pages('/popup-ws'), script('popup ws', socketsInTurn(wsUrl(site, '/private/popup-ws'), wsUrl(site, '/ok/popup-ws')))],
    ],
    start: [pages('/popup-ws-opener')],
    expect: () => ({ blocked: [pages('/private/popup-ws')], reached: [pages('/ok/popup-ws')], whileOpen: [pages('/ok/popup-ws')] }),
  },
  {
    id: 'worker-websocket',
    title: "a WebSocket of the page's worker",
    appliesTo: (kind) => kind.browser,
    routes: (site) => [
      [pages('/ws-worker'), script('ws worker', `new Worker('/ws-worker.js');`)],
      [pages('/ws-worker.js'), asset('text/javascript', socketsInTurn(wsUrl(site, '/private/worker-ws'), wsUrl(site, '/ok/worker-ws')))],
    ],
    start: [pages('/ws-worker')],
    expect: () => ({ blocked: [pages('/private/worker-ws')], reached: [pages('/ok/worker-ws')], whileOpen: [pages('/ok/worker-ws')] }),
  },
  {
    id: 'worker-fetch',
    title: "a `fetch` of the page's worker",
    appliesTo: (kind) => kind.browser,
    routes: () => [
      [pages('/fetch-worker'), script('fetch worker', `new Worker('/fetch-worker.js');`)],
      [pages('/fetch-worker.js'), asset('text/javascript', fetchesInTurn('/private/worker-fetch', '/worker-hop', '/ok/worker-fetch'))],
      [pages('/worker-hop'), redirect('/private/worker-hop')],
      [pages('/private/worker-fetch'), text('secret')],
      [pages('/private/worker-hop'), text('secret')],
      [pages('/ok/worker-fetch'), text('ok')],
    ],
    start: [pages('/fetch-worker')],
    expect: () => ({
      blocked: [
        { ...pages('/private/worker-fetch'), stage: 'subresource' },
        { ...pages('/private/worker-hop'), stage: 'subresource' },
      ],
      reached: [pages('/worker-hop'), pages('/ok/worker-fetch')],
      whileOpen: [pages('/ok/worker-fetch')],
    }),
  },
  {
    id: 'service-worker',
    title: "a `fetch` of the page's service worker",
    appliesTo: (kind) => kind.browser,
    routes: () => [
      [pages('/service-worker'), script('service worker', `navigator.serviceWorker.register('/service-worker.js');`)],
      [
        pages('/service-worker.js'),
        asset(
          'text/javascript',
          `self.addEventListener('install', (event) => event.waitUntil(${fetchesInTurn('/private/sw-fetch', '/ok/sw-fetch')}));`,
        ),
      ],
      [pages('/private/sw-fetch'), text('secret')],
      [pages('/ok/sw-fetch'), text('ok')],
    ],
    start: [pages('/service-worker')],
    expect: () => ({
      blocked: [{ ...pages('/private/sw-fetch'), stage: 'subresource' }],
      reached: [pages('/ok/sw-fetch')],
      whileOpen: [pages('/ok/sw-fetch')],
    }),
  },
  {
    id: 'service-worker-websocket',
    title: "a WebSocket of the page's service worker",
    appliesTo: (kind) => kind.browser,
    routes: (site) => [
      // A scope of its own: the service-worker door's worker is not replaced.
      [pages('/sw-ws'), script('sw ws', `navigator.serviceWorker.register('/sw-ws/worker.js', { scope: '/sw-ws/' });`)],
      [pages('/sw-ws/worker.js'), asset('text/javascript', socketsInTurn(wsUrl(site, '/private/sw-ws'), wsUrl(site, '/ok/sw-ws')))],
    ],
    start: [pages('/sw-ws')],
    expect: () => ({ blocked: [pages('/private/sw-ws')], reached: [pages('/ok/sw-ws')], whileOpen: [pages('/ok/sw-ws')] }),
  },
  {
    id: 'send-request',
    title: '`context.sendRequest()` in the request handler, its redirect, and its options kept',
    appliesTo: (kind) => kind.handlerSendRequest,
    routes: () => [
      ...pagesAt(pages('/send')),
      [pages('/private/api'), text('secret')],
      [pages('/ok/api'), text('ok')],
      [pages('/send-hop'), redirect('/private/send-hop')],
      [pages('/private/send-hop'), text('secret')],
      // Answers well after the call's own timeout: a call whose options were dropped waits for it.
      [pages('/send-slow'), () => new Promise<RouteResponse>((resolve) => setTimeout(() => resolve(text('late')), SEND_SLOW_MS))],
    ],
    start: [pages('/send')],
    onPage: {
      '/send': async (actions, { site, note }) => {
        for (const path of ['/private/api', '/ok/api', '/send-hop']) {
          try {
            note(`send ${path}`, String(await actions.sendRequest!(site.pages.url(path))));
          } catch (error) {
            note(`send ${path}`, error instanceof RobotsDisallowedError ? 'RobotsDisallowedError' : `other: ${String(error)}`);
          }
        }
        const asked = Date.now();
        let detail = '';
        const answer = await actions.sendRequest!(site.pages.url('/send-slow'), SEND_TIMEOUT_MS).then(
          (status) => `answered ${status}`,
          (error: unknown) => {
            detail = String(error);
            return error instanceof RobotsDisallowedError ? 'RobotsDisallowedError' : 'failed';
          },
        );
        const tookMs = Date.now() - asked;
        note('send /send-slow', tookMs < SEND_SLOW_MS ? `${answer} before the answer` : `${answer} after the answer`);
        // How it ended, for a failing check to say: the call's time, its error, the site's requests of /send-slow.
        note('how /send-slow ended', `after ${tookMs} ms, ${site.pages.count('/send-slow')} request(s) received; ${detail || 'no error'}`);
      },
    },
    expect: () => ({
      blocked: [
        { ...pages('/private/api'), stage: 'send-request' },
        { ...pages('/private/send-hop'), stage: 'send-request' },
      ],
      reached: [pages('/ok/api'), pages('/send-hop'), pages('/send-slow')],
    }),
    check: ({ notes }) => {
      expect(Object.fromEntries([...notes].filter(([key]) => key.startsWith('send '))), notes.get('how /send-slow ended')).toEqual({
        'send /private/api': 'RobotsDisallowedError',
        'send /ok/api': '200',
        'send /send-hop': 'RobotsDisallowedError',
        'send /send-slow': 'failed before the answer',
      });
    },
  },
  {
    id: 'sitemap',
    title: 'a page URL of a sitemap that robots.txt names',
    appliesTo: () => true,
    robots: (site) => ({ pages: [`Sitemap: ${site.pages.url('/sitemap.xml')}`] }),
    routes: (site) => [
      [
        pages('/sitemap.xml'),
        asset(
          'application/xml',
          '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
            ['/private/from-sitemap', '/ok/from-sitemap'].map((path) => `<url><loc>${site.pages.url(path)}</loc></url>`).join('') +
            '</urlset>',
        ),
      ],
      ...pagesAt(pages('/private/from-sitemap'), pages('/ok/from-sitemap')),
    ],
    expect: () => ({ blocked: [{ ...pages('/private/from-sitemap'), stage: 'sitemap' }], reached: [pages('/ok/from-sitemap')] }),
  },
  {
    id: 'own-fetch',
    title: "a sitemap file robots.txt names on a disallowed path (Heed's own fetch)",
    appliesTo: () => true,
    robots: (site) => ({ pages: [`Sitemap: ${site.pages.url('/private/sitemap.xml')}`, `Sitemap: ${site.pages.url('/ok/sitemap.xml')}`] }),
    routes: () => [
      [pages('/private/sitemap.xml'), asset('application/xml', EMPTY_URLSET)],
      [pages('/ok/sitemap.xml'), asset('application/xml', EMPTY_URLSET)],
    ],
    // A sitemap file Heed does not fetch is logged and counted (`sitemapsSkipped`), not a skip event.
    expect: () => ({ blocked: [pages('/private/sitemap.xml')], reached: [pages('/ok/sitemap.xml')] }),
  },
  {
    id: 'named-sitemap',
    title: 'a sitemap index the user names (`plugin.addSitemaps()`), its nested sitemaps and their URLs',
    appliesTo: () => true,
    routes: (site) => {
      const urlset = (paths: readonly string[]) =>
        asset(
          'application/xml',
          '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
            paths.map((path) => `<url><loc>${site.pages.url(path)}</loc></url>`).join('') +
            '</urlset>',
        );
      return [
        [
          pages('/named-index.xml'),
          asset(
            'application/xml',
            '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
              ['/private/nested-sitemap.xml', '/ok/nested-sitemap.xml']
                .map((path) => `<sitemap><loc>${site.pages.url(path)}</loc></sitemap>`)
                .join('') +
              '</sitemapindex>',
          ),
        ],
        [pages('/private/nested-sitemap.xml'), urlset(['/from-private-nested'])],
        [pages('/ok/nested-sitemap.xml'), urlset(['/private/from-named', '/ok/from-named'])],
        [pages('/private/named-sitemap.xml'), urlset(['/from-private-named'])],
        ...pagesAt(pages('/from-private-nested'), pages('/from-private-named'), pages('/private/from-named'), pages('/ok/from-named')),
      ];
    },
    namedSitemaps: [pages('/named-index.xml'), pages('/private/named-sitemap.xml')],
    // A sitemap file Heed does not fetch is logged and counted (`sitemapsSkipped`), not a skip event.
    expect: () => ({
      blocked: [
        pages('/private/named-sitemap.xml'),
        pages('/private/nested-sitemap.xml'),
        { ...pages('/private/from-named'), stage: 'sitemap' },
      ],
      reached: [pages('/named-index.xml'), pages('/ok/nested-sitemap.xml'), pages('/ok/from-named')],
    }),
    check: ({ site }) => {
      // The disallowed files were never read, so nothing they list was crawled.
      expect(site.pages.count('/from-private-nested') + site.pages.count('/from-private-named')).toBe(0);
    },
  },
  {
    id: 'answer',
    title: "a `429` answer's `Retry-After`",
    appliesTo: () => true,
    routes: (site) => [
      // 429 the first time only: the retry is the next request of the origin, and must wait.
      [
        on('busy', '/busy'),
        () => (site.busy.count('/busy') === 1 ? text('slow down', 429, { 'retry-after': String(RETRY_AFTER_SECS) }) : page('busy', [])),
      ],
    ],
    start: [on('busy', '/busy')],
    expect: () => ({ blocked: [], reached: [on('busy', '/busy')] }),
    check: (record) => {
      const hits = crawlHits(record.site.busy);
      const refused = hits.findIndex((hit) => hit.path === '/busy');
      const after = hits.slice(refused + 1);
      expect(after.length, 'a request of the origin after the 429').toBeGreaterThan(0);
      for (const hit of after)
        expect(hit.at - hits[refused]!.at, hit.path).toBeGreaterThanOrEqual(atLeast(RETRY_AFTER_SECS * 1000, record));
    },
  },
  {
    id: 'payment',
    title: 'a page that answers `402 Payment Required` (pay-per-crawl)',
    // BasicCrawler's pages are its handler's own sendRequest(): what it does with a 402 is the user's.
    appliesTo: (kind) => kind.fetchesPages,
    routes: () => [
      [
        pages('/pay'),
        { status: 402, headers: { 'content-type': 'application/json', 'crawler-price': PRICE }, body: '{"error":"payment required"}' },
      ],
    ],
    start: [pages('/pay')],
    onPage: { '/pay': async (_page, { note }) => note('/pay handled', 'yes') },
    expect: () => ({ blocked: [], reached: [pages('/pay')] }),
    check: (record) => {
      // Asked once, never retried as a failure, never handed to the handler: a skip with its price.
      expect(record.site.pages.count('/pay'), 'requests of /pay').toBe(1);
      expect(record.notes.get('/pay handled'), 'the handler saw the 402 page').toBeUndefined();
      const skip = record.skips.find((event) => event.url === record.site.pages.url('/pay'));
      expect(skip).toMatchObject({ reason: 'payment-required', stage: 'response', price: PRICE });
    },
  },
  {
    id: 'crawl-delay',
    title: 'the `Crawl-delay` of robots.txt',
    appliesTo: () => true,
    robots: () => ({ slow: [`Crawl-delay: ${CRAWL_DELAY_SECS}`] }),
    routes: () => pagesAt(...SLOW_PAGES),
    start: SLOW_PAGES,
    expect: () => ({ blocked: [], reached: SLOW_PAGES }),
    check: (record) => {
      const times = crawlHits(record.site.slow).map((hit) => hit.at);
      expect(times).toHaveLength(SLOW_PAGES.length);
      const delayMs = CRAWL_DELAY_SECS * 1000;
      const gaps = times.slice(1).map((at, i) => at - times[i]!);
      if (record.sendTimeKnown) {
        for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(atLeast(delayMs, record));
        return;
      }
      // A client that sends from threads of its own (a browser, Crawlee 4's Impit) writes a request
      // to the wire when it gets to it: Heed lets a page go (and counts the delay) when the client
      // takes it, and a client starved of CPU sends it up to several hundred ms later, which
      // shortens the gap after it as the site sees it (the next one leaves on time). So each gap
      // holds a quarter of the delay, and the pages together span most of theirs; sent without the
      // delay, they reach the site within milliseconds of each other.
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(atLeast(delayMs / 4, record));
      expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(atLeast(gaps.length * delayMs * 0.6, record));
    },
  },
  {
    id: 'url-list',
    title: 'a `requestsFromUrl` file of start URLs, and the URLs it lists',
    appliesTo: () => true,
    routes: (site) => [
      [pages('/private/urls.txt'), text(`${site.pages.url('/from-private-list')}\n`)],
      [pages('/ok/urls.txt'), text(`${site.pages.url('/private/from-list')}\n${site.pages.url('/ok/from-list')}\n`)],
      ...pagesAt(pages('/from-private-list'), pages('/private/from-list'), pages('/ok/from-list')),
    ],
    urlLists: [pages('/private/urls.txt'), pages('/ok/urls.txt')],
    expect: () => ({
      blocked: [
        { ...pages('/private/urls.txt'), stage: 'enqueue' },
        { ...pages('/private/from-list'), stage: 'enqueue' },
      ],
      reached: [pages('/ok/urls.txt'), pages('/ok/from-list')],
    }),
    check: ({ site }) => {
      // The file is a request of the crawl: under the bot's name, not a generated browser's.
      expect(site.pages.hits.filter((hit) => hit.path === '/ok/urls.txt').map((hit) => hit.userAgent.split('/')[0])).toEqual(['HeedBot']);
      // The disallowed file was never read, so nothing it lists was crawled.
      expect(site.pages.count('/from-private-list')).toBe(0);
    },
  },
] as const satisfies readonly Door[];

export type DoorId = (typeof DOORS)[number]['id'];

/** Serves every door's routes and each origin's robots.txt on `site`. */
export function serveDoors(site: DoorSite): void {
  const doors: readonly Door[] = DOORS;
  for (const name of ORIGINS) {
    const extra = doors.flatMap((door) => door.robots?.(site)[name] ?? []);
    site[name].routes.set('/robots.txt', text([...ROBOTS_RULES, ...extra, ''].join('\n')));
  }
  for (const door of doors) for (const [url, route] of door.routes(site)) site[url.origin].routes.set(url.path, route);
  // Browsers ask for it on their own; a 404 keeps it out of the way.
  for (const name of ORIGINS) site[name].routes.set('/favicon.ico', { status: 404, body: '' });
}
