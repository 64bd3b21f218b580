/**
 * Repeated response header lines, each read as its own statement by a real CheerioCrawler: Node
 * joins repeated lines with ", ", which made `X-Robots-Tag: otherbot: noindex` followed by
 * `X-Robots-Tag: noai` (or `nofollow`) read as otherbot's, and two `tdm-reservation: 1` lines "1, 1".
 * The server sends each value of an array as its own header line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageCategory } from '@heed/parser';
import type { SkipEvent } from '@heed/crawlee';
import { cheerioCrawler, followEveryLink, runWithOwnManager } from './crawlers.js';
import { page, startSite, type Site, type SiteOrigin } from './site.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';

let site: Site;
let o: SiteOrigin;

/** Pages whose repeated header lines disallow train-ai, by the signal that says so. */
const USAGE_NO: Record<string, { headers: Record<string, string[]>; signal: string }> = {
  '/xrt-noai': { headers: { 'x-robots-tag': ['otherbot: noindex', 'noai'] }, signal: 'noai' },
  '/tdm-twice': { headers: { 'tdm-reservation': ['1', '1'] }, signal: 'tdm-reservation' },
  '/cu-lines': { headers: { 'content-usage': ['train-ai=n', 'search=y;'] }, signal: 'content-usage' },
  '/cs-lines': { headers: { 'content-signal': ['ai-train=no', 'search=yes;'] }, signal: 'content-signal' },
};

beforeAll(async () => {
  site = await startSite(1);
  o = site.origins[0]!;
  o.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  o.routes.set('/', page('home', ['/xrt-nofollow', '/otherbot-only', ...Object.keys(USAGE_NO)]));
  o.routes.set('/xrt-nofollow', {
    headers: { 'x-robots-tag': ['otherbot: noindex', 'nofollow'] },
    body: page('nofollow', ['/behind-nofollow']).body,
  });
  // Both lines for otherbot: nothing for HeedBot; its links are followed.
  o.routes.set('/otherbot-only', {
    headers: { 'x-robots-tag': ['otherbot: noindex', 'otherbot: nofollow, noai'] },
    body: page('otherbot-only', ['/behind-otherbot']).body,
  });
  for (const [path, { headers }] of Object.entries(USAGE_NO)) o.routes.set(path, { headers, body: page(path, []).body });
  // The name as many servers write it: read without regard to case, with or without purposes.
  o.routes.set('/xrt-capitals', { headers: { 'X-Robots-Tag': ['nofollow'] }, body: page('capitals', ['/behind-capitals']).body });
  o.routes.set('/capitals-home', page('capitals-home', ['/xrt-capitals']));
  for (const path of ['/behind-nofollow', '/behind-otherbot', '/behind-capitals']) o.routes.set(path, page(path, []));
});

afterAll(async () => {
  await site?.close();
});

/** Crawls the site from `startPath` with a CheerioCrawler and the plugin (`purposes` as given): the pages handled and the skips. */
async function crawl(startPath: string, purposes?: UsageCategory[]): Promise<{ handled: string[]; skips: SkipEvent[] }> {
  const handled: string[] = [];
  const skips: SkipEvent[] = [];
  const crawler = cheerioCrawler({
    maxConcurrency: 4,
    maxRequestRetries: 0,
    requestHandler: followEveryLink((url) => void handled.push(url)),
  });
  const onSkip = (event: SkipEvent) => void skips.push(event);
  await runWithOwnManager(crawler, { userAgent: HEEDBOT, logSummary: false, ...(purposes ? { purposes } : {}), onSkip }, [
    o.url(startPath),
  ]);
  return { handled, skips };
}

describe('repeated header lines, each its own statement (CheerioCrawler)', () => {
  let handled: string[];
  let skips: SkipEvent[];

  beforeAll(async () => {
    ({ handled, skips } = await crawl('/', ['train-ai']));
  });

  it('X-Robots-Tag: otherbot: noindex, then a line nofollow: the nofollow is for every crawler, links not followed', () => {
    expect(handled).toContain(o.url('/xrt-nofollow'));
    expect(o.count('/behind-nofollow')).toBe(0);
    expect(skips.find((s) => s.url === o.url('/behind-nofollow'))).toMatchObject({ reason: 'nofollow' });
  });

  it('lines that all name another bot change nothing for this one', () => {
    expect(handled).toContain(o.url('/otherbot-only'));
    expect(handled).toContain(o.url('/behind-otherbot'));
  });

  it.each(Object.entries(USAGE_NO))('%s: the page is not handed to the handler (train-ai disallowed)', (path, { signal }) => {
    expect(handled).not.toContain(o.url(path));
    expect(skips.find((s) => s.url === o.url(path))).toMatchObject({
      reason: 'usage',
      stage: 'response',
      usage: { purpose: 'train-ai', evidence: { signal } },
    });
  });
});

describe('X-Robots-Tag written with capitals (CheerioCrawler, no purposes)', () => {
  it('is read: the page says nofollow, its links are not followed', async () => {
    const { handled, skips } = await crawl('/capitals-home');
    expect(handled).toContain(o.url('/xrt-capitals'));
    expect(o.count('/behind-capitals')).toBe(0);
    expect(skips.find((s) => s.url === o.url('/behind-capitals'))).toMatchObject({ reason: 'nofollow' });
  });
});
