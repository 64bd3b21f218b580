/**
 * A fleet's pauses and crawl-delay through Redis trouble: crawler workers (real CheerioCrawlers with
 * the plugin, each a process on one real redis-server) against a recording loopback site, and the
 * test asserts what the site saw.
 *
 * - A Redis restarted inside a `Retry-After` pause has forgotten it; the worker that saw the 503
 *   still holds its requests for it, and puts it back in Redis for the fleet.
 * - A Redis frozen (SIGSTOP) and thawed: the workers, each on its own clock meanwhile, share
 *   Redis's clock again within about a second (a background PING), not at the end of the 30 s
 *   circuit break, and the site sees their requests the delay apart again.
 * - `Retry-After: soon 5` is no date (V8's `Date.parse` reads one in 2001): the origin pauses for
 *   the default 5 s.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { redisCommand, startRedis, type RedisServer } from '../manager/redis-helpers.js';
import { watchEventLoop } from '../support/event-loop-holds.js';
import { has } from '../support/requirements.js';
import { pageHits, runWorker } from './fleet.js';
import { page, startSite, text, type Site, type SiteOrigin } from './site.js';

const FILE = 'test/crawlee/fleet-pauses.test.ts';
/** How much earlier than a bound a request may be stamped: the site reads it a few ms after it left. */
const TOLERANCE_MS = 50;
/** What the workers' RedisStore calls its crawl clock's key of an origin (the default `keyPrefix`). */
const paceKey = (origin: SiteOrigin) => `heed:robots:pace:${origin.origin}`;
/** The workers' Redis command timeout: long enough that a busy machine's held event loop times out no answered command. */
const COMMAND_TIMEOUT_SECS = 2;

