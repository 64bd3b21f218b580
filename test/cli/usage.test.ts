/**
 * `heed check URL --purpose …` and `heed explain FILE URL --purpose …` as users run them, run in
 * this process (run-heed.ts), against a server on 127.0.0.1 serving robots.txt and
 * tdmrep.json. Output and exit codes are asserted (1 when a purpose is disallowed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './run-heed.js';

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /open/ train-ai=y',
  'Content-Signal: search=yes, ai-input=no',
].join('\n');
const TDMREP = JSON.stringify([{ location: '/open/reserved/*', 'tdm-reservation': 1 }]);

/** heed with colour off, as a pipe reads it. */
const runHeed = (args: string[]) => run(args, { NO_COLOR: '1' });

let server: Server;
let origin: string;
let tdmrep = TDMREP;
const requested: string[] = [];
let dir: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/robots.txt') return void res.end(ROBOTS);
    if (req.url === '/.well-known/tdmrep.json') return void res.end(tdmrep);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'heed-usage-'));
  writeFileSync(join(dir, 'robots.txt'), ROBOTS);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('heed check --purpose', () => {
  it('prints the deciding signal and line, and exits 1 when the purpose is disallowed', async () => {
    requested.length = 0;
    const r = await runHeed(['check', `${origin}/page`, '--purpose', 'train-ai', '-A', 'HeedBot/1.0']);
    expect(r.stdout).toContain(`usage train-ai  DISALLOWED by Content-Usage "train-ai=n" at ${origin}/robots.txt line 3`);
    expect(r.code).toBe(1);
    expect(requested).toContain('/.well-known/tdmrep.json');
  });

  it('reads tdmrep.json for train-ai: a reservation disallows what robots.txt allowed', async () => {
    const r = await runHeed(['check', `${origin}/open/reserved/x`, `${origin}/open/fine`, '--purpose', 'train-ai', '-A', 'HeedBot/1.0']);
    expect(r.stdout).toContain(`DISALLOWED by tdm-reservation 1 for "/open/reserved/*" at ${origin}/.well-known/tdmrep.json rule 0`);
    expect(r.stdout).toContain(`allowed by Content-Usage "/open/ train-ai=y" at ${origin}/robots.txt line 4`);
    expect(r.code).toBe(1);
  });

  it('exits 0 when every purpose is allowed or unknown, and never fetches tdmrep.json for search', async () => {
    requested.length = 0;
    const r = await runHeed(['check', `${origin}/page`, '--purpose', 'search', '-A', 'HeedBot/1.0', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      results: { usageAllowed: boolean; usage: Record<string, { preference: string; decidedBy?: { signal: string; line: number } }> }[];
    };
    expect(json.results[0]?.usageAllowed).toBe(true);
    expect(json.results[0]?.usage['search']).toMatchObject({ preference: 'allow', decidedBy: { signal: 'content-signal', line: 5 } });
    expect(requested).not.toContain('/.well-known/tdmrep.json');
  });

  it('reads a tdmrep.json with a value nested 30,000 deep: the reservation stands (no stack overflow, no exit 2)', async () => {
    tdmrep = `[{"location":"/","tdm-reservation":1},{"location":${'['.repeat(30_000)}${']'.repeat(30_000)}}]`;
    try {
      const r = await runHeed(['check', `${origin}/open/x`, '--purpose', 'train-ai', '-A', 'HeedBot/1.0']);
      expect(r.stdout).toContain(`DISALLOWED by tdm-reservation 1 for "/" at ${origin}/.well-known/tdmrep.json rule 0`);
      expect(r.code).toBe(1);
    } finally {
      tdmrep = TDMREP;
    }
  });

  it('refuses an unknown purpose as bad usage (exit 2)', async () => {
    const r = await runHeed(['check', `${origin}/page`, '--purpose', 'training', '-A', 'HeedBot']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--purpose training: not a usage category; use one of train-ai, search, ai-input, ai-use.');
  });
});

describe('heed explain FILE URL --purpose', () => {
  it('judges each URL against the file, with the deciding line, exit 1 when a purpose is disallowed', async () => {
    const file = join(dir, 'robots.txt');
    const r = await runHeed(['explain', file, '/page', '/open/x', '--purpose', 'train-ai,ai-input', '-A', 'HeedBot']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`usage train-ai  DISALLOWED by Content-Usage "train-ai=n" at ${file} line 3`);
    expect(r.stdout).toContain(`usage train-ai  allowed by Content-Usage "/open/ train-ai=y" at ${file} line 4`);
    expect(r.stdout).toContain(`usage ai-input  DISALLOWED by Content-Signal "search=yes, ai-input=no" at ${file} line 5`);
    const ok = await runHeed(['explain', file, '/open/x', '--purpose', 'search', '-A', 'HeedBot']);
    expect(ok.code).toBe(0);
    // Without --purpose, nothing about usage and the exit code of today.
    const plain = await runHeed(['explain', file, '/page', '-A', 'HeedBot']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('usage train-ai');
  });
});
