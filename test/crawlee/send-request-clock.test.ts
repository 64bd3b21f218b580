/**
 * A `sendRequest()` call counts for its origin's crawl-delay from when it is sent, not from when
 * the page's handler started: a BasicCrawler fetches its pages this way, its slot is claimed as the
 * handler starts, and on a busy machine the handler's request can leave most of a delay later. The
 * next request of the origin then waits a full delay after the real send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';
import { guardSendRequest, type SendHops } from '../../packages/crawlee/src/taps/send-request.js';
import type { ContextInternals } from '../../packages/crawlee/src/taps/crawler-shape.js';
import { testGuard } from '../support/guard.js';
import { page, startSite, text, type Site } from './site.js';

const UA = 'HeedBot/1.0';
const direct: SendHops = (send, options, rest) => send(options, ...rest);

let site: Site;
beforeAll(async () => {
  site = await startSite(1);
  site.origins[0]!.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
  site.origins[0]!.routes.set('/page', page('page', []));
});
afterAll(async () => {
  await site?.close();
});

describe('sendRequest() and the crawl clock', () => {
  it("moves the origin's clock to the moment the call sends", async () => {
    const origin = site.origins[0]!;
    const manager = new RobotsManager({ userAgent: UA });
    const { guard, scheduler } = testGuard(manager as unknown as RobotsManagerLike, { userAgent: UA });
    const handlerStart = Date.now() - 900;
    scheduler.setDelay(origin.origin, 1, handlerStart);
    // The page's slot, claimed as its handler started 900 ms ago.
    expect(scheduler.claimSend(origin.origin, handlerStart)).toBe(0);
    const context = {
      request: { url: origin.url('/page') },
      sendRequest: async () => new Response('ok'),
    } as unknown as ContextInternals;
    guardSendRequest(context, guard, direct);
    const sent = Date.now();
    await (context['sendRequest'] as () => Promise<unknown>)();
    // Counted from the handler's start, the next request could go in 100 ms; from the send, in about 1 s.
    expect(scheduler.sendWait(origin.origin, sent)).toBeGreaterThanOrEqual(900);
    await manager.close();
  });
});
