/**
 * A test run ends with the list of what it skipped and why: a vitest run of a fixture that skips
 * one test through `requirements.ts` prints the reason after the results.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

it('the run ends with each skip and its reason', async () => {
  const { HEED_SKIPS_FILE: _outer, CI: _ci, ...env } = process.env;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      `${root}node_modules/vitest/vitest.mjs`,
      'run',
      '--config',
      'test/support/skip-list-fixture/vitest.config.ts',
      '--reporter',
      'default',
    ],
    { cwd: root, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 },
  );
  const tail = stdout.trimEnd().split('\n').slice(-2);
  expect(tail, stdout).toEqual([
    'Skipped (1):',
    '  skips.fixture.ts, the opt-in case: runs only with HEED_SKIP_LIST_FIXTURE=never (nobody sets it)',
  ]);
}, 60_000);
