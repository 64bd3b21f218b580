/**
 * The parts of the Crawlee 4 adapter that do not need Crawlee 4 installed: which adapter a crawler
 * gets, and how crawl-delays are shared with a `ThrottlingRequestManager`. The adapter's crawls on
 * Crawlee 4.0.0-rc.0 itself are in test/compat/consumer.test.ts (`pnpm test:compat`), which installs
 * the 4.x packages beside the packed Heed.
 */
import { describe, expect, it } from 'vitest';
import { majorOf } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { domainThrottling, isCrawlerV4 } from '../../packages/crawlee/src/taps/v4/internals.js';
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
