/**
 * The browser and JSDOM flavour of the consumer test (consumer.test.ts registers it, so both
 * flavours share one packing of the packages): Heed installed with plain `npm install` into a
 * fresh project outside the workspace next to `@crawlee/playwright`, `@crawlee/puppeteer` and
 * `@crawlee/jsdom` at one release (with the `playwright` and `puppeteer` of `BROWSER_SETS`,
 * launching Debian's Chromium), then crawled by one ESM script per crawler kind with
 * `blockSubresources: true`. The site has a redirect chain whose second hop is disallowed, a
 * `preNavigationHook` that rewrites a URL into a disallowed path, `window.open` of disallowed URLs
 * (same and other origin) and a disallowed `target=_blank` link (browsers), a disallowed stylesheet
 * and iframe (JSDOM). The servers must never see a disallowed path; allowed pages, popups and
 * sub-resources must come through; every skip must be reported.
 *
 * What runs where: `pnpm test:compat` (HEED_COMPAT_RELEASES=all) runs every release of
 * `BROWSER_SETS` (the oldest and the newest supported); HEED_COMPAT_RELEASES=3.13.0,3.18.1 runs the
 * listed releases that `BROWSER_SETS` has. `npm test` runs none: a fresh install of the browser
 * libraries and three browser crawls cost more than CI's budget leaves. Crawlee 4 (with
 * HEED_COMPAT_RELEASES=all or naming a build of `V4_RELEASES`, 4.0.0-rc.0 or `4-next`, and its
 * tarballs at hand): one project per build with the three crawlers, the same crawls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';
import { has, optIn } from '../support/requirements.js';
import { page, redirect, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';
import {
  BROWSER_SETS,
  crawleeV4,
  hasOnSkippedRequest,
  heedWarnings,
  installedVersions,
  sh,
  v4ReleasesToTest,
  type Project,
  type ProjectInstalls,
} from './consumer.js';

const SLOW = 600_000;

/** The releases of `BROWSER_SETS` that HEED_COMPAT_RELEASES asks for (none when it is unset). */
function browserReleasesToTest(): string[] {
  const chosen = process.env['HEED_COMPAT_RELEASES'];
  const known = Object.keys(BROWSER_SETS);
  if (!chosen) return [];
  if (chosen === 'all') return known;
  return chosen
    .split(',')
    .map((v) => v.trim())
    .filter((release) => known.includes(release));
}

type Kind = 'playwright' | 'puppeteer' | 'jsdom';

interface CrawlResult {
  handled: string[];
  skips: [string, string, string][];
  crawleeSkips: { url: string; reason: string }[];
  failed: number;
}

/** What the two browser crawlers must do alike: popups of both origins and a target=_blank link. */
const BROWSER = {
  start: ['/open', '/blank'],
  handled: ['/open', '/blank'],
  allowed: [
    ['a', '/popup-ok'],
    ['b', '/popup-ok'],
    ['a', '/blank-ok'],
  ],
  skips: [
    ['a', '/private/popup', 'redirect'],
    ['b', '/private/popup', 'redirect'],
    ['a', '/private/blank', 'redirect'],
  ],
} as const;

/** Per kind: what it starts with beyond the common pages, handles, must let through and must skip (origin, path, stage). */
const KINDS = {
  playwright: BROWSER,
  puppeteer: BROWSER,
  jsdom: {
    start: ['/resources'],
    handled: ['/resources'],
    allowed: [
      ['a', '/ok/style.css'],
      ['a', '/ok/frame'],
    ],
    skips: [
      ['a', '/private/style.css', 'subresource'],
      ['a', '/private/frame', 'subresource'],
    ],
  },
} as const satisfies Record<
  Kind,
  {
    start: readonly string[];
    handled: readonly string[];
    allowed: readonly (readonly ['a' | 'b', string])[];
    skips: readonly (readonly ['a' | 'b', string, string])[];
  }
>;

/**
 * Registers the browser and JSDOM flavour for the releases HEED_COMPAT_RELEASES names; their
 * projects are planned in `installs`, which the caller starts once it has packed the packages.
 */
