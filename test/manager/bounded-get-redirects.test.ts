/**
 * The bounded GET's `beforeRedirect`: a caller holds or refuses each redirect hop before it is
 * requested (the plugin's sitemap fetches check robots.txt and wait for crawl-delay there). And the
 * caller's signal: it ends a GET, and a GET that ended leaves nothing on it (a manager passes one
 * signal to every fetch it makes).
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedGet } from '../../packages/manager/src/fetch/bounded-get.js';
import { redirect, startSite, text, type Site, type SiteOrigin } from '../crawlee/site.js';

const UA = 'HeedBot/1.0';
let site: Site;
let a: SiteOrigin;

beforeAll(async () => {
  site = await startSite(1);
  a = site.origins[0]!;
  a.routes.set('/from', redirect('/to'));
  a.routes.set('/to', text('arrived'));
  a.routes.set('/slow', () => new Promise((resolve) => setTimeout(() => resolve(text('late')), 3_000)));
});
afterAll(async () => {
  await site.close();
});

const get = (beforeRedirect: (target: string, from: string) => Promise<void>) =>
  boundedGet(a.url('/from'), { userAgent: UA, accept: '*/*', maxBytes: 1_000, maxRedirects: 5, beforeRedirect });

describe('boundedGet beforeRedirect', () => {
  it('a refused hop is never requested, and the GET rejects with the refusal', async () => {
    a.hits.length = 0;
    const refusal = new Error('disallowed');
    await expect(get(async () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(a.paths()).toEqual(['/from']);
  });

  it('a held hop is requested once the hook resolves, told where it comes from', async () => {
    a.hits.length = 0;
    const asked: string[] = [];
    const answer = await get(async (target, from) => {
      asked.push(`${from} -> ${target}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(asked).toEqual([`${a.url('/from')} -> ${a.url('/to')}`]);
    expect(answer.kind === 'response' && answer.status).toBe(200);
    if (answer.kind === 'response') answer.close();
    const [from, to] = a.hits;
    expect(to!.at - from!.at).toBeGreaterThanOrEqual(250);
  });
});

describe("boundedGet and the caller's signal", () => {
  it('takes its listener off the signal once the GET ends: read whole, closed, or failed', async () => {
    const caller = new AbortController();
    const options = { userAgent: UA, accept: '*/*', maxBytes: 1_000, maxRedirects: 5, timeoutSecs: 30, signal: caller.signal };
    const read = await boundedGet(a.url('/from'), options);
    if (read.kind !== 'response') throw new Error('no response');
    for await (const chunk of read.body()) expect(chunk.length).toBeGreaterThan(0);
    const closed = await boundedGet(a.url('/to'), options);
    if (closed.kind === 'response') closed.close();
    const refused = boundedGet(a.url('/from'), { ...options, beforeRedirect: () => Promise.reject(new Error('no')) });
    await expect(refused).rejects.toThrow('no');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('ends when the signal fires, before the answer and after it was aborted already', async () => {
    const caller = new AbortController();
    const options = { userAgent: UA, accept: '*/*', maxBytes: 1_000, maxRedirects: 5, timeoutSecs: 30, signal: caller.signal };
    const slow = boundedGet(a.url('/slow'), options);
    setTimeout(() => caller.abort(), 100);
    await expect(slow).rejects.toMatchObject({ code: 'network' });
    await expect(boundedGet(a.url('/to'), options)).rejects.toMatchObject({ code: 'network' });
  });
});
