/**
 * A warm check of the crawler's own token answers from the origin's quick form, kept beside its
 * cache entry: the parser's packed rules once a check has compiled them, or a constant for a policy
 * that allows or disallows every URL. It must give the verdict the parsed file gives. For every
 * file of the real-file sample and every URL, the manager's verdicts, first to last, equal the
 * parser's on a fresh parse; a warm check of a packed origin reads nothing of the parsed file (no
 * call to its checks); and a quick form never outlives the record it was made from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRobotsTxt, RobotsTxt } from '@heed/parser';
import { RobotsManager, type RobotsStore, type Verdict } from '@heed/manager';
import { decideRecord } from '../../packages/manager/src/policy.js';
import type { RobotsRecord } from '../../packages/manager/src/record.js';
import { okFetchOutcome } from '../support/records.mjs';
import { recordingLog, UA } from './helpers.js';

const quiet = recordingLog().log;
const TOKEN = 'HeedBot';
const SAMPLE = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));
const files = readdirSync(SAMPLE)
  .filter((name) => !name.endsWith('.md'))
  .map((name) => readFileSync(SAMPLE + name));

/** Paths every file is asked about: its own rules' paths (so rules decide), and a few that no rule names. */
function pathsFor(body: Buffer): string[] {
  const own = [...body.toString('latin1').matchAll(/^\s*(?:dis)?allow\s*:\s*(\S+)/gim)].map((m) => (m[1] as string).replace(/[*$]/g, 'x'));
  return ['/', '/robots.txt', '/index.html', '/search?q=1', '/%7Euser/a%2Fb', ...own.slice(0, 40)];
}

/** A store that hands out `recordOf(origin)` each time it is read. */
function storeOf(recordOf: (origin: string) => RobotsRecord): RobotsStore {
  return { get: async (origin) => recordOf(origin), set: async () => {}, delete: async () => {} };
}

const origin = (i: number): string => `https://site-${i}.example`;

function answer(verdict: Verdict): string {
  return `${verdict.allowed}@${verdict.line} ${verdict.reason}`;
}

afterEach(() => vi.restoreAllMocks());

