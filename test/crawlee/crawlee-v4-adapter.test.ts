/**
 * The parts of the Crawlee 4 adapter that do not need Crawlee 4 installed: which adapter a crawler
 * gets, how crawl-delays are shared with a `ThrottlingRequestManager`, how skips reach Crawlee's
 * `onSkippedRequest`, `sendRequest()`'s user-agent and the proxy of Heed's own fetches. The
 * adapter's crawls on Crawlee 4.0.0-rc.0 and on Crawlee's master after it (`4-next`) are in
 * test/compat/consumer.test.ts (`pnpm test:compat`), which installs the 4.x packages beside the
 * packed Heed.
 */
import { describe, expect, it } from 'vitest';
import { majorOf, type ContextInternals } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { identifySendRequest } from '../../packages/crawlee/src/taps/identify.js';
import { crawlerFetchContext } from '../../packages/crawlee/src/taps/proxy.js';
import { crawleeSkipNotifierV4, domainThrottling, isCrawlerV4, type CrawlerV4 } from '../../packages/crawlee/src/taps/v4/internals.js';
import { ThrottledCrawlDelays } from '../../packages/crawlee/src/politeness/throttled-scheduler.js';
import { crawleeCheerio, freshConfig } from './site.js';

/** A `ThrottlingRequestManager`'s pacing as Crawlee detects it: it takes the delays of `domains`. */
function throttling(domains: string[]) {
  const handed: [string, number][] = [];
  return {
    handed,
    setCrawlDelay(url: string, seconds: number): boolean {
      if (!domains.includes(new URL(url).hostname)) return false;
      handed.push([url, seconds]);
      return true;
    },
    recordDomainDelay: () => true,
    assertNoStalledDomains: async () => {},
  };
}

describe('which adapter a crawler gets', () => {
  it('a Crawlee 3 crawler is not taken for a Crawlee 4 one; releases are read by major', () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    expect(isCrawlerV4(crawler)).toBe(false);
    expect(isCrawlerV4({ getRequestManager: async () => ({}), addRequests: async () => {}, run: async () => {} })).toBe(true);
    expect([majorOf('3.18.1'), majorOf('4.0.0-rc.0'), majorOf(undefined), majorOf('next')]).toEqual([3, 4, undefined, undefined]);
  });

  it('a request manager is taken for a ThrottlingRequestManager by its shape, as Crawlee does', () => {
    expect(domainThrottling(throttling([]))).toBeDefined();
    expect(domainThrottling({ setCrawlDelay: () => true })).toBeUndefined();
  });
});

describe('crawl-delay with a ThrottlingRequestManager', () => {
  const origin = 'http://paced.example';

  it('a delay the manager takes is its to enforce: handed once, capped by maxCrawlDelaySecs, Heed holds nothing back', () => {
    const manager = throttling(['paced.example']);
    const delays = new ThrottledCrawlDelays(5, manager);
    delays.setDelay(origin, 30, 0);
    expect(manager.handed).toEqual([[origin, 5]]);
    expect(delays.knows(origin)).toBe(true);
    expect(delays.acquire(origin, 'r1', 0)).toBe(0);
    expect(delays.acquire(origin, 'r2', 1)).toBe(0);
  });

  it('a delay the manager declines (a domain it does not throttle) Heed enforces itself', () => {
    const manager = throttling([]);
    const delays = new ThrottledCrawlDelays(5, manager);
    delays.setDelay(origin, 2, 0);
    expect(manager.handed).toEqual([]);
    expect(delays.acquire(origin, 'r1', 0)).toBe(0);
    expect(delays.acquire(origin, 'r2', 1)).toBeGreaterThanOrEqual(1_000);
  });

  it('no delay: nothing is handed', () => {
    const manager = throttling(['paced.example']);
    const delays = new ThrottledCrawlDelays(5, manager);
    delays.setDelay(origin, undefined, 0);
    delays.setDelay('http://other.example', 0, 0);
    expect(manager.handed).toEqual([]);
  });
});

/** A Crawlee 4 crawler as far as the skip path needs it: `addRequests` runs the call's transform as 4.x does. */
function crawlerV4(withProtectedSkipPath: boolean) {
  const told: { url: string; reason: string }[] = [];
  const added: string[] = [];
  const crawler = {
    log: { info() {}, warning() {}, error() {}, debug() {} },
    getRequestManager: async () => ({}),
    run: async () => {},
    // As BasicCrawler.addRequests (master 69a824b): a transform answering 'skip' reports the request options' skippedReason.
    async addRequests(requests: string[], options: { transformRequestFunction?: (o: Record<string, unknown>) => unknown } = {}) {
      for (const url of requests) {
        const requestOptions: Record<string, unknown> = { url };
        const transformed = options.transformRequestFunction?.(requestOptions) ?? requestOptions;
        if (transformed === 'skip' || !transformed) told.push({ url, reason: String(requestOptions['skippedReason'] ?? 'transform') });
        else added.push(url);
      }
    },
    ...(withProtectedSkipPath
      ? {
          handleSkippedRequest: async (options: { url: string; reason: string }) =>
            void told.push({ ...options, reason: `protected:${options.reason}` }),
        }
      : {}),
  };
  return { crawler: crawler as unknown as CrawlerV4, told, added };
}

