/**
 * The ways a browser page reaches past the request being crawled, on the configurations the
 * contract suite (test/contract: Chromium, DevTools, `blockSubresources`) does not run: a
 * PlaywrightCrawler without DevTools (as on Firefox and WebKit, where Heed follows redirect chains
 * itself), browsers without `blockSubresources`, the crawl-delay kept across redirect hops and
 * popups, and a request the browser sends later than Heed let it go. Each against a server that
 * records every request: no disallowed URL may reach it, the allowed twin of each must.
 */
import type { BasicCrawler, CrawlingContext } from '@crawlee/basic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { playwrightCrawler, puppeteerCrawler } from './crawlers.js';
import { page, redirect, startSite, text, type Site, type SiteOrigin } from './site.js';

/**
 * How long one browser crawl of a hook may take: ten times the longest on an idle machine (about
 * 10 s: a page's late requests and the crawl-delay waits), since a machine busy with other work
 * has stretched one past 60 s.
 */
const CRAWL_HOOK_MS = 120_000;

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';
const ROBOTS = text('User-agent: *\nDisallow: /private\n');

interface Doors {
  readonly site: Site;
  readonly a: SiteOrigin;
  readonly b: SiteOrigin;
  /** Per start path: the allowed requests its page makes, which the handler waits for. */
  readonly markers: ReadonlyMap<string, readonly { origin: SiteOrigin; path: string }[]>;
}

/** Origin A holds the pages; B is the other origin popups open. Both disallow `/private`. */
async function startDoors(): Promise<Doors> {
  const site = await startSite(2);
  const [a, b] = site.origins as [SiteOrigin, SiteOrigin];
  const script = (code: string) => page('doors', [], '', `<script>${code}</script>`);
  for (const origin of [a, b]) {
    origin.routes.set('/robots.txt', ROBOTS);
    origin.routes.set('/popup-ok', page('popup', []));
    origin.routes.set('/private/popup', page('private popup', []));
  }
  a.routes.set('/chain', redirect('/ok2'));
  a.routes.set('/ok2', redirect('/private/chain'));
  a.routes.set('/chain-ok', redirect('/ok3'));
  a.routes.set('/ok3', redirect('/final'));
  a.routes.set('/final', page('final', []));
  // Well after the page has loaded (Crawlee's post-navigation hooks have run), a script navigation
  // whose redirect leads somewhere disallowed.
  a.routes.set('/late-hop', script(`addEventListener('load', () => setTimeout(() => { location.href = '/hop-late'; }, 1000));`));
  a.routes.set('/hop-late', redirect('/private/late'));
  a.routes.set('/img-chain', page('images', [], '', '<img src="/img-hop"><img src="/img-hop-ok">'));
  a.routes.set('/img-hop', redirect('/private/img.png'));
  a.routes.set('/img-hop-ok', redirect('/img-ok.png'));
  a.routes.set('/img-ok.png', { headers: { 'content-type': 'image/png' }, body: '' });
  a.routes.set('/open-same', script(`window.open('/private/popup'); window.open('/popup-hop'); window.open('/popup-ok');`));
  a.routes.set('/popup-hop', redirect('/private/popup-hop'));
  a.routes.set('/open-other', script(`window.open('${b.url('/private/popup')}'); window.open('${b.url('/popup-ok')}');`));
  a.routes.set(
    '/blank',
    page(
      'blank',
      [],
      '',
      '<a id="no" target="_blank" href="/private/blank">no</a><a id="yes" target="_blank" href="/blank-ok">yes</a>' +
        `<script>document.getElementById('no').click(); document.getElementById('yes').click();</script>`,
    ),
  );
  a.routes.set('/blank-ok', page('blank ok', []));
  a.routes.set('/sw', script(`navigator.serviceWorker.register('/sw.js');`));
  a.routes.set('/sw.js', {
    headers: { 'content-type': 'text/javascript' },
    body: `self.addEventListener('install', (e) => e.waitUntil(Promise.all([fetch('/private/sw').catch(() => {}), fetch('/sw-ok').catch(() => {})])));`,
  });
  a.routes.set('/sw-ok', text('ok'));
  a.routes.set('/worker', script(`new Worker('/worker.js');`));
  a.routes.set('/worker.js', {
    headers: { 'content-type': 'text/javascript' },
    body: ['/private/worker', '/worker-hop', '/worker-ok'].map((path) => `fetch('${path}').catch(() => {});`).join('\n'),
  });
  a.routes.set('/worker-hop', redirect('/private/worker-hop'));
  a.routes.set('/worker-ok', text('ok'));
  const ws = a.origin.replace(/^http/, 'ws');
  a.routes.set('/ws', script(`new WebSocket('${ws}/private/ws'); new WebSocket('${ws}/ws-ok');`));
  const markers = new Map([
    ['/img-chain', [{ origin: a, path: '/img-ok.png' }]],
    ['/late-hop', [{ origin: a, path: '/hop-late' }]],
    [
      '/open-same',
      [
        { origin: a, path: '/popup-ok' },
        { origin: a, path: '/popup-hop' },
      ],
    ],
    ['/open-other', [{ origin: b, path: '/popup-ok' }]],
    ['/blank', [{ origin: a, path: '/blank-ok' }]],
    ['/sw', [{ origin: a, path: '/sw-ok' }]],
    [
      '/worker',
      [
        { origin: a, path: '/worker-ok' },
        { origin: a, path: '/worker-hop' },
      ],
    ],
    ['/ws', [{ origin: a, path: '/ws-ok' }]],
  ]);
  return { site, a, b, markers };
}

