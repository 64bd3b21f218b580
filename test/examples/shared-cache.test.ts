import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSharedCache, type SharedCacheRun } from '../../examples/shared-cache/src/index.js';
import { DEMO_USER_AGENT, OTHER_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

let site: DemoSite;
let storageDir: string;
let first: SharedCacheRun;
let robotsRequestsAfterFirst: number;
let second: SharedCacheRun;

const robotsRequests = (): number => site.requests.filter((request) => request.path === '/robots.txt').length;

beforeAll(async () => {
  site = await startDemoSite();
  storageDir = await mkdtemp(join(tmpdir(), 'heed-shared-cache-'));
  const options = { storageDir, userAgents: [DEMO_USER_AGENT, OTHER_USER_AGENT] };
  first = await runSharedCache(site.expected.startUrls, options);
  robotsRequestsAfterFirst = robotsRequests();
  second = await runSharedCache(site.expected.startUrls, options);
}, 120_000);
afterAll(async () => {
  await site.close();
  await rm(storageDir, { recursive: true, force: true });
});

describe('first run: two crawlers, one manager', () => {
  it("fetches each origin's robots.txt once for both crawlers", () => {
    expect(first.robotsFetches).toBe(4);
    expect(robotsRequestsAfterFirst).toBe(4);
    for (const name of ['shop', 'blog', 'docs', 'mirror'] as const) {
      const { fetchPaths } = site.expected.robots[name];
      const requests = site.requests.filter((request) => request.origin === name && fetchPaths.includes(request.path));
      // Both runs together: the second added none.
      expect(requests, name).toHaveLength(fetchPaths.length);
    }
  });

  it('lets each crawler obey its own group of the same file', () => {
    const [demo, other] = first.crawlers;
    expect([...(demo?.pages ?? [])].sort()).toEqual([...site.expected.crawled].sort());
    const otherPages = new Set(other?.pages);
    expect(otherPages.has(site.url('shop', '/cart'))).toBe(true); // disallowed for HeedDemoBot only
    expect(otherPages.has(site.url('shop', '/members/'))).toBe(false); // disallowed for everyone else
    expect(otherPages.has(site.url('docs', '/reference/internals'))).toBe(true); // nofollow for HeedDemoBot only
    for (const url of site.expected.urls.filter((entry) => !entry.otherBots.allowed)) expect(otherPages.has(url.url), url.url).toBe(false);
    expect(first.crawlers.map((crawler) => crawler.failedRequests)).toEqual([0, 0]);
  });

  it("sends each crawler's own User-Agent to the site, and never a disallowed URL", () => {
    for (const request of site.requests) {
      const url = site.expected.urls.find((entry) => entry.url === site.url(request.origin, request.path));
      if (url === undefined) continue;
      const verdict = request.userAgent === DEMO_USER_AGENT ? url.demoBot : url.otherBots;
      expect(verdict.allowed, `${request.userAgent} ${request.path}`).toBe(true);
    }
  });
});

describe('second run over the same storage', () => {
  it('fetches no robots.txt: every record comes from the KeyValueStore on disk', () => {
    expect(second.robotsFetches).toBe(0);
    expect(second.storeHits).toBe(4);
    expect(robotsRequests()).toBe(robotsRequestsAfterFirst);
  });

  it('crawls the same pages as the first', () => {
    expect(second.crawlers.map((crawler) => [...crawler.pages].sort())).toEqual(first.crawlers.map((crawler) => [...crawler.pages].sort()));
  });
});
