/**
 * Fetching robots.txt against a real server on 127.0.0.1, one programmed behaviour per case, and
 * what the manager makes of each: the status policy seen from outside.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager, type Verdict } from '@heed/manager';
import { fetchRobotsTxt } from '../../packages/manager/src/fetch/fetch-file.js';
import { has } from '../support/requirements.js';
import { selfSignedCertificate } from '../support/tls.js';
import { deadPort, recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { bodyCapped, bodyOf } from './records.js';

const RULES = 'User-agent: *\nDisallow: /private\n';

let server: TestServer;
let other: TestServer;
beforeAll(async () => {
  server = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});
afterEach(() => {
  server.seen.length = 0;
  other.seen.length = 0;
});

/** Timeouts far past any answer here: a slow machine must not turn a test's fetch into "unreachable"; timeout tests set their own. */
function manager(extra: Partial<ConstructorParameters<typeof RobotsManager>[0]> = {}) {
  return new RobotsManager({ userAgent: UA, log: recordingLog().log, timeoutSecs: 30, connectTimeoutSecs: 10, ...extra });
}

async function verdictsFor(origin: string, extra = {}): Promise<{ open: Verdict; private: Verdict }> {
  const m = manager(extra);
  try {
    return { open: await m.decide(`${origin}/public`), private: await m.decide(`${origin}/private/x`) };
  } finally {
    await m.close();
  }
}

