/**
 * The status policy as a table: fetch outcome (and the record before it) → record → verdict policy.
 * Pure functions: no server, no clock.
 */
import { describe, expect, it } from 'vitest';
import { decodeRecord, parseRetryAfter, RobotsFetchError, type RobotsRecord, type UnreachableRecord } from '@heed/manager';
import { cacheTtl, decideRecord, effectivePolicy, POLICY_DEFAULTS, retryDelay } from '../../packages/manager/src/policy.js';
import type { FetchOutcome } from '../../packages/manager/src/fetch/fetch-file.js';
import { bodyOf, problemOf, withStatus } from './records.js';

const ORIGIN = 'https://example.com';
const NOW = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const base = { url: `${ORIGIN}/robots.txt`, redirects: [] as string[], startedAt: NOW, durationMs: 5 };

function response(status: number, headers: Record<string, string> = {}, body = 'User-agent: *\nDisallow: /x\n'): FetchOutcome {
  return { ...base, kind: 'response', status, headers, finalUrl: base.url, body: Buffer.from(body), bodyCapped: false };
}
function network(code: 'refused' | 'timeout' | 'reset' | 'dns' = 'refused'): FetchOutcome {
  return { ...base, kind: 'network', error: new RobotsFetchError(code, base.url, code) };
}
function redirectFailure(reason: 'too-many-redirects' | 'redirect-loop'): FetchOutcome {
  return { ...base, kind: 'redirect-failure', reason, status: 301, finalUrl: `${ORIGIN}/hop`, redirects: ['a', 'b', 'c', 'd', 'e'] };
}

describe('decideRecord: outcome → record', () => {
  const table: [name: string, outcome: FetchOutcome, status: RobotsRecord['status'], ttl: number, verdicts: string][] = [
    ['200', response(200), 'ok', DAY, 'rules'],
    ['206', response(206), 'ok', DAY, 'rules'],
    ['200 max-age=3600', response(200, { cacheControl: 'public, max-age=3600' }), 'ok', HOUR, 'rules'],
    ['200 max-age=60 (below minTtl)', response(200, { cacheControl: 'max-age=60' }), 'ok', 5 * MIN, 'rules'],
    ['200 max-age=1 week (above maxTtl)', response(200, { cacheControl: 'max-age=604800' }), 'ok', DAY, 'rules'],
    ['200 no-store', response(200, { cacheControl: 'no-store' }), 'ok', 5 * MIN, 'rules'],
    ['304 (no Location)', response(304), 'unavailable', DAY, 'allow-all'],
    ['400', response(400), 'unavailable', DAY, 'allow-all'],
    ['404', response(404), 'unavailable', DAY, 'allow-all'],
    ['451', response(451), 'unavailable', DAY, 'allow-all'],
    ['too many redirects', redirectFailure('too-many-redirects'), 'unavailable', DAY, 'allow-all'],
    ['redirect loop', redirectFailure('redirect-loop'), 'unavailable', DAY, 'allow-all'],
    ['429', response(429), 'unreachable', MIN, 'disallow-all'],
    ['500', response(500), 'unreachable', MIN, 'disallow-all'],
    ['503 Retry-After: 120', response(503, { retryAfter: '120' }), 'unreachable', 2 * MIN, 'disallow-all'],
    ['503 Retry-After: 1 day (capped)', response(503, { retryAfter: '86400' }), 'unreachable', HOUR, 'disallow-all'],
    ['599', response(599), 'unreachable', MIN, 'disallow-all'],
    ['connection refused', network('refused'), 'unreachable', MIN, 'disallow-all'],
    ['timeout', network('timeout'), 'unreachable', MIN, 'disallow-all'],
  ];
  for (const [name, outcome, status, ttl, verdicts] of table) {
    it(`${name} → ${status}, cached ${ttl / MIN} min, ${verdicts}`, () => {
      const record = decideRecord(ORIGIN, outcome, undefined, NOW);
      expect(record.status).toBe(status);
      expect(record.expiresAt - NOW).toBe(ttl);
      expect(record.version).toBe(1);
      expect(record.fetchedAt).toBe(NOW);
      expect(effectivePolicy(record, NOW).kind).toBe(verdicts);
    });
  }

  it('keeps the raw bytes of a 2xx as base64', () => {
    const bytes = Buffer.from([0x55, 0x3a, 0x2a, 0x0a, 0xff, 0xfe]);
    const record = decideRecord(ORIGIN, { ...(response(200) as Extract<FetchOutcome, { kind: 'response' }>), body: bytes }, undefined, NOW);
    expect(bodyOf(record)).toEqual(bytes);
  });

  it('names the problem of unavailable and unreachable records', () => {
    expect(problemOf(decideRecord(ORIGIN, response(404), undefined, NOW))?.code).toBe('http-404');
    expect(problemOf(decideRecord(ORIGIN, response(503), undefined, NOW))?.code).toBe('http-503');
    expect(problemOf(decideRecord(ORIGIN, network('dns'), undefined, NOW))?.code).toBe('dns');
    expect(problemOf(decideRecord(ORIGIN, redirectFailure('redirect-loop'), undefined, NOW))?.code).toBe('redirect-loop');
  });
});

