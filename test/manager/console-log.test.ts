/**
 * Without a `log`, the manager's warnings reach the console one line each, the data on the same
 * line as JSON (as Crawlee's log writes it), never an object printed over several lines.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { deadPort, UA } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

it('a robots.txt that cannot be reached is one console line, its data as JSON on it', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const origin = `http://127.0.0.1:${await deadPort()}`;
  const manager = new RobotsManager({ userAgent: UA, timeoutSecs: 30, connectTimeoutSecs: 10 });
  try {
    expect((await manager.decide(`${origin}/page`)).allowed).toBe(false);
  } finally {
    await manager.close();
  }
  expect(warn.mock.calls).toHaveLength(1);
  const args = warn.mock.calls[0] ?? [];
  expect(args).toHaveLength(1);
  const line = String(args[0]);
  expect(line).not.toContain('\n');
  expect(line).toMatch(
    new RegExp(
      `^\\[heed\\] WARN robots\\.txt of ${origin.replace(/\./g, '\\.')} is unreachable \\(refused\\); .* \\{"origin":"${origin.replace(/\./g, '\\.')}","retryAt":"[^"]+"\\}$`,
    ),
  );
});
