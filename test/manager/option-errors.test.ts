/**
 * A constructor called with a bad option throws an error whose stack starts at the caller's line
 * (the line to fix, and the source line Node.js shows for an uncaught error), not in Heed's checks.
 */
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError, KeyValueStoreStore, MemoryStore, RedisStore, RobotsManager } from '@heed/manager';

const cases: [string, () => unknown][] = [
  ['RobotsManager', () => new RobotsManager({ userAgent: '' })],
  ['RobotsManager (a typo)', () => new RobotsManager({ userAgent: 'Bot/1.0', maxTtlSec: 5 } as never)],
  ['MemoryStore', () => new MemoryStore({ maxBytes: -1 })],
  ['RedisStore', () => new RedisStore({ keyPrefx: 'x' } as never)],
  ['KeyValueStoreStore', () => new KeyValueStoreStore({ nmae: 'x' } as never)],
];

describe('option errors of the constructors', () => {
  it.each(cases)("%s: the stack starts at the caller's line", (_name, construct) => {
    let thrown: unknown;
    try {
      construct();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidOptionsError);
    const frames = (thrown as Error).stack!.split('\n').filter((line) => line.trimStart().startsWith('at '));
    expect(frames[0]).toContain('option-errors.test.ts');
  });
});
