/**
 * The README's quick start, as a new user runs it: a fresh clone of this repository's committed
 * HEAD (nothing built, no node_modules), then `npm start`, then `npx heed --help`, then the first
 * step of `npm test` (its install). Run against HEAD, so it checks what a clone gets: commit first.
 *
 * CI runs on a fresh clone and runs `npm start` there itself, first (.ci/run): it hands the output
 * and exit status over in HEED_QUICKSTART_LOG and HEED_QUICKSTART_STATUS, and the test reads them
 * instead of cloning and building a second time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MINUTE = 60_000;

interface Run {
  readonly status: number | null;
  readonly output: string;
}

function run(command: string, args: readonly string[], cwd: string, timeout = 5 * MINUTE): Run {
  // CI is the caller's business, not the quick start's: a user's shell has no CI variable.
  const env = { ...process.env, CI: '', npm_config_yes: 'true' };
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

describe('the quick start on a fresh clone', () => {
  let work: string;
  let clone: string;
  let start: Run;

  beforeAll(() => {
    const ranBefore = process.env['HEED_QUICKSTART_LOG'];
    if (ranBefore !== undefined) {
      clone = root;
      start = { status: Number(process.env['HEED_QUICKSTART_STATUS']), output: readFileSync(ranBefore, 'utf8') };
      return;
    }
    work = mkdtempSync(join(tmpdir(), 'heed-quickstart-'));
    clone = join(work, 'heed');
    const cloned = run('git', ['clone', '--quiet', '--no-hardlinks', root, clone], work);
    expect(cloned.status, cloned.output).toBe(0);
    start = run('npm', ['start'], clone, 8 * MINUTE);
  }, 10 * MINUTE);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('npm start installs, builds and crawls the demo site, ending with its summary', () => {
    expect(start.status, start.output.slice(-4_000)).toBe(0);
    expect(start.output).not.toMatch(/Failed to create bin/);
    expect(start.output).toMatch(/pages crawled/i);
    expect(start.output).toMatch(/never saw a request for a disallowed URL/);
  });

  it('npx heed --help works right after, on the first try', () => {
    const help = run('npx', ['--no-install', 'heed', '--help'], clone, MINUTE);
    expect(help.status, help.output).toBe(0);
    expect(help.output).toMatch(/heed check/);
    expect(help.output).toMatch(/heed lint/);
  });

  // Under CI the clone is the checkout whose `npm test` began with this very install: run again
  // beside the tests, it would relink the node_modules they are loading.
  it.runIf(process.env['HEED_QUICKSTART_LOG'] === undefined)(
    "npm test's first step (the install) succeeds with the committed lockfile",
    () => {
      const install = run('npm', ['run', 'install-deps'], clone, 5 * MINUTE);
      expect(install.status, install.output.slice(-4_000)).toBe(0);
    },
  );
});
