/**
 * A warm isAllowed() looks the origin up by the URL's text before the path (see manager.ts): every
 * spelling of a URL must still get its own origin's verdict, whichever way it is found, and no
 * spelling may borrow another origin's rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /private\n'));
});
afterAll(() => server.close());

describe('a warm check', () => {
  it('gives every spelling of a URL its own origin\'s verdict', async () => {
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
      for (const [url, allowed] of spellings) expect((await m.check(url)).allowed, url).toBe(allowed);
      expect(server.robotsRequests()).toBe(1);
    } finally {
      await m.close();
    }
  });

  it('never lends an origin\'s rules to a URL of another origin that starts alike', async () => {
    const m = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    const other = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /\n'));
    try {
      const { port } = new URL(server.origin);
      expect(await m.isAllowed(`${server.origin}/page`)).toBe(true);
      // Same host, other port; the port's digits start alike.
      expect(await m.isAllowed(`http://127.0.0.1:${port}0/page`)).toBe(false); // nothing listens: unreachable
      expect(await m.isAllowed(`${other.origin}/page`)).toBe(false);
      expect(await m.isAllowed(`${server.origin}/page`)).toBe(true);
    } finally {
      await m.close();
      await other.close();
    }
  });
});
