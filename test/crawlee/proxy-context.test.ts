/**
 * The plugin's fetch context, unit by unit: the proxy session id per site, and the manager the
 * guard asks, which passes the context to each call that may fetch and forwards every other
 * method of the manager (an optional one the plugin feature-detects included) bound to it.
 */
import { describe, expect, it } from 'vitest';
import { RobotsManager, type FetchContext } from '@heed/manager';
import { crawlerFetchContext, proxySessionId, withFetchContext } from '../../packages/crawlee/src/taps/proxy.js';

describe('proxySessionId', () => {
  it('is one readable id per host and port, whatever the scheme', () => {
    expect(proxySessionId('https://example.com/a?b')).toBe('heed_example.com_443');
    expect(proxySessionId('http://example.com:443/x')).toBe('heed_example.com_443');
    expect(proxySessionId('http://127.0.0.1:8080/')).toBe('heed_127.0.0.1_8080');
    expect(proxySessionId('http://[::1]:8080/')).toMatch(/^heed_[\w.~]+$/);
  });

  it("stays within Crawlee's 50 characters of letters, digits, '.', '_' and '~' for a long host", () => {
    const id = proxySessionId(`https://${'a'.repeat(60)}.example.com/`);
    expect(id).toMatch(/^heed_[0-9a-f]{32}$/);
    expect(id).toBe(proxySessionId(`https://${'a'.repeat(60)}.example.com/other`));
  });
});

describe('crawlerFetchContext', () => {
  it('is undefined for a crawler without proxyConfiguration', () => {
    expect(crawlerFetchContext({}, 3)).toBeUndefined();
    expect(crawlerFetchContext({}, 4)).toBeUndefined();
  });

  it("asks the crawler's proxyConfiguration with the site's session id", async () => {
    const asked: unknown[] = [];
    const context = crawlerFetchContext(
      { proxyConfiguration: { newUrl: async (sessionId: unknown) => (asked.push(sessionId), 'http://proxy.example:8000') } },
      3,
    );
    const proxyUrl = context?.proxyUrl as (url: string) => Promise<string | undefined>;
    expect(await proxyUrl('https://example.com/robots.txt')).toBe('http://proxy.example:8000');
    expect(asked).toEqual(['heed_example.com_443']);
  });
});

describe('withFetchContext', () => {
  it('passes the one context object to every call that may fetch, and forwards the other methods bound', async () => {
    const fetch: FetchContext = { proxyUrl: 'http://proxy.example:8000' };
    const manager = new RobotsManager({ userAgent: 'HeedBot/1.0' });
    const seen: unknown[][] = [];
    for (const name of ['decide', 'crawlDelay', 'sitemaps', 'prefetch', 'usage'] as const) {
      (manager as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => void seen.push([name, ...args]);
    }
    const asked = withFetchContext(manager, fetch);
    await asked.decide('https://a.example/x', 'HeedBot');
    await asked.crawlDelay('https://a.example/x', 'HeedBot');
    await asked.sitemaps('https://a.example/x');
    await asked.prefetch(['https://a.example/x']);
    await asked.usage?.('https://a.example/x', { purposes: ['train-ai'] });
    expect(seen).toEqual([
      ['decide', 'https://a.example/x', 'HeedBot', fetch],
      ['crawlDelay', 'https://a.example/x', 'HeedBot', fetch],
      ['sitemaps', 'https://a.example/x', fetch],
      ['prefetch', ['https://a.example/x'], fetch],
      ['usage', 'https://a.example/x', { purposes: ['train-ai'], fetch }],
    ]);
    // A method the plugin does not wrap (stats(), or one a later manager adds) still works.
    const stats = (asked as unknown as { stats: () => { inFlight: number } }).stats();
    expect(stats.inFlight).toBe(0);
    await asked.close();
    await expect(manager.get('https://a.example/')).rejects.toThrow(/after close/i);
  });
});