describe("skips reach Crawlee's onSkippedRequest", () => {
  it('4.0.0-rc.0: through the protected handleSkippedRequest', async () => {
    const { crawler, told, added } = crawlerV4(true);
    await crawleeSkipNotifierV4(crawler)!('http://a.example/private');
    expect(told).toEqual([{ url: 'http://a.example/private', reason: 'protected:robotsTxt' }]);
    expect(added).toEqual([]);
  });

  it('after rc.0 (handleSkippedRequest native private): through addRequests, skipped by its transform as robotsTxt, nothing added', async () => {
    const { crawler, told, added } = crawlerV4(false);
    await crawleeSkipNotifierV4(crawler)!('http://a.example/private');
    expect(told).toEqual([{ url: 'http://a.example/private', reason: 'robotsTxt' }]);
    expect(added).toEqual([]);
  });
});

describe("sendRequest() under the bot's name on Crawlee 4 (fetch Headers)", () => {
  /** A handler's context whose request is a Crawlee 4 `Request` (it has `intoFetchAPIRequest()`); `sent` gets each call's options. */
  function context(requestHeaders?: Record<string, string>) {
    const sent: Record<string, unknown>[] = [];
    const ctx = {
      request: { url: 'http://a.example/', uniqueKey: 'k', noRetry: false, state: 0, headers: requestHeaders, intoFetchAPIRequest() {} },
      sendRequest: async (options: Record<string, unknown> = {}) => void sent.push(options),
    } as unknown as ContextInternals;
    identifySendRequest(ctx, 'HeedBot/1.0');
    return { send: ctx['sendRequest'] as (options?: Record<string, unknown>) => Promise<void>, sent };
  }

  it("the user-agent goes in fetch Headers, beside the call's own headers", async () => {
    const { send, sent } = context();
    await send({ url: 'http://a.example/api' });
    await send({ url: 'http://a.example/api', headers: new Headers({ accept: 'application/json' }) });
    await send({ url: 'http://a.example/api', headers: { accept: 'text/plain' } });
    for (const options of sent) expect(options['headers']).toBeInstanceOf(Headers);
    expect(sent.map((options) => (options['headers'] as Headers).get('user-agent'))).toEqual(['HeedBot/1.0', 'HeedBot/1.0', 'HeedBot/1.0']);
    expect(sent.map((options) => (options['headers'] as Headers).get('accept'))).toEqual([null, 'application/json', 'text/plain']);
  });

  it("a user-agent of the call or of the page's request wins", async () => {
    const own = context();
    const options = { url: 'http://a.example/api', headers: new Headers({ 'User-Agent': 'Mine/1.0' }) };
    await own.send(options);
    expect(own.sent).toEqual([options]);
    const page = context({ 'User-Agent': 'Page/1.0' });
    await page.send({ url: 'http://a.example/api' });
    expect(page.sent).toEqual([{ url: 'http://a.example/api' }]);
  });
});

describe("Heed's own fetches through a Crawlee 4 proxyConfiguration", () => {
  const proxyUrl = (configuration: object) =>
    crawlerFetchContext({ proxyConfiguration: configuration }, 4)?.proxyUrl as (url: string) => Promise<string | undefined>;

  it("a ProxyConfiguration's newUrl() is asked with the request being fetched, so a newUrlFunction sees the site", async () => {
    const asked: unknown[][] = [];
    const proxyConfiguration = { newUrl: async (...args: unknown[]) => (asked.push(args), 'http://proxy.example:8000') };
    expect(await proxyUrl(proxyConfiguration)('http://a.example/robots.txt')).toBe('http://proxy.example:8000');
    expect(asked).toEqual([[{ request: { url: 'http://a.example/robots.txt' } }]]);
  });

  it('an IProxyConfiguration with newProxyInfo() alone: asked with the request too, its url used', async () => {
    const asked: unknown[][] = [];
    const proxyConfiguration = {
      newProxyInfo: async (...args: unknown[]) => {
        asked.push(args);
        return { url: 'http://proxy.example:8000', hostname: 'proxy.example', port: '8000', username: '', password: '' };
      },
    };
    expect(await proxyUrl(proxyConfiguration)('http://a.example/robots.txt')).toBe('http://proxy.example:8000');
    expect(asked).toEqual([[{ request: { url: 'http://a.example/robots.txt' } }]]);
    expect(await proxyUrl({ newProxyInfo: async () => undefined })('http://a.example/robots.txt')).toBeUndefined();
  });
});
