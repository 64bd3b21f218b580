/**
 * Two questionable behaviours, decided (see "Decisions" in packages/manager/docs/reference.md):
 * - a stored record is never obeyed longer than `maxTtlSecs` after its fetch, whatever `expiresAt`
 *   it carries (another version, a clock ahead, a hand edit);
 * - a robots.txt in UTF-16 with a byte-order mark is decoded and its rules apply (Google finds no
 *   rules in it; the BOM makes it unambiguous), and `lint` warns about it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint } from '@heed/parser';
import { MemoryStore, RobotsManager, type OkRecord, type UnreachableRecord } from '@heed/manager';
import { decideRecord, POLICY_DEFAULTS } from '../../packages/manager/src/policy.js';
import { capExpiry } from '../../packages/manager/src/policy.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { bodyCapped, bodyOf, withStatus } from './records.js';

const ROBOTS = 'User-agent: *\nDisallow: /private\n';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
const NOW = Date.UTC(2026, 0, 1);
const quiet = recordingLog().log;

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end(ROBOTS));
});
afterAll(() => server.close());

function okRecord(origin: string, fetchedAt: number, expiresAt: number, body = ROBOTS): OkRecord {
  const url = `${origin}/robots.txt`;
  const record = decideRecord(
    origin,
    {
      kind: 'response',
      status: 200,
      headers: {},
      finalUrl: url,
      body: Buffer.from(body),
      bodyCapped: false,
      url,
      redirects: [],
      startedAt: fetchedAt,
      durationMs: 1,
    },
    undefined,
    fetchedAt,
  );
  return { ...withStatus(record, 'ok'), expiresAt };
}

/** `record` after its origin became unreachable: no body, one failure, retried at `expiresAt`. */
function unreachableRecord({ body: _body, bodyCapped: _capped, ...record }: OkRecord, expiresAt: number): UnreachableRecord {
  const problem = { code: 'refused', message: 'connection refused' };
  return { ...record, status: 'unreachable', problem, failures: 1, unreachableSince: record.fetchedAt, expiresAt };
}

describe('a stored expiresAt is capped by maxTtlSecs when read', () => {
  it.each([
    ['within maxTtlSecs: kept', okRecord('https://a.example', NOW - HOUR, NOW + HOUR), NOW + HOUR],
    ['ten years away: maxTtlSecs after the fetch', okRecord('https://a.example', NOW - HOUR, NOW + 10 * YEAR), NOW - HOUR + DAY],
    ['fetched "in the future" (a clock ahead): maxTtlSecs from now', okRecord('https://a.example', NOW + YEAR, NOW + 2 * YEAR), NOW + DAY],
    [
      'unreachable, retry ten years away: retryMaxSecs after the fetch',
      unreachableRecord(okRecord('https://a.example', NOW, NOW), NOW + 10 * YEAR),
      NOW + POLICY_DEFAULTS.retryMaxMs,
    ],
  ])('%s', (_name, record, expiresAt) => {
    expect(capExpiry(record, NOW, POLICY_DEFAULTS).expiresAt).toBe(expiresAt);
  });

  it('a record in the store with a far-future expiresAt is fetched again after maxTtlSecs', async () => {
    const store = new MemoryStore();
    let now = Date.now();
    // Its rules say "disallow everything"; the site's real robots.txt disallows /private only.
    await store.set(server.origin, okRecord(server.origin, now, now + 100 * YEAR, 'User-agent: *\nDisallow: /\n'), Infinity);
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, now: () => now });
    expect(await manager.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(server.robotsRequests()).toBe(0);
    expect((await manager.get(server.origin)).expiresAt).toBe(now + DAY);
    now += DAY + 1;
    expect(await manager.isAllowed(`${server.origin}/public`)).toBe(true);
    expect(server.robotsRequests()).toBe(1);
    await manager.close();
  });

  it('also with a shorter maxTtlSecs', async () => {
    const store = new MemoryStore();
    let now = Date.now();
    const origin = server.origin.replace('127.0.0.1', 'localhost');
    await store.set(origin, okRecord(origin, now, now + 100 * YEAR, 'User-agent: *\nDisallow: /\n'), Infinity);
    const manager = new RobotsManager({ userAgent: UA, store, log: quiet, now: () => now, minTtlSecs: 60, maxTtlSecs: HOUR / 1000 });
    const before = server.robotsRequests();
    expect(await manager.isAllowed(`${origin}/public`)).toBe(false);
    now += HOUR + 1;
    expect(await manager.isAllowed(`${origin}/public`)).toBe(true);
    expect(server.robotsRequests()).toBe(before + 1);
    await manager.close();
  });
});

describe('a UTF-16 robots.txt with a byte-order mark', () => {
  const utf16 = (text: string, endian: 'le' | 'be') => {
    const le = Buffer.from(text, 'utf16le');
    if (endian === 'le') return Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
    const be = Buffer.from(le);
    be.swap16();
    return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
  };

  it.each(['le', 'be'] as const)('UTF-16%s: decoded, its rules apply, the record holds UTF-8', async (endian) => {
    const site = await startServer((_req, res) => {
      res.setHeader('content-type', 'text/plain; charset=utf-16');
      res.end(utf16('User-agent: *\r\nDisallow: /private\r\nDisallow: /caf\u00e9\r\n', endian));
    });
    try {
      const manager = new RobotsManager({ userAgent: UA, log: quiet });
      expect(await manager.isAllowed(`${site.origin}/private/x`)).toBe(false);
      expect(await manager.isAllowed(`${site.origin}/caf%C3%A9`)).toBe(false);
      expect(await manager.isAllowed(`${site.origin}/public`)).toBe(true);
      const record = await manager.get(site.origin);
      expect(bodyOf(record).toString('utf8')).toBe('User-agent: *\r\nDisallow: /private\r\nDisallow: /caf\u00e9\r\n');
      await manager.close();
    } finally {
      await site.close();
    }
  });

  it('without a BOM, the bytes are read as UTF-8 as Google does: no rules', async () => {
    const site = await startServer((_req, res) => res.end(Buffer.from('User-agent: *\nDisallow: /private\n', 'utf16le')));
    try {
      const manager = new RobotsManager({ userAgent: UA, log: quiet });
      expect(await manager.isAllowed(`${site.origin}/private/x`)).toBe(true);
      await manager.close();
    } finally {
      await site.close();
    }
  });

  it('the decoded body is cut at maxBytes too', async () => {
    // 2,000 CJK characters: 4,002 bytes of UTF-16, 6,000 of UTF-8.
    const site = await startServer((_req, res) => res.end(utf16(`User-agent: *\nDisallow: /private\n#${'\u4e2d'.repeat(2_000)}\n`, 'le')));
    try {
      const manager = new RobotsManager({ userAgent: UA, log: quiet, maxBytes: 5_000 });
      expect(await manager.isAllowed(`${site.origin}/private/x`)).toBe(false);
      const record = await manager.get(site.origin);
      expect(bodyOf(record).length).toBe(5_000);
      expect(bodyCapped(record)).toBe(true);
      await manager.close();
    } finally {
      await site.close();
    }
  });

  it('lint warns (utf16-encoding), no longer an error', () => {
    const found = lint(utf16('User-agent: *\nDisallow: /private\n', 'le'));
    expect(found).toEqual([expect.objectContaining({ code: 'utf16-encoding', severity: 'warning', line: 1 })]);
    expect(found[0]?.message).toMatch(/Save the file as UTF-8/);
    expect(lint(utf16('User-agent: *\n', 'be')).map((d) => d.code)).toEqual(['utf16-encoding']);
  });
});