describe('status classes', () => {
  const cases: { name: string; status: number; body?: string; open: boolean; priv: boolean; reason: string; recordStatus: string }[] = [
    { name: '200 with rules', status: 200, body: RULES, open: true, priv: false, reason: 'rules', recordStatus: 'ok' },
    { name: '204 no content', status: 204, open: true, priv: true, reason: 'rules', recordStatus: 'ok' },
    {
      name: '200 HTML page',
      status: 200,
      body: '<html><body>Disallow: /private</body></html>',
      open: true,
      priv: true,
      reason: 'rules',
      recordStatus: 'ok',
    },
    { name: '304 without Location', status: 304, open: true, priv: true, reason: 'unavailable', recordStatus: 'unavailable' },
    { name: '401', status: 401, body: RULES, open: true, priv: true, reason: 'unavailable', recordStatus: 'unavailable' },
    { name: '403', status: 403, body: RULES, open: true, priv: true, reason: 'unavailable', recordStatus: 'unavailable' },
    {
      name: '404 whose page holds rules',
      status: 404,
      body: RULES,
      open: true,
      priv: true,
      reason: 'unavailable',
      recordStatus: 'unavailable',
    },
    { name: '410', status: 410, open: true, priv: true, reason: 'unavailable', recordStatus: 'unavailable' },
    { name: '429', status: 429, body: RULES, open: false, priv: false, reason: 'unreachable', recordStatus: 'unreachable' },
    { name: '500', status: 500, body: RULES, open: false, priv: false, reason: 'unreachable', recordStatus: 'unreachable' },
    {
      name: '503 error page',
      status: 503,
      body: 'User-agent: *\nAllow: /',
      open: false,
      priv: false,
      reason: 'unreachable',
      recordStatus: 'unreachable',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.reason}`, async () => {
      server.handle((_req, res) => {
        res.statusCode = c.status;
        res.end(c.body);
      });
      const v = await verdictsFor(server.origin);
      expect(v.open.allowed).toBe(c.open);
      expect(v.private.allowed).toBe(c.priv);
      expect(v.open.reason).toBe(c.reason);
      expect(v.open.record.status).toBe(c.recordStatus);
      expect(v.open.record.httpStatus).toBe(c.status);
      expect(server.robotsRequests()).toBe(1);
    });
  }

  it('a 200 rule verdict names the deciding line and group', async () => {
    server.handle((_req, res) => res.end(RULES));
    const v = await verdictsFor(server.origin);
    expect(v.private).toMatchObject({ allowed: false, reason: 'rules', line: 2 });
    expect(v.private.explain()?.rule).toMatchObject({ directive: 'disallow', pattern: '/private' });
    expect(v.private.explain()?.groups[0]?.agents[0]?.token).toBe('*');
    expect(v.private.productToken).toBe('HeedBot');
  });
});

describe('the request', () => {
  it('sends the configured user-agent and no generated browser headers', async () => {
    server.handle((_req, res) => res.end(RULES));
    await verdictsFor(server.origin);
    const headers = server.seen[0]?.headers ?? {};
    expect(server.seen[0]?.url).toBe('/robots.txt');
    expect(headers['user-agent']).toBe(UA);
    expect(headers['sec-ch-ua']).toBeUndefined();
    expect(headers['sec-fetch-mode']).toBeUndefined();
  });

  it('goes through the proxy given as proxyUrl', async () => {
    const proxy = await startServer();
    proxy.handle((req, res) => {
      // A forward proxy sees the absolute URL; answer for the target itself.
      res.end(req.url === `${server.origin}/robots.txt` ? 'User-agent: *\nDisallow: /via-proxy\n' : '');
    });
    server.handle((_req, res) => res.end(RULES));
    try {
      const m = manager({ proxyUrl: proxy.origin });
      expect(await m.isAllowed(`${server.origin}/via-proxy`)).toBe(false);
      await m.close();
      expect(proxy.seen.map((r) => r.url)).toEqual([`${server.origin}/robots.txt`]);
      expect(proxy.seen[0]?.headers['user-agent']).toBe(UA);
      expect(server.seen).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('redirects', () => {
  const chain = (hops: number) => (req: { url?: string | undefined }, res: import('node:http').ServerResponse) => {
    const url = req.url ?? '';
    const n = url === '/robots.txt' ? 0 : Number(url.slice('/hop/'.length));
    if (n < hops) {
      res.statusCode = 301;
      res.setHeader('location', `/hop/${n + 1}`);
      res.end();
    } else {
      res.end(RULES);
    }
  };

  it('follows 5 hops and uses the rules at the end', async () => {
    server.handle(chain(5));
    const v = await verdictsFor(server.origin);
    expect(v.private).toMatchObject({ allowed: false, reason: 'rules' });
    expect(server.seen).toHaveLength(6);
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, finalUrl: `${server.origin}/hop/5` });
    expect(outcome.redirects).toHaveLength(5);
  });

  it('gives up on the 6th hop: unavailable, all allowed', async () => {
    server.handle(chain(6));
    const v = await verdictsFor(server.origin);
    expect(v.private).toMatchObject({ allowed: true, reason: 'unavailable', record: { status: 'unavailable', httpStatus: 301 } });
    expect(server.seen).toHaveLength(6); // the 6th redirect is not followed
  });

  it('detects a loop without walking it to the limit', async () => {
    server.handle((req, res) => {
      res.statusCode = 302;
      res.setHeader('location', req.url === '/robots.txt' ? '/a' : '/robots.txt');
      res.end();
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'redirect-failure', reason: 'redirect-loop' });
    expect(server.seen).toHaveLength(2);
    server.seen.length = 0;
    const v = await verdictsFor(server.origin);
    expect(v.private).toMatchObject({ allowed: true, reason: 'unavailable' });
  });

  it('follows a redirect to another origin, and its rules govern the origin asked for', async () => {
    other.handle((_req, res) => res.end('User-agent: *\nDisallow: /only-here\n'));
    server.handle((_req, res) => {
      res.statusCode = 308;
      res.setHeader('location', `${other.origin}/shared-robots.txt`);
      res.end();
    });
    const m = manager();
    expect(await m.isAllowed(`${server.origin}/only-here`)).toBe(false);
    const record = await m.get(server.origin);
    expect(record).toMatchObject({ origin: server.origin, status: 'ok', finalUrl: `${other.origin}/shared-robots.txt`, redirects: 1 });
    // The other origin's own robots.txt was never asked for: its record is separate.
    expect(other.seen.map((r) => r.url)).toEqual(['/shared-robots.txt']);
    await m.close();
  });
});

describe('bodies', () => {
  it('reads at most 500 KiB of a 600 KiB body and parses what it read', async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const filler = `# ${'x'.repeat(97)}\n`; // 100-byte comment lines
    const tail = 'Disallow: /late\n';
    const body = head + filler.repeat(Math.ceil((600 * 1024) / 100)) + tail;
    server.handle((_req, res) => res.end(body));
    const m = manager();
    expect(await m.isAllowed(`${server.origin}/early`)).toBe(false);
    expect(await m.isAllowed(`${server.origin}/late`)).toBe(true); // past the cap: never read
    const record = await m.get(server.origin);
    expect(bodyCapped(record)).toBe(true);
    expect(bodyOf(record).length).toBe(512_000);
    await m.close();
  });

  it('leaves no connection open once a body is read, whole, decoded or cut at the cap', async () => {
    const plain = 'User-agent: *\nDisallow: /private\n';
    const big = `${plain}${'# filler\n'.repeat(2_000)}`;
    // The server keeps idle connections for a minute: only the client can have closed them.
    const open = await startServer(
      (req, res) => {
        const kind = new URL(req.url ?? '/', 'http://x').searchParams.get('kind');
        if (kind === 'gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(plain));
        else res.end(kind === 'big' ? big : plain);
      },
      '127.0.0.1',
      { keepAliveMs: 60_000 },
    );
    try {
      const kinds = ['plain', 'gzip', 'big'];
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetchRobotsTxt(`${open.origin}/robots.txt?kind=${kinds[i % 3]}`, { userAgent: UA, maxBytes: 1_000 }),
        ),
      );
      expect(outcomes.map((o) => (o.kind === 'response' ? `${o.status} capped ${o.bodyCapped}` : o.kind))).toEqual(
        Array.from({ length: 30 }, (_, i) => `200 capped ${kinds[i % 3] === 'big'}`),
      );
      // The server sees every connection closed without being told to (polled, a slow machine's pace).
      for (let waited = 0; (await open.connections()) > 0 && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(await open.connections()).toBe(0);
    } finally {
      await open.close();
    }
  });

  it('decodes gzip and brotli', async () => {
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
    ] as const) {
      server.handle((_req, res) => {
        res.setHeader('content-encoding', encoding);
        res.end(encode(Buffer.from(RULES)));
      });
      const v = await verdictsFor(server.origin);
      expect(v.private).toMatchObject({ allowed: false, reason: 'rules' });
      expect(server.seen.at(-1)?.headers['accept-encoding']).toContain(encoding);
    }
  });

  it('stops decompressing a gzip bomb at the byte cap', async () => {
    const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024, 'a'.charCodeAt(0))); // 200 MB of "a", ~200 KB gzipped
    server.handle((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(bomb);
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, maxBytes: 100_000 });
    expect(outcome.kind).toBe('response');
    if (outcome.kind === 'response') {
      expect(outcome.body.length).toBe(100_000);
      expect(outcome.bodyCapped).toBe(true);
    }
  });

  it('cuts an incompressible gzip body at the byte cap too', async () => {
    const { randomBytes } = await import('node:crypto');
    const body = gzipSync(randomBytes(300_000));
    server.handle((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(body);
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, maxBytes: 50_000 });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, bodyCapped: true });
    if (outcome.kind === 'response') expect(outcome.body.length).toBe(50_000);
  });

  it('a gzip body that is not gzip is a decode failure: unreachable', async () => {
    server.handle((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end('this is not gzip at all');
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'decode' } });
  });
});

