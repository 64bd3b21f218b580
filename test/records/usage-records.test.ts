/**
 * Records of a crawl with `purposes`: a request that left carries each purpose's preference and
 * the evidence that decided it; a URL the preference refused is a `usage` skip with its evidence.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RobotsPlugin, type CrawlRecord } from '@heed/crawlee';
import { cheerioCrawler, followEveryLink } from '../crawlee/crawlers.js';
import { page, startSite, text } from '../crawlee/site.js';
import { run } from '../cli/run-heed.js';

describe('records with purposes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heed-usage-records-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('carry the usage preference of every request that left, and the evidence of every usage skip', async () => {
    const site = await startSite(1);
    try {
      const origin = site.origins[0]!;
      origin.routes.set(
        '/robots.txt',
        text(
          ['User-agent: *', 'Disallow: /private/', 'Content-Usage: /no-train/ train-ai=n', 'Content-Usage: /page train-ai=y'].join('\n'),
        ),
      );
      origin.routes.set('/', page('home', ['/page', '/no-train/page']));
      origin.routes.set('/page', page('page', []));
      origin.routes.set('/no-train/page', page('not for training', []));
      const file = join(dir, 'records.jsonl');
      const snapshots = join(dir, 'snapshots');
      const crawler = cheerioCrawler({ maxRequestRetries: 0, requestHandler: followEveryLink(() => {}) });
      await RobotsPlugin.attach(crawler, {
        userAgent: 'HeedBot/1.0',
        purposes: ['train-ai'],
        sitemaps: false,
        records: { file, snapshots },
      });
      await crawler.run([origin.url('/')]);
      const records = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as CrawlRecord);
      expect(origin.count('/no-train/page')).toBe(0);
      const left = records.find((r) => r.url === origin.url('/page') && r.allowed);
      expect(left?.purposes).toEqual(['train-ai']);
      expect(left?.usagePreferences).toEqual([
        { purpose: 'train-ai', preference: 'allow', evidence: expect.stringContaining('Content-Usage') },
      ]);
      const refused = records.find((r) => r.url === origin.url('/no-train/page'));
      expect(refused).toMatchObject({
        allowed: false,
        reason: 'usage',
        usage: { purpose: 'train-ai', evidence: expect.stringContaining('Content-Usage') },
      });
      expect((await run(['audit', file, '--snapshots', snapshots])).code).toBe(0);
    } finally {
      await site.close();
    }
  });
});
