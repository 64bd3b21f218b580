/**
 * A warm check (`decide()`, `isAllowed()`) answers from the cached origin: every spelling of a URL
 * must get its own origin's verdict, and no spelling may borrow another origin's rules (as a lookup
 * by the URL's text before its origin could).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /private\n'));
});
afterAll(() => server.close());

describe('a warm check', () => {
  it("gives every spelling of a URL its own origin's verdict", async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    try {
      const { port } = new URL(server.origin);
      expect(await m.isAllowed(`${server.origin}/private/a`)).toBe(false);
      const spellings: [url: string, allowed: boolean][] = [
        [`http://127.0.0.1:${port}/private/b`, false],
        [`http://127.0.0.1:${port}/public`, true],
        [`HTTP://127.0.0.1:${port}/private/c`, false],
        [`http://user:secret@127.0.0.1:${port}/private/d`, false],
        [`http://127.0.0.1:${port}?next=/private/e`, true], // the path is `/?next=…`
        [`http://127.0.0.1:${port}#/private/f`, true], // the path is `/`
        [`  http://127.0.0.1:${port}/private/g`, false],
        [`http://127.0.0.1:${port}/./private/h`, false],
      ];
      for (const [url, allowed] of spellings) expect(await m.isAllowed(url), url).toBe(allowed);
      for (const [url, allowed] of spellings) expect((await m.decide(url)).allowed, url).toBe(allowed);
      expect(server.robotsRequests()).toBe(1);
    } finally {
      await m.close();
    }
  });

  it("never lends an origin's rules to a URL of another origin whose text starts alike", async () => {
    // Two servers on ports P and P·10+1: the second origin's text starts with the first's
    // (http://127.0.0.1:4321 and http://127.0.0.1:43211), the case a lookup by text prefix could confuse.
    const { short, long } = await portsThatStartAlike();
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    try {
      const shortOrigin = `http://127.0.0.1:${short.port}`;
      const longOrigin = `http://127.0.0.1:${long.port}`;
      expect(longOrigin.startsWith(shortOrigin)).toBe(true);
      expect(await m.isAllowed(`${shortOrigin}/page`)).toBe(true); // warm: allows all
      expect(await m.isAllowed(`${longOrigin}/page`)).toBe(false); // its own rules: Disallow: /
      expect(await m.isAllowed(`${shortOrigin}/page`)).toBe(true);
      expect(await m.isAllowed(`${longOrigin}/page`)).toBe(false);
      expect((await m.decide(`${longOrigin}/page`)).reason).toBe('rules');
      expect(long.robotsRequests()).toBe(1);
    } finally {
      await m.close();
      await Promise.all([short.close(), long.close()]);
    }
  });
});

describe('decide(), the check a crawler makes', () => {
  it('gives the verdict, reason and line at once, and explain() the deciding rule and groups when asked', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    const before = server.robotsRequests();
    try {
      const urls = [`${server.origin}/private/a`, `${server.origin}/private/b`, `${server.origin}/public`, `${server.origin}/`];
      for (const url of urls) {
        const verdict = await m.decide(url);
        expect(verdict, url).toMatchObject({ url, origin: server.origin, reason: 'rules', record: { status: 'ok', httpStatus: 200 } });
        const detail = verdict.explain();
        expect(detail?.rule?.line ?? 0, url).toBe(verdict.line);
        expect(detail?.groups.length, url).toBeGreaterThan(0);
        // Worked out once, then kept.
        expect(verdict.explain()).toBe(detail);
      }
      // Both disallowed URLs are decided by line 2, its Disallow rule.
      const a = await m.decide(urls[0]!);
      const b = await m.decide(urls[1]!);
      expect(a).toMatchObject({ allowed: false, line: 2 });
      expect(b).toMatchObject({ allowed: false, line: 2 });
      expect(a.explain()?.rule).toMatchObject({ directive: 'disallow', line: 2 });
      expect(await m.decide(urls[2]!)).toMatchObject({ allowed: true });
      // explain() is not data: a verdict's keys and JSON are its fields (the snapshot id of the robots.txt it was made with among them).
      expect(Object.keys(a)).toEqual(['allowed', 'reason', 'line', 'url', 'origin', 'productToken', 'record', 'snapshot']);
      expect(a.snapshot).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(JSON.parse(JSON.stringify(a))).toMatchObject({ allowed: false, line: 2, record: { status: 'ok' } });
      // The record's age is read when asked, and is in its keys and JSON as a field.
      const record = JSON.parse(JSON.stringify(a.record)) as Record<string, unknown>;
      expect(Object.keys(record)).toEqual(['status', 'httpStatus', 'fetchedAt', 'ageMs']);
      expect(record).toEqual({ status: 'ok', httpStatus: 200, fetchedAt: a.record.fetchedAt, ageMs: expect.any(Number) as number });
      expect({ ...a.record }).toMatchObject({ status: 'ok', httpStatus: 200, fetchedAt: a.record.fetchedAt });
      expect(a.record.ageMs).toBeGreaterThanOrEqual(0);
      expect(server.robotsRequests() - before).toBe(1);
    } finally {
      await m.close();
    }
  });

  it('reports a malformed product token as a rejection, warm or cold, never a throw', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    try {
      const url = `${server.origin}/public`;
      // A caller that chains .catch() on the returned promise must see the error there.
      const rejection = async (): Promise<void> => {
        let pending: Promise<unknown> | undefined;
        expect(() => (pending = m.decide(url, 'OtherBot/2.0'))).not.toThrow();
        await expect(pending).rejects.toThrow(/productToken/);
      };
      await rejection();
      expect((await m.decide(url)).allowed).toBe(true);
      await rejection();
    } finally {
      await m.close();
    }
  });

  it('answers an invalid URL without fetching, and rejects after close()', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    expect(await m.decide('not a url')).toMatchObject({ allowed: false, reason: 'invalid-url', origin: '', line: 0 });
    await m.close();
    await expect(m.decide('not a url')).rejects.toThrow(/close/);
  });
});

interface PortServer {
  readonly port: number;
  robotsRequests(): number;
  close(): Promise<void>;
}

/** A server on `port` answering robots.txt with `body`, or `undefined` when the port is taken. */
async function listenOn(port: number, body: string): Promise<PortServer | undefined> {
  let robots = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') robots++;
    res.end(body);
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!listening) return undefined;
  return { port, robotsRequests: () => robots, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Servers on P (allow all) and P·10+1 (disallow all), for some free P in 1024–6553. */
async function portsThatStartAlike(): Promise<{ short: PortServer; long: PortServer }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 1024 + Math.floor(Math.random() * (6553 - 1024));
    const short = await listenOn(port, 'User-agent: *\nAllow: /\n');
    if (!short) continue;
    const long = await listenOn(port * 10 + 1, 'User-agent: *\nDisallow: /\n');
    if (long) return { short, long };
    await short.close();
  }
  throw new Error('found no free pair of loopback ports P and P·10+1 in 50 tries');
}
