/**
 * Product tokens at the manager: every per-call check takes one product token or a list, with
 * google/robotstxt's reading of a list (the groups of every named token apply together, `*` only
 * when none is named); the `productToken` option may be a list; one robots.txt fetch per origin
 * whatever tokens ask; and a malformed token is an `InvalidOptionsError` naming `productToken`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, RobotsManager, type RobotsManagerOptions } from '@heed/manager';
import { recordingLog, startServer, type TestServer } from './helpers.js';

const USER_AGENT = 'mybot-news/1.0 (+https://mybot.example/bot; mybot)';
const ROBOTS = [
  'User-agent: mybot-news',
  'Disallow: /news-private/',
  'Crawl-delay: 3',
  'Content-Usage: /news-ai/ train-ai=n',
  '',
  'User-agent: mybot',
  'Disallow: /bot-private/',
  'Crawl-delay: 5',
  '',
  'User-agent: *',
  'Disallow: /star-private/',
  'Crawl-delay: 9',
  'Content-Usage: /star-ai/ train-ai=n',
].join('\n');

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => setTimeout(() => res.end(ROBOTS), 50));
});
afterAll(() => server.close());
afterEach(() => {
  server.seen.length = 0;
});

const url = (path: string) => `${server.origin}${path}`;
function create(extra: Partial<RobotsManagerOptions> = {}): RobotsManager {
  return new RobotsManager({ userAgent: USER_AGENT, log: recordingLog().log, timeoutSecs: 10, ...extra });
}

describe('a list of product tokens per call', () => {
  it('merges the groups of every named token and ignores *; * applies when none is named', async () => {
    const m = create();
    const both = ['mybot-news', 'mybot'];
    expect(await m.isAllowed(url('/news-private/x'), both)).toBe(false);
    expect(await m.isAllowed(url('/bot-private/x'), both)).toBe(false);
    expect(await m.isAllowed(url('/star-private/x'), both)).toBe(true);
    expect(await m.isAllowed(url('/star-private/x'), ['nobody', 'nothing'])).toBe(false);
    expect(await m.isAllowed(url('/bot-private/x'), ['nobody', 'nothing'])).toBe(true);
    // One token: its own group only.
    expect(await m.isAllowed(url('/bot-private/x'), 'mybot-news')).toBe(true);
    const decision = await m.decide(url('/bot-private/x'), both);
    expect(decision).toMatchObject({ allowed: false, reason: 'rules', line: 7 });
    const verdict = await m.decide(url('/bot-private/x'), both);
    expect(verdict).toMatchObject({ allowed: false, line: 7, productToken: both });
    expect(verdict.explain()?.groups.map((group) => group.line)).toEqual([1, 6]);
    await m.close();
  });

  it('crawl-delay and usage() read the groups of the list', async () => {
    const m = create();
    expect(await m.crawlDelay(url('/'), ['mybot', 'mybot-news'])).toBe(3); // the first in file order
    expect(await m.crawlDelay(url('/'), 'mybot')).toBe(5);
    expect(await m.crawlDelay(url('/'), ['nobody', 'nothing'])).toBe(9);
    const both = await m.usage(url('/news-ai/x'), { productToken: ['mybot-news', 'mybot'], purposes: ['train-ai'] });
    expect(both.preference('train-ai')).toBe('disallow');
    expect(both.decision('train-ai')).toMatchObject({ line: 4 });
    expect((await m.usage(url('/star-ai/x'), { productToken: ['mybot-news', 'mybot'] })).preference('train-ai')).toBe('unknown');
    expect((await m.usage(url('/star-ai/x'), { productToken: ['nobody'] })).preference('train-ai')).toBe('disallow');
    await m.close();
  });

  it('fetches each origin once, whatever tokens ask, concurrently or not', async () => {
    const m = create();
    const asks = [undefined, 'mybot', ['mybot-news', 'mybot'], ['nobody', 'nothing'], 'OtherBot'] as const;
    const answers = await Promise.all(
      asks.flatMap((tokens) => [m.isAllowed(url('/bot-private/x'), tokens), m.decide(url('/news-private/x'), tokens)]),
    );
    expect(answers).toHaveLength(10);
    await m.crawlDelay(url('/'), ['a', 'b']);
    await m.usage(url('/'), { productToken: ['a', 'b'] });
    expect(server.robotsRequests()).toBe(1);
    expect(m.stats().fetches.total).toBe(1);
    await m.close();
  });
});

describe('the productToken option as a list', () => {
  it('is what calls naming no token are checked with', async () => {
    const m = create({ productToken: ['mybot-news', 'mybot'] });
    expect(m.productToken).toEqual(['mybot-news', 'mybot']);
    expect(Object.isFrozen(m.productToken)).toBe(true);
    expect(await m.isAllowed(url('/bot-private/x'))).toBe(false);
    expect(await m.isAllowed(url('/star-private/x'))).toBe(true);
    expect(await m.crawlDelay(url('/'))).toBe(3);
    expect((await m.decide(url('/news-private/x'))).productToken).toEqual(['mybot-news', 'mybot']);
    await m.close();
  });

  it('is copied: changing the array given later changes nothing', async () => {
    const tokens = ['mybot-news', 'mybot'];
    const m = create({ productToken: tokens });
    tokens.length = 0;
    expect(await m.isAllowed(url('/bot-private/x'))).toBe(false);
    const perCall = ['mybot'];
    expect(await m.isAllowed(url('/bot-private/x'), perCall)).toBe(false);
    perCall[0] = 'nobody';
    expect(await m.isAllowed(url('/bot-private/x'), perCall)).toBe(true);
    await m.close();
  });

  it.each([
    ['an empty list', [], /empty list, which names no token/],
    ['a header in the list', ['mybot', 'mybot-news/1.0'], /item 1: .*letters, "-" and "_" only.*product token is "mybot-news"/],
    ['a number in the list', ['mybot', 7], /item 1: .*got number/],
    ['a token absent from userAgent', ['mybot', 'OtherBot'], /"OtherBot" does not appear in userAgent/],
    ['17 tokens', Array.from({ length: 17 }, () => 'mybot'), /at most 16/],
  ])('refuses %s, naming productToken', (_name, productToken, message) => {
    const attempt = () => create({ productToken: productToken as string[] });
    expect(attempt).toThrow(InvalidOptionsError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as InvalidOptionsError).option).toBe('productToken');
    }
  });
});

describe('a malformed per-call token', () => {
  it('rejects with InvalidOptionsError naming productToken, and says what the header token is', async () => {
    const m = create();
    await expect(m.isAllowed(url('/'), 'OtherBot/2.0 (+https://other.example)')).rejects.toMatchObject({
      option: 'productToken',
      message: expect.stringMatching(/product token is "OtherBot"/),
    });
    await expect(m.decide(url('/'), [])).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(m.crawlDelay(url('/'), ['ok', 'not ok'])).rejects.toThrow(/item 1/);
    await expect(m.usage(url('/'), { productToken: [] })).rejects.toThrow(/empty list/);
    await expect(m.decide(url('/'), '')).rejects.toBeInstanceOf(InvalidOptionsError);
    // A valid call after a refused one is answered (the memo of the last token holds only valid ones).
    expect(await m.isAllowed(url('/bot-private/x'), 'mybot')).toBe(false);
    expect(server.robotsRequests()).toBe(1);
    await m.close();
  });
});