export function describeBrowserProjects(installs: ProjectInstalls): void {
  const releases = browserReleasesToTest();
  // Nothing starts (no site, no install) when no release is asked for.
  const v4Builds = v4ReleasesToTest().map((release) => ({ release, source: crawleeV4(true, release) }));
  const asked =
    releases.length > 0 ||
    v4Builds.length > 0 ||
    optIn('HEED_COMPAT_RELEASES', 'all', 'test/compat/browsers.ts, the browser and JSDOM projects', 'npm run test:compat');
  const runs = asked && has('chromium', 'test/compat/browsers.ts');
  describe.skipIf(!runs)('the browser and JSDOM crawlers', () => {
    let site: Site;
    let a: SiteOrigin;
    let b: SiteOrigin;
    /** Per page path: the probe URLs that count the allowed requests the page makes. */
    const probes: Record<string, string[]> = {};

    /** A test-only route that answers how often `path` of `origin` was requested; the crawl script polls it. */
    function probe(origin: SiteOrigin, path: string): string {
      const at = `/__count${path}`;
      origin.routes.set(at, () => text(String(origin.count(path))));
      return origin.url(at);
    }

    /** Paths the servers saw, robots.txt and probes left out. */
    const seen = (origin: SiteOrigin) => origin.paths().filter((p) => p !== '/robots.txt' && !p.startsWith('/__count'));
    const disallowedSeen = () => [...seen(a), ...seen(b)].filter((p) => p.startsWith('/private'));

    beforeAll(async () => {
      site = await startSite(2);
      [a, b] = site.origins as [SiteOrigin, SiteOrigin];
      const script = (code: string) => page('doors', [], '', `<script>${code}</script>`);
      for (const origin of [a, b]) {
        origin.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
        origin.routes.set('/popup-ok', page('popup', []));
        // Each disallowed URL exists: a request that slipped through would be answered, and seen.
        for (const path of [
          '/private/popup',
          '/private/start',
          '/private/linked',
          '/private/chain',
          '/private/rewritten',
          '/private/blank',
        ])
          origin.routes.set(path, page(path, []));
      }
      a.routes.set('/', page('home', ['/ok', '/private/linked']));
      a.routes.set('/ok', page('ok', []));
      a.routes.set('/chain', redirect('/ok2'));
      a.routes.set('/ok2', redirect('/private/chain'));
      a.routes.set('/rewrite-me', page('rewrite me', []));
      a.routes.set(
        '/open',
        script(
          `window.open('/private/popup'); window.open('${b.url('/private/popup')}'); window.open('/popup-ok'); window.open('${b.url('/popup-ok')}');`,
        ),
      );
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
      a.routes.set(
        '/resources',
        page(
          'resources',
          [],
          '<link rel="stylesheet" href="/private/style.css"><link rel="stylesheet" href="/ok/style.css">',
          '<iframe src="/private/frame"></iframe><iframe src="/ok/frame"></iframe>',
        ),
      );
      for (const path of ['/ok/style.css', '/private/style.css'])
        a.routes.set(path, { headers: { 'content-type': 'text/css' }, body: 'h1{}' });
      for (const path of ['/ok/frame', '/private/frame']) a.routes.set(path, page(path, []));
      probes['/open'] = [probe(a, '/popup-ok'), probe(b, '/popup-ok')];
      probes['/blank'] = [probe(a, '/blank-ok')];
      probes['/resources'] = [probe(a, '/ok/style.css'), probe(a, '/ok/frame')];
    }, SLOW);

    afterAll(async () => {
      await site?.close();
    });

    async function crawl(proj: Project, release: string, kind: Kind): Promise<CrawlResult> {
      for (const origin of [a, b]) origin.hits.length = 0;
      const input = {
        start: ['/', '/chain', '/rewrite-me', '/private/start', ...KINDS[kind].start].map((path) => a.url(path)),
        probes,
        chromium: { path: CHROMIUM, args: CHROMIUM_ARGS },
        withOnSkippedRequest: hasOnSkippedRequest(release),
      };
      const { stdout } = await sh(
        'node',
        ['crawl-kind.mjs', kind],
        proj.dir,
        { HEED_COMPAT: JSON.stringify(input), CRAWLEE_STORAGE_DIR: join(proj.dir, 'storage') },
        120_000,
      );
      const last = stdout.trim().split('\n').pop() ?? '';
      return JSON.parse(last) as CrawlResult;
    }

    /** What every release and kind must show: nothing disallowed reached a server, what is allowed did, every skip reported. */
    function expectProtected(result: CrawlResult, release: string, kind: Kind): void {
      const expected = KINDS[kind];
      const origins = { a, b };
      expect(disallowedSeen()).toEqual([]);
      expect(new Set(result.handled)).toEqual(new Set(['/', '/ok', ...expected.handled].map((path) => a.url(path))));
      expect(a.count('/ok2')).toBe(1);
      for (const [origin, path] of expected.allowed) expect(origins[origin].count(path), `${origin} ${path}`).toBeGreaterThan(0);
      const skipped = result.skips.map(([url, stage]) => [url, stage]);
      expect(skipped).toEqual(
        expect.arrayContaining(
          [
            ['a', '/private/start', 'enqueue'],
            ['a', '/private/linked', 'enqueue'],
            ['a', '/private/chain', 'redirect'],
            ['a', '/private/rewritten', 'before-fetch'],
            ...expected.skips,
          ].map(([origin, path, stage]) => [origins[origin as 'a' | 'b'].url(path as string), stage]),
        ),
      );
      expect(result.failed).toBe(0);
      if (hasOnSkippedRequest(release)) {
        // Crawlee's own onSkippedRequest hears of the skipped Crawlee requests, as robotsTxt skips.
        const crawleeSkipped = result.crawleeSkips.map((skip) => [skip.url, skip.reason]);
        expect(crawleeSkipped).toEqual(
          expect.arrayContaining(
            ['/private/start', '/private/linked', '/private/chain', '/private/rewritten'].map((path) => [a.url(path), 'robotsTxt']),
          ),
        );
      }
    }

    describe.each(releases)('a user project with the browser and JSDOM crawlers of Crawlee %s', (release) => {
      const install = installs.plan(release, { browsers: true }, { when: runs });
      let proj: Project;

      beforeAll(async () => {
        proj = await install();
      }, SLOW);

      it(
        'installs with plain npm install: no warnings about Heed or peers, one copy of @crawlee/core',
        async () => {
          expect(heedWarnings(proj.installLog)).toEqual([]);
          expect(await installedVersions(proj.dir, '@crawlee/core')).toEqual([release]);
        },
        SLOW,
      );

      it.each(Object.keys(KINDS) as Kind[])(
        '%s: no disallowed URL reaches a server; allowed pages, popups and resources do; every skip reported',
        async (kind) => expectProtected(await crawl(proj, release, kind), release, kind),
        SLOW,
      );
    });

    for (const { release, source } of v4Builds) {
      const name = 'skip' in source || source.version === release ? release : `${release} (${source.version})`;
      describe(`a user project with the browser and JSDOM crawlers of Crawlee ${name}`, () => {
        if ('skip' in source) {
          console.log(`compat: ${source.skip}`);
          it.skip(source.skip, () => {});
          return;
        }
        // What the packages call themselves: the release the crawls are checked against.
        const { version } = source;
        const install = installs.plan(release, { crawleeTarballs: source.tarballs, browsers: true }, { when: runs });
        let proj: Project;

        beforeAll(async () => {
          proj = await install();
        }, SLOW);

        it(
          "playwright: redirects, a rewrite, popups and target=_blank links checked inside the browser; pages under the bot's name",
          async () => {
            expect(heedWarnings(proj.installLog)).toEqual([]);
            const result = await crawl(proj, version, 'playwright');
            expectProtected(result, version, 'playwright');
            // identifyPages: the crawled pages went out under the plugin's userAgent.
            const pages = a.hits.filter((hit) => ['/', '/ok', '/open', '/blank'].includes(hit.path));
            expect(pages.length).toBeGreaterThan(0);
            expect(new Set(pages.map((hit) => hit.userAgent))).toEqual(new Set(['HeedBot/1.0 (+https://heed.example/bot)']));
          },
          SLOW,
        );

        it(
          'puppeteer: the same checks inside the browser',
          async () => expectProtected(await crawl(proj, version, 'puppeteer'), version, 'puppeteer'),
          SLOW,
        );

        it(
          'jsdom: a redirect and a rewrite checked; a disallowed stylesheet and iframe not loaded (blockSubresources)',
          async () => expectProtected(await crawl(proj, version, 'jsdom'), version, 'jsdom'),
          SLOW,
        );
      });
    }
  });
}
