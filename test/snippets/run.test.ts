/**
 * Every code block of the READMEs and references that loads what it uses, run as a user would
 * run it: the block as written, compiled from TypeScript, as a program of its own in a fresh
 * folder, importing the built packages. What the blocks crawl (`https://example.com`,
 * `https://crawlee.dev`) is a loopback site that records every request; Redis is a real
 * `redis-server`; a block that reads `keys/private-key.jwk` finds the key `heed keys generate`
 * wrote, as its comment says. A block passes when it ends by itself with status 0 and the site saw
 * no request its robots.txt disallows.
 *
 * `npm run typecheck` checks the same blocks' types (scripts/snippets.mjs).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlocks, type DocBlock } from '../../scripts/snippets.mjs';
import { page, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';
import { startRedis, type RedisServer } from '../manager/redis-helpers.js';
import { CHROMIUM } from '../support/chromium.js';
import { has } from '../support/requirements.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'test/snippets/run.test.ts';
/** A block's program is written where Node finds the packages it imports, and removed afterwards. */
const HOMES = {
  packages: join(ROOT, 'packages/crawlee/.snippets'),
  demoSite: join(ROOT, 'examples/demo-crawl/.snippets'),
} as const;
/** Longest a block may run: a crawl of a few loopback pages takes seconds; a block that never ends fails. */
const BLOCK_TIMEOUT_MS = 90_000;

const blocks = docBlocks();
const needs = (block: DocBlock) => ({
  redis: /RedisStore|REDIS_URL/.test(block.body),
  chromium: /@crawlee\/(playwright|puppeteer)/.test(block.body),
  keys: /keys\/private-key\.jwk/.test(block.body),
});
const redisAvailable = has('redis-server', `${FILE}, the blocks with a RedisStore`);
const chromiumAvailable = has('chromium', `${FILE}, the blocks with a browser crawler`);

let site: Site;
let example: SiteOrigin;
let docsSite: SiteOrigin;
let redis: RedisServer | undefined;

beforeAll(async () => {
  site = await startSite(2);
  [example, docsSite] = site.origins as [SiteOrigin, SiteOrigin];
  example.routes.set('/robots.txt', text(`User-agent: *\nDisallow: /private\nSitemap: ${example.url('/sitemap.xml')}\n`));
  example.routes.set('/', page('home', ['/a', '/private/x']));
  example.routes.set('/a', page('a', ['/']));
  example.routes.set('/b', page('b', []));
  example.routes.set('/private/x', page('private', []));
  example.routes.set('/private/y', page('private', []));
  const xml = (body: string) => ({ body, headers: { 'content-type': 'application/xml' } });
  example.routes.set(
    '/sitemap.xml',
    xml(`<urlset><url><loc>${example.url('/b')}</loc></url><url><loc>${example.url('/private/y')}</loc></url></urlset>`),
  );
  example.routes.set(
    '/sitemap_index.xml',
    xml(`<sitemapindex><sitemap><loc>${example.url('/sitemap.xml')}</loc></sitemap></sitemapindex>`),
  );
  docsSite.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
  docsSite.routes.set('/docs', page('docs', []));
  if (redisAvailable && blocks.some((block) => needs(block).redis)) redis = await startRedis();
  for (const home of Object.values(HOMES)) mkdirSync(home, { recursive: true });
}, 60_000);

afterAll(async () => {
  for (const home of Object.values(HOMES)) rmSync(home, { recursive: true, force: true });
  await redis?.stop();
  await site?.close();
});

/** The block's code with the sites it names pointed at the loopback site. */
function pointedAtSite(code: string): string {
  return code.replaceAll('https://example.com', example.origin).replaceAll('https://crawlee.dev', docsSite.origin);
}

describe('the code blocks of the READMEs and references, run as written', () => {
  it('finds the blocks', () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it.each(blocks.map((block) => [`${block.doc}:${block.line}`, block] as const))(
    '%s',
    async (_where, block) => {
      const need = needs(block);
      if ((need.redis && !redisAvailable) || (need.chromium && !chromiumAvailable)) return;
      const { code } =
        block.module === 'esm'
          ? await transform(pointedAtSite(block.body), { loader: 'ts', format: 'esm', target: 'node20' })
          : { code: pointedAtSite(block.body) };
      const home = /@heed\/demo-site/.test(block.body) ? HOMES.demoSite : HOMES.packages;
      const program = join(home, `${block.name}.${block.module === 'esm' ? 'mjs' : 'cjs'}`);
      writeFileSync(program, code);
      // A folder of its own: a block's storage, keys and files are its own.
      const cwd = mkdtempSync(join(tmpdir(), 'heed-snippet-'));
      try {
        if (need.keys) {
          await run(process.execPath, [join(ROOT, 'packages/cli/dist/heed.js'), 'keys', 'generate', '--out', 'keys/'], { cwd });
        }
        for (const origin of site.origins) origin.hits.length = 0;
        const env = {
          ...process.env,
          CRAWLEE_STORAGE_DIR: join(cwd, 'storage'),
          CRAWLEE_DEFAULT_BROWSER_PATH: CHROMIUM,
          ...(redis ? { REDIS_URL: redis.url } : {}),
        };
        const outcome = await run(process.execPath, [program], { cwd, env, timeout: BLOCK_TIMEOUT_MS }).then(
          () => ({ ok: true, output: 'ended with status 0' }),
          (error: Error & { stdout?: string; stderr?: string; killed?: boolean }) => ({
            ok: false,
            output: `${error.killed ? `still running after ${BLOCK_TIMEOUT_MS / 1000} s\n` : ''}${error.stdout ?? ''}${error.stderr ?? error.message}`,
          }),
        );
        expect(outcome.ok, `${block.doc}, line ${block.line}:\n${outcome.output.slice(-3000)}`).toBe(true);
        const seen = site.origins.flatMap((origin) => origin.paths());
        expect(seen.filter((path) => path.startsWith('/private'))).toEqual([]);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
    BLOCK_TIMEOUT_MS + 30_000,
  );
});
