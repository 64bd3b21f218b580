/**
 * `decideCached()`: the verdict `decide()` gives, synchronously, when the origin's record is in the
 * process cache and fresh; `undefined` (nothing loaded, nothing fetched) when it is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n'));
});
afterAll(() => server.close());

describe('decideCached()', () => {
  it('answers only once the origin is loaded, with the verdict decide() gives', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    try {
      expect(m.decideCached(`${server.origin}/private/a`)).toBeUndefined();
      expect(server.robotsRequests()).toBe(0);
      await m.decide(`${server.origin}/`);
      for (const path of ['/private/a', '/public']) {
        const url = `${server.origin}${path}`;
        const cached = m.decideCached(url);
        const decided = await m.decide(url);
        expect(cached).toBeDefined();
        expect({ ...cached, record: undefined }).toEqual({ ...decided, record: undefined });
        expect(cached?.explain()).toEqual(decided.explain());
      }
      expect(m.decideCached(`${server.origin}/public`, 'OtherBot')).toMatchObject({ allowed: false, line: 5 });
      expect(m.decideCached(`${server.origin}/public`, ['OtherBot', 'HeedBot'])).toMatchObject({ allowed: false });
      expect(() => m.decideCached(`${server.origin}/public`, 'OtherBot/2.0')).toThrow(InvalidOptionsError);
      expect(m.decideCached('mailto:someone@example.com')).toMatchObject({ allowed: false, reason: 'invalid-url' });
      expect(server.robotsRequests()).toBe(1);
    } finally {
      await m.close();
    }
    expect(m.decideCached(`${server.origin}/public`)).toBeUndefined();
  });

  it('gives nothing once the record is past its expiry: decide() fetches it again', async () => {
    let now = Date.now();
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log, now: () => now });
    const before = server.robotsRequests();
    try {
      await m.decide(`${server.origin}/`);
      expect(m.decideCached(`${server.origin}/private/x`)).toMatchObject({ allowed: false });
      now += 2 * 86_400_000;
      expect(m.decideCached(`${server.origin}/private/x`)).toBeUndefined();
      await m.decide(`${server.origin}/private/x`);
      expect(server.robotsRequests() - before).toBe(2);
      expect(m.decideCached(`${server.origin}/private/x`)).toMatchObject({ allowed: false });
    } finally {
      await m.close();
    }
  });

  it('answers a URL checked before by the rules in force now, never by the rules that judged it before', async () => {
    let body = 'User-agent: *\nDisallow: /news\n';
    const changing = await startServer((_req, res) => res.end(body));
    let now = Date.now();
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log, now: () => now });
    try {
      const url = `${changing.origin}/news/today`;
      await m.decide(url);
      const first = m.decideCached(url);
      expect(first).toMatchObject({ allowed: false, line: 2 });
      // Asked again under the same record: the same verdict.
      expect(m.decideCached(url)).toBe(first);
      // The site changes its rules; once the record expires and is fetched again, they decide.
      body = 'User-agent: *\nAllow: /news\nDisallow: /private\n';
      now += 2 * 86_400_000;
      expect(m.decideCached(url)).toBeUndefined();
      await m.decide(`${changing.origin}/`);
      expect(m.decideCached(url)).toMatchObject({ allowed: true, line: 2 });
      // Another token is judged by its own groups, whatever the default token was told.
      expect(m.decideCached(`${changing.origin}/private/a`)).toMatchObject({ allowed: false, line: 3 });
      expect(m.decideCached(`${changing.origin}/private/a`, 'OtherBot')).toMatchObject({ allowed: false, line: 3 });
      // Many more URLs than are remembered: each still has its own verdict.
      for (let i = 0; i < 10_000; i++) {
        const path = i % 2 === 0 ? `/private/${i}` : `/open/${i}`;
        expect(m.decideCached(`${changing.origin}${path}`)?.allowed).toBe(i % 2 !== 0);
      }
      expect(changing.robotsRequests()).toBe(2);
    } finally {
      await m.close();
      await changing.close();
    }
  });
});
