/**
 * The fault suite: hostile robots.txt servers on real sockets of 127.0.0.1, one per case, and what
 * the manager makes of each — the verdict, when it will fetch again, how long the check took and how
 * much memory it needed. Each case asserts the verdict and the bounds; together they write the
 * "Fault behaviour" table of packages/manager/docs/reference.md.
 *
 * What a fault costs is bounded in bytes (the body cut at `maxBytes`, the peak memory of the check)
 * and in requests (none before the retry time). Time is a deadline only, at ten times what a check
 * takes on an idle machine, so that a check that hangs fails and a machine busy with other work
 * does not; the table's time column is what this run measured.
 */
import { readFileSync } from 'node:fs';
import dns from 'node:dns';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { has } from '../support/requirements.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RobotsManager,
  type RobotsManagerOptions,
  type RobotsRecord,
  type RobotsRecordStatus,
  type Verdict,
  type VerdictReason,
} from '@heed/manager';
import { deadPort, recordingLog, startServer, UA, type Handler } from '../manager/helpers.js';
import {
  body,
  bomb,
  encodedBody,
  pseudoRandomBytes,
  redirect,
  resetMidBody,
  RULES,
  slowBody,
  startRawServer,
  startTlsServer,
  status,
  streamedBody,
} from './fault-server.js';
import { formatInterval, renderTable, tableRows, writeSection, type FaultRow } from './fault-table.js';
import { bodyCapped, problemOf } from '../manager/records.js';

const REFERENCE = fileURLToPath(new URL('../../packages/manager/docs/reference.md', import.meta.url));
const TIMEOUT_SECS = 2;
const MANAGER_OPTIONS = { timeoutSecs: TIMEOUT_SECS, connectTimeoutSecs: 1 } as const;
const MB = 1_048_576;

// A real GC between cases, so a case's peak is its own and not the garbage of the one before.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The manager's clock, moved by hand in the 503-then-200 case. */
const clock = { now: Date.now() };

interface Arranged {
  /** The URL checked. */
  readonly url: string;
  /** robots.txt requests the origin's server received so far (absent: nothing listens). */
  readonly robotsRequests?: () => number;
  readonly close?: () => Promise<void>;
}