/** Waits until the page's allowed requests reached the server, then a little longer for any disallowed twin. */
async function settle(doors: Doors, url: string): Promise<void> {
  const wanted = doors.markers.get(new URL(url).pathname) ?? [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !wanted.every((m) => m.origin.count(m.path) > 0)) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 400));
}

interface Outcome {
  readonly handled: string[];
  readonly skips: SkipEvent[];
  /** Each failed request's URL and error, so a failing test says why a page was not handled. */
  readonly failures: string[];
  /** Each request that failed once and was retried, with its error. */
  readonly retried: string[];
  failed: number;
}

/** Attaches the plugin to a crawler and gives it back (each crawler class has its own context type). */
type Attach = <Context extends CrawlingContext>(crawler: BasicCrawler<Context>) => Promise<BasicCrawler<Context>>;
type Make = (
  doors: Doors,
  outcome: Outcome,
  attach: Attach,
) => Promise<{ run(urls: string[]): Promise<unknown>; stats: { state: { requestsFailed: number } } }>;

const START_PATHS = ['/chain', '/chain-ok', '/late-hop', '/img-chain', '/open-same', '/open-other', '/blank', '/sw', '/worker', '/ws'];

async function crawl(doors: Doors, make: Make, blockSubresources = true, startPaths = START_PATHS): Promise<Outcome> {
  const outcome: Outcome = { handled: [], skips: [], failures: [], retried: [], failed: 0 };
  const manager = new RobotsManager({ userAgent: HEEDBOT });
  const options: Parameters<typeof RobotsPlugin.attach>[1] = {
    userAgent: HEEDBOT,
    manager,
    blockSubresources,
    logSummary: false,
    onSkip: (e) => void outcome.skips.push(e),
  };
  const crawler = await make(doors, outcome, async (crawler) => {
    await RobotsPlugin.attach(crawler, options);
    return crawler;
  });
  await crawler.run(startPaths.map((path) => doors.a.url(path)));
  await manager.close();
  outcome.failed = crawler.stats.state.requestsFailed;
  return outcome;
}

/**
 * A PlaywrightCrawler; `devtools: false` hides `newCDPSession` from the plugin, as Firefox and
 * WebKit have none, so the plugin follows chains itself.
 */
const makePlaywright =
  (devtools: boolean, late?: LateRequest): Make =>
  (doors, outcome, attach) =>
    attach(
      playwrightCrawler({
        minConcurrency: 8,
        maxConcurrency: 8,
        // One retry, as a crawl has: on a machine busy with other work a page can fail once for
        // reasons of its own (its error is kept in `retried`); failing twice fails the test.
        maxRequestRetries: 1,
        preNavigationHooks: [
          ({ page }) => {
            const browserContext = page.context();
            if (!devtools) Object.defineProperty(browserContext, 'newCDPSession', { value: undefined, configurable: true });
            else if (late !== undefined && !madeLate.has(browserContext)) {
              madeLate.add(browserContext);
              const newCDPSession = browserContext.newCDPSession.bind(browserContext);
              const value = async (...args: Parameters<typeof newCDPSession>) => lateContinue(await newCDPSession(...args), late);
              Object.defineProperty(browserContext, 'newCDPSession', { value, configurable: true });
            }
          },
        ],
        requestHandler: async (ctx) => {
          outcome.handled.push(ctx.request.loadedUrl ?? ctx.request.url);
          await settle(doors, ctx.request.url);
        },
        errorHandler: ({ request }, error) => void outcome.retried.push(`${request.url}: ${error.message}`),
        failedRequestHandler: ({ request }, error) => void outcome.failures.push(`${request.url}: ${error.message}`),
      }),
    );

