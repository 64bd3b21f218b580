/**
 * The examples' command lines answer alike: `--help` prints the usage (exit 0), a wrong argument is
 * one line plus "see … --help" (exit 2), and a missing program (Chromium, redis-server) is one line
 * saying what to install (exit 1), with no stack trace.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = (example: string): string => new URL(`../../examples/${example}/dist/main.js`, import.meta.url).pathname;
const exampleDir = (example: string): string => new URL(`../../examples/${example}/`, import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

interface Exit {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `example` from its own folder (`node dist/main.js`), as its README says, or from `cwd`. */
function run(example: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = exampleDir(example)): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main(example), ...args], { encoding: 'utf8', timeout: 60_000, env, cwd }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

const EXAMPLES = ['cheerio-basic', 'playwright', 'sitemap-first', 'fleet-redis', 'shared-cache'];

// One shared parser reads every example's arguments: each example's --help is run, the errors once.
describe.concurrent("the examples' arguments", () => {
  it.each(EXAMPLES)('%s --help prints the usage, --user-agent among the options, and exits 0', async (example) => {
    const exit = await run(example, ['--help']);
    expect(exit).toMatchObject({ code: 0, stderr: '' });
    expect(exit.stdout).toMatch(/^usage: node dist\/main\.js \[--user-agent <header>\]/);
    expect(exit.stdout).toContain('-h, --help');
  });

  it('an unknown option is one line and "see --help", exit 2', async () => {
    const exit = await run('cheerio-basic', ['--max-pages', '3']);
    expect(exit.code).toBe(2);
    expect(exit.stderr.trim().split('\n')).toEqual(['node dist/main.js: unknown option --max-pages', 'see node dist/main.js --help']);
  });

  it('names the path it was run by: from the repository root, the way to type it again there', async () => {
    const exit = await run('fleet-redis', ['--workers', '0'], process.env, ROOT);
    expect(exit.code).toBe(2);
    expect(exit.stderr.trim().split('\n')).toEqual([
      'node examples/fleet-redis/dist/main.js: --workers needs a whole number, at least 1, got "0"',
      'see node examples/fleet-redis/dist/main.js --help',
    ]);
  });

  it('--user-agent without its value is a usage error, not a start URL', async () => {
    const exit = await run('sitemap-first', ['--user-agent']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain('--user-agent needs a value');
  });
});

describe.concurrent('missing programs end in one line saying what to install', () => {
  let empty: string;
  beforeAll(() => {
    empty = mkdtempSync(join(tmpdir(), 'heed-no-programs-'));
  });
  afterAll(() => {
    rmSync(empty, { recursive: true, force: true });
  });

  it('playwright without Chromium', async () => {
    const exit = await run('playwright', [], { ...process.env, CHROMIUM_PATH: join(empty, 'chromium') });
    expect(exit.code).toBe(1);
    expect(exit.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^no Chromium at .*: install .*apt-get install chromium.*CHROMIUM_PATH/),
    ]);
  });

  it('fleet-redis without redis-server (and no REDIS_URL)', async () => {
    const { REDIS_URL: _unused, ...env } = process.env;
    const exit = await run('fleet-redis', ['--workers', '1'], { ...env, PATH: empty });
    expect(exit.code).toBe(1);
    expect(exit.stderr.trim().split('\n')).toEqual([expect.stringMatching(/redis-server.*apt-get install redis-server.*REDIS_URL/)]);
  });
});
