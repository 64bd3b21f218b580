/**
 * The README's examples run as written (against a local server instead of crawlee.dev, and a
 * throw-away redis-server), so the documentation cannot drift from the code.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.js';
import { has } from '../support/requirements.js';
import { startRedis, type RedisServer } from './redis-helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packageDir = join(root, 'packages/manager');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string);

let server: TestServer;
let work: string;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /private\n'));
  work = mkdtempSync(join(tmpdir(), 'heed-readme-'));
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs an example as an ES module inside the package (so `@heed/manager` resolves to it). */
async function runExample(code: string, env: Record<string, string> = {}): Promise<string> {
  const file = join(packageDir, `.readme-example-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code.replaceAll('https://crawlee.dev', server.origin));
  try {
    // Asynchronously: the server answering the example lives in this process.
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [file], {
      cwd: work,
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    expect(stderr).not.toMatch(/Error/);
    return stdout;
  } finally {
    rmSync(file, { force: true });
  }
}

const find = (needle: string) => {
  const example = examples.find((code) => code.includes(needle));
  if (example === undefined) throw new Error(`no README example contains ${needle}`);
  return example;
};

describe('README examples', () => {
  it('has the quick start and one example per store', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it('quick start', async () => {
    server.seen.length = 0;
    await runExample(find("robots.decide('https://crawlee.dev/docs')"));
    expect(server.robotsRequests()).toBe(1);
  });

  it('MemoryStore: two managers, one fetch', async () => {
    server.seen.length = 0;
    expect((await runExample(find('new MemoryStore('))).trim()).toBe('true true');
    expect(server.robotsRequests()).toBe(1);
  });

  it('KeyValueStoreStore: the second run fetches nothing', async () => {
    server.seen.length = 0;
    const code = find('new KeyValueStoreStore(');
    const env = { CRAWLEE_STORAGE_DIR: join(work, 'storage') };
    expect(await runExample(code, env)).toContain("reason: 'rules'");
    expect(await runExample(code, env)).toContain("reason: 'rules'");
    expect(server.robotsRequests()).toBe(1);
  });

  it('snapshots: the verdict names a snapshot the directory holds, with its sighting', async () => {
    server.seen.length = 0;
    const [id, outcome] = (await runExample(find('keepSnapshotsIn('))).trim().split(' ');
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(outcome).toBe('rules');
  });

  it.skipIf(!has('redis-server', 'test/manager/readme.test.ts, the RedisStore example'))('RedisStore', async () => {
    const redis: RedisServer = await startRedis();
    try {
      server.seen.length = 0;
      const code = find('new RedisStore(');
      expect((await runExample(code, { REDIS_URL: redis.url })).trim()).toBe('true');
      expect((await runExample(code, { REDIS_URL: redis.url })).trim()).toBe('true');
      expect(server.robotsRequests()).toBe(1);
    } finally {
      await redis.stop();
    }
  });
});