const makePuppeteerWith =
  (late?: LateRequest): Make =>
  (doors, outcome, attach) =>
    attach(
      puppeteerCrawler({
        minConcurrency: 8,
        maxConcurrency: 8,
        // One retry, as a crawl has: on a machine busy with other work a page can fail once for
        // reasons of its own (its error is kept in `retried`); failing twice fails the test.
        maxRequestRetries: 1,
        preNavigationHooks:
          late === undefined
            ? []
            : [
                ({ page }) => {
                  // The browser target's session, which pauses the requests of popups.
                  const target = page.browser().target();
                  if (madeLate.has(target)) return;
                  madeLate.add(target);
                  const createCDPSession = target.createCDPSession.bind(target);
                  const value = async () => lateContinue(await createCDPSession(), late);
                  Object.defineProperty(target, 'createCDPSession', { value, configurable: true });
                },
              ],
        requestHandler: async (ctx) => {
          outcome.handled.push(ctx.request.loadedUrl ?? ctx.request.url);
          await settle(doors, ctx.request.url);
        },
        errorHandler: ({ request }, error) => void outcome.retried.push(`${request.url}: ${error.message}`),
        failedRequestHandler: ({ request }, error) => void outcome.failures.push(`${request.url}: ${error.message}`),
      }),
    );

const makePuppeteer = makePuppeteerWith();

/** A request the browser is told to send on, which reaches the browser late: `Fetch.continueRequest` held back `lateMs`. */
interface LateRequest {
  readonly path: string;
  readonly lateMs: number;
}

/** The DevTools sessions and targets already made late, so that a hook run per page wraps each once. */
const madeLate = new WeakSet<object>();

/** The part of Puppeteer's and Playwright's `CDPSession` used here. */
interface Session {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, listener: (event: { requestId: string; request: { url: string } }) => void): unknown;
}

/**
 * `session` with its `Fetch.continueRequest` of `late.path` sent `late.lateMs` late, as a busy
 * browser or DevTools pipe would take it: Heed let the request go, and it leaves later.
 */
function lateContinue<S>(session: S, late: LateRequest): S {
  const cdp = session as unknown as Session;
  if (madeLate.has(cdp)) return session;
  madeLate.add(cdp);
  const lateIds = new Set<string>();
  cdp.on('Fetch.requestPaused', ({ requestId, request }) => {
    if (new URL(request.url).pathname === late.path) lateIds.add(requestId);
  });
  const send = cdp.send.bind(cdp);
  cdp.send = async (method, params) => {
    const requestId = (params as { requestId?: string } | undefined)?.requestId;
    if (method === 'Fetch.continueRequest' && requestId !== undefined && lateIds.delete(requestId))
      await new Promise((resolve) => setTimeout(resolve, late.lateMs));
    return send(method, params);
  };
  return session;
}

/** What `/img-chain` loads: images, one behind a redirect to a disallowed path. */
const IMAGE_CHAIN = ['/img-hop', '/img-hop-ok', '/private/img.png', '/img-ok.png'];

/** Paths of `origin` the server saw, robots.txt left out. */
function seen(origin: SiteOrigin): string[] {
  return origin.paths().filter((path) => path !== '/robots.txt');
}

/** What differs between the crawlers: where the page of an allowed chain says it is, whether WebSockets are checked. */
interface Expected {
  readonly chainLoadedAt: string;
  readonly websocketsChecked: boolean;
}

