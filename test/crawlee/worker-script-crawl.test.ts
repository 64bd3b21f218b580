/**
 * A Playwright worker's script as the site sends it, in a real crawl: Heed reads it to put the
 * socket script first, so the bytes it reads are bounded. A compressed script is read decoded and
 * still runs guarded; one longer than the bound once decoded (a small gzip body that expands to
 * 17 MiB, or a plain body whose length says so) is refused, the crawl warned once per script, and
 * the page goes on without that worker.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { playwrightCrawler } from './crawlers.js';
import { page, startSite, text, type Site, type SiteOrigin } from './site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const OVER = 17 * 2 ** 20;

/** A worker script that tells the site whether its `WebSocket` is Heed's, then `padding` bytes of comment. */
const workerScript = (name: string, padding: number) =>
  Buffer.concat([
    Buffer.from(`fetch('/report/${name}?guarded=' + (WebSocket[Symbol.for('heed.websocket')] === true));\n//`),
    Buffer.alloc(padding, 0x61),
  ]);

// Not from the browser's cache: each page asks for its workers' scripts.
const SCRIPT = { 'content-type': 'text/javascript', 'cache-control': 'no-store' };
const gzipped = (body: Buffer) => ({ headers: { ...SCRIPT, 'content-encoding': 'gzip' }, body: gzipSync(body) });

describe.skipIf(!has('chromium', 'test/crawlee/worker-script-crawl.test.ts'))(
  "PlaywrightCrawler: a worker's script, read within a bound",
  () => {
    let site: Site;
    let a: SiteOrigin;
    const warnings: string[] = [];

    beforeAll(async () => {
      site = await startSite(1);
      [a] = site.origins as [SiteOrigin];
      a.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
      const start = (name: string) => `const ${name} = new Worker('/${name}.js'); ${name}.onerror = () => fetch('/report/${name}?error');`;
      const workers = page('workers', [], '', `<script>${start('small')} ${start('bomb')} ${start('declared')}</script>`);
      a.routes.set('/workers', workers);
      a.routes.set('/workers-again', workers);
      a.routes.set('/small.js', gzipped(workerScript('small', 64 * 1024)));
      a.routes.set('/bomb.js', gzipped(workerScript('bomb', OVER)));
      a.routes.set('/declared.js', {
        headers: { ...SCRIPT, 'content-length': String(OVER + 100) },
        body: workerScript('declared', OVER + 100 - workerScript('declared', 0).length),
      });
      for (const path of ['/report/small?guarded=true', '/report/bomb?error', '/report/declared?error'])
        a.routes.set(path, text('ok', 200, { 'cache-control': 'no-store' }));

      const crawler = playwrightCrawler({
        maxRequestRetries: 0,
        maxConcurrency: 1,
        requestHandler: async () => {
          // Each page's three workers report while it is open.
          const reports = () => a.paths().filter((path) => path.startsWith('/report/')).length;
          const until = Math.ceil((reports() + 1) / 3) * 3;
          for (let i = 0; i < 200 && reports() < until; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        },
      });
      crawler.log.warning = (message: string) => void warnings.push(message);
      await RobotsPlugin.attach(crawler, { userAgent: UA, logSummary: false, sitemaps: false, blockSubresources: true });
      await crawler.run([a.url('/workers'), a.url('/workers-again')]);
    }, 120_000);

    afterAll(async () => {
      await site?.close();
    });

    it('a compressed script is read decoded and runs with the WebSocket check first', () => {
      expect(a.paths()).toContain('/report/small?guarded=true');
    });

    it('a script longer than the bound once decoded is refused, as is one whose length says so: the worker fails to start', () => {
      const reports = a.paths().filter((path) => path.startsWith('/report/'));
      expect(reports).toEqual(expect.arrayContaining(['/report/bomb?error', '/report/declared?error']));
      expect(reports.filter((path) => path.startsWith('/report/bomb?') || path.startsWith('/report/declared?'))).not.toContain(
        expect.stringContaining('guarded'),
      );
    });

    it('warns once per refused script, naming it and the bound', () => {
      // Both pages started all three workers.
      expect(a.paths().filter((path) => path.startsWith('/report/'))).toHaveLength(6);
      const refused = warnings.filter((line) => line.includes('Refused the worker script'));
      expect(refused).toHaveLength(2);
      expect(refused.join('\n')).toContain(a.url('/bomb.js'));
      expect(refused.join('\n')).toContain(a.url('/declared.js'));
      expect(refused[0]).toContain('16 MiB');
    });
  },
);
