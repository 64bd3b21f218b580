/**
 * `purposes` with a PlaywrightCrawler: the response's headers (`headers()` of the browser's
 * response) and the live DOM's meta tags keep a page that disallows a declared purpose from the
 * handler, as with Cheerio; robots.txt Content-Usage keeps a URL unrequested.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkipEvent } from '@heed/crawlee';
import { has } from '../support/requirements.js';
import { followEveryLink, playwrightCrawler, runWithOwnManager } from './crawlers.js';
import { page, startSite, type Site, type SiteOrigin } from './site.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';

describe.skipIf(!has('chromium', 'test/crawlee/usage-browser.test.ts'))("PlaywrightCrawler with purposes: ['ai-input']", () => {
  let site: Site;
  let a: SiteOrigin;
  const handled: string[] = [];
  const skips: SkipEvent[] = [];

  beforeAll(async () => {
    site = await startSite(1);
    a = site.origins[0] as SiteOrigin;
    a.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nAllow: /\nContent-Signal: ai-input=yes\n',
    });
    a.routes.set('/', page('home', ['/header-cs', '/meta-tdm', '/fine']));
    a.routes.set('/header-cs', { headers: { 'content-signal': 'ai-input=no' }, body: page('cs', []).body });
    a.routes.set('/meta-tdm', page('tdm', [], '<meta name="tdm-reservation" content="1">'));
    a.routes.set('/fine', page('fine', []));
    const crawler = playwrightCrawler({
      maxConcurrency: 2,
      maxRequestRetries: 0,
      requestHandler: followEveryLink((url) => void handled.push(url)),
    });
    const onSkip = (e: SkipEvent) => void skips.push(e);
    await runWithOwnManager(crawler, { userAgent: HEEDBOT, logSummary: false, purposes: ['ai-input'], onSkip }, [a.url('/')]);
  }, 120_000);

  afterAll(async () => {
    await site?.close();
  });

  it('keeps pages whose headers or meta tags say no from the handler, each skip explained', () => {
    expect(new Set(handled)).toEqual(new Set([a.url('/'), a.url('/fine')]));
    expect(skips.find((s) => s.url === a.url('/header-cs'))).toMatchObject({
      reason: 'usage',
      stage: 'response',
      usage: { evidence: { signal: 'content-signal', source: 'header' } },
    });
    expect(skips.find((s) => s.url === a.url('/meta-tdm'))).toMatchObject({
      reason: 'usage',
      stage: 'response',
      usage: { evidence: { signal: 'tdm-reservation', source: 'meta' } },
    });
    // The page-level no wins over robots.txt's ai-input=yes.
    expect(skips.find((s) => s.url === a.url('/header-cs'))?.message).toContain('the Content-Signal response header "ai-input=no"');
    expect(a.count('/.well-known/tdmrep.json')).toBe(1);
  });
});
