/**
 * `Retry-After` read from a fetch `Response`, the answer Crawlee 4's HTTP clients give: a `429` or
 * `503` pauses the origin on Heed's clock, except a `429` that the crawler's
 * `ThrottlingRequestManager` paces itself (Crawlee 4 tells it of every `429`).
 */
import { describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import type { CrawlDelayScheduler } from '../../packages/crawlee/src/politeness/scheduler.js';
import type { RobotsGuard } from '../../packages/crawlee/src/guard/guard.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { noteAnswer } from '../../packages/crawlee/src/politeness/answer.js';
import { testGuard } from '../support/guard.js';

const UA = 'HeedBot/1.0';
const ORIGIN = 'http://127.0.0.1:9';

function guardWithClock(): { guard: RobotsGuard; scheduler: CrawlDelayScheduler } {
  const manager = new RobotsManager({ userAgent: UA }) as unknown as RobotsManagerLike;
  return testGuard(manager, { userAgent: UA });
}

const answer = (status: number) => new Response(null, { status, headers: { 'retry-after': '7' } });

describe('a fetch Response with Retry-After (Crawlee 4 HTTP crawlers)', () => {
  it.each([429, 503])('%i pauses the origin for its Retry-After', async (status) => {
    const { guard, scheduler } = guardWithClock();
    const now = Date.now();
    await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, answer(status), { url: `${ORIGIN}/page` });
    // The next request of the origin waits about 7 s (wide margin for a slow machine).
    expect(scheduler.claimSend(ORIGIN, now)).toBeGreaterThan(5_000);
  });

  it('a 429 is left to a ThrottlingRequestManager that paces it; a 503 is not', async () => {
    const { guard, scheduler } = guardWithClock();
    await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, answer(429), { url: `${ORIGIN}/page` }, true);
    expect(scheduler.claimSend(ORIGIN, Date.now())).toBeLessThanOrEqual(0);
    await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, answer(503), { url: `${ORIGIN}/page` }, true);
    expect(scheduler.claimSend(ORIGIN, Date.now())).toBeGreaterThan(5_000);
  });
});
