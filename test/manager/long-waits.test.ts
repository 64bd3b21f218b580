/**
 * A robots.txt that keeps checks waiting is reported while they wait: which file, for how long, how
 * many calls wait on it and what the fetch slots are doing; a normal fetch says nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RobotsManager } from '@heed/manager';
import { recordingLog, startServer, UA, type TestServer } from './helpers.js';

let slow: TestServer;
let fast: TestServer;

beforeAll(async () => {
  // Answers after 6.5 s: past the first report (5 s), well before the next (20 s) and the timeout (30 s).
  slow = await startServer((_req, res) => void setTimeout(() => res.end('User-agent: *\nDisallow: /private\n'), 6_500));
  fast = await startServer((_req, res) => res.end('User-agent: *\nDisallow: /private\n'));
});
afterAll(async () => {
  await Promise.all([slow?.close(), fast?.close()]);
});

it('a robots.txt that keeps checks waiting over 5 s gets one line saying which, how long, and how many wait', async () => {
  const { lines, log } = recordingLog();
  const manager = new RobotsManager({ userAgent: UA, log });
  try {
    const verdicts = await Promise.all([
      manager.decide(`${slow.origin}/a`),
      manager.decide(`${slow.origin}/private/b`),
      manager.decide(`${slow.origin}/c`),
      manager.decide(`${fast.origin}/d`),
    ]);
    expect(verdicts.map((v) => v.allowed)).toEqual([true, false, true, true]);
    const waits = lines.filter((line) => line.message.startsWith('waiting '));
    expect(waits).toHaveLength(1);
    // 5 s, or a little more on a busy machine.
    expect(waits[0]?.level).toBe('info');
    expect(waits[0]?.message.replace(/^waiting \d s /, 'waiting N s ')).toBe(
      `waiting N s for ${slow.origin}/robots.txt: 3 calls for ${slow.origin} wait on it (fetch timeout 30 s; 1 fetch running)`,
    );
    expect(slow.robotsRequests()).toBe(1);
  } finally {
    await manager.close();
  }
}, 30_000);
