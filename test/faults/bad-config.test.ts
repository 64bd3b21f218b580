/**
 * Bad configuration fails at once — `new RobotsManager()` or `RobotsPlugin.attach()` — with an
 * error of its own class that names the option and says what to do; never as a crash or a silently
 * disallowed crawl later. Each row: the options, the option the error must name, and the hint.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError as ManagerOptionsError, MemoryStore, RobotsManager, type RobotsManagerOptions } from '@heed/manager';
import { InvalidOptionsError as PluginOptionsError, RobotsPlugin, UnsupportedCrawlerError } from '@heed/crawlee';
import { crawleeBasic, crawleeCore, freshConfig } from '../crawlee/site.js';
import { idleManager } from '../support/idle-manager.js';
import { withStatus } from '../manager/records.js';

const UA = 'HeedBot/1.0 (+https://example.com/bot)';

// ioredis is the manager's (optional) dependency: load it from there. Lazy: it never connects.
const managerRequire = createRequire(new URL('../../packages/manager/package.json', import.meta.url));
const { Redis } = managerRequire('ioredis') as { Redis: new (options: { lazyConnect: boolean }) => object };

type Row = readonly [name: string, options: unknown, option: string, hint: RegExp];

const managerRows = async (): Promise<Row[]> => [
  ['no options at all', undefined, 'options', /pass an options object/],
  ['null options', null, 'options', /pass an options object/],
  ['missing user-agent', {}, 'userAgent', /required: your crawler's User-Agent header, e\.g\./],
  ['user-agent of the wrong type', { userAgent: 42 }, 'userAgent', /required: .*e\.g\. "MyBot/],
  ['empty user-agent', { userAgent: '   ' }, 'userAgent', /required/],
  ['user-agent without a product token', { userAgent: '/1.0 (+https://x)' }, 'userAgent', /product token .*e\.g\. "MyBot\/1\.0"/],
  ['user-agent with CR LF', { userAgent: 'Bot/1.0\r\nX-Evil: 1' }, 'userAgent', /line break.*remove it/],
  ['user-agent with an emoji', { userAgent: 'Bot/1.0 🤖' }, 'userAgent', /cannot be sent in an HTTP header.*use printable ASCII/],
  ['user-agent with a control character', { userAgent: 'Bot/1.0\u0001' }, 'userAgent', /cannot be sent in an HTTP header/],
  [
    'browser-style user-agent',
    { userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0)' },
    'userAgent',
    /browser token "Mozilla".*productToken: "MyBot"/,
  ],
  ['productToken that is not a token', { userAgent: UA, productToken: 'Heed Bot' }, 'productToken', /letters, "-" and "_" only/],
  [
    'negative maxConcurrency',
    { userAgent: UA, maxConcurrency: -1 },
    'maxConcurrency',
    /whole number from 1 to 10,000, got -1; the default is 20/,
  ],
  ['zero maxConcurrency', { userAgent: UA, maxConcurrency: 0 }, 'maxConcurrency', /whole number from 1 to 10,000/],
  ['infinite maxConcurrency', { userAgent: UA, maxConcurrency: Infinity }, 'maxConcurrency', /whole number from 1 to 10,000, got Infinity/],
  ['negative maxBytes', { userAgent: UA, maxBytes: -1 }, 'maxBytes', /whole number from 1 to 8,388,608.*default is 512,000/],
  ['maxBytes of 1 GB', { userAgent: UA, maxBytes: 2 ** 30 }, 'maxBytes', /from 1 to 8,388,608/],
  ['negative maxRedirects', { userAgent: UA, maxRedirects: -1 }, 'maxRedirects', /whole number from 0 to 100/],
  ['NaN maxRedirects', { userAgent: UA, maxRedirects: Number.NaN }, 'maxRedirects', /whole number from 0 to 100, got NaN/],
  ['negative cacheSize', { userAgent: UA, cacheSize: -5 }, 'cacheSize', /whole number from 1/],
  ['negative timeoutSecs', { userAgent: UA, timeoutSecs: -1 }, 'timeoutSecs', /seconds from 0\.001 to 2,147,483\.647/],
  ['zero retryBaseSecs', { userAgent: UA, retryBaseSecs: 0 }, 'retryBaseSecs', /seconds from 0\.001 to 31,536,000/],
  ['infinite maxTtlSecs', { userAgent: UA, maxTtlSecs: Infinity }, 'maxTtlSecs', /seconds from 0\.001 to 31,536,000, got Infinity/],
  ['defaultTtlSecs past any date', { userAgent: UA, defaultTtlSecs: 1e300 }, 'defaultTtlSecs', /from 0\.001 to 31,536,000/],
  [
    'negative unreachableAllowAfterSecs',
    { userAgent: UA, unreachableAllowAfterSecs: -1 },
    'unreachableAllowAfterSecs',
    /, or Infinity, got -1/,
  ],
  [
    'timeoutSecs beyond a timer',
    { userAgent: UA, timeoutSecs: 3e6 },
    'timeoutSecs',
    /from 0\.001 to 2,147,483\.647 \(the longest a Node\.js timer waits, about 24\.8 days\), got 3000000; the default is 30/,
  ],
  ['lockTtlSecs beyond a timer', { userAgent: UA, lockTtlSecs: 2 ** 31 / 1000 }, 'lockTtlSecs', /from 0\.001 to 2,147,483\.647/],
  [
    'infinite connectTimeoutSecs',
    { userAgent: UA, connectTimeoutSecs: Infinity },
    'connectTimeoutSecs',
    /seconds from 0\.001 to 2,147,483\.647.*got Infinity/,
  ],
  ['timeoutSecs as a string', { userAgent: UA, timeoutSecs: '30s' }, 'timeoutSecs', /number of seconds from 0\.001 .*got "30s"/],
  ['maxConcurrency as a string', { userAgent: UA, maxConcurrency: '20' }, 'maxConcurrency', /whole number/],
  [
    'minTtlSecs above maxTtlSecs',
    { userAgent: UA, minTtlSecs: 7_200, maxTtlSecs: 3_600 },
    'minTtlSecs',
    /is 7200 seconds, above maxTtlSecs \(3600\); make minTtlSecs <= maxTtlSecs/,
  ],
  ['proxyUrl of the wrong type', { userAgent: UA, proxyUrl: 8000 }, 'proxyUrl', /http:\/\/ or https:\/\/ proxy URL/],
  ['socks proxyUrl', { userAgent: UA, proxyUrl: 'socks5://127.0.0.1:1080' }, 'proxyUrl', /http:\/\/ or https:\/\//],
  ['console as log', { userAgent: UA, log: console }, 'log', /debug, info, warning and error.*Crawlee's log fits/],
  ['now not a function', { userAgent: UA, now: 5 }, 'now', /function returning milliseconds/],
  ['parseOptions not an object', { userAgent: UA, parseOptions: 'google' }, 'parseOptions', /parser options object/],
  [
    'parseOptions with a typo',
    { userAgent: UA, parseOptions: { implicitRobotsTxtAlow: true } },
    'parseOptions',
    /its "implicitRobotsTxtAlow": unknown option; did you mean "implicitRobotsTxtAllow"\? The options are maxBytes, /,
  ],
  [
    'parseOptions of the wrong type',
    { userAgent: UA, parseOptions: { acceptTypos: 'yes' } },
    'parseOptions',
    /its "acceptTypos": expected true or false/,
  ],
  [
    'unknown option (typo)',
    { userAgent: UA, userAgnet: 'x' },
    'userAgnet',
    /unknown option; did you mean "userAgent"\? The options are userAgent, /,
  ],
  ['unknown option (Crawlee name)', { userAgent: UA, respectRobotsTxtFile: true }, 'respectRobotsTxtFile', /unknown option/],
  ['an empty object as store', { userAgent: UA, store: {} }, 'store', /RobotsStore.*no get\/set\/delete method/],
  ['a string as store', { userAgent: UA, store: 'memory' }, 'store', /expected a RobotsStore.*got string/],
  [
    'the store class, not an instance',
    { userAgent: UA, store: MemoryStore },
    'store',
    /pass an instance, e\.g\. store: new MemoryStore\(\)/,
  ],
  [
    'a Crawlee KeyValueStore as store',
    { userAgent: UA, store: await crawleeCore.KeyValueStore.open('heed-bad-config', { config: freshConfig() }) },
    'store',
    /wrap it: store: new KeyValueStoreStore/,
  ],
  [
    'an ioredis client as store',
    { userAgent: UA, store: new Redis({ lazyConnect: true }) },
    'store',
    /wrap it: store: new RedisStore\(\{ client/,
  ],
  [
    'a Map-like store with a lock that is not a method',
    { userAgent: UA, store: { get() {}, set() {}, delete() {}, lock: true } },
    'store',
    /lock must be a method/,
  ],
];

describe('new RobotsManager(bad options)', async () => {
  const rows = await managerRows();
  it.each(rows.map(([name, options, option, hint]) => ({ name, options, option, hint })))(
    '$name → InvalidOptionsError naming $option',
    ({ options, option, hint }) => {
      let error: unknown;
      try {
        new RobotsManager(options as RobotsManagerOptions);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ManagerOptionsError);
      const { message } = error as ManagerOptionsError;
      expect((error as ManagerOptionsError).option).toBe(option);
      expect(message).toContain(`"${option}"`);
      expect(message).toMatch(hint);
    },
  );

  it('accepts every valid edge: Latin-1 in the user-agent, Infinity for unreachableAllowAfterSecs, 0 redirects, the longest timer', async () => {
    // A robots.txt that redirects to its own rules: with maxRedirects 0 the redirect is not
    // followed (unavailable: allow all), so the options were taken, not just accepted.
    const server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(301, { location: '/real-robots.txt' }).end();
      else res.end('User-agent: *\nDisallow: /\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const manager = new RobotsManager({
      userAgent: 'HeedBot/1.0 (caf\u00e9)',
      unreachableAllowAfterSecs: Infinity,
      maxRedirects: 0,
      parseOptions: { implicitRobotsTxtAllow: true },
      timeoutSecs: (2 ** 31 - 1) / 1000,
      lockTtlSecs: (2 ** 31 - 1) / 1000,
    });
    try {
      const verdict = await manager.decide(`${origin}/page`);
      expect(verdict).toMatchObject({ allowed: true, reason: 'unavailable' });
      expect(withStatus(await manager.get(origin), 'unavailable').problem.code).toBe('too-many-redirects');
    } finally {
      await manager.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

const pluginRows: Row[] = [
  ['no options at all', undefined, 'options', /expected an object like \{ userAgent/],
  ['missing user-agent', { manager: idleManager }, 'userAgent', /required: your crawler's User-Agent header, e\.g\./],
  ['user-agent of the wrong type', { userAgent: ['Bot'], manager: idleManager }, 'userAgent', /User-Agent header, e\.g\..*got an array/],
  ['user-agent with a line break', { userAgent: 'Bot/1.0\nX: y', manager: idleManager }, 'userAgent', /line break.*remove it/],
  [
    'user-agent with an emoji (shared manager)',
    { userAgent: 'Bot/1.0 🤖', manager: idleManager },
    'userAgent',
    /cannot be sent in an HTTP header.*use printable ASCII/,
  ],
  ['user-agent with an emoji (own manager)', { userAgent: 'Bot/1.0 🤖' }, 'userAgent', /cannot be sent in an HTTP header/],
  ['user-agent without a product token', { userAgent: '(compatible)', manager: idleManager }, 'userAgent', /product token/],
  [
    'browser-style user-agent',
    { userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0)', manager: idleManager },
    'userAgent',
    /browser token "Mozilla".*productToken: "MyBot"/,
  ],
  [
    'productToken not in the user-agent',
    { userAgent: UA, productToken: 'OtherBot', manager: idleManager },
    'productToken',
    /does not appear in userAgent/,
  ],
  [
    'negative maxCrawlDelaySecs',
    { userAgent: UA, manager: idleManager, maxCrawlDelaySecs: -1 },
    'maxCrawlDelaySecs',
    /number of seconds from 0 to 86,400 \(one day\), got -1; the default is 60/,
  ],
  [
    'infinite maxCrawlDelaySecs',
    { userAgent: UA, manager: idleManager, maxCrawlDelaySecs: Infinity },
    'maxCrawlDelaySecs',
    /from 0 to 86,400 .*got Infinity/,
  ],
  [
    'negative prefetchBatchSize',
    { userAgent: UA, manager: idleManager, prefetchBatchSize: -1 },
    'prefetchBatchSize',
    /whole number from 1 to 10,000/,
  ],
  [
    'infinite prefetchBatchSize',
    { userAgent: UA, manager: idleManager, prefetchBatchSize: Infinity },
    'prefetchBatchSize',
    /whole number from 1 to 10,000, got Infinity/,
  ],
  [
    'negative sitemaps.maxUrlsPerOrigin',
    { userAgent: UA, manager: idleManager, sitemaps: { maxUrlsPerOrigin: -1 } },
    'sitemaps.maxUrlsPerOrigin',
    /whole number from 0 to 100,000,000, got -1/,
  ],
  [
    'negative sitemaps.maxBytes',
    { userAgent: UA, manager: idleManager, sitemaps: { maxBytes: -1 } },
    'sitemaps.maxBytes',
    /whole number of bytes from 0 to 1,073,741,824/,
  ],
  [
    'zero sitemaps.timeoutSecs',
    { userAgent: UA, manager: idleManager, sitemaps: { timeoutSecs: 0 } },
    'sitemaps.timeoutSecs',
    /from 0\.001 to 2,147,483\.647/,
  ],
  [
    'infinite sitemaps.timeoutSecs',
    { userAgent: UA, manager: idleManager, sitemaps: { timeoutSecs: Infinity } },
    'sitemaps.timeoutSecs',
    /the longest a Node\.js timer waits/,
  ],
  [
    'unknown option (a store)',
    { userAgent: UA, manager: idleManager, store: new MemoryStore() },
    'store',
    /unknown option.*The options are userAgent, productToken, manager/,
  ],
  [
    'unknown option (Crawlee name)',
    { userAgent: UA, manager: idleManager, respectRobotsTxtFile: true },
    'respectRobotsTxtFile',
    /unknown option/,
  ],
  ['unknown option (typo)', { userAgent: UA, manager: idleManager, crawlDelays: false }, 'crawlDelays', /did you mean "crawlDelay"/],
  [
    'boolean as a string',
    { userAgent: UA, manager: idleManager, checkRedirects: 'yes' },
    'checkRedirects',
    /expected true or false, got "yes"/,
  ],
  ['boolean as a number', { userAgent: UA, manager: idleManager, logSummary: 1 }, 'logSummary', /expected true or false/],
  [
    'number as a string',
    { userAgent: UA, manager: idleManager, prefetchBatchSize: '100' },
    'prefetchBatchSize',
    /whole number from 1 to 10,000, got "100"/,
  ],
  ['onSkip not a function', { userAgent: UA, manager: idleManager, onSkip: 'log' }, 'onSkip', /expected a function \(event\) => void/],
  ['sitemaps as a string', { userAgent: UA, manager: idleManager, sitemaps: 'on' }, 'sitemaps', /false \(off\) or an object/],
  ['an empty object as manager', { userAgent: UA, manager: {} }, 'manager', /expected a RobotsManager from @heed\/manager/],
  ['a store as manager', { userAgent: UA, manager: new MemoryStore() }, 'manager', /expected a RobotsManager/],
  [
    'the manager class, not an instance',
    { userAgent: UA, manager: RobotsManager },
    'manager',
    /pass an instance, e\.g\. manager: new RobotsManager/,
  ],
];

const crawler = () => new crawleeBasic.BasicCrawler({ requestHandler: async () => {} }, freshConfig());

describe('RobotsPlugin.attach(crawler, bad options)', () => {
  it.each(pluginRows.map(([name, options, option, hint]) => ({ name, options, option, hint })))(
    '$name → InvalidOptionsError naming $option',
    async ({ options, option, hint }) => {
      const target = crawler();
      const error = await RobotsPlugin.attach(target, options as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PluginOptionsError);
      const { message } = error as PluginOptionsError;
      expect((error as PluginOptionsError).option).toBe(option);
      expect(message).toContain(`"${option}"`);
      expect(message).toMatch(hint);
      // Nothing was hooked: the same crawler takes a correct attach afterwards.
      const plugin = await RobotsPlugin.attach(target, { userAgent: UA, manager: idleManager });
      await plugin.close();
    },
  );

  it.each([
    ['null', null],
    ['a plain object', {}],
    ['the crawler class, not an instance', crawleeBasic.BasicCrawler],
  ])('rejects %s as the crawler with UnsupportedCrawlerError', async (_name, target) => {
    const attempt = RobotsPlugin.attach(target as never, { userAgent: UA, manager: idleManager });
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedCrawlerError);
    await expect(attempt).rejects.toThrow(/Pass the crawler instance itself, before calling crawler\.run\(\)/);
  });
});
