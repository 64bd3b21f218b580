/**
 * `heed audit` on hand-written evidence: what it finds in records that are malformed, hostile or
 * unverifiable, that bytes from the files never reach the terminal raw, its progress line, and its
 * usage errors.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory, snapshotIdOf } from '@heed/manager';
import { auditCommand, escapeText } from '../../packages/cli/dist/audit-command.js';
import { parseCommandLine } from '../../packages/cli/dist/args.js';
import { makeStyle } from '../../packages/cli/dist/output.js';
import { run } from './run-heed.js';

const ORIGIN = 'https://a.example';
const ROBOTS = Buffer.from('User-agent: *\nDisallow: /private\n');
const ID = snapshotIdOf(ROBOTS);

describe('heed audit', () => {
  let dir: string;
  let snapshots: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heed-audit-'));
    snapshots = join(dir, 'snapshots');
    new SnapshotDirectory(snapshots).keepSnapshotSync(ID, ROBOTS, { origin: ORIGIN, fetchedAt: 1, httpStatus: 200, outcome: 'rules' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const record = (fields: Record<string, unknown> = {}) =>
    JSON.stringify({
      time: '2026-01-01T00:00:00.000Z',
      url: `${ORIGIN}/page`,
      origin: ORIGIN,
      stage: 'before-fetch',
      allowed: true,
      reason: 'rules',
      line: 0,
      snapshot: ID,
      productToken: 'MyBot',
      ...fields,
    });
  const file = (name: string, lines: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };

  it('names each malformed line by number, and an outcome the snapshot was never seen with', async () => {
    const path = file('mixed.jsonl', [
      record(),
      '{not json',
      record({ allowed: 'yes' }),
      record({ snapshot: 'sha256:../../etc' }),
      record({ reason: 'unavailable', url: `${ORIGIN}/private/x` }),
      record({ origin: 'https://b.example', url: 'https://b.example/page' }),
      // Moved to another origin, its origin left as it was: not judged by the first origin's rules.
      record({ url: 'https://b.example/private/x' }),
      // A WebSocket is judged by its http(s) twin: of the origin, and clean.
      record({ url: 'wss://a.example/socket' }),
    ]);
    const result = await run(['audit', path, '--snapshots', snapshots, '--json']);
    expect(result.code).toBe(1);
    const findings = (JSON.parse(result.stdout) as { findings: { kind: string; line: number }[] }).findings.map((f) => [f.line, f.kind]);
    expect(findings).toEqual([
      [2, 'malformed-line'],
      [3, 'malformed-line'],
      [4, 'malformed-line'],
      // Claims the robots.txt was a 404 (allow-all), which the snapshot was never seen as.
      [5, 'outcome-not-seen'],
      [6, 'outcome-not-seen'],
      [7, 'malformed-line'],
    ]);
  });

  it('reads a line too long, or not UTF-8, as malformed, and goes on', async () => {
    const path = file('long.jsonl', [record({ url: `${ORIGIN}/${'x'.repeat(1024 * 1024)}` }), record()]);
    appendFileSync(path, Buffer.from([0xff, 0xfe, 0x0a]));
    const result = await run(['audit', path, '--snapshots', snapshots, '--json']);
    const report = JSON.parse(result.stdout) as { records: number; findings: { kind: string; line: number; detail: string }[] };
    expect(report.records).toBe(1);
    expect(report.findings.map((f) => [f.line, f.detail])).toEqual([
      [1, 'longer than 1048576 bytes'],
      [3, 'not UTF-8'],
    ]);
  });

  it('never lets bytes of the files reach the terminal raw', async () => {
    const hostile = `${ORIGIN}/private/\u001b[2J\u001b]0;owned\u0007\u202e`;
    const path = file('hostile.jsonl', [record({ url: hostile, stage: '\u009b31m' })]);
    const human = await run(['audit', path, '--snapshots', snapshots]);
    expect(human.code).toBe(1);
    expect(human.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(human.stdout).toContain('\\u{1b}[2J');
    const json = await run(['audit', path, '--snapshots', snapshots, '--json']);
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(escapeText('a\\u{1b}')).toBe('a\\\\u{1b}');
  });

  it('writes a progress line to stderr as it reads a long file', async () => {
    const path = file(
      'many.jsonl',
      Array.from({ length: 2_000 }, () => record()),
    );
    const lines: string[] = [];
    const invocation = parseCommandLine(['audit', path, '--snapshots', snapshots]);
    if (invocation.kind !== 'run') throw new Error('expected a run');
    const result = await auditCommand(path, invocation.options, makeStyle(false), {
      write: (t: string) => lines.push(t),
      everyBytes: 64 * 1024,
    });
    expect(result.exitCode).toBe(0);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^heed audit: \d+ MiB of \d+ MiB read, \d+ records\n$/);
  });

  it('is a usage error without --snapshots, and an input error for a missing file', async () => {
    expect((await run(['audit', join(dir, 'x.jsonl')])).code).toBe(2);
    const missing = await run(['audit', join(dir, 'missing.jsonl'), '--snapshots', snapshots]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/records file .* does not exist/);
    expect((await run(['--help'])).stdout).toContain('heed audit <crawl-records.jsonl> --snapshots <dir>');
  });
});
