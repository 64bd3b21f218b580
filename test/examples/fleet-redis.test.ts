import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { has } from '../support/requirements.js';
import { runFleet, type FleetSummary } from '../../examples/fleet-redis/src/index.js';
import { DEMO_USER_AGENT, startDemoSite, type DemoSite } from '../../examples/demo-site/src/index.js';

describe.skipIf(!has('redis-server', 'test/examples/fleet-redis.test.ts'))(
  'examples/fleet-redis (workers sharing robots.txt through Redis)',
  () => {
    let site: DemoSite;
    let fleet: FleetSummary;

    beforeAll(async () => {
      // Worker processes run compiled JavaScript, built by test/support/global-setup.ts.
      site = await startDemoSite();
      // REDIS_URL unset: the example starts its own redis-server on a free loopback port.
      fleet = await runFleet({
        startUrls: [site.url('shop', '/'), site.url('blog', '/'), site.url('docs', '/')],
        userAgent: DEMO_USER_AGENT,
        workers: 3,
        redisUrl: '',
      });
    }, 180_000);
    afterAll(async () => {
      await site?.close();
    });

    it('runs three worker processes, each crawling the whole demo site without a failure', () => {
      expect(fleet.startedRedis).toBe(true);
      expect(new Set(fleet.workers.map((worker) => worker.pid)).size).toBe(3);
      for (const worker of fleet.workers) {
        expect([...worker.pages].sort()).toEqual([...site.expected.crawled].sort());
        expect(worker.failedRequests).toBe(0);
      }
    });

    it('makes one robots.txt fetch per origin for the whole fleet', () => {
      expect(fleet.robotsFetches).toBe(4);
      for (const name of ['shop', 'blog', 'docs', 'mirror'] as const) {
        const { fetchPaths, statuses } = site.expected.robots[name];
        const requests = site.requests.filter((request) => request.origin === name && fetchPaths.includes(request.path));
        expect(
          requests.map((request) => request.status),
          name,
        ).toEqual(statuses);
      }
    });

    it('never fetches a disallowed URL from any worker', () => {
      const never = new Set(site.expected.neverFetched);
      expect(site.requests.filter((request) => never.has(site.url(request.origin, request.path)))).toEqual([]);
    });
  },
);
