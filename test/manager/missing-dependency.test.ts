/**
 * A store whose client library is missing fails where it is configured: `new RedisStore({ url })`
 * in a project without ioredis throws `MissingDependencyError` with the install command, instead of
 * starting a run that reads as a Redis outage (records kept in memory, nothing shared).
 *
 * The project is real: a fresh node_modules holding the built @heed/manager and its dependencies,
 * and ioredis only in the control case.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const managerDir = fileURLToPath(new URL('../../packages/manager/', import.meta.url));
/** The manager's own dependencies, as its package.json lists them. */
const DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(managerDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);

let work: string;

/** A project whose node_modules has the built manager, its dependencies, and `extra`. */
function project(name: string, extra: readonly string[]): string {
  const dir = join(work, name);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@heed', 'manager'), { recursive: true });
  cpSync(join(managerDir, 'package.json'), join(modules, '@heed', 'manager', 'package.json'));
  cpSync(join(managerDir, 'dist'), join(modules, '@heed', 'manager', 'dist'), { recursive: true });
  for (const dependency of [...DEPENDENCIES, ...extra]) {
    mkdirSync(join(modules, dependency, '..'), { recursive: true });
    symlinkSync(realpathSync(join(managerDir, 'node_modules', dependency)), join(modules, dependency), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'main.js'),
    [
      "import { RedisStore, MissingDependencyError } from '@heed/manager';",
      'try {',
      "  const store = new RedisStore({ url: 'redis://127.0.0.1:9' });",
      "  console.log('constructed');",
      '  await store.close();',
      '} catch (error) {',
      '  console.log(JSON.stringify({ missing: error instanceof MissingDependencyError, name: error.name, dependency: error.dependency, message: error.message }));',
      '}',
    ].join('\n'),
  );
  return dir;
}

async function run(dir: string): Promise<string> {
  // Without NODE_PATH: pnpm's command shims set it to the workspace's hoisted modules, ioredis among them.
  const { NODE_PATH: _hoisted, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['main.js'], { cwd: dir, env, timeout: 30_000 });
  return stdout.trim();
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'heed-missing-dep-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

it('new RedisStore({ url }) without ioredis throws MissingDependencyError naming the install command', async () => {
  const out = JSON.parse(await run(project('without', []))) as Record<string, unknown>;
  expect(out).toMatchObject({ missing: true, name: 'MissingDependencyError', dependency: 'ioredis' });
  expect(out['message']).toContain('npm install ioredis');
  expect(out['message']).toContain('new RedisStore({ url })');
}, 60_000);

it('with ioredis installed the same project constructs the store', async () => {
  expect(await run(project('with', ['ioredis']))).toBe('constructed');
}, 60_000);
