/**
 * Records survive the end of a crawl by signal: a child process crawling a slow site with records
 * held in a buffer no timer or size flushes during the test, killed mid-crawl; then its records
 * file is read. Every request the site saw, up to the last one that left, has its record.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { page, startSite, text, type Site } from '../crawlee/site.js';
import { run } from '../cli/run-heed.js';

const CRAWLER = fileURLToPath(new URL('./records-crawler.mjs', import.meta.url));
const PAGES = 200;

describe('records when the crawl is ended by a signal', () => {
  let site: Site | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function crawlUntilKilled(signal: 'SIGINT' | 'SIGTERM') {
    site = await startSite(1);
    const origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text('User-agent: *\nDisallow: /private\n'));
    // A chain of pages, each slow enough that the crawl is mid-way when the signal comes.
    for (let i = 0; i < PAGES; i++) {
      const body = page(`p${i}`, [`/p${i + 1}`, `/private/p${i}`]);
      origin.routes.set(i === 0 ? '/' : `/p${i}`, () => new Promise((resolve) => setTimeout(() => resolve(body), 20)));
    }
    dir = mkdtempSync(join(tmpdir(), 'heed-records-signal-'));
    const file = join(dir, 'records.jsonl');
    const snapshots = join(dir, 'snapshots');
    const child = spawn(process.execPath, [CRAWLER, JSON.stringify({ startUrl: origin.url('/'), file, snapshots })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let handled = 0;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, sig) => resolve({ code, signal: sig })),
    );
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        handled += chunk
          .toString()
          .split('\n')
          .filter((l) => l.includes('handled')).length;
        if (handled >= 5) resolve();
      });
      void exited.then(() => resolve());
    });
    child.kill(signal);
    const end = await exited;
    const seen = origin.hits.filter((h) => h.path !== '/robots.txt').map((h) => origin.url(h.path));
    const records = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { url: string; allowed: boolean });
    return { end, seen, records, stderr, file, snapshots };
  }

  it('SIGTERM: flushed in the signal listener, then the process ends by the signal as it would have', async () => {
    const { end, seen, records, stderr, file, snapshots } = await crawlUntilKilled('SIGTERM');
    expect(stderr).toBe('');
    expect(end.signal).toBe('SIGTERM');
    // Mid-crawl, not after it.
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.length).toBeLessThan(PAGES);
    const left = new Set(records.filter((r) => r.allowed).map((r) => r.url));
    expect(seen.filter((url) => !left.has(url))).toEqual([]);
    expect(records.some((r) => !r.allowed)).toBe(true);
    expect((await run(['audit', file, '--snapshots', snapshots])).code).toBe(0);
  });

  it("SIGINT: flushed, and Crawlee's own SIGINT pause still ends the run", async () => {
    const { seen, records, end } = await crawlUntilKilled('SIGINT');
    expect(end.code === 0 || end.signal === 'SIGINT').toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.length).toBeLessThan(PAGES);
    const left = new Set(records.filter((r) => r.allowed).map((r) => r.url));
    expect(seen.filter((url) => !left.has(url))).toEqual([]);
  });
});
