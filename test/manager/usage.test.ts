/** RobotsManager#usage against a real server: robots.txt usage lines and tdmrep.json, fetched only for TDM purposes, cached, bounded. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';
import { withStatus } from './records.js';

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /open/ train-ai=y',
  'Content-Signal: search=yes, ai-input=no',
].join('\n');
const TDMREP = JSON.stringify([
  { location: '/reserved/*', 'tdm-reservation': 1, 'tdm-policy': 'https://example.com/policy.json' },
  { location: '/*', 'tdm-reservation': 0 },
]);

let server: TestServer;
let files: Record<string, { status: number; body: string }>;
const serveFiles: Parameters<TestServer['handle']>[0] = (req, res) => {
  const file = files[req.url ?? ''];
  res.statusCode = file?.status ?? 404;
  res.end(file?.body ?? 'not found');
};
beforeAll(async () => {
  server = await startServer(serveFiles);
});
afterAll(() => server.close());
afterEach(() => {
  server.seen.length = 0;
  server.handle(serveFiles);
});

const tdmRequests = () => server.seen.filter((r) => r.url === '/.well-known/tdmrep.json').length;
const create = (extra: { store?: MemoryStore } = {}) =>
  new RobotsManager({ userAgent: UA, log: recordingLog().log, timeoutSecs: 10, ...extra });

describe('RobotsManager#usage', () => {
  it('reads robots.txt preferences with their lines, and never fetches tdmrep.json without a TDM purpose', async () => {
    files = { '/robots.txt': { status: 200, body: ROBOTS }, '/.well-known/tdmrep.json': { status: 200, body: TDMREP } };
    const m = create();
    const report = await m.usage(`${server.origin}/reserved/a`, { purposes: ['search'] });
    expect(report.preference('search')).toBe('allow');
    expect(report.preference('train-ai')).toBe('disallow');
    expect(report.decision('train-ai')).toMatchObject({
      signal: 'content-usage',
      source: 'robots.txt',
      line: 3,
      where: `${server.origin}/robots.txt`,
    });
    expect(report.decision('ai-input')).toMatchObject({ signal: 'content-signal', line: 5 });
    expect(report.check(['search'])).toEqual({ allowed: true });
    expect(tdmRequests()).toBe(0);
    await m.close();
  });

  it('combines tdmrep.json with robots.txt: a reservation disallows where robots.txt allowed, each with its source', async () => {
    files = { '/robots.txt': { status: 200, body: ROBOTS }, '/.well-known/tdmrep.json': { status: 200, body: TDMREP } };
    const m = create();
    const reserved = await m.usage(`${server.origin}/open/reserved/x`, { purposes: ['train-ai'] });
    // robots.txt: /open/ says train-ai=y; tdmrep.json's first rule /reserved/* does not match /open/...
    expect(reserved.preference('train-ai')).toBe('allow');
    const tdm = await m.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] });
    expect(tdm.preference('train-ai')).toBe('disallow');
    const evidence = tdm.evidence.filter((e) => e.category === 'train-ai');
    expect(evidence.map((e) => e.source)).toEqual(['robots.txt', 'tdmrep.json']);
    expect(evidence[1]).toMatchObject({ signal: 'tdmrep', line: 0, where: `${server.origin}/.well-known/tdmrep.json` });
    expect(tdm.check(['train-ai'])).toMatchObject({ allowed: false, purpose: 'train-ai', evidence: { source: 'robots.txt', line: 3 } });
    // Fetched once for the origin, however many URLs ask.
    await Promise.all(Array.from({ length: 20 }, (_, i) => m.usage(`${server.origin}/reserved/${i}`, { purposes: ['ai-input'] })));
    expect(tdmRequests()).toBe(1);
    await m.close();
  });

  it('tdmrep.json alone decides when robots.txt says nothing; 404 means no reservation', async () => {
    files = { '/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /' }, '/.well-known/tdmrep.json': { status: 200, body: TDMREP } };
    const m = create();
    const report = await m.usage(`${server.origin}/reserved/doc`, { purposes: ['ai-input'] });
    expect(report.preference('ai-input')).toBe('disallow');
    expect(report.decision('ai-input')?.description).toContain('tdm-reservation 1 for "/reserved/*"');
    expect((await m.usage(`${server.origin}/other`, { purposes: ['ai-input'] })).preference('ai-input')).toBe('allow');
    await m.close();

    files = { '/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /' } };
    const n = create();
    const none = await n.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] });
    expect(none.preference('train-ai')).toBe('unknown');
    expect(none.check(['train-ai'])).toEqual({ allowed: true });
    expect(none.check(['train-ai'], 'disallow')).toEqual({ allowed: false, purpose: 'train-ai' });
    await n.close();
  });

  it('keeps tdmrep.json in the store under its own key: a second manager does not fetch it, and robots records are untouched', async () => {
    files = { '/robots.txt': { status: 200, body: ROBOTS }, '/.well-known/tdmrep.json': { status: 200, body: TDMREP } };
    const store = new MemoryStore();
    const a = create({ store });
    await a.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] });
    const b = create({ store });
    expect((await b.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] })).decision('ai-input')?.source).toBe('robots.txt');
    expect(tdmRequests()).toBe(1);
    expect((await store.get(`${server.origin}/.well-known/tdmrep.json`))?.status).toBe('ok');
    expect(withStatus(await store.get(server.origin), 'ok').body).toBe(Buffer.from(ROBOTS).toString('base64'));
    await a.close();
    await b.close();
  });

  it('fetches tdmrep.json once for two managers sharing a store: the second waits for the lock holder', async () => {
    files = { '/robots.txt': { status: 200, body: ROBOTS } };
    server.handle((req, res) => {
      if (req.url === '/.well-known/tdmrep.json') {
        setTimeout(() => res.end(TDMREP), 300);
        return;
      }
      res.end(ROBOTS);
    });
    const store = new MemoryStore();
    const a = create({ store });
    const b = create({ store });
    await a.isAllowed(`${server.origin}/`);
    await b.isAllowed(`${server.origin}/`);
    const reports = await Promise.all([a, b].map((m) => m.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] })));
    expect(reports.map((r) => r.preference('train-ai'))).toEqual(['disallow', 'disallow']);
    expect(tdmRequests()).toBe(1);
    await a.close();
    await b.close();
  });

  it('rejects a usage() waiting on tdmrep.json when close() comes, naming usage()', async () => {
    server.handle((req, res) => {
      if (req.url !== '/.well-known/tdmrep.json') res.end(ROBOTS); // tdmrep.json never answers
    });
    const m = create();
    await m.isAllowed(`${server.origin}/`);
    const pending = m.usage(`${server.origin}/reserved/doc`, { purposes: ['train-ai'] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await m.close();
    await expect(pending).rejects.toThrow('RobotsManager.usage() was called after close()');
  });

  it('refuses a tdmrep.json over 64 KiB whole, and an unreachable one states nothing', async () => {
    const huge = JSON.stringify([{ location: '/*', 'tdm-reservation': 1, pad: 'x'.repeat(70_000) }]);
    files = { '/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /' }, '/.well-known/tdmrep.json': { status: 200, body: huge } };
    const m = create();
    const report = await m.usage(`${server.origin}/a`, { purposes: ['train-ai'] });
    expect(report.preference('train-ai')).toBe('unknown');
    expect(report.notes.join(' ')).toContain('no rule is read');
    await m.close();

    files = { '/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /' }, '/.well-known/tdmrep.json': { status: 503, body: '' } };
    const n = create();
    const down = await n.usage(`${server.origin}/a`, { purposes: ['train-ai'] });
    expect(down.preference('train-ai')).toBe('unknown');
    expect(down.notes.join(' ')).toContain('unreachable');
    await n.close();
  });

  it('reads a tdmrep.json with a value nested 30,000 deep: the reservation before it stands (the check used to reject)', async () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const body = `[{"location":"/","tdm-reservation":1},{"location":${deep}}]`;
    files = { '/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /' }, '/.well-known/tdmrep.json': { status: 200, body } };
    const m = create();
    const report = await m.usage(`${server.origin}/reserved/page`, { purposes: ['train-ai'] });
    expect(report.preference('train-ai')).toBe('disallow');
    expect(report.decision('train-ai')).toMatchObject({ source: 'tdmrep.json', line: 0 });
    expect(report.notes.join(' ')).toContain('rule 1: "location" must be a path pattern');
    await m.close();
  });
});
