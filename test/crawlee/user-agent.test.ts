/**
 * The user-agent a crawler declares decides which robots.txt group it obeys. A browser-style header
 * (`Mozilla/5.0 (compatible; MyBot/1.0)`) must not quietly become the token `Mozilla`, which no site
 * writes a group for: it is refused, or the caller names the bot's token with `productToken`. An
 * oversized header is refused too (servers answer it with 431, which would allow everything).
 * Checked with a real CheerioCrawler against a server on 127.0.0.1: what the server saw is the proof.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError as ManagerOptionsError, RobotsManager } from '@heed/manager';
import { InvalidOptionsError, RobotsPlugin } from '@heed/crawlee';
import { cheerioCrawler, followEveryLink } from './crawlers.js';
import { crawleeCheerio, freshConfig, startSite, type Site } from './site.js';

const BROWSER_STYLE = 'Mozilla/5.0 (compatible; MyBot/1.0)';

let site: Site;

beforeAll(async () => {
  site = await startSite(1);
  const origin = site.origins[0]!;
  origin.routes.set('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: 'User-agent: MyBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
  });
  origin.routes.set('/', { body: '<a href="/secret">secret</a>' });
  origin.routes.set('/secret', { body: 'secret' });
});

afterAll(async () => {
  await site?.close();
});

async function crawl(options: Record<string, unknown>): Promise<string[]> {
  const origin = site.origins[0]!;
  origin.hits.length = 0;
  const handled: string[] = [];
  const crawler = cheerioCrawler({
    maxRequestRetries: 0,
    requestHandler: followEveryLink((_url, ctx) => void handled.push(ctx.request.url)),
  });
  const plugin = await RobotsPlugin.attach(crawler, { sitemaps: false, logSummary: false, ...options } as never);
  try {
    await crawler.run([origin.url('/')]);
  } finally {
    await plugin.close();
  }
  return handled;
}

describe('a browser-style user-agent', () => {
  it('obeys the group of the productToken named explicitly: nothing but robots.txt is fetched', async () => {
    const handled = await crawl({ userAgent: BROWSER_STYLE, productToken: 'MyBot' });
    const origin = site.origins[0]!;
    expect(handled).toEqual([]);
    expect(origin.paths()).toEqual(['/robots.txt']);
    // The header sent is the one configured, token or not.
    expect(origin.hits[0]?.userAgent).toBe(BROWSER_STYLE);
  });

  it('is refused at attach() without productToken, naming the token to give', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    const attempt = RobotsPlugin.attach(crawler, { userAgent: BROWSER_STYLE });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toMatchObject({
      option: 'userAgent',
      message: expect.stringMatching(/browser token "Mozilla".*productToken: "MyBot"/),
    });
  });

  it('is refused by new RobotsManager() without productToken, and accepted with it', async () => {
    expect(() => new RobotsManager({ userAgent: BROWSER_STYLE })).toThrow(ManagerOptionsError);
    expect(
      () =>
        new RobotsManager({
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
        }),
    ).toThrow(/browser token "Mozilla".*productToken: "MyBot"/);
    for (const header of [
      'Opera/9.80 (Windows NT 6.0) Presto/2.12',
      'Safari/605.1',
      'AppleWebKit/537.36',
      'Gecko/20100101',
      'Chrome/120.0',
    ]) {
      expect(() => new RobotsManager({ userAgent: header }), header).toThrow(/browser token/);
    }
    const manager = new RobotsManager({ userAgent: BROWSER_STYLE, productToken: 'MyBot' });
    expect(manager.productToken).toBe('MyBot');
    await manager.close();
  });

  it('the derived token is still the first product token of an ordinary bot header', async () => {
    const manager = new RobotsManager({ userAgent: 'HeedBot/1.0 (+https://example.com/bot; like Mozilla)' });
    expect(manager.productToken).toBe('HeedBot');
    await manager.close();
  });
});

describe('productToken', () => {
  it.each([
    ['not a token', { userAgent: BROWSER_STYLE, productToken: 'My Bot' }, /letters, "-" and "_" only/],
    ['a version in it', { userAgent: BROWSER_STYLE, productToken: 'MyBot/1.0' }, /letters, "-" and "_" only/],
    ['empty', { userAgent: BROWSER_STYLE, productToken: '' }, /letters, "-" and "_" only/],
    ['a number', { userAgent: BROWSER_STYLE, productToken: 7 }, /letters, "-" and "_" only/],
    ['absent from the header', { userAgent: BROWSER_STYLE, productToken: 'OtherBot' }, /"OtherBot" does not appear in userAgent/],
    ['an empty list', { userAgent: BROWSER_STYLE, productToken: [] }, /empty list, which names no token/],
    [
      'a list with a header in it',
      { userAgent: BROWSER_STYLE, productToken: ['MyBot', 'MyBot/1.0'] },
      /item 1: .*letters, "-" and "_" only/,
    ],
    [
      'a list with a token absent from the header',
      { userAgent: BROWSER_STYLE, productToken: ['MyBot', 'OtherBot'] },
      /"OtherBot" does not appear in userAgent/,
    ],
  ])('is refused when %s, by the manager and by the plugin', async (_name, options, message) => {
    expect(() => new RobotsManager(options as never)).toThrow(message);
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    await expect(RobotsPlugin.attach(crawler, options as never)).rejects.toMatchObject({
      option: 'productToken',
      message: expect.stringMatching(message),
    });
  });
});

describe('an oversized user-agent', () => {
  const huge = `HugeBot/1.0 (${'x'.repeat(20 * 1024)})`;

  it('is refused (20 KB) by the manager and by the plugin, before any request', async () => {
    expect(() => new RobotsManager({ userAgent: huge })).toThrow(/20,494 bytes long, over the 512-byte limit.*HTTP 431/);
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    await expect(RobotsPlugin.attach(crawler, { userAgent: huge })).rejects.toMatchObject({
      option: 'userAgent',
      message: expect.stringMatching(/over the 512-byte limit/),
    });
  });

  it('is accepted up to 512 bytes', async () => {
    const longest = `LongBot/1.0 (${'x'.repeat(512 - 14)})`;
    expect(longest.length).toBe(512);
    const manager = new RobotsManager({ userAgent: longest });
    await manager.close();
    expect(() => new RobotsManager({ userAgent: `${longest}x` })).toThrow(/513 bytes long/);
  });
});

describe('productToken as a list', () => {
  it('is kept as given (frozen) by the plugin and by the manager it creates', async () => {
    const crawler = new crawleeCheerio.CheerioCrawler({ requestHandler: async () => {} }, freshConfig());
    const tokens = ['MyBot-News', 'MyBot'];
    const plugin = await RobotsPlugin.attach(crawler, {
      userAgent: 'Mozilla/5.0 (compatible; MyBot-News/1.0)',
      productToken: tokens,
      logSummary: false,
    });
    tokens[1] = 'Changed';
    expect(plugin.options.productToken).toEqual(['MyBot-News', 'MyBot']);
    expect(Object.isFrozen(plugin.options.productToken)).toBe(true);
    expect((plugin.manager as RobotsManager).productToken).toEqual(['MyBot-News', 'MyBot']);
    await plugin.close();
  });
});