describe('a warm check from the quick form', () => {
  it('gives the parsed file’s verdict on every real file, first check to last, in decide, decideCached and isAllowed', async () => {
    const now = Date.now();
    const manager = new RobotsManager({
      userAgent: UA,
      log: quiet,
      store: storeOf((o) => decideRecord(o, okFetchOutcome(o, files[Number(/\d+/.exec(o))] as Buffer, now), undefined, now)),
    });
    let packedFiles = 0;
    for (const [i, body] of files.entries()) {
      const fresh = parseRobotsTxt(body);
      for (const path of pathsFor(body)) {
        const url = origin(i) + path;
        const expected = fresh.decide(url, TOKEN);
        const want = `${expected.allowed}@${expected.line} rules`;
        // First (walks), second (compiles and keeps the quick form), third and fourth (from it).
        for (let k = 0; k < 4; k++) expect(answer(await manager.decide(url)), `${url}, check ${k}`).toBe(want);
        expect(await manager.isAllowed(url), url).toBe(expected.allowed);
        const cached = manager.decideCached(url);
        expect(cached === undefined ? undefined : answer(cached), url).toBe(want);
      }
      if (fresh.packedRules(TOKEN) !== undefined) packedFiles++;
    }
    expect(packedFiles, 'most of the sample is packed').toBeGreaterThan(files.length / 2);
    await manager.close();
  });

  it('reads nothing of the parsed file once the quick form is kept, and still explains the verdict', async () => {
    const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/press$\nDisallow: /*?session=\n';
    const manager = new RobotsManager({
      userAgent: UA,
      log: quiet,
      store: storeOf((o) => decideRecord(o, okFetchOutcome(o, Buffer.from(body)), undefined, Date.now())),
    });
    for (const url of ['https://a.example/', 'https://a.example/x']) await manager.decide(url);
    const checks = vi.spyOn(RobotsTxt.prototype, 'decidingLine');
    const allows = vi.spyOn(RobotsTxt.prototype, 'isAllowed');
    const verdict = await manager.decide('https://a.example/private/x');
    expect(await manager.isAllowed('https://a.example/private/press')).toBe(true);
    expect(await manager.isAllowed('https://a.example/p?session=1')).toBe(false);
    // The crawler's token named as the Crawlee plugin names it, alone or as a list, is its own.
    expect((await manager.decide('https://a.example/private/y', TOKEN)).allowed).toBe(false);
    expect(manager.decideCached('https://a.example/private/z', [TOKEN])?.allowed).toBe(false);
    expect(checks).not.toHaveBeenCalled();
    expect(allows).not.toHaveBeenCalled();
    expect(verdict).toMatchObject({ allowed: false, line: 2, reason: 'rules', origin: 'https://a.example' });
    expect(verdict.rule()?.pattern).toBe('/private/');
    expect(verdict.explain()?.rule?.line).toBe(2);
    // Another token is not the crawler's: its checks go to the parsed file.
    expect((await manager.decide('https://a.example/private/x', 'OtherBot')).allowed).toBe(false);
    expect(checks).toHaveBeenCalledTimes(1);
    await manager.close();
  });

  it('answers a policy that allows every URL, or none, as the slow path does', async () => {
    const now = Date.now();
    const status = (o: string): number => (o.includes('missing') ? 404 : 503);
    const manager = new RobotsManager({
      userAgent: UA,
      log: quiet,
      now: () => now,
      store: storeOf((o) => decideRecord(o, { ...okFetchOutcome(o, Buffer.alloc(0), now), status: status(o) }, undefined, now)),
    });
    for (const [site, allowed] of [
      ['https://missing.example', true],
      ['https://down.example', false],
    ] as const) {
      const answers = new Set<string>();
      for (let k = 0; k < 4; k++) answers.add(answer(await manager.decide(`${site}/page`)));
      expect([...answers], site).toHaveLength(1);
      const verdict = await manager.decide(`${site}/page`);
      expect(verdict.allowed, site).toBe(allowed);
      expect(verdict.line).toBe(0);
      expect(await manager.isAllowed(`${site}/other`)).toBe(allowed);
    }
    await manager.close();
  });

  it('is let go with its record: a new body read after expiry decides, not the old quick form', async () => {
    let clock = Date.now();
    let body = 'User-agent: *\nDisallow: /old/\n';
    const manager = new RobotsManager({
      userAgent: UA,
      log: quiet,
      now: () => clock,
      store: storeOf((o) => decideRecord(o, okFetchOutcome(o, Buffer.from(body), clock), undefined, clock)),
    });
    for (let k = 0; k < 3; k++) expect((await manager.decide('https://b.example/old/x')).allowed).toBe(false);
    body = 'User-agent: *\nDisallow: /new/\n';
    clock += 2 * 24 * 3600 * 1000;
    for (let k = 0; k < 3; k++) {
      expect((await manager.decide('https://b.example/old/x')).allowed, `check ${k}`).toBe(true);
      expect((await manager.decide('https://b.example/new/x')).allowed, `check ${k}`).toBe(false);
    }
    await manager.close();
  });

  it('never answers from an entry past its expiry: one due within the time a hit reuses is read again', async () => {
    const reads = new Map<string, number>();
    const manager = new RobotsManager({
      userAgent: UA,
      log: quiet,
      store: {
        get: async (o) => {
          reads.set(o, (reads.get(o) ?? 0) + 1);
          const now = Date.now();
          const record = decideRecord(o, okFetchOutcome(o, Buffer.from('User-agent: *\nDisallow: /x\n'), now), undefined, now);
          return o.includes('soon') ? { ...record, expiresAt: now + 100 } : record;
        },
        set: async () => {},
        delete: async () => {},
      },
    });
    for (let k = 0; k < 3; k++) {
      await manager.decide('https://soon.example/x');
      await manager.decide('https://later.example/x');
    }
    // A hit reuses the time it read for a while, read that far ahead: the entry due in 100 ms is
    // already past it, so each check goes back to the store; the one due in a day is held.
    expect(reads.get('https://soon.example')).toBe(3);
    expect(reads.get('https://later.example')).toBe(1);
    await manager.close();
  });
});
