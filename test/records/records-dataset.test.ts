/**
 * Crawl records pushed to a Dataset of the crawler's own storage (`records.dataset`): a real
 * CheerioCrawler whose storage is persisted to a folder writes the same records to the dataset as
 * to the records file, before `run()` returns; `heed audit` reads the dataset's folder and finds it
 * clean; a dataset that cannot be written is said in the log, with the records lost, and the crawl
 * goes on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsPlugin, type CrawlRecord } from '@heed/crawlee';
import { RecordsDataset } from '../../packages/crawlee/src/records/records-dataset.js';
import { run as heed } from '../cli/run-heed.js';
import { crawleeCheerio, crawleeCore, page, startSite, text, type Site } from '../crawlee/site.js';

const UA = 'HeedBot/1.0 (+https://heed.example/bot)';

describe('records.dataset on a CheerioCrawler crawl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heed-records-dataset-'));
  const storage = join(dir, 'storage');
  const file = join(dir, 'crawl-records.jsonl');
  const snapshots = join(dir, 'robots-snapshots');
  let site: Site;
  let items: CrawlRecord[];

  beforeAll(async () => {
    site = await startSite(1);
    const origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    origin.routes.set('/', page('home', ['/a', '/b', '/private/x']));
    origin.routes.set('/a', page('a', ['/private/y']));
    origin.routes.set('/b', page('b', []));
    const config = new crawleeCore.Configuration({
      persistStorage: true,
      purgeOnStart: true,
      storageClientOptions: { localDataDirectory: storage },
    });
    const crawler = new crawleeCheerio.CheerioCrawler(
      { maxRequestRetries: 0, requestHandler: async ({ enqueueLinks }) => void (await enqueueLinks({ strategy: 'all' })) },
      config,
    );
    // A small buffer: the records go out in several pushes during the crawl, and the last at its end.
    await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      sitemaps: false,
      logSummary: false,
      records: { file, snapshots, dataset: 'crawl-records', maxBufferBytes: 1_024 },
    });
    await crawler.run([origin.url('/')]);
    items = (await (await crawler.getDataset('crawl-records')).getData()).items as unknown as CrawlRecord[];
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every record the file holds, in the same order, once run() has returned', () => {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as CrawlRecord);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(items.map((record) => [record.url, record.allowed])).toEqual(lines.map((record) => [record.url, record.allowed]));
    expect(items.filter((record) => !record.allowed).map((record) => new URL(record.url).pathname)).toEqual(
      expect.arrayContaining(['/private/x', '/private/y']),
    );
  });

  it('heed audit reads the local dataset folder and finds it clean', async () => {
    const audit = await heed(['audit', join(storage, 'datasets', 'crawl-records'), '--snapshots', snapshots]);
    expect(audit.stdout, audit.stderr).toContain('Clean');
    expect(audit.stdout).toContain(`${items.length} records`);
    expect(audit.code).toBe(0);
  });
});

describe('the dataset sink', () => {
  it('pushes in batches as the buffer fills, and a flush waits for every push before it', async () => {
    const pushed: object[][] = [];
    const sink = new RecordsDataset(
      async () => ({ pushData: async (batch) => void pushed.push(batch) }),
      { maxBufferBytes: 100, flushMs: 60_000 },
      () => {},
    );
    for (let i = 0; i < 5; i++) sink.write({ i }, 40);
    await sink.flush();
    expect(pushed.map((batch) => batch.length)).toEqual([3, 2]);
    expect(sink.pushed).toBe(5);
  });

  it('says how many records a failed push lost, once per push, and tries the dataset again at the next', async () => {
    const warnings: string[] = [];
    let opens = 0;
    const sink = new RecordsDataset(
      async () => {
        opens++;
        if (opens === 1) throw new Error('storage is read-only');
        return { pushData: async () => {} };
      },
      { maxBufferBytes: 1_000, flushMs: 60_000 },
      (message) => warnings.push(message),
    );
    sink.write({ a: 1 }, 10);
    sink.write({ a: 2 }, 10);
    await sink.flush();
    sink.write({ a: 3 }, 10);
    await sink.close();
    expect(warnings).toEqual([
      expect.stringMatching(/2 crawl records could not be pushed to the records dataset \(storage is read-only\)/),
    ]);
    expect(sink.pushed).toBe(1);
  });
});
