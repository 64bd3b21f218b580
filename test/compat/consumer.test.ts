/**
 * Heed in a user's own project: packed, installed with plain `npm install` into a fresh project
 * outside the workspace next to `@crawlee/cheerio` at one release, then used from ESM JavaScript,
 * CommonJS `require()` and strict NodeNext TypeScript (typechecked with tsc, then run). Each
 * flavour crawls a local three-origin site (links, cross-origin links, a redirect into a
 * disallowed path, a sitemap entry, a 503 robots.txt) and the servers must have seen no
 * disallowed request. The browser and JSDOM flavour (browsers.ts, registered here so it shares
 * this file's packing) does the same with PlaywrightCrawler, PuppeteerCrawler and JSDOMCrawler.
 *
 * What runs where: `npm test` runs the Cheerio flavour on the newest release and no browser
 * flavour. `pnpm test:compat` (HEED_COMPAT_RELEASES=all) runs the Cheerio flavour on every release
 * of `ALL_RELEASES` and the browser flavour on every release of `BROWSER_SETS` (3.13.0 and 3.18.1).
 * HEED_COMPAT_RELEASES=3.13.0,3.18.1 runs both flavours on the releases listed (the browser flavour
 * on those of them that `BROWSER_SETS` has).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { page, redirect, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';
import { describeBrowserProjects } from './browsers.js';
import {
  hasOnSkippedRequest,
  heedWarnings,
  installedVersions,
  packAll,
  PACKAGES,
  project,
  releasesToTest,
  sh,
  UNSUPPORTED_RELEASE,
  type Project,
} from './consumer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW = 600_000;

interface CrawlResult {
  handled: string[];
  skips: [string, string, string][];
  crawleeSkips: { url: string; reason: string }[];
  /** What the handler's sendRequest() of a disallowed URL ended as. */
  sent: string[];
  failed: number;
  flavour: string;
}

let site: Site;
let a: SiteOrigin;
let b: SiteOrigin;
let c: SiteOrigin;
let tarballs: Record<string, string>;

