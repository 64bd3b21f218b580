/**
 * Accountable crawling end to end on a real CheerioCrawler: with `records` on, the crawl of the
 * three-origin scenario leaves a records file and a snapshot directory; every request the servers
 * saw has its record; `heed audit` finds it clean; and an edited record, an altered snapshot and a
 * missing snapshot are each caught, naming the record's line.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '@heed/crawlee';
import { cheerioCrawler, crawlScenarioOnce, followEveryLink } from '../crawlee/crawlers.js';
import type { Scenario } from '../crawlee/scenario.js';
import { run } from '../cli/run-heed.js';

const HEEDBOT = 'HeedBot/1.0 (+https://heed.example/bot)';

describe('records on a CheerioCrawler crawl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heed-records-'));
  const file = join(dir, 'crawl-records.jsonl');
  const snapshots = join(dir, 'robots-snapshots');
  const called: CrawlRecord[] = [];
  let s: Scenario;

  crawlScenarioOnce(
    {
      userAgent: HEEDBOT,
      plugin: { records: { file, snapshots, onRecord: (record) => called.push(record) } },
      crawler: () => cheerioCrawler({ maxConcurrency: 4, maxRequestRetries: 0, requestHandler: followEveryLink(() => {}) }),
    },
    (done) => ({ s } = done),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const records = (): CrawlRecord[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as CrawlRecord);

  it('writes a record for every request the servers saw (robots.txt aside), before run() returns', () => {
    const left = new Set(
      records()
        .filter((r) => r.allowed)
        .map((r) => r.url),
    );
    const seen = s.site.allUrls().filter((url) => !url.endsWith('/robots.txt'));
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter((url) => !left.has(url))).toEqual([]);
    // The callback sink heard the same records the file holds.
    expect(called.length).toBe(records().length);
  });

  it('records skips with the deciding rule and the snapshot, and the doors requests left by', () => {
    const all = records();
    const skip = all.find((r) => r.url === s.a.url('/private/linked'));
    expect(skip).toMatchObject({ allowed: false, reason: 'rules', stage: 'enqueue', rule: 'disallow: /private', productToken: 'HeedBot' });
    expect(skip?.snapshot).toMatch(/^sha256:[0-9a-f]{64}$/);
    const stages = new Set(all.filter((r) => r.allowed).map((r) => r.stage));
    expect(stages).toContain('before-fetch');
    expect(stages).toContain('sitemap-file');
    expect(all.every((r) => r.userAgent === undefined || r.userAgent === HEEDBOT)).toBe(true);
    // Origin C answered 503: its URLs are skipped on the empty snapshot, as unreachable.
    const c = all.find((r) => r.origin === s.c.origin && !r.allowed);
    expect(c).toMatchObject({ reason: 'unreachable', robotsStatus: 503 });
  });

  it('keeps each robots.txt once, named by its hash, with its sightings', () => {
    const files = readdirSync(snapshots).sort();
    // A's and B's bodies and the empty body of C's 503: three snapshots, each a body and a sightings file.
    expect(files.filter((f) => f.endsWith('.txt'))).toHaveLength(3);
    expect(files.filter((f) => f.endsWith('.sightings.json'))).toHaveLength(3);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('audits clean: exit 0, every origin summed up', async () => {
    const result = await run(['audit', file, '--snapshots', snapshots]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Clean');
    const json = JSON.parse((await run(['audit', file, '--snapshots', snapshots, '--json'])).stdout) as {
      clean: boolean;
      origins: { origin: string }[];
      snapshotsVerified: number;
    };
    expect(json.clean).toBe(true);
    expect(json.snapshotsVerified).toBe(3);
    expect(json.origins.map((o) => o.origin)).toEqual(expect.arrayContaining([s.a.origin, s.b.origin, s.c.origin]));
  });

  /** A copy of the evidence to tamper with. */
  function copy(): { file: string; snapshots: string } {
    const to = mkdtempSync(join(dir, 'copy-'));
    cpSync(file, join(to, 'records.jsonl'));
    cpSync(snapshots, join(to, 'snapshots'), { recursive: true });
    return { file: join(to, 'records.jsonl'), snapshots: join(to, 'snapshots') };
  }
  const lineOf = (path: string, test: (r: CrawlRecord) => boolean): number =>
    readFileSync(path, 'utf8')
      .split('\n')
      .findIndex((line) => line !== '' && test(JSON.parse(line) as CrawlRecord)) + 1;

  it('catches a record edited to a disallowed URL, naming its line', async () => {
    const evidence = copy();
    const lines = readFileSync(evidence.file, 'utf8').split('\n');
    const at = lineOf(evidence.file, (r) => r.allowed && r.stage === 'before-fetch' && r.origin === s.a.origin);
    const record = JSON.parse(lines[at - 1] as string) as CrawlRecord;
    lines[at - 1] = JSON.stringify({ ...record, url: s.a.url('/private/edited') });
    writeFileSync(evidence.file, lines.join('\n'));
    const result = await run(['audit', evidence.file, '--snapshots', evidence.snapshots]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`line ${at}: disallowed-request ${s.a.url('/private/edited')}`);
  });

  it('catches a snapshot whose bytes changed, naming the records that rest on it', async () => {
    const evidence = copy();
    const at = lineOf(evidence.file, (r) => r.origin === s.a.origin && r.snapshot !== undefined);
    const id = (JSON.parse(readFileSync(evidence.file, 'utf8').split('\n')[at - 1] as string) as CrawlRecord).snapshot as string;
    const body = join(evidence.snapshots, `${id.slice('sha256:'.length)}.txt`);
    // An operator "fixing" the rules after the fact: allow everything.
    writeFileSync(body, readFileSync(body, 'utf8').replaceAll('Disallow', 'Allow'));
    const result = await run(['audit', evidence.file, '--snapshots', evidence.snapshots]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`line ${at}: snapshot-altered`);
  });

  it('catches a missing snapshot, naming the records that name it', async () => {
    const evidence = copy();
    const at = lineOf(evidence.file, (r) => r.origin === s.b.origin && r.snapshot !== undefined);
    const id = (JSON.parse(readFileSync(evidence.file, 'utf8').split('\n')[at - 1] as string) as CrawlRecord).snapshot as string;
    unlinkSync(join(evidence.snapshots, `${id.slice('sha256:'.length)}.txt`));
    const result = await run(['audit', evidence.file, '--snapshots', evidence.snapshots, '--json']);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { findings: { kind: string; line: number }[] };
    expect(json.findings).toContainEqual(expect.objectContaining({ kind: 'snapshot-missing', line: at }));
  });
});
