/**
 * What the manager's in-process structures are counted for, in bytes, so that their bounds
 * (`maxCacheBytes`, `MemoryStore`'s `maxBytes`) are bounds on memory and not on entries: a 500 KiB
 * robots.txt costs about 250 times a typical 2 KB one.
 *
 * JavaScript cannot ask the heap what an object costs, so these are upper estimates from what the
 * size grows with, calibrated against measured heap growth (`heapUsed + arrayBuffers` after GC,
 * Node 20, V8 pointer compression off) over file shapes from typical 2 KB files to hostile 500 KiB
 * ones. An estimate that undercounts would make the bound a lie, so the constants cover the worst
 * shape measured, and test/manager/memory-bound.test.ts checks real heap growth against them.
 *
 * A parsed file grows after it is cached: the rules of the agent asked for are compiled into the
 * indexed matcher on the first check, and groups and rule objects are built when a verdict is
 * explained. The estimate counts a file in that grown state for one agent
 * (the usual case: one crawler, one product token); each further product token a caller checks
 * with compiles its own rules, uncounted. Measured (record + parsed + compiled + explained,
 * counted / heap growth, Node 20; the test asserts the bound for six of these shapes):
 * typical 2 KB files 2.25; real-looking 500 KiB files with 10,000 rules 2.36; 9,000
 * `/*a*a*…*b` patterns 1.65 (with 20 stars 1.44, with 1,000 stars 1.10); 50,000 one-rule `*`
 * groups 1.15; 29,000 rules in groups naming the agent 1.13; 42,000 tiny rules 3.24; non-ASCII
 * patterns 1.14 to 1.16; lower-case `%xx` escapes 2.04 to 2.30; a file with no group for the agent
 * (nothing compiled) 10.5. Never below 1.1.
 */
import { isAscii } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';
import { option, type OptionField } from '@heed/parser';
import type { OkRecord, UnreachableRecord } from '../record.js';

/** A record object, its slot in a cache and its small fields, beside its strings. */
const RECORD_OVERHEAD = 640;
/** A parsed file's fixed cost: the `RobotsTxt`, its compiled agent and matcher objects. */
const PARSED_OVERHEAD = 4_096;
/** Per byte of a plain body (ASCII, no `%`): the directive table's text, the matcher's segments, rule strings. */
const PARSED_PER_BYTE = 3.5;
/**
 * Per byte of a body with non-ASCII bytes or `%` escapes: patterns are kept as written and
 * normalised (`é` → `%C3%A9`, three bytes for one), in the table and again in rule objects.
 */
const PARSED_PER_ESCAPED_BYTE = 9;
/** Per directive: its table row, compiled rule, matcher span, and `Rule`/`Group` objects. */
const PARSED_PER_DIRECTIVE = 320;

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

/**
 * The bytes a parsed file grows to once checked and explained for one agent (see the header):
 * `body` is what was parsed, `directives` its directive count (`RobotsTxt#directiveCount`).
 */
export function parsedBytes(body: Uint8Array, directives: number): number {
  // Two native scans, cheap next to the parse: a plain body costs far less per byte.
  const plain = isAscii(body) && !body.includes(PERCENT);
  return Math.ceil(
    PARSED_OVERHEAD + (plain ? PARSED_PER_BYTE : PARSED_PER_ESCAPED_BYTE) * body.byteLength + PARSED_PER_DIRECTIVE * directives,
  );
}

const PERCENT = 0x25;

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