// With DevTools (Chromium), every door here is a cell of the contract suite (test/contract).
describe
  .skipIf(!has('chromium', 'test/crawlee/browser-doors.test.ts'))
  .each([
    [
      'PlaywrightCrawler without DevTools (as on Firefox, WebKit)',
      makePlaywright(false),
      { chainLoadedAt: '/chain-ok', websocketsChecked: true },
    ],
  ] as const satisfies readonly (readonly [string, Make, Expected])[])('%s: side doors of a browser page', (_name, make, expected) => {
  let doors: Doors;
  let outcome: Outcome;

  beforeAll(async () => {
    doors = await startDoors();
    outcome = await crawl(doors, make);
  }, CRAWL_HOOK_MS);

  afterAll(async () => {
    await doors?.site.close();
  });

  it('a redirect chain is checked at every hop', () => {
    expect(seen(doors.a)).not.toContain('/private/chain');
    expect(doors.a.count('/ok2')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === doors.a.url('/private/chain'))).toMatchObject({
      stage: 'redirect',
      referrer: doors.a.url('/ok2'),
    });
    expect(outcome.handled).not.toContain(doors.a.url('/private/chain'));
  });

  it('an allowed chain is followed to its end, each hop requested once', () => {
    expect(['/chain-ok', '/ok3', '/final'].map((path) => doors.a.count(path))).toEqual([1, 1, 1]);
    expect(outcome.handled).toContain(doors.a.url(expected.chainLoadedAt));
  });

  it('a redirect after the page loaded leaves the page where it is, and is reported', () => {
    expect(doors.a.count('/hop-late')).toBe(1);
    expect(seen(doors.a)).not.toContain('/private/late');
    expect(outcome.skips.find((e) => e.url === doors.a.url('/private/late'))).toMatchObject({
      stage: 'redirect',
      referrer: doors.a.url('/hop-late'),
    });
    expect(outcome.handled).toContain(doors.a.url('/late-hop'));
  });

  it("a sub-resource's redirect chain is checked at every hop", () => {
    expect(seen(doors.a)).not.toContain('/private/img.png');
    expect(doors.a.count('/img-ok.png')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === doors.a.url('/private/img.png'))).toMatchObject({ stage: 'subresource' });
  });

  it('window.open of the same origin, a redirect of the popup included', () => {
    expect(seen(doors.a)).not.toContain('/private/popup');
    expect(seen(doors.a)).not.toContain('/private/popup-hop');
    expect(doors.a.count('/popup-ok')).toBeGreaterThan(0);
    expect(doors.a.count('/popup-hop')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === doors.a.url('/private/popup'))).toMatchObject({ stage: 'redirect', reason: 'rules' });
  });

  it('window.open of another origin', () => {
    expect(seen(doors.b)).not.toContain('/private/popup');
    expect(doors.b.count('/popup-ok')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === doors.b.url('/private/popup'))).toMatchObject({ stage: 'redirect', origin: doors.b.origin });
  });

  it('a target=_blank click', () => {
    expect(seen(doors.a)).not.toContain('/private/blank');
    expect(doors.a.count('/blank-ok')).toBeGreaterThan(0);
  });

  it("a service worker's fetch", () => {
    expect(seen(doors.a)).not.toContain('/private/sw');
    expect(doors.a.count('/sw-ok')).toBeGreaterThan(0);
    expect(outcome.skips.find((e) => e.url === doors.a.url('/private/sw'))).toMatchObject({ stage: 'subresource' });
  });

  it("a dedicated worker's fetch, a redirect included", () => {
    expect(seen(doors.a)).not.toContain('/private/worker');
    expect(seen(doors.a)).not.toContain('/private/worker-hop');
    expect(doors.a.count('/worker-ok')).toBeGreaterThan(0);
  });

  it('a WebSocket', () => {
    expect(doors.a.count('/ws-ok')).toBeGreaterThan(0);
    if (expected.websocketsChecked) expect(seen(doors.a)).not.toContain('/private/ws');
    else expect(seen(doors.a)).toContain('/private/ws');
  });

  it('handles every allowed page and fails nothing', () => {
    expect(outcome.failures, `retried: ${outcome.retried.join('; ')}`).toEqual([]);
    expect(outcome.failed).toBe(0);
    const handledPaths = START_PATHS.filter((p) => p !== '/chain').map((p) => (p === '/chain-ok' ? expected.chainLoadedAt : p));
    const skipped = outcome.skips.map((e) => `${e.url} (${e.stage}, ${e.reason})`).join(', ');
    expect(new Set(outcome.handled), `skipped: ${skipped}`).toEqual(new Set(handledPaths.map((p) => doors.a.url(p))));
    const disallowed = [...seen(doors.a), ...seen(doors.b)].filter((p) => p.startsWith('/private'));
    expect(disallowed).toEqual(expected.websocketsChecked ? [] : ['/private/ws']);
  });
});