describe('network failures are unreachable: all disallowed', () => {
  it('timeoutSecs is in seconds, fractions too: 0.3 s is within 5, 3 s is past 0.5', async () => {
    server.handle((_req, res) => setTimeout(() => res.end(RULES), 300));
    expect((await verdictsFor(server.origin, { timeoutSecs: 5 })).private).toMatchObject({ allowed: false, reason: 'rules' });
    server.handle((_req, res) => setTimeout(() => res.end(RULES), 3_000));
    const started = Date.now();
    const v = await verdictsFor(server.origin, { timeoutSecs: 0.5 });
    expect(v.private).toMatchObject({ allowed: false, reason: 'unreachable', record: { status: 'unreachable' } });
    // 10× the timeout: the point is that 0.5 is not read as 500 s (nor 0.5 ms, which the first case rules out).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a body slower than the total timeout', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('User-agent: *\n'); // ... and the rest never comes
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'timeout' } });
    const v = await verdictsFor(server.origin, { timeoutSecs: 0.3 });
    expect(v.open).toMatchObject({ allowed: false, reason: 'unreachable', record: { status: 'unreachable' } });
  });

  it('headers that never come', async () => {
    server.handle(() => {});
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'timeout' } });
  });

  it('one deadline over every redirect hop: a redirect to a target that never answers times out', async () => {
    server.handle((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(301, { location: '/stalled' }).end();
      // '/stalled': headers never come
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, timeoutMs: 300 });
    expect(outcome).toMatchObject({
      kind: 'network',
      error: { code: 'timeout', url: `${server.origin}/stalled` },
      redirects: [`${server.origin}/stalled`],
    });
    expect(outcome.durationMs).toBeLessThan(5_000);
  });

  it('a connection reset before any response', async () => {
    server.handle((req) => req.socket.destroy());
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'reset' } });
    const v = await verdictsFor(server.origin);
    expect(v.open).toMatchObject({ allowed: false, reason: 'unreachable' });
  });

  it('a body cut short of its Content-Length', async () => {
    server.handle((req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('User-agent: *\nDisallow: /private\n', () => req.socket.destroy());
    });
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'truncated' } });
  });

  it('a port with nothing listening', async () => {
    const port = await deadPort();
    const outcome = await fetchRobotsTxt(`http://127.0.0.1:${port}/robots.txt`, { userAgent: UA });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'refused' } });
    const v = await verdictsFor(`http://127.0.0.1:${port}`);
    expect(v.open).toMatchObject({ allowed: false, reason: 'unreachable', record: { status: 'unreachable' } });
    expect(v.open.record.httpStatus).toBeUndefined();
  });
});

describe.skipIf(!has('openssl', 'test/manager/fetch.test.ts, the https cases'))('https', () => {
  let tlsServer: https.Server;
  let tlsOrigin: string;
  beforeAll(async () => {
    tlsServer = https.createServer(selfSignedCertificate(), (_req, res) => res.end(RULES));
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsOrigin = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
  });

  it('fetches robots.txt over TLS', async () => {
    const v = await verdictsFor(tlsOrigin);
    expect(v.private).toMatchObject({ allowed: false, reason: 'rules', origin: tlsOrigin });
  });

  it('follows a redirect from http to https', async () => {
    server.handle((_req, res) => {
      res.statusCode = 301;
      res.setHeader('location', `${tlsOrigin}/robots.txt`);
      res.end();
    });
    const v = await verdictsFor(server.origin);
    expect(v.private).toMatchObject({ allowed: false, reason: 'rules', origin: server.origin });
  });

  it('TLS spoken to a plain HTTP server is a network failure: unreachable', async () => {
    server.handle((_req, res) => res.end(RULES));
    const outcome = await fetchRobotsTxt(`https://127.0.0.1:${server.port}/robots.txt`, { userAgent: UA, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ kind: 'network', error: { code: 'tls' } });
  });
});
