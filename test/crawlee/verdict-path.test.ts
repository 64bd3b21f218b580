/**
 * The check a crawl makes: every URL costs one verdict (`decide()`, or `decideCached()` when its
 * origin is already loaded); the deciding rule (`verdict.rule()`) is read only for a URL that is
 * skipped, and the skip event names the deciding line and rule. `verdict.explain()` (the groups, an
 * object for every line of the file, which the cached file would keep) is never asked for.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager, type Verdict } from '@heed/manager';
import { RobotsPlugin, type SkipEvent } from '@heed/crawlee';
import { crawleeBasic, freshConfig } from './site.js';

const UA = 'HeedBot/1.0';
let server: http.Server;
let origin = '';

beforeAll(async () => {
  server = http.createServer((req, res) => res.end(req.url === '/robots.txt' ? 'User-agent: *\nDisallow: /private\n' : 'ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the plugin's check of each URL", () => {
  it('asks rule() only for the URL it skips, whose skip event names the rule, and never explain()', async () => {
    const manager = new RobotsManager({ userAgent: UA });
    const calls = { decide: 0 };
    const ruled: string[] = [];
    const explained: string[] = [];
    const watch = (verdict: Verdict, url: string): Verdict => {
      const explain = verdict.explain.bind(verdict);
      verdict.explain = () => (explained.push(url), explain());
      const rule = verdict.rule.bind(verdict);
      verdict.rule = () => (ruled.push(url), rule());
      return verdict;
    };
    const decide = manager.decide.bind(manager);
    manager.decide = async (url, productToken) => {
      calls.decide++;
      return watch(await decide(url, productToken), url);
    };
    // Links of an origin already loaded are judged on the spot, without a promise.
    const decideCached = manager.decideCached.bind(manager);
    manager.decideCached = (url, productToken) => {
      const verdict = decideCached(url, productToken);
      if (verdict !== undefined) calls.decide++;
      return verdict === undefined ? undefined : watch(verdict, url);
    };
    const handled: string[] = [];
    const skips: SkipEvent[] = [];
    const crawler = new crawleeBasic.BasicCrawler({ requestHandler: async ({ request }) => void handled.push(request.url) }, freshConfig());
    await RobotsPlugin.attach(crawler, { userAgent: UA, manager, onSkip: (event) => void skips.push(event) });
    try {
      await crawler.run([`${origin}/a`, `${origin}/b`, `${origin}/c`, `${origin}/private/x`]);
    } finally {
      await manager.close();
    }
    expect(handled.sort()).toEqual([`${origin}/a`, `${origin}/b`, `${origin}/c`]);
    expect(skips).toMatchObject([
      { url: `${origin}/private/x`, reason: 'rules', line: 2, rule: { directive: 'disallow', pattern: '/private' } },
    ]);
    expect(calls.decide).toBeGreaterThanOrEqual(4);
    // Only skips need the rule: however often Crawlee re-checks, never for the allowed URLs.
    expect(ruled.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ruled)).toEqual(new Set([`${origin}/private/x`]));
    expect(explained).toEqual([]);
  });
});
