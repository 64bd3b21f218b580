/**
 * The demo crawl's command line and the summary lines a user reads when something is off: the
 * User-Agent they asked for, why robots.txt could not be fetched (DNS, refused, timeout, ...), and
 * what a crawl stopped at --max found in the sitemaps.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchProblemText, formatSummary, runDemoCrawl, type DemoCrawlSummary } from '../../examples/demo-crawl/src/index.js';
import { startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

const MAIN = fileURLToPath(new URL('../../examples/demo-crawl/dist/main.js', import.meta.url));
const run = promisify(execFile);

/** Runs the built demo CLI; resolves to its exit code and output, whatever the code. */
async function demo(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A loopback port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('npm start -- <site> --user-agent "<header>"', () => {
  let site: DemoSite;
  beforeAll(async () => {
    site = await startDemoSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('crawls as the User-Agent given: robots.txt and pages are fetched with it, and the summary names it', async () => {
    const agent = 'CliTestBot/2.0 (+https://example.org/bot)';
    const result = await demo(['--user-agent', agent, '--max', '3', '--', site.url('shop', '/')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`as "${agent}"`);
    const shop = site.requests.filter((request) => request.origin === 'shop');
    expect(shop.map((request) => request.path)).toContain('/robots.txt');
    expect(new Set(shop.map((request) => request.userAgent))).toEqual(new Set([agent]));
  });

  it('refuses a User-Agent no robots.txt group could name, with the reason and exit code 2', async () => {
    const result = await demo(['--user-agent', '(no token)', '--', site.url('shop', '/')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--user-agent: ');
    expect(result.stderr).toContain('does not start with a product token');
    expect(result.stdout).toBe('');
  });

  it('asks for a value when --user-agent has none', async () => {
    const result = await demo(['--user-agent']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--user-agent needs the User-Agent header');
  });
});

describe('why robots.txt could not be fetched, in the summary', () => {
  it('a name that does not resolve reads "could not resolve host …"', async () => {
    const printed: string[] = [];
    const summary = await runDemoCrawl({ startUrls: ['http://heed-demo.invalid/'], print: (line) => printed.push(line) });
    expect(summary.robots).toMatchObject([{ origin: 'http://heed-demo.invalid', recordStatus: 'unreachable', problem: 'dns' }]);
    expect(summary.skipped).toMatchObject([{ reason: 'unreachable', robotsProblem: 'dns' }]);
    const text = printed.join('\n');
    expect(text).toContain('skipped  http://heed-demo.invalid/  unreachable: could not resolve host heed-demo.invalid');
    expect(text).toContain('http://heed-demo.invalid  could not resolve host heed-demo.invalid: unreachable');
    expect(text).not.toContain('answered nothing');
  });

  it('a port nothing listens on reads "connection refused …"', async () => {
    const port = await freePort();
    const printed: string[] = [];
    const summary = await runDemoCrawl({ startUrls: [`http://127.0.0.1:${port}/`], print: (line) => printed.push(line) });
    expect(summary.robots).toMatchObject([{ recordStatus: 'unreachable', problem: 'refused' }]);
    const text = printed.join('\n');
    expect(text).toContain(`unreachable: connection refused by 127.0.0.1:${port}`);
    expect(text).toContain(`http://127.0.0.1:${port}  connection refused by 127.0.0.1:${port}: unreachable`);
    expect(text).not.toContain('answered nothing');
  });

  it('every fetch problem the manager reports has words of its own', () => {
    const codes = ['dns', 'refused', 'connect-timeout', 'timeout', 'reset', 'truncated', 'decode', 'tls', 'proxy', 'network'];
    const texts = codes.map((code) => fetchProblemText('https://example.org', code));
    expect(new Set(texts).size).toBe(codes.length);
    expect(fetchProblemText('https://example.org', 'timeout')).toBe('robots.txt of example.org timed out');
    expect(fetchProblemText('https://example.org', 'connect-timeout')).toBe('no connection to example.org before the connect timeout');
    for (const text of texts) expect(text).toContain('example.org');
  });
});

describe('a crawl stopped at --max', () => {
  let site: DemoSite;
  let summary: DemoCrawlSummary;
  const printed: string[] = [];
  beforeAll(async () => {
    site = await startDemoSite();
    summary = await runDemoCrawl({ site, maxRequestsPerCrawl: 3, print: (line) => printed.push(line) });
  });
  afterAll(async () => {
    await site.close();
  });

  it('says it stopped at its limit, and counts sitemap URLs as they are read, not as they reach the queue', () => {
    expect(summary.stoppedAtMax).toBe(true);
    expect(summary.pages.length).toBe(3);
    const { urlsFound, urlsEnqueued, urlsSkipped } = summary.sitemaps;
    expect(urlsFound).toBeGreaterThanOrEqual(urlsEnqueued + urlsSkipped);
    expect(urlsFound).toBeLessThanOrEqual(site.expected.sitemapUrls.length);
    const text = printed.join('\n');
    expect(text).toContain('Pages crawled: 3 (the crawl stopped at its limit, --max 3)');
    expect(text).toMatch(/Sitemaps: \d+ files? read, \d+ URLs? found.* before the crawl stopped at its limit \(--max 3\)/);
  });

  it('prints URLs read but not yet enqueued as such, not as 0 found', () => {
    const stopped: DemoCrawlSummary = {
      ...summary,
      stoppedAtMax: true,
      maxRequestsPerCrawl: 2,
      sitemaps: { filesRead: 2, urlsFound: 9, urlsEnqueued: 4, urlsSkipped: 1 },
    };
    expect(formatSummary(stopped, (url) => url)).toContain(
      '  Sitemaps: 2 files read, 9 URLs found: 4 enqueued, 1 kept out by robots.txt, 4 not enqueued before the crawl stopped at its limit (--max 2)',
    );
    const finished: DemoCrawlSummary = {
      ...stopped,
      stoppedAtMax: false,
      sitemaps: { filesRead: 4, urlsFound: 11, urlsEnqueued: 9, urlsSkipped: 2 },
    };
    expect(formatSummary(finished, (url) => url)).toContain(
      '  Sitemaps: 4 files read, 11 URLs found: 9 enqueued, 2 kept out by robots.txt',
    );
  });
});