describe('unreachable: backoff, stale copy, the 30-day rule', () => {
  it('doubles the retry interval per consecutive failure up to retryMaxSecs', () => {
    let record: RobotsRecord | undefined;
    const intervals: number[] = [];
    let now = NOW;
    for (let i = 0; i < 9; i++) {
      record = decideRecord(ORIGIN, network(), record, now);
      intervals.push(record.expiresAt - now);
      now = record.expiresAt;
    }
    expect(intervals.map((ms) => ms / MIN)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    const down = withStatus(record, 'unreachable');
    expect(down.failures).toBe(9);
    expect(down.unreachableSince).toBe(NOW);
  });

  it('honours Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('30', NOW)).toBe(30_000);
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(retryDelay(5, 0)).toBe(1_000); // never a retry storm
    expect(retryDelay(1, undefined)).toBe(POLICY_DEFAULTS.retryBaseMs);
  });

  it('uses the last good copy while unreachable, and keeps it through further failures', () => {
    const good = withStatus(decideRecord(ORIGIN, response(200), undefined, NOW), 'ok');
    const down = withStatus(decideRecord(ORIGIN, response(503), good, NOW + DAY), 'unreachable');
    expect(down.lastGood).toEqual({ status: 'ok', httpStatus: 200, body: good.body, fetchedAt: NOW });
    const policy = effectivePolicy(down, NOW + DAY);
    expect(policy).toMatchObject({ kind: 'rules', reason: 'stale-copy', body: good.body });
    const stillDown = withStatus(decideRecord(ORIGIN, network(), down, NOW + 40 * DAY), 'unreachable');
    expect(stillDown.lastGood).toEqual(down.lastGood);
    expect(effectivePolicy(stillDown, NOW + 40 * DAY)).toMatchObject({ kind: 'rules', reason: 'stale-copy' });
  });

  it('a 4xx before the outage is a good copy too: still all allowed', () => {
    const gone = decideRecord(ORIGIN, response(404), undefined, NOW);
    const down = decideRecord(ORIGIN, network(), gone, NOW + DAY);
    expect(effectivePolicy(down, NOW + DAY)).toEqual({ kind: 'allow-all', reason: 'stale-copy' });
  });

  /** The record after failures at each of `days` (days after NOW), starting from `previous`. */
  function failingOn(days: readonly number[], previous?: RobotsRecord): UnreachableRecord {
    let record = previous;
    for (const day of days) record = decideRecord(ORIGIN, network(), record, NOW + day * DAY);
    return withStatus(record, 'unreachable');
  }

  it('allows all once failures spread over 30 days show the outage, with no good copy', () => {
    const first = decideRecord(ORIGIN, network(), undefined, NOW);
    expect(effectivePolicy(first, NOW + 29 * DAY)).toEqual({ kind: 'disallow-all', reason: 'unreachable' });
    // A failure at least every 7.5 days (a quarter of the period) over the 30 days.
    const later = failingOn([7, 14, 21, 28, 30], first);
    expect(later.unreachableSince).toBe(NOW);
    expect(later.failures).toBe(6);
    expect(effectivePolicy(later, NOW + 30 * DAY)).toEqual({ kind: 'allow-all', reason: 'long-unreachable' });
    // Configurable: Infinity keeps disallowing.
    expect(effectivePolicy(later, NOW + 365 * DAY, { unreachableAllowAfterMs: Infinity }).kind).toBe('disallow-all');
  });

  it('one old failure and one new one are no evidence: still disallowed', () => {
    // The 30-day-old time may be a clock far behind; nothing shows the origin was tried between.
    const later = failingOn([0, 30]);
    expect(later.unreachableSince).toBe(NOW);
    expect(effectivePolicy(later, NOW + 30 * DAY)).toEqual({ kind: 'disallow-all', reason: 'unreachable' });
    // Failures 8 days apart leave gaps: no evidence either, however long the streak.
    expect(effectivePolicy(failingOn([0, 8, 16, 24, 32, 40, 48]), NOW + 48 * DAY).kind).toBe('disallow-all');
  });

  it('a stored record written by a clock 31 days behind, plus one fresh 503: still disallowed', () => {
    const skewed = withStatus(decideRecord(ORIGIN, network(), undefined, NOW - 31 * DAY), 'unreachable');
    const fresh = decideRecord(ORIGIN, response(503), skewed, NOW);
    expect(effectivePolicy(fresh, NOW)).toEqual({ kind: 'disallow-all', reason: 'unreachable' });
    // The same record as a version without failure runs stored it: readable, and no evidence either.
    const { failedAt: _run, ...old } = skewed;
    const fromOld = withStatus(decideRecord(ORIGIN, response(503), decodeRecord(JSON.stringify(old), ORIGIN), NOW), 'unreachable');
    expect(fromOld.failedAt).toEqual([NOW]);
    expect(effectivePolicy(fromOld, NOW)).toEqual({ kind: 'disallow-all', reason: 'unreachable' });
  });

  it('failure times from a clock ahead count from when this clock reaches them, and restart the run', () => {
    const ahead = failingOn([40, 47, 54, 61, 68, 72]); // a clock 40 days ahead wrote this run
    expect(effectivePolicy(ahead, NOW).kind).toBe('disallow-all');
    const next = withStatus(decideRecord(ORIGIN, network(), ahead, NOW + HOUR), 'unreachable');
    expect(next.failedAt).toEqual([NOW + HOUR]);
    expect(next.unreachableSince).toBe(NOW + HOUR);
    expect(effectivePolicy(next, NOW + HOUR).kind).toBe('disallow-all');
  });

  it('a hand-made run with a gap in it is no evidence', () => {
    const record: UnreachableRecord = { ...failingOn([0]), failedAt: [NOW - 40 * DAY, NOW], unreachableSince: NOW - 40 * DAY };
    expect(effectivePolicy(record, NOW).kind).toBe('disallow-all');
  });

  it('keeps the failure run short however many failures there are', () => {
    const hourly = Array.from({ length: 60 * 24 }, (_, i) => i / 24); // every hour for 60 days
    const record = failingOn(hourly);
    expect(record.failures).toBe(hourly.length);
    expect(record.failedAt?.length).toBeLessThanOrEqual(12);
    expect(effectivePolicy(record, NOW + 60 * DAY).kind).toBe('allow-all');
  });

  it('a success ends the unreachable streak', () => {
    const down = decideRecord(ORIGIN, network(), undefined, NOW);
    const back = decideRecord(ORIGIN, response(200), down, NOW + HOUR);
    expect(back).not.toHaveProperty('failures');
    expect(back).not.toHaveProperty('unreachableSince');
    const downAgain = withStatus(decideRecord(ORIGIN, network(), back, NOW + 2 * DAY), 'unreachable');
    expect(downAgain.failures).toBe(1);
    expect(downAgain.unreachableSince).toBe(NOW + 2 * DAY);
  });
});

