/**
 * What the manager's in-process structures are counted for, in bytes, so that their bounds
 * (`maxCacheBytes`, `MemoryStore`'s `maxBytes`) are bounds on memory and not on entries: a 500 KiB
 * robots.txt costs about 250 times a typical 2 KB one.
 *
 * A record is counted here for its strings and fields. A parsed file is counted by the parser
 * (`RobotsTxt#heldBytes`), from the sizes of what it is made of, and counted again by the loader
 * after each check that made it grow (`OriginFileLoader#recount`). test/manager/memory-bound.test.ts
 * checks both against real heap growth.
 */
import { getHeapStatistics } from 'node:v8';
import { option, type OptionField } from '@heed/parser';
import type { OkRecord, UnreachableRecord } from '../record.js';

/** A record object, its slot in a cache and its small fields, beside its strings. */
const RECORD_OVERHEAD = 640;
/**
 * The bytes `record` holds: its strings (base64 bodies are ASCII, one byte a character; the short
 * ones counted at two in case they are not Latin-1) and the object. Anything else a store was
 * handed (a custom writer's string or object) is counted for its strings too, never throws.
 */
export function recordBytes(record: unknown): number {
  if (typeof record === 'string') return RECORD_OVERHEAD + 2 * record.length;
  if (typeof record !== 'object' || record === null) return RECORD_OVERHEAD;
  const r = record as Partial<Record<keyof OkRecord | keyof UnreachableRecord, unknown>>;
  const good = r.lastGood as { body?: unknown } | undefined;
  const problem = r.problem as { code?: unknown; message?: unknown } | undefined;
  return (
    RECORD_OVERHEAD +
    length(r.body) +
    length(good?.body) +
    2 * (length(r.origin) + length(r.finalUrl) + length(problem?.code) + length(problem?.message))
  );
}

function length(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** The smallest byte bound accepted: below it a single 500 KiB robots.txt could not be held. */
export const MIN_MEMORY_BOUND = 1024 * 1024;

/**
 * A byte bound option: a whole number from 1 MiB to the process's heap limit (a bound above it
 * could never be reached, only an out-of-memory crash could).
 */
export function memoryBound(fallback: number): OptionField<number, number> {
  return option.number({
    default: fallback,
    min: MIN_MEMORY_BOUND,
    max: getHeapStatistics().heap_size_limit,
    integer: true,
    unit: 'bytes',
    why: "1 MiB to this process's heap limit",
  });
}