describe.skipIf(!has('chromium', 'test/crawlee/browser-doors.test.ts')).each([
  ['PlaywrightCrawler', makePlaywright(true)],
  ['PlaywrightCrawler without DevTools (as on Firefox, WebKit)', makePlaywright(false)],
  ['PuppeteerCrawler', makePuppeteer],
] as const)('%s without blockSubresources, under a crawl-delay', (_name, make) => {
  let doors: Doors;
  let holdMs = 0;

  beforeAll(async () => {
    doors = await startDoors();
    doors.a.routes.set('/robots.txt', text('User-agent: *\nCrawl-delay: 0.4\nDisallow: /private\n'));
    doors.a.routes.set('/favicon.ico', { status: 404, body: '' });
    const loop = watchEventLoop();
    await crawl(doors, make, false, ['/chain-ok', '/open-same', '/popup-ok', '/img-chain']);
    holdMs = loop.longestMs();
    loop.stop();
  }, CRAWL_HOOK_MS);

  afterAll(async () => {
    await doors?.site.close();
  });

  it("checks a popup's navigation (checkRedirects) and leaves sub-resources alone, as documented", () => {
    expect(seen(doors.a)).not.toContain('/private/popup');
    expect(seen(doors.a)).not.toContain('/private/popup-hop');
    expect(doors.a.count('/popup-ok')).toBeGreaterThan(0);
    expect(seen(doors.a)).toContain('/private/img.png');
  });

  it('every request to the origin (pages, each hop, popups) at least its delay after the last one', () => {
    // Policy files are exempt; sub-resources (the browser's own favicon request, the images of
    // /img-chain and their hops) are a page's resources, not crawl requests.
    const hits = doors.a.hits.filter((hit) => !['/robots.txt', '/favicon.ico', ...IMAGE_CHAIN].includes(hit.path));
    expect(hits.map((hit) => hit.path)).toEqual(
      expect.arrayContaining(['/chain-ok', '/ok3', '/final', '/popup-hop', '/popup-ok', '/img-chain']),
    );
    const gaps = hits.slice(1).map((hit, i) => ({ to: hit.path, gap: hit.at - hits[i]!.at }));
    // The site stamps a request when its event loop reads it, in the crawler's own busy process: a
    // stamp comes late by as long as that loop was held, and the next gap looks that much shorter
    // (the browser's own latency adds to it, unmeasured). A late stamp moves time from one gap to
    // the next, so the mean gap holds the delay; without the delay, hops follow each other within a
    // few milliseconds and both bounds fail.
    expect(gaps.filter(({ gap }) => gap < 150 - holdMs)).toEqual([]);
    expect(gaps.reduce((sum, { gap }) => sum + gap, 0) / gaps.length).toBeGreaterThanOrEqual(350);
  });
});

describe.skipIf(!has('chromium', 'test/crawlee/browser-doors.test.ts')).each([
  // A crawled page's redirect hop, paused by Heed's DevTools session of the page.
  ['PlaywrightCrawler', makePlaywright(true, { path: '/late-hop', lateMs: 500 }), '/late-chain', ['/late-chain', '/late-hop', '/late-end']],
  // A popup's first request, paused by Heed's DevTools session of the browser; then its redirect hop.
  ['PuppeteerCrawler', makePuppeteerWith({ path: '/late-popup', lateMs: 500 }), '/open-late', ['/open-late', '/late-popup', '/late-end']],
] as const)('%s: a request the browser sends late keeps the crawl-delay from when it left', (_name, make, start, expected) => {
  let doors: Doors;
  let holdMs = 0;

  beforeAll(async () => {
    doors = await startDoors();
    const { a } = doors;
    a.routes.set('/robots.txt', text('User-agent: *\nCrawl-delay: 1\n'));
    a.routes.set('/favicon.ico', { status: 404, body: '' });
    a.routes.set('/late-chain', redirect('/late-hop'));
    a.routes.set('/late-hop', redirect('/late-end'));
    a.routes.set('/open-late', page('opens a popup', [], '', `<script>window.open('/late-popup');</script>`));
    a.routes.set('/late-popup', redirect('/late-end'));
    a.routes.set('/late-end', page('end', []));
    // The crawled page is handled until the popup's hop reached the site.
    (doors.markers as Map<string, readonly { origin: SiteOrigin; path: string }[]>).set('/open-late', [{ origin: a, path: '/late-end' }]);
    const loop = watchEventLoop();
    await crawl(doors, make, false, [start]);
    holdMs = loop.longestMs();
    loop.stop();
  }, CRAWL_HOOK_MS);

  afterAll(async () => {
    await doors?.site.close();
  });

  it('the request after it waits its delay from when it left, not from when Heed let it go', () => {
    const hits = doors.a.hits.filter((hit) => hit.path !== '/robots.txt' && hit.path !== '/favicon.ico');
    expect(hits.map((hit) => hit.path)).toEqual(expected);
    const gaps = hits.slice(1).map((hit, i) => ({ to: hit.path, gap: hit.at - hits[i]!.at }));
    // Let go when due, the late request leaves half a delay later: the one after it, counted from
    // when Heed let it go, would reach the site half a delay after it. A stamp of the site comes late
    // by as long as this process's event loop was held.
    expect(gaps.filter(({ gap }) => gap < 800 - holdMs)).toEqual([]);
  });
});