interface FaultCase {
  readonly name: string;
  arrange(): Promise<Arranged>;
  /** Checks made for the case; default one check of the URL. Returns the verdict the row shows. */
  act?(manager: RobotsManager, arranged: Arranged): Promise<Verdict>;
  readonly expected: {
    readonly allowed: boolean;
    readonly reason: VerdictReason;
    readonly status: RobotsRecordStatus;
    /** `record.problem.code`; absent: no problem. */
    readonly problem?: string;
    /** `expiresAt - fetchedAt`: when the next fetch of the origin may happen. */
    readonly retryMs: number;
    readonly bodyCapped?: boolean;
  };
  /** What the retry column says beyond the interval; default by record status. */
  readonly retryNote?: string;
  /**
   * The check's deadline: ten times what it takes on an idle machine. Default {@link DEADLINE_MS}.
   */
  readonly deadlineMs?: number;
  readonly maxPeakBytes?: number;
  readonly skip?: string | undefined;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
/** The default deadline of a check: every case but the slow body answers within a second on an idle machine (the bombs ~0.7 s). */
const DEADLINE_MS = 10_000;

/** A server answering every request with `handler`. */
async function serve(handler: Handler, path = '/robots-fault/x'): Promise<Arranged> {
  const server = await startServer(handler);
  return { url: `${server.origin}${path}`, robotsRequests: () => server.robotsRequests(), close: () => server.close() };
}

const dnsCalls: string[] = [];

const cases: FaultCase[] = [
  {
    name: 'slow body (1 byte/s)',
    arrange: () => serve(slowBody, '/private/x'),
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'timeout', retryMs: MINUTE },
    // The fetch's timeout ends it (~2 s idle): the body never ends, and a byte a second would keep
    // a timeout between bytes from ever running out.
    deadlineMs: 10 * TIMEOUT_SECS * 1000,
  },
  {
    name: 'endless body',
    arrange: () => serve(streamedBody(), '/private/x'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY, bodyCapped: true },
  },
  {
    name: '10 MB body',
    arrange: () => serve(streamedBody(10 * 1_000_000), '/private/x'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY, bodyCapped: true },
  },
  {
    name: 'gzip bomb (128 MiB of newlines)',
    arrange: async () => serve(encodedBody('gzip', await bomb('gzip', 128 * MB)), '/private/x'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY, bodyCapped: true },
  },
  {
    name: 'brotli bomb (128 MiB of newlines)',
    arrange: async () => serve(encodedBody('br', await bomb('br', 128 * MB)), '/private/x'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY, bodyCapped: true },
  },
  {
    name: 'redirect loop (robots.txt → /a → robots.txt)',
    arrange: () =>
      serve(
        redirect((req) => (req.url === '/robots.txt' ? '/a' : '/robots.txt')),
        '/private/x',
      ),
    expected: { allowed: true, reason: 'unavailable', status: 'unavailable', problem: 'redirect-loop', retryMs: DAY },
  },
  {
    name: '6-hop redirect chain',
    arrange: () =>
      serve(
        redirect((req) => `/hop${Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0) + 1}`),
        '/private/x',
      ),
    expected: { allowed: true, reason: 'unavailable', status: 'unavailable', problem: 'too-many-redirects', retryMs: DAY },
  },
  {
    name: 'redirect to another port',
    arrange: async () => {
      const target = await startServer(body('text/plain', RULES));
      const first = await serve(
        redirect(() => `${target.origin}/robots.txt`, 301),
        '/private/x',
      );
      return { ...first, close: async () => void (await Promise.all([first.close?.(), target.close()])) };
    },
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY },
  },
  {
    name: 'redirect to https on another port',
    skip: has('openssl', 'test/faults/fault-suite.test.ts, redirect to https on another port') ? undefined : 'openssl is not installed',
    arrange: async () => {
      const target = await startTlsServer(RULES);
      const first = await serve(
        redirect(() => `${target.origin}/robots.txt`, 301),
        '/private/x',
      );
      return { ...first, close: async () => void (await Promise.all([first.close?.(), target.close()])) };
    },
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY },
  },
  {
    name: 'redirect to ftp://',
    arrange: () =>
      serve(
        redirect(() => 'ftp://127.0.0.1/robots.txt'),
        '/private/x',
      ),
    expected: { allowed: true, reason: 'unavailable', status: 'unavailable', problem: 'bad-location', retryMs: DAY },
  },
  {
    name: 'garbage status line',
    arrange: async () => {
      const raw = await startRawServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 abc garbage\r\n\0\0\r\n\r\n')));
      return { url: `http://127.0.0.1:${raw.port}/private/x`, robotsRequests: () => raw.connections(), close: () => raw.close() };
    },
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'network', retryMs: MINUTE },
  },
  {
    name: 'reset mid-body',
    arrange: () => serve(resetMidBody, '/private/x'),
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'truncated', retryMs: MINUTE },
  },
  {
    name: 'nothing listening',
    arrange: async () => ({ url: `http://127.0.0.1:${await deadPort()}/private/x` }),
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'refused', retryMs: MINUTE },
  },
  {
    // The resolver here sends queries to a name server off the machine, and the manager has no
    // lookup option: `dns.lookup` is stubbed for `.invalid` names (see beforeAll), so the failure is
    // produced locally, through the same code path as a real NXDOMAIN.
    name: 'host that does not resolve (.invalid, resolver stubbed)',
    arrange: async () => ({ url: 'http://heed-fault-suite.invalid/private/x' }),
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'dns', retryMs: MINUTE },
  },
  {
    name: 'TLS to a plain TCP server sending garbage',
    arrange: async () => {
      const raw = await startRawServer((socket) => socket.end('this is not a TLS server\r\n'));
      return { url: `https://127.0.0.1:${raw.port}/private/x`, robotsRequests: () => raw.connections(), close: () => raw.close() };
    },
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'tls', retryMs: MINUTE },
  },
  {
    name: 'TLS to a TCP server closing at once',
    arrange: async () => {
      const raw = await startRawServer((socket) => socket.destroy());
      return { url: `https://127.0.0.1:${raw.port}/private/x`, robotsRequests: () => raw.connections(), close: () => raw.close() };
    },
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'tls', retryMs: MINUTE },
  },
  {
    name: '429 with Retry-After: 120',
    arrange: () => serve(status(429, { 'retry-after': '120' }), '/private/x'),
    expected: { allowed: false, reason: 'unreachable', status: 'unreachable', problem: 'http-429', retryMs: 2 * MINUTE },
    retryNote: 'Retry-After',
  },
  {
    name: '503 twice, then 200',
    arrange: async () => {
      let n = 0;
      return serve((req, res, count) => (++n <= 2 ? status(503) : body('text/plain', RULES))(req, res, count), '/private/x');
    },
    async act(manager, arranged) {
      const first = await manager.decide(arranged.url);
      expect(first).toMatchObject({ allowed: false, reason: 'unreachable' });
      expect((await manager.get(arranged.url)).expiresAt - clock.now).toBe(MINUTE);
      clock.now += MINUTE - 1;
      await manager.decide(arranged.url); // not yet: no fetch
      expect(arranged.robotsRequests?.()).toBe(1);
      clock.now += 1;
      expect(await manager.decide(arranged.url)).toMatchObject({ allowed: false, reason: 'unreachable' });
      expect((await manager.get(arranged.url)).expiresAt - clock.now).toBe(2 * MINUTE); // backoff doubles
      clock.now += 2 * MINUTE;
      return manager.decide(arranged.url);
    },
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY },
    retryNote: 'after 1 min, then 2 min (backoff); after 24 h once read (cache TTL)',
  },
  {
    name: 'HTML page as robots.txt',
    arrange: () =>
      serve(body('text/html', '<!doctype html><html><body><h1>Welcome</h1><p>Disallow nothing</p></body></html>'), '/private/x'),
    expected: { allowed: true, reason: 'rules', status: 'ok', retryMs: DAY },
  },
  {
    name: 'binary body (64 KiB)',
    arrange: () => serve(body('application/octet-stream', pseudoRandomBytes(65_536)), '/private/x'),
    expected: { allowed: true, reason: 'rules', status: 'ok', retryMs: DAY },
  },
  {
    name: 'Latin-1 body (`Disallow: /caf\\xE9`, URL `/caf%E9`)',
    arrange: () =>
      serve(body('text/plain; charset=iso-8859-1', Buffer.from(`# caf\xe9 cr\xe8me\n${RULES}Disallow: /caf\xe9\n`, 'latin1')), '/caf%E9'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY },
  },
  {
    name: 'UTF-16LE body with BOM (decoded to UTF-8: its rules apply)',
    arrange: () =>
      serve(body('text/plain; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(RULES, 'utf16le')])), '/private/x'),
    expected: { allowed: false, reason: 'rules', status: 'ok', retryMs: DAY },
  },
];

/** Runs `work`, sampling heap + buffer memory every few ms; the peak growth over the start. */
async function measure<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; peakBytes: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  // Twice, a tick apart: buffers freed by the first collection are released off the main thread.
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  const base = used();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
  }, 2);
  const start = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - start;
    peak = Math.max(peak, used());
    return { value, ms, peakBytes: peak - base };
  } finally {
    clearInterval(sampler);
  }
}

