/**
 * Compressed robots.txt bodies: decoded completely, or the fetch fails closed (`unreachable`).
 * A body decoded only in part must never be recorded `ok`: its lost end may hold a `Disallow`.
 */
import { brotliCompressSync, crc32, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { DecodeError, decoded } from '../../packages/manager/src/fetch/decode.js';
import { fetchRobotsTxt } from '../../packages/manager/src/fetch/fetch-file.js';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

/** ~53 KB of rules whose last line is the one that matters. */
const LONG = `User-agent: *\n${Array.from({ length: 2_400 }, (_, i) => `Disallow: /dir-${String(i)}/\n`).join('')}Disallow: /private\n`;
const SHORT = 'User-agent: *\nDisallow: /private\n';
const JUNK = Buffer.from('<!-- served by a proxy that appends its own footer -->\n');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** Serves `body` with `encoding`, written in a few pieces so member boundaries fall anywhere. */
function serve(encoding: string, body: Buffer): void {
  server.handle((_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.setHeader('content-encoding', encoding);
    const cuts = [0, Math.floor(body.length / 3), Math.floor(body.length / 2) + 7, body.length];
    for (let i = 1; i < cuts.length; i++) res.write(body.subarray(cuts[i - 1], cuts[i]));
    res.end();
  });
}

async function privateAllowed(): Promise<{ allowed: boolean; status: string }> {
  const m = new RobotsManager({ userAgent: UA, log: recordingLog().log, timeoutSecs: 30, connectTimeoutSecs: 10 });
  try {
    const verdict = await m.decide(`${server.origin}/private`);
    const record = await m.get(server.origin);
    return { allowed: verdict.allowed, status: record.status };
  } finally {
    await m.close();
  }
}

async function fetched() {
  return fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, timeoutMs: 5_000 });
}

describe('a compressed body is decoded completely', () => {
  const complete: [string, string, () => Buffer, string][] = [
    ['gzip followed by junk bytes (a long file)', 'gzip', () => Buffer.concat([gzipSync(LONG), JUNK]), LONG],
    ['gzip followed by junk bytes (a short file)', 'gzip', () => Buffer.concat([gzipSync(SHORT), JUNK]), SHORT],
    ['gzip followed by zero padding', 'gzip', () => Buffer.concat([gzipSync(LONG), Buffer.alloc(4_096)]), LONG],
    [
      'gzip in several members, then junk',
      'gzip',
      () => Buffer.concat([gzipSync(LONG.slice(0, 20_000)), gzipSync(LONG.slice(20_000, 40_000)), gzipSync(LONG.slice(40_000)), JUNK]),
      LONG,
    ],
    ['deflate followed by junk bytes', 'deflate', () => Buffer.concat([deflateSync(LONG), JUNK]), LONG],
    ['br', 'br', () => brotliCompressSync(LONG), LONG],
    ['x-gzip', 'x-gzip', () => gzipSync(LONG), LONG],
  ];
  it.each(complete)('%s: every byte, and the last Disallow holds', async (_name, encoding, body, text) => {
    serve(encoding, body());
    const outcome = await fetched();
    expect(outcome.kind).toBe('response');
    if (outcome.kind === 'response') expect(Buffer.from(outcome.body).toString('utf8')).toBe(text);
    expect(await privateAllowed()).toEqual({ allowed: false, status: 'ok' });
  });
});

describe('a compressed body that does not decode completely fails closed', () => {
  const gz = gzipSync(LONG);
  const badCrc = Buffer.from(gz);
  badCrc.writeUInt32LE((badCrc.readUInt32LE(badCrc.length - 8) ^ 1) >>> 0, badCrc.length - 8);
  const broken: [string, string, Buffer][] = [
    ['gzip cut short in its deflate data', 'gzip', gz.subarray(0, Math.floor(gz.length * 0.9))],
    ['gzip cut short in its trailer', 'gzip', gz.subarray(0, gz.length - 4)],
    ['gzip with a wrong checksum', 'gzip', badCrc],
    ['gzip whose second member is cut short', 'gzip', Buffer.concat([gzipSync(SHORT), gz.subarray(0, 500)])],
    ['deflate cut short', 'deflate', deflateSync(LONG).subarray(0, 2_000)],
    ['br cut short', 'br', brotliCompressSync(LONG).subarray(0, 500)],
    ['an empty gzip body', 'gzip', Buffer.alloc(0)],
  ];
  it.each(broken)('%s: a decode failure, recorded unreachable', async (_name, encoding, body) => {
    serve(encoding, body);
    expect(await fetched()).toMatchObject({ kind: 'network', error: { code: 'decode' } });
    expect(await privateAllowed()).toEqual({ allowed: false, status: 'unreachable' });
  });
});

describe('the output cap still holds', () => {
  it('a gzip bomb in several members followed by junk is cut at maxBytes', async () => {
    const member = gzipSync(Buffer.alloc(20 * 1024 * 1024, 'a'.charCodeAt(0))); // 20 MB of "a", ~20 KB gzipped
    serve('gzip', Buffer.concat([member, member, member, JUNK]));
    const outcome = await fetchRobotsTxt(`${server.origin}/robots.txt`, { userAgent: UA, maxBytes: 100_000 });
    expect(outcome).toMatchObject({ kind: 'response', bodyCapped: true });
    if (outcome.kind === 'response') expect(outcome.body.length).toBe(100_000);
  });
});

describe('gzip framing, in chunks of any size', () => {
  /** A gzip member with every optional header field (FEXTRA, FNAME, FCOMMENT, FHCRC) set. */
  function fullHeaderMember(text: string): Buffer {
    const data = Buffer.from(text);
    const header = Buffer.from([0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 255]);
    const extra = Buffer.from([4, 0, 1, 2, 3, 4]);
    const name = Buffer.from('robots.txt\0');
    const comment = Buffer.from('a comment\0');
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(data), 0);
    trailer.writeUInt32LE(data.length, 4);
    return Buffer.concat([header, extra, name, comment, Buffer.from([0xaa, 0xbb]), deflateRawSync(data), trailer]);
  }

  async function decode(body: Buffer, chunk: number): Promise<string> {
    async function* pieces() {
      for (let i = 0; i < body.length; i += chunk) yield body.subarray(i, i + chunk);
    }
    const out: Buffer[] = [];
    for await (const part of decoded(pieces(), 'gzip')) out.push(part);
    return Buffer.concat(out).toString('utf8');
  }

  const body = Buffer.concat([fullHeaderMember(SHORT), gzipSync(LONG), Buffer.alloc(10), JUNK]);
  it.each([1, 7, 4_096])('chunks of %i bytes: every member, optional header fields skipped, padding and junk ignored', async (chunk) => {
    expect(await decode(body, chunk)).toBe(SHORT + LONG);
  });

  it('a cut stream rejects with a DecodeError in chunks of 1 byte too', async () => {
    await expect(decode(gzipSync(LONG).subarray(0, 3_000), 1)).rejects.toBeInstanceOf(DecodeError);
  });
});
