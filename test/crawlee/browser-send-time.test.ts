/**
 * A Playwright page's answer tells the crawl clock when its request really went on the wire
 * (`response.request().timing()`): a browser short of CPU sends a request well after Heed lets it
 * go, and the origin's next request then counts its crawl-delay from the real send, not from the
 * let-go. A timing that cannot be believed (none, -1, in the future) moves nothing.
 */
import { describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { noteAnswer } from '../../packages/crawlee/src/politeness/answer.js';
import { testGuard } from '../support/guard.js';

const UA = 'HeedBot/1.0';
const ORIGIN = 'http://127.0.0.1:9';
const URL_ = `${ORIGIN}/page`;

/** A Playwright `Response` as Heed reads it: status, headers, url, and its request's timing. */
const playwrightResponse = (timing: { startTime: number; requestStart: number } | undefined) => ({
  status: () => 200,
  headers: () => ({}),
  url: () => URL_,
  request: () => ({ timing: () => timing }),
});

async function nextWaitAfter(timing: { startTime: number; requestStart: number } | undefined, letGo: number, now: number): Promise<number> {
  const manager = new RobotsManager({ userAgent: UA }) as unknown as RobotsManagerLike;
  const { guard, scheduler } = testGuard(manager, { userAgent: UA });
  scheduler.setDelay(ORIGIN, 1, letGo);
  expect(scheduler.claimSend(ORIGIN, letGo)).toBe(0);
  await noteAnswer(guard.clock, guard.options.maxCrawlDelaySecs * 1000, playwrightResponse(timing), { url: URL_ });
  return scheduler.sendWait(ORIGIN, now);
}

describe("a Playwright answer's request timing", () => {
  it('moves the next slot to a delay after the real send', async () => {
    const now = Date.now();
    const letGo = now - 1_000;
    // Let go a second ago; the browser wrote it 600 ms later.
    const wait = await nextWaitAfter({ startTime: letGo + 590, requestStart: 10 }, letGo, now);
    expect(wait).toBeGreaterThanOrEqual(500);
    expect(wait).toBeLessThanOrEqual(600);
  });

  it.each([
    ['no timing', undefined],
    ['a request not sent (-1)', { startTime: Date.now() - 500, requestStart: -1 }],
    ['a time in the future', { startTime: Date.now() + 60_000, requestStart: 0 }],
  ])('%s moves nothing', async (_name, timing) => {
    const now = Date.now();
    expect(await nextWaitAfter(timing, now - 1_000, now)).toBeLessThanOrEqual(0);
  });
});