function retryText(c: FaultCase, record: RobotsRecord): string {
  const interval = formatInterval(record.expiresAt - record.fetchedAt);
  if (c.retryNote?.startsWith('after')) return c.retryNote;
  const note = c.retryNote ?? (record.status === 'unreachable' ? 'backoff' : 'cache TTL');
  return `after ${interval} (${note})`;
}

function reasonText(record: RobotsRecord): string {
  return [
    `${record.status}${record.httpStatus === undefined ? '' : ` (HTTP ${record.httpStatus})`}`,
    problemOf(record)?.code,
    bodyCapped(record) ? 'body cut at maxBytes' : undefined,
    record.redirects === undefined || record.redirects === 0
      ? undefined
      : `${record.redirects} redirect${record.redirects === 1 ? '' : 's'}`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}

const rows = new Map<string, FaultRow>();
const originalLookup = dns.lookup;

beforeAll(async () => {
  // Only `.invalid` names are answered here, locally; every other case uses IP literals, which never
  // reach the resolver.
  const stub = (hostname: string, options: unknown, callback?: unknown) => {
    // IP literals (servers listening on 127.0.0.1) are "resolved" by the real lookup without a query.
    if (isIP(hostname) !== 0) return (originalLookup as (...args: unknown[]) => unknown)(hostname, options, callback);
    const done = (typeof options === 'function' ? options : callback) as (error: Error) => void;
    dnsCalls.push(hostname);
    if (!hostname.endsWith('.invalid')) throw new Error(`the fault suite does not resolve ${hostname}`);
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      errno: -3008,
      syscall: 'getaddrinfo',
      hostname,
    });
    process.nextTick(done, error);
  };
  (dns as { lookup: unknown }).lookup = stub;
  // Load the HTTP client before measuring: its first import is not a cost of any case.
  const warm = await serve(body('text/plain', RULES));
  const manager = new RobotsManager({ userAgent: UA, log: recordingLog().log });
  await manager.decide(warm.url);
  await manager.close();
  await warm.close?.();
});