beforeAll(async () => {
  site = await startSite(3);
  [a, b, c] = site.origins as [SiteOrigin, SiteOrigin, SiteOrigin];
  a.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /private\n\nSitemap: ${a.url('/sitemap.txt')}\n`));
  a.routes.set(
    '/',
    page('A', ['/ok', '/private/linked', '/redirect-to-private', '/rewrite-me', b.url('/'), b.url('/blocked/cross'), c.url('/')]),
  );
  // A preNavigationHook of the fixtures rewrites it to /private/rewritten.
  a.routes.set('/rewrite-me', page('rewrite me', []));
  a.routes.set('/ok', page('ok', ['/private/from-ok']));
  a.routes.set('/redirect-to-private', redirect('/private/redirected'));
  a.routes.set('/sitemap.txt', text(`${a.url('/from-sitemap')}\n${a.url('/private/from-sitemap')}\n`));
  a.routes.set('/from-sitemap', page('from the sitemap', []));
  b.routes.set('/robots.txt', text('User-agent: *\nDisallow: /blocked\n'));
  b.routes.set('/', page('B', ['/blocked/linked', '/b-page']));
  b.routes.set('/b-page', page('B page', []));
  c.routes.set('/robots.txt', text('down for maintenance', 503));
  c.routes.set('/', page('C', []));
  tarballs = await packAll();
}, SLOW);

afterAll(async () => {
  await site?.close();
});

describe('the packages as published', () => {
  it.each(PACKAGES)(
    'pnpm publish --dry-run packages/%s',
    async (name) => {
      // Built and packed by packAll(); the dry run checks what would be published.
      const { stdout, stderr } = await sh(
        'pnpm',
        ['publish', '--dry-run', '--no-git-checks', '--ignore-scripts'],
        join(ROOT, 'packages', name),
      );
      const listing = `${stdout}\n${stderr}`;
      expect(listing).toMatch(/LICENSE/);
      // The command line has no library entry: its bin imports dist/heed.js.
      expect(listing).toMatch(name === 'cli' ? /bin\/heed\.js[\s\S]*dist\/heed\.js|dist\/heed\.js[\s\S]*bin\/heed\.js/ : /dist\/index\.js/);
      expect(listing).toMatch(/README\.md/);
    },
    SLOW,
  );
});

describe.each(releasesToTest())('a user project with @crawlee/cheerio@%s', (release) => {
  let proj: Project;

  beforeAll(async () => {
    proj = await project(release, tarballs);
  }, SLOW);

  function expectNothingDisallowed(): void {
    expect(a.paths().filter((p) => p.startsWith('/private'))).toEqual([]);
    expect(b.paths().filter((p) => p.startsWith('/blocked'))).toEqual([]);
    // Origin C's robots.txt answers 503: nothing but robots.txt is requested there.
    expect(c.paths().filter((p) => p !== '/robots.txt')).toEqual([]);
  }

  async function crawl(script: string): Promise<CrawlResult> {
    for (const origin of [a, b, c]) origin.hits.length = 0;
    const input = { start: [a.url('/'), a.url('/private/start')], withOnSkippedRequest: hasOnSkippedRequest(release) };
    const { stdout } = await sh(
      'node',
      [script],
      proj.dir,
      { HEED_COMPAT: JSON.stringify(input), CRAWLEE_STORAGE_DIR: join(proj.dir, 'storage') },
      120_000,
    );
    const last = stdout.trim().split('\n').pop() ?? '';
    return JSON.parse(last) as CrawlResult;
  }

  function expectProtected(result: CrawlResult): void {
    expectNothingDisallowed();
    expect(new Set(result.handled)).toEqual(new Set([a.url('/'), a.url('/ok'), a.url('/from-sitemap'), b.url('/'), b.url('/b-page')]));
    const skipped = result.skips.map(([url, stage]) => [url, stage]);
    expect(skipped).toEqual(
      expect.arrayContaining([
        [a.url('/private/start'), 'enqueue'],
        [a.url('/private/linked'), 'enqueue'],
        [b.url('/blocked/cross'), 'enqueue'],
        [c.url('/'), 'enqueue'],
        [a.url('/private/redirected'), 'redirect'],
        [a.url('/private/from-sitemap'), 'sitemap'],
        [a.url('/private/rewritten'), 'before-fetch'],
        [a.url('/private/api'), 'send-request'],
      ]),
    );
    expect(result.sent).toEqual(['RobotsDisallowedError']);
    expect(result.failed).toBe(0);
    if (hasOnSkippedRequest(release)) {
      // Crawlee's onSkippedRequest hears of every skip of a Crawlee request (a sendRequest() call is not one).
      const requestSkips = result.skips.filter(([, stage]) => stage !== 'send-request');
      expect(result.crawleeSkips.map((s) => s.reason)).toEqual(requestSkips.map(() => 'robotsTxt'));
    }
  }

  it(
    "installs with plain npm install: no warnings about Heed's packages, one copy of @crawlee/core",
    async () => {
      expect(heedWarnings(proj.installLog)).toEqual([]);
      expect(await installedVersions(proj.dir, '@crawlee/core')).toEqual([release]);
    },
    SLOW,
  );

  it(
    'ESM JavaScript: import, attach, crawl',
    async () => {
      const result = await crawl('crawl.mjs');
      expectProtected(result);
    },
    SLOW,
  );

  it(
    'CommonJS: require(), attach, crawl',
    async () => {
      const result = await crawl('crawl.cjs');
      expect(result.flavour).toBe('cjs');
      expectProtected(result);
    },
    SLOW,
  );

  it(
    'the heed command of the packed `heed` package runs in the project (npx heed), fetching as a crawler',
    async () => {
      for (const origin of [a, b, c]) origin.hits.length = 0;
      const { stdout } = await sh(
        'npx',
        ['--no-install', 'heed', 'check', a.url('/private/x'), '--user-agent', 'HeedBot/1.0', '--json'],
        proj.dir,
      ).catch((error: Error) => ({ stdout: /\{[\s\S]*\}/.exec(error.message)?.[0] ?? error.message, stderr: '' }));
      const report = JSON.parse(stdout) as { results: { allowed: boolean; line: number }[] };
      expect(report.results).toMatchObject([{ allowed: false, line: 2 }]);
      expect(a.paths()).toEqual(['/robots.txt']);
    },
    SLOW,
  );

  it(
    'TypeScript (NodeNext, strict): typechecks, ESM and CommonJS files, then crawls',
    async () => {
      await sh('npx', ['tsc', '-p', 'tsconfig.json'], proj.dir);
      const check = await sh('node', ['dist/check.cjs'], proj.dir);
      expect(JSON.parse(check.stdout.trim())).toEqual(['function', 'function', 'function', 'function']);
      const result = await crawl('dist/crawl.mjs');
      expect(result.flavour).toBe('ts');
      expectProtected(result);
    },
    SLOW,
  );
});

describe.runIf(process.env['HEED_COMPAT_RELEASES'] === 'all')(
  `a user project with @crawlee/cheerio@${UNSUPPORTED_RELEASE} (below the supported range)`,
  () => {
    it.each([
      ['plain npm install', false],
      ['npm install --legacy-peer-deps', true],
    ])(
      '%s: attach() throws naming the release found and the range supported; nothing is crawled',
      async (_how, legacy) => {
        const proj = await project(UNSUPPORTED_RELEASE, tarballs, { legacyPeerDeps: legacy });
        for (const origin of [a, b, c]) origin.hits.length = 0;
        const input = { start: [a.url('/')], withOnSkippedRequest: false };
        const failure = await sh('node', ['crawl.mjs'], proj.dir, { HEED_COMPAT: JSON.stringify(input) }, 120_000).then(
          () => 'ran',
          (error: Error) => error.message,
        );
        expect(failure).toContain('UnsupportedCrawleeVersionError');
        expect(failure).toContain(`found Crawlee ${UNSUPPORTED_RELEASE}`);
        expect(failure).toContain('>=3.13.0 <4.0.0 || >=4.0.0-rc.0 <5.0.0');
        expect(a.paths()).toEqual([]);
      },
      SLOW,
    );
  },
);

describeBrowserProjects(() => tarballs);