let redis: RedisServer | undefined;
let site: Site | undefined;
const loop = watchEventLoop();
afterAll(() => loop.stop());
afterEach(async () => {
  redis?.resume();
  await redis?.stop();
  await site?.close();
  redis = site = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, up to `ms`; whether it did. */
async function until(condition: () => boolean | Promise<boolean>, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** The end of `origin`'s pause in Redis (its clock), or `undefined` when Redis has none. */
async function pauseInRedis(port: number, origin: SiteOrigin): Promise<number | undefined> {
  const reply = await redisCommand(port, 'HGET', paceKey(origin), 'pause').catch(() => '$-1\r\n');
  return reply.startsWith('$-1') ? undefined : Number(reply.split('\r\n')[1]);
}

/** Clients connected to Redis, the one asking included. */
async function redisClients(port: number): Promise<number> {
  const reply = await redisCommand(port, 'CLIENT', 'LIST').catch(() => '');
  return reply.split('\n').filter((line) => line.includes('id=')).length;
}

/** An origin whose first request for `path` is answered 503 with `retryAfter`, every later one 200; `at()` when it was. */
function unavailableOnce(origin: SiteOrigin, path: string, retryAfter: string): { at(): number } {
  let at = 0;
  origin.routes.set(path, () => {
    if (at > 0) return page(path, []);
    at = Date.now();
    return text('busy', 503, { 'retry-after': retryAfter });
  });
  return { at: () => at };
}

describe.skipIf(!has('redis-server', FILE))('a Redis restarted inside a Retry-After pause', () => {
  const PAUSE_MS = 4_000;

  it('keeps the pause: the worker that saw the 503 holds its requests and puts the pause back in Redis', async () => {
    const server = (redis = await startRedis());
    site = await startSite(2);
    const [paced, hub] = site.origins as [SiteOrigin, SiteOrigin];
    paced.routes.set('/robots.txt', text('User-agent: *\nCrawl-delay: 0.5\n'));
    const unavailable = unavailableOnce(paced, '/p0', String(PAUSE_MS / 1000));
    const later = ['/p1', '/p2', '/p3', '/p4'];
    for (const path of later) paced.routes.set(path, page(path, []));
    hub.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    // The links to the paused origin come once Redis has the pause, has been restarted empty, and
    // the worker is connected to it again: their requests then ask a fleet's clock that forgot it.
    let linked = 0;
    let restored: number | undefined;
    hub.routes.set('/links', async () => {
      const paused = await until(async () => (await pauseInRedis(server.port, paced)) !== undefined);
      await server.stop();
      await server.restart();
      const reconnected = await until(async () => (await redisClients(server.port)) >= 2);
      if (!paused || !reconnected) return text(`paused in Redis: ${paused}, worker reconnected: ${reconnected}`, 500);
      linked = Date.now();
      // Watched through the pause: the worker puts it back in Redis.
      void until(async () => (restored = await pauseInRedis(server.port, paced)) !== undefined, PAUSE_MS);
      return page(
        'links',
        later.map((path) => paced.url(path)),
      );
    });

    const worker = await runWorker(server.url, [paced.url('/p0'), hub.url('/links')], {
      enqueue: true,
      commandTimeoutSecs: COMMAND_TIMEOUT_SECS,
    });
    expect(worker.failed).toBe(0);
    expect(worker.handled.sort()).toEqual([hub.url('/links'), ...['/p0', ...later].map((path) => paced.url(path))].sort());
    const at503 = unavailable.at();
    expect(linked - at503).toBeLessThan(PAUSE_MS);
    // Every page of the origin after the 503 (its retry and the four linked ones): none inside the pause.
    const after = pageHits(paced).filter((hit) => hit.at > at503);
    expect(after.map((hit) => hit.path).sort()).toEqual(['/p0', ...later]);
    const first = Math.min(...after.map((hit) => hit.at));
    console.log(
      `Redis restarted ${linked - at503} ms into a 4 s Retry-After: the next page request came ${first - at503} ms after the 503`,
    );
    expect(first - at503).toBeGreaterThanOrEqual(PAUSE_MS - TOLERANCE_MS - loop.longestMs());
    // Put back when the worker next asks Redis for a slot of the origin inside the pause. A worker
    // whose store saw the restart as an outage (on a busy machine) asks its own clock until Redis
    // answers again, and says so: the pause held all the same.
    const outage = worker.warnings.some((line) => /Redis is unreachable/.test(line));
    if (!outage) expect(restored).toBeDefined();
  }, 60_000);
});

describe.skipIf(!has('redis-server', FILE))('a Redis frozen and thawed under a fleet', () => {
  const DELAY_MS = 500;
  const WORKERS = 2;
  // Enough pages that neither worker runs out while Redis is frozen, on its own clock, before it can
  // see Redis again: on a busy machine the other may take seconds to meet the outage.
  const PAGES_PER_WORKER = 24;

  it('puts the workers back on one clock within about a second of the thaw, not the 30 s circuit break: the delay holds again', async () => {
    const server = (redis = await startRedis());
    site = await startSite(1);
    const origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text(`User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`));
    const pagesOf = (w: number) => Array.from({ length: PAGES_PER_WORKER }, (_, p) => origin.url(`/w${w}/p${p}`));
    for (let w = 0; w < WORKERS; w++) for (const url of pagesOf(w)) origin.routes.set(new URL(url).pathname, page(url, []));

    const outages = new Set<number>();
    // Each worker's first page is answered once both have asked for it: a busy machine starts
    // processes (and Crawlee in them) seconds apart, and the crawls must overlap.
    const asked = new Set<number>();
    let bothAsked: () => void = () => undefined;
    const both = new Promise<void>((resolve) => (bothAsked = resolve));
    for (let w = 0; w < WORKERS; w++) {
      origin.routes.set(`/w${w}/p0`, async () => {
        asked.add(w);
        if (asked.size === WORKERS) bothAsked();
        await both;
        return page(`w${w} p0`, []);
      });
    }
    const running = Promise.all(
      Array.from({ length: WORKERS }, (_, w) =>
        runWorker(server.url, pagesOf(w), {
          commandTimeoutSecs: COMMAND_TIMEOUT_SECS,
          onLine: (line) => {
            if (line.log === 'warning' && /unreachable/.test(line.message ?? '')) outages.add(w);
          },
        }),
      ),
    );
    // Frozen once the fleet's clock has let a few pages go; thawed as soon as both workers have met
    // it (a command timed out, the circuit opened), so that most of the crawl comes after.
    await until(() => pageHits(origin).length >= 4, 60_000);
    server.pause();
    const frozeAt = Date.now();
    const met = await until(() => outages.size === WORKERS, 20_000);
    server.resume();
    const thawedAt = Date.now();
    const workers = await running;

    expect(met).toBe(true);
    // The store's lines only: on a busy machine a worker may also say it waits on a slow robots.txt.
    const redisLines = (worker: (typeof workers)[number]) => worker.infos.filter((line) => /Redis/.test(line.message));
    for (const worker of workers) {
      expect(worker.failed).toBe(0);
      expect(worker.warnings).toEqual([expect.stringMatching(/Redis is unreachable/)]);
      expect(redisLines(worker).map((line) => line.message)).toEqual([expect.stringMatching(/reachable again/)]);
    }
    const backAt = Math.max(...workers.map((worker) => redisLines(worker)[0]!.at));
    console.log(`Redis frozen ${thawedAt - frozeAt} ms: both workers back on its clock ${backAt - thawedAt} ms after the thaw`);
    // A PING a second: ten times that allows for a busy machine, and is a third of the break.
    expect(backAt - thawedAt).toBeLessThan(10_000);
    // From one delay after the later worker came back (a request it let go on its own clock just
    // before may still be on its way), the site sees page requests the delay apart again.
    const hits = pageHits(origin);
    expect(hits).toHaveLength(WORKERS * PAGES_PER_WORKER);
    const checked = hits.flatMap((hit, i) => (i > 0 && hit.at >= backAt + DELAY_MS ? [hit.at - hits[i - 1]!.at] : []));
    console.log(`after: ${checked.length} gaps, the smallest ${Math.min(...checked)} ms`);
    expect(checked.length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...checked)).toBeGreaterThanOrEqual(DELAY_MS - TOLERANCE_MS - loop.longestMs());
  }, 90_000);
});

describe.skipIf(!has('redis-server', FILE))('Retry-After that is no HTTP date', () => {
  it('pauses the origin for the default 5 s after a 503 with "Retry-After: soon 5"', async () => {
    const server = (redis = await startRedis());
    site = await startSite(1);
    const origin = site.origins[0]!;
    origin.routes.set('/robots.txt', text('User-agent: *\nAllow: /\n'));
    const unavailable = unavailableOnce(origin, '/q0', 'soon 5');

    const worker = await runWorker(server.url, [origin.url('/q0')], { commandTimeoutSecs: COMMAND_TIMEOUT_SECS });
    expect(worker.failed).toBe(0);
    const at503 = unavailable.at();
    // The page again, once Crawlee retries it: no sooner than the pause lets it.
    const after = pageHits(origin).filter((hit) => hit.at > at503);
    expect(after.map((hit) => hit.path)).toEqual(['/q0']);
    const first = after[0]!.at;
    console.log(`503 with Retry-After: soon 5: the page was asked again ${first - at503} ms later`);
    expect(first - at503).toBeGreaterThanOrEqual(5_000 - TOLERANCE_MS - loop.longestMs());
  }, 60_000);
});