afterAll(() => {
  (dns as { lookup: unknown }).lookup = originalLookup;
});

/** The table as this run measured it, or `undefined` when a case did not run (filtered, failed, no openssl). */
function measuredTable(): string | undefined {
  if (rows.size !== cases.length) return undefined;
  const ordered = cases.flatMap((c) => rows.get(c.name) ?? []);
  const settings =
    `Manager options: \`timeoutSecs: ${TIMEOUT_SECS}\`, \`connectTimeoutSecs: 1\`, the rest default (\`maxBytes\` 500 KiB, ` +
    '`maxRedirects` 5, `retryBaseSecs` 1 min). The URL checked is `/private/x` on an origin whose rules (when read) say ' +
    '`Disallow: /private`. *Retry*: when the next robots.txt fetch of the origin may happen (no fetch before). *Time*: wall ' +
    'time of the check. *Memory*: peak growth of heap + buffers during the check, server included.';
  return renderTable(ordered, settings);
}

describe('fault suite: hostile robots.txt servers', () => {
  for (const c of cases) {
    it.skipIf(c.skip !== undefined)(
      `${c.name} → ${c.expected.allowed ? 'allowed' : 'disallowed'} (${c.expected.reason}${c.expected.problem ? `, ${c.expected.problem}` : ''})`,
      async () => {
        clock.now = Date.now();
        const arranged = await c.arrange();
        const manager = new RobotsManager({
          userAgent: UA,
          log: recordingLog().log,
          now: () => clock.now,
          ...MANAGER_OPTIONS,
        } satisfies RobotsManagerOptions);
        try {
          const { value: verdict, ms, peakBytes } = await measure(() => (c.act ? c.act(manager, arranged) : manager.decide(arranged.url)));
          const record = await manager.get(arranged.url); // from the cache: no new fetch
          expect({ allowed: verdict.allowed, reason: verdict.reason }).toEqual({ allowed: c.expected.allowed, reason: c.expected.reason });
          expect(record.status).toBe(c.expected.status);
          expect(problemOf(record)?.code).toBe(c.expected.problem);
          expect(bodyCapped(record)).toBe(c.expected.bodyCapped === true);
          expect(record.expiresAt - record.fetchedAt).toBe(c.expected.retryMs);
          expect(ms).toBeLessThan(c.deadlineMs ?? DEADLINE_MS);
          expect(peakBytes).toBeLessThan(c.maxPeakBytes ?? 16 * MB);

          // Retry behaviour: until expiresAt the verdict comes from the record; the server sees nothing.
          const requestsBefore = arranged.robotsRequests?.();
          clock.now = record.expiresAt - 1;
          expect((await manager.decide(arranged.url)).allowed).toBe(c.expected.allowed);
          expect(arranged.robotsRequests?.()).toBe(requestsBefore);
          if (c.name.includes('.invalid')) expect(dnsCalls).toContain('heed-fault-suite.invalid');

          rows.set(c.name, {
            name: c.name,
            verdict: `${verdict.allowed ? 'allowed' : 'disallowed'} (${verdict.reason})`,
            reason: reasonText(record),
            retry: retryText(c, record),
            timeMs: ms,
            peakBytes,
          });
        } finally {
          await manager.close();
          await arranged.close?.();
        }
      },
      (c.deadlineMs ?? DEADLINE_MS) + 10_000,
    );
  }
  // Runs after every case above (tests of a file run in order). The table is documentation that
  // the suite generates: `npm run docs` rewrites it; an ordinary run only checks it, so no test
  // writes a tracked file and a stale table fails here.
  it('leaves the fault table of the manager reference as this run measured it (npm run docs rewrites it)', () => {
    const table = measuredTable();
    if (table === undefined) return; // a filtered or partial run has nothing complete to compare
    if (process.env.HEED_WRITE_DOCS === '1') {
      writeSection(REFERENCE, table);
      return;
    }
    // Time and memory are measured per run (bounded by the cases above); the rest must match.
    const settled = (text: string) => tableRows(text).map((cells) => cells.slice(0, 4));
    expect(settled(readFileSync(REFERENCE, 'utf8')), 'packages/manager/docs/reference.md is stale: run `npm run docs`').toEqual(
      settled(table),
    );
  });
});
