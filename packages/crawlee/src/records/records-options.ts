/**
 * The `records` option of `RobotsPlugin.attach()`: where crawl records and robots.txt snapshots go.
 * Off by default; declared as its own table so each field has its TSDoc, default and check once.
 */
import {
  defineOptions,
  describeValue,
  InvalidOptionsError,
  option,
  type Fail,
  type OptionsInput,
  type ResolvedOptions,
} from '@heed/parser';
import type { CrawlRecord } from './crawl-record.js';

export const RECORDS_OPTIONS = defineOptions('RobotsPlugin.attach() option records', {
  /**
   * The JSON Lines file records are appended to, one object per request that left and per skip
   * (created with its directory; an existing file is appended to).
   * @default none
   */
  file: option.custom<string | undefined>({ default: undefined, check: checkPath }),
  /**
   * The directory robots.txt snapshots are written to (a `SnapshotDirectory`): every body the
   * manager accepts, once, named by its id, with its sightings. `heed audit` reads it.
   * @default none
   */
  snapshots: option.custom<string | undefined>({ default: undefined, check: checkPath }),
  /**
   * The name of a Crawlee Dataset of the crawler's own storage that records are pushed to, in
   * batches (the crawler's `getDataset(name)`: locally `storage/datasets/<name>/`, on the platform
   * a named dataset). `heed audit` reads the local folder.
   * @default none
   */
  dataset: option.custom<string | undefined>({ default: undefined, check: checkDatasetName }),
  /**
   * Called with every record, as it is made (synchronously, on the crawl's path: keep it quick).
   * A callback that throws is logged once and not called again.
   * @default none
   */
  onRecord: option.function<(record: CrawlRecord) => void>({ signature: '(record) => void' }),
  /**
   * Bytes of records held before they are written to `file` or pushed to `dataset` (1,024 to 67,108,864).
   * @default `65_536` (64 KiB)
   */
  maxBufferBytes: option.number({ default: 65_536, min: 1_024, max: 67_108_864, integer: true, unit: 'bytes' }),
  /**
   * Seconds a record waits in the buffer at most before it is written (0.001 to 60).
   * @default `1`
   */
  flushSecs: option.number({ default: 1, min: 0.001, max: 60, unit: 'seconds' }),
});

/** The `records` option: where crawl records (and robots.txt snapshots) go. See the fields for each. */
export type RecordsOptions = OptionsInput<typeof RECORDS_OPTIONS>;
/** `records` with its defaults filled in. */
export type ResolvedRecordsOptions = ResolvedOptions<typeof RECORDS_OPTIONS>;

/** The check of the `records` option: `undefined` or `false` is off; an object needs `file` or `onRecord`. */
export function checkRecords(value: unknown, _name: string, fail: Fail): ResolvedRecordsOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`expected an object like { file: 'crawl-records.jsonl', snapshots: 'robots-snapshots/' }, got ${describeValue(value)}.`);
  }
  let resolved: ResolvedRecordsOptions;
  try {
    resolved = RECORDS_OPTIONS.resolve(value);
  } catch (error) {
    // Named by its dotted path, as the nested options of `sitemaps` are.
    if (error instanceof InvalidOptionsError)
      throw new InvalidOptionsError(`records.${error.option}`, error.problem, 'RobotsPlugin.attach()');
    throw error;
  }
  if (resolved.file === undefined && resolved.dataset === undefined && resolved.onRecord === undefined) {
    return fail("needs somewhere to write: file (e.g. 'crawl-records.jsonl'), dataset (e.g. 'crawl-records') or onRecord.");
  }
  return resolved;
}

function checkPath(value: unknown, _name: string, fail: Fail): string | undefined {
  if (value === undefined || (typeof value === 'string' && value !== '' && !value.includes('\0'))) return value;
  return fail(`expected a file or directory path, got ${describeValue(value)}.`);
}

function checkDatasetName(value: unknown, _name: string, fail: Fail): string | undefined {
  if (value === undefined || (typeof value === 'string' && /^[a-zA-Z0-9-]{1,63}$/.test(value))) return value;
  return fail(`expected a dataset name of letters, digits and "-" (at most 63), like 'crawl-records', got ${describeValue(value)}.`);
}
