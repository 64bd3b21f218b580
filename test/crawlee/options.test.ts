/**
 * `RobotsPlugin.attach()` checks its options before touching the crawler: a typo or a bad value
 * fails at once with the option's name and what to do.
 */
import { describe, expect, it } from 'vitest';
import { AlreadyAttachedError, InvalidOptionsError, RobotsPlugin, UnsupportedCrawlerError } from '@heed/crawlee';
import { crawleeBasic, freshConfig } from './site.js';
import { idleManager } from '../support/idle-manager.js';

const crawler = () => new crawleeBasic.BasicCrawler({ requestHandler: async () => {} }, freshConfig());

const cases: [string, Record<string, unknown>, string, RegExp][] = [
  ['missing user-agent', {}, 'userAgent', /User-Agent header/],
  ['empty user-agent', { userAgent: '  ' }, 'userAgent', /User-Agent header/],
  ['user-agent without a product token', { userAgent: '/1.0 bot' }, 'userAgent', /product token/],
  ['user-agent with a line break', { userAgent: 'Bot/1.0\r\nX: y' }, 'userAgent', /line break/],
  ['unknown option with a near name', { userAgent: 'Bot', sitemap: false }, 'sitemap', /did you mean "sitemaps"/],
  ['unknown option', { userAgent: 'Bot', respectRobotsTxtFile: true }, 'respectRobotsTxtFile', /unknown option/],
  ['unknown sitemap option', { userAgent: 'Bot', sitemaps: { maxDepht: 2 } }, 'sitemaps.maxDepht', /did you mean "sitemaps.maxDepth"/],
  ['negative limit', { userAgent: 'Bot', sitemaps: { maxUrlsPerOrigin: -1 } }, 'sitemaps.maxUrlsPerOrigin', /from 0 to/],
  ['fractional depth', { userAgent: 'Bot', sitemaps: { maxDepth: 1.5 } }, 'sitemaps.maxDepth', /whole number/],
  ['negative crawl-delay cap', { userAgent: 'Bot', maxCrawlDelaySecs: -5 }, 'maxCrawlDelaySecs', /from 0 to 86,400/],
  ['infinite crawl-delay cap', { userAgent: 'Bot', maxCrawlDelaySecs: Infinity }, 'maxCrawlDelaySecs', /from 0 to 86,400 .*got Infinity/],
  ['crawl-delay cap past a timer', { userAgent: 'Bot', maxCrawlDelaySecs: 3_000_000 }, 'maxCrawlDelaySecs', /from 0 to 86,400/],
  ['NaN batch size', { userAgent: 'Bot', prefetchBatchSize: Number.NaN }, 'prefetchBatchSize', /whole number from 1 to 10,000, got NaN/],
  ['infinite batch size', { userAgent: 'Bot', prefetchBatchSize: Infinity }, 'prefetchBatchSize', /whole number from 1 to 10,000/],
  ['zero batch size', { userAgent: 'Bot', prefetchBatchSize: 0 }, 'prefetchBatchSize', /from 1 to 10,000/],
  ['browser-style user-agent', { userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0)' }, 'userAgent', /productToken: "MyBot"/],
  ['20 KB user-agent', { userAgent: `Bot/1.0 ${'x'.repeat(20_480)}` }, 'userAgent', /512-byte limit/],
  ['productToken with a version', { userAgent: 'MyBot/1.0', productToken: 'MyBot/1.0' }, 'productToken', /letters/],
  ['unknown strategy', { userAgent: 'Bot', sitemaps: { enqueueStrategy: 'same-site' } }, 'sitemaps.enqueueStrategy', /same-hostname/],
  ['globs not strings', { userAgent: 'Bot', sitemaps: { globs: [42] } }, 'sitemaps.globs', /glob/],
  ['regexps not RegExp', { userAgent: 'Bot', sitemaps: { regexps: ['/blog/'] } }, 'sitemaps.regexps', /RegExp/],
  ['boolean as string', { userAgent: 'Bot', checkRedirects: 'yes' }, 'checkRedirects', /true or false/],
  ['checkSendRequest not a boolean', { userAgent: 'Bot', checkSendRequest: 0 }, 'checkSendRequest', /true or false/],
  ['onSkip not a function', { userAgent: 'Bot', onSkip: 'log' }, 'onSkip', /function/],
  ['manager not a manager', { userAgent: 'Bot', manager: {} }, 'manager', /RobotsManager/],
  ['proxy URL without scheme', { userAgent: 'Bot', sitemaps: { proxyUrl: 'proxy.example:8000' } }, 'sitemaps.proxyUrl', /proxy URL/],
  ['sitemaps: true is not an object', { userAgent: 'Bot', sitemaps: 'on' }, 'sitemaps', /false \(off\) or an object/],
  ['records: a path', { userAgent: 'Bot', records: 'crawl.jsonl' }, 'records', /\{ file: 'crawl-records.jsonl'/],
  ['records with nowhere to write', { userAgent: 'Bot', records: { snapshots: 'snapshots/' } }, 'records', /file .* or onRecord/],
  ['records: a misspelt field', { userAgent: 'Bot', records: { flie: 'x.jsonl' } }, 'records.flie', /did you mean "file"/],
  ['records: an empty file name', { userAgent: 'Bot', records: { file: '' } }, 'records.file', /file or directory path/],
  ['records: a tiny buffer', { userAgent: 'Bot', records: { file: 'x.jsonl', maxBufferBytes: 10 } }, 'records.maxBufferBytes', /1,024/],
  [
    'records.snapshots with a manager that keeps none',
    { userAgent: 'Bot', records: { file: 'x.jsonl', snapshots: 's/' } },
    'records',
    /keepSnapshotsIn/,
  ],
];

describe('RobotsPlugin.attach() options', () => {
  it.each([
    ['an option error', { sitemap: false, userAgent: 'Bot' }, crawler()],
    ['an unsupported crawler', { userAgent: 'Bot' }, { run: 1 }],
  ])("%s's stack starts at the caller's line, not in Heed's own checks", async (_name, options, target) => {
    const error: unknown = await RobotsPlugin.attach(target as never, options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const frames = (error as Error).stack!.split('\n').filter((line) => line.trimStart().startsWith('at '));
    expect(frames[0]).toContain('options.test.ts');
  });

  it.each(cases)('rejects %s', async (_name, options, option, message) => {
    const attempt = RobotsPlugin.attach(crawler(), { manager: idleManager, ...options } as never);
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toMatchObject({ option, message: expect.stringMatching(message) });
  });

  it('fills in every default', async () => {
    const plugin = await RobotsPlugin.attach(crawler(), { userAgent: 'HeedBot/1.0 (+https://x)', manager: idleManager });
    expect(plugin.options).toMatchObject({
      userAgent: 'HeedBot/1.0 (+https://x)',
      productToken: 'HeedBot',
      checkRedirects: true,
      checkSendRequest: true,
      blockSubresources: true,
      crawlDelay: true,
      maxCrawlDelaySecs: 60,
      metaRobots: true,
      honorRelNofollow: false,
      logSummary: true,
      prefetchBatchSize: 100,
      sitemaps: {
        enqueueStrategy: 'same-hostname',
        maxUrlsPerOrigin: 10_000,
        maxBytes: 52_428_800,
        maxDepth: 2,
        maxFilesPerOrigin: 100,
        maxPendingRequests: 1_000,
        timeoutSecs: 30,
      },
    });
  });

  it('takes productToken as given, and the longest bounds', async () => {
    const plugin = await RobotsPlugin.attach(crawler(), {
      userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0)',
      productToken: 'MyBot',
      manager: idleManager,
      maxCrawlDelaySecs: 86_400,
      prefetchBatchSize: 10_000,
    });
    expect(plugin.options).toMatchObject({ productToken: 'MyBot', maxCrawlDelaySecs: 86_400, prefetchBatchSize: 10_000 });
  });

  it('accepts sitemaps: false', async () => {
    const plugin = await RobotsPlugin.attach(crawler(), { userAgent: 'Bot', manager: idleManager, sitemaps: false });
    expect(plugin.options.sitemaps).toBe(false);
  });

  it('rejects what is not a crawler, and a second attach to the same crawler', async () => {
    // @ts-expect-error: not a crawler, on purpose (what a JavaScript caller can pass)
    await expect(RobotsPlugin.attach({}, { userAgent: 'Bot', manager: idleManager })).rejects.toBeInstanceOf(UnsupportedCrawlerError);
    const c = crawler();
    await RobotsPlugin.attach(c, { userAgent: 'Bot', manager: idleManager });
    await expect(RobotsPlugin.attach(c, { userAgent: 'Bot', manager: idleManager })).rejects.toBeInstanceOf(AlreadyAttachedError);
  });
});
