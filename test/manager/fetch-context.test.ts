/**
 * A call's fetch context (`decide(url, token, { proxyUrl })`): robots.txt and tdmrep.json go
 * through the proxy the caller names, plain HTTP and https (CONNECT) alike; the proxy function is
 * consulted only when the manager fetches, never on a cache hit; the manager's own `proxyUrl` wins;
 * and a proxy that fails (refuses, answers 502 or 407, a function that throws) is a network failure
 * of the fetch: robots.txt unreachable, everything disallowed, never a 4xx that allows all.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager, type FetchContext } from '@heed/manager';
import { startForwardProxy, VIA, type ForwardProxy } from '../support/forward-proxy.js';
import { hasOpenssl, selfSignedCertificate } from '../support/tls.js';
import { deadPort, recordingLog, startServer, UA, type TestServer } from './helpers.js';

const RULES = 'User-agent: *\nDisallow: /private\n';

let site: TestServer;
let proxy: ForwardProxy;
beforeAll(async () => {
  site = await startServer((req, res) => {
    if (req.url === '/robots.txt') res.end(RULES);
    else if (req.url === '/.well-known/tdmrep.json') res.end('[{"location":"/","tdm-reservation":1}]');
    else res.writeHead(404).end();
  });
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await site.close();
  await proxy.close();
});
afterEach(() => {
  site.seen.length = 0;
  proxy.seen.length = 0;
  proxy.mode = 'forward';
});

function manager(extra: Partial<ConstructorParameters<typeof RobotsManager>[0]> = {}) {
  return new RobotsManager({ userAgent: UA, log: recordingLog().log, timeoutSecs: 10, connectTimeoutSecs: 2, ...extra });
}

describe('FetchContext: the proxy of the call', () => {
  it('fetches robots.txt through the proxy the context names, consulted once per fetch and never on a cache hit', async () => {
    const asked: string[] = [];
    const context: FetchContext = {
      proxyUrl: (url) => {
        asked.push(url);
        return proxy.url;
      },
    };
    const m = manager();
    try {
      expect((await m.decide(`${site.origin}/private/a`, undefined, context)).allowed).toBe(false);
      expect((await m.decide(`${site.origin}/open`, undefined, context)).allowed).toBe(true);
      expect(await m.crawlDelay(`${site.origin}/x`, undefined, context)).toBeUndefined();
      expect(await m.sitemaps(`${site.origin}/x`, context)).toEqual([]);
      await m.prefetch([`${site.origin}/y`], context);
      expect(asked).toEqual([`${site.origin}/robots.txt`]);
      expect(proxy.seen).toEqual([{ kind: 'http', target: `${site.origin}/robots.txt`, userAgent: UA }]);
      // The site saw the request the proxy forwarded, and nothing directly.
      expect(site.seen.map((r) => [r.url, r.headers['via']])).toEqual([['/robots.txt', VIA]]);
    } finally {
      await m.close();
    }
  });

  it('fetches tdmrep.json for usage() through the context of the query', async () => {
    const m = manager();
    try {
      const report = await m.usage(`${site.origin}/page`, { purposes: ['train-ai'], fetch: { proxyUrl: proxy.url } });
      expect(report.decision('train-ai')?.preference).toBe('disallow');
      expect(proxy.seen.map((r) => r.target).sort()).toEqual([`${site.origin}/.well-known/tdmrep.json`, `${site.origin}/robots.txt`]);
      expect(site.seen.every((r) => r.headers['via'] === VIA)).toBe(true);
    } finally {
      await m.close();
    }
  });

  it("lets the manager's own proxyUrl win over the context's", async () => {
    const other = await startForwardProxy();
    const m = manager({ proxyUrl: other.url });
    try {
      await m.decide(`${site.origin}/a`, undefined, { proxyUrl: proxy.url });
      expect(proxy.seen).toEqual([]);
      expect(other.seen.map((r) => r.target)).toEqual([`${site.origin}/robots.txt`]);
    } finally {
      await m.close();
      await other.close();
    }
  });

  it.skipIf(!hasOpenssl)('tunnels an https robots.txt through CONNECT', async () => {
    const tls = https.createServer(selfSignedCertificate(), (_req, res) => res.end(RULES));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const origin = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    const previous = process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0';
    const m = manager();
    try {
      const verdict = await m.decide(`${origin}/private/x`, undefined, { proxyUrl: proxy.url });
      expect(verdict.record.status).toBe('ok');
      expect(verdict.allowed).toBe(false);
      expect(proxy.seen).toEqual([{ kind: 'connect', target: origin.slice('https://'.length), userAgent: expect.any(String) }]);
    } finally {
      if (previous === undefined) delete process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
      else process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = previous;
      await m.close();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});

describe('a failing proxy fails the fetch closed', () => {
  const failures: [string, () => Promise<FetchContext>, string?][] = [
    ['refuses connections', async () => ({ proxyUrl: `http://127.0.0.1:${await deadPort()}` })],
    ['answers 502 to a plain-HTTP request', async () => ((proxy.mode = 'bad-gateway'), { proxyUrl: proxy.url }), 'http-502'],
    ['answers 407 to a plain-HTTP request', async () => ((proxy.mode = 'auth-required'), { proxyUrl: proxy.url }), 'proxy'],
    [
      'throws when asked for a proxy',
      async () => ({
        proxyUrl: () => {
          throw new Error('no proxy left');
        },
      }),
      'proxy',
    ],
  ];
  it.each(failures)('a proxy that %s: robots.txt unreachable, URLs disallowed', async (_name, contextOf, code) => {
    const m = manager();
    try {
      const verdict = await m.decide(`${site.origin}/open`, undefined, await contextOf());
      expect(verdict.allowed).toBe(false);
      expect(verdict.record.status).toBe('unreachable');
      const record = await m.get(site.origin);
      expect(record.status === 'unreachable' && record.problem.code).toEqual(code ?? expect.any(String));
      expect(site.seen).toEqual([]);
    } finally {
      await m.close();
    }
  });

  it.skipIf(!hasOpenssl).each(['bad-gateway', 'auth-required'] as const)(
    'a proxy answering CONNECT with %s: an https robots.txt is unreachable',
    async (mode) => {
      proxy.mode = mode;
      const m = manager();
      try {
        const verdict = await m.decide('https://127.0.0.1:9/open', undefined, { proxyUrl: proxy.url });
        expect(verdict.allowed).toBe(false);
        expect(verdict.record.status).toBe('unreachable');
        expect(proxy.seen.map((r) => r.kind)).toEqual(['connect']);
      } finally {
        await m.close();
      }
    },
  );
});

describe("a proxy's password", () => {
  const SECRET = 's3cret-Pa55';
  // The SOCKS proxy's message names it (the scheme is why it failed); a refused connection names no proxy.
  const proxies: [string, () => Promise<string>, boolean][] = [
    ['a SOCKS proxy, which Heed cannot fetch through', async () => `socks5://user:${SECRET}@127.0.0.1:1080`, true],
    ['an HTTP proxy that refuses connections', async () => `http://user:${SECRET}@127.0.0.1:${await deadPort()}`, false],
  ];

  it.each(proxies)('of %s is in no record, log line or error the fetch leaves', async (_name, proxyOf, named) => {
    const { lines, log } = recordingLog();
    const m = new RobotsManager({ userAgent: UA, log, timeoutSecs: 10, connectTimeoutSecs: 2 });
    try {
      const proxyUrl = await proxyOf();
      const verdict = await m.decide(`${site.origin}/open`, undefined, { proxyUrl: () => proxyUrl });
      expect(verdict.allowed).toBe(false);
      const record = await m.get(site.origin);
      expect(record.status).toBe('unreachable');
      const left = JSON.stringify({ verdict, record, lines });
      expect(left).not.toContain(SECRET);
      if (named) expect(left).toContain('socks5://user:***@127.0.0.1:1080');
    } finally {
      await m.close();
    }
  });

  it("is not in the error of the manager's own proxyUrl option", () => {
    expect(() => manager({ proxyUrl: `socks5://user:${SECRET}@127.0.0.1:1080` })).toThrow(/user:\*\*\*@/);
    try {
      manager({ proxyUrl: `socks5://user:${SECRET}@127.0.0.1:1080` });
    } catch (error) {
      expect(String(error)).not.toContain(SECRET);
    }
  });
});