describe('cacheTtl', () => {
  it('reads max-age case-insensitively and ignores junk', () => {
    expect(cacheTtl('Max-Age=7200')).toBe(2 * HOUR);
    expect(cacheTtl('max-age=abc')).toBe(DAY);
    expect(cacheTtl(undefined)).toBe(DAY);
    expect(cacheTtl('max-age=7200', { ...POLICY_DEFAULTS, maxTtlMs: HOUR })).toBe(HOUR);
  });
});

describe('stored records: one shape per status', () => {
  // Records as the manager writes them (RECORD_VERSION 1), one per status.
  const ok = {
    version: 1,
    origin: ORIGIN,
    status: 'ok',
    httpStatus: 200,
    fetchedAt: NOW,
    expiresAt: NOW + 1,
    body: 'VXNlci1hZ2VudDogKg==',
  };
  const unavailable = {
    version: 1,
    origin: ORIGIN,
    status: 'unavailable',
    httpStatus: 404,
    fetchedAt: NOW,
    expiresAt: NOW + 1,
    problem: { code: 'http-404', message: 'robots.txt answered HTTP 404' },
  };
  const unreachable = {
    version: 1,
    origin: ORIGIN,
    status: 'unreachable',
    httpStatus: 503,
    fetchedAt: NOW,
    expiresAt: NOW + 1,
    problem: { code: 'http-503', message: 'robots.txt answered HTTP 503' },
    failures: 2,
    unreachableSince: NOW - 1,
    failedAt: [NOW - 1, NOW],
    lastGood: { status: 'ok', httpStatus: 200, body: 'VXNlci1hZ2VudDogKg==', fetchedAt: NOW - 2 },
  };

  it.each([ok, unavailable, unreachable])('reads a $status record the manager wrote, as written', (record) => {
    expect(decodeRecord(JSON.stringify(record), ORIGIN)).toEqual(record);
  });

  it.each([
    ['an ok record without its body', { ...ok, body: undefined }],
    ['an unavailable record without its problem', { ...unavailable, problem: undefined }],
    ['an unreachable record without its problem', { ...unreachable, problem: undefined }],
    ['an unreachable record without its failure count', { ...unreachable, failures: undefined }],
    ['an unreachable record without its streak start', { ...unreachable, unreachableSince: undefined }],
    ['an unreachable record whose last good copy is ok without a body', { ...unreachable, lastGood: { status: 'ok', fetchedAt: NOW } }],
    ['a record with a non-numeric redirect count', { ...ok, redirects: 'two' }],
  ])('refuses %s (it is fetched again)', (_name, record) => {
    expect(decodeRecord(JSON.stringify(record), ORIGIN)).toBeUndefined();
  });
});
