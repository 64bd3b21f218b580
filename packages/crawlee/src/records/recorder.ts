/**
 * The crawl recorder of one attached crawler (option `records`): told of every request a
 * checkpoint lets go and of every skip, it makes the record (`crawl-record.ts`) and hands it to the
 * sinks: the records file (`records-file.ts`), the crawler's dataset (`records-dataset.ts`) and the
 * `onRecord` callback. With `snapshots`, it also has the manager keep the robots.txt snapshot of
 * every record it accepts in that directory, so every snapshot a record names is on disk before
 * the record is.
 */
import { SnapshotDirectory, type Verdict } from '@heed/manager';
import type { UsageVerdicts } from '../guard/usage-verdicts.js';
import type { RobotsManagerLike } from '../manager-contract.js';
import type { SkipEvent } from '../report/skip-events.js';
import { passRecord, skipRecord, type CrawlRecord, type PassDoor, type RecordContext } from './crawl-record.js';
import { RecordsDataset, type RecordsDatasetTarget } from './records-dataset.js';
import { RecordsFile } from './records-file.js';
import type { ResolvedRecordsOptions } from './records-options.js';

export class CrawlRecorder {
  private readonly file: RecordsFile | undefined;
  private readonly dataset: RecordsDataset | undefined;
  private onRecord: ((record: CrawlRecord) => void) | undefined;
  private readonly stopSnapshots: (() => void) | undefined;

  constructor(
    options: ResolvedRecordsOptions,
    private readonly context: RecordContext,
    private readonly manager: RobotsManagerLike,
    private readonly warn: (message: string) => void,
    /** The usage verdicts the checks worked out (with `purposes`): read, never asked for. */
    private readonly usage: UsageVerdicts | undefined,
    /** Opens the crawler's dataset of that name (option `dataset`). */
    openDataset: (name: string) => Promise<RecordsDatasetTarget>,
  ) {
    this.onRecord = options.onRecord;
    if (options.snapshots !== undefined) {
      // Checked by attach(): a manager without it was refused with `records.snapshots`.
      this.stopSnapshots = manager.keepSnapshotsIn?.(new SnapshotDirectory(options.snapshots));
    }
    const limits = { maxBufferBytes: options.maxBufferBytes, flushMs: options.flushSecs * 1000 };
    if (options.file !== undefined) {
      this.file = new RecordsFile(options.file, limits);
      this.file.open();
    }
    const { dataset } = options;
    if (dataset !== undefined) this.dataset = new RecordsDataset(() => openDataset(dataset), limits, warn);
  }

  /** A checkpoint let a request go by `door`, on `verdict` (`undefined`: no check was asked for). */
  passed(door: PassDoor, url: string, verdict: Verdict | undefined, from?: string): void {
    const usage = this.context.purposes.length === 0 ? undefined : this.usage?.known(url);
    this.emit(passRecord(door, url, verdict, from, this.context, usage));
  }

  /** A URL was kept out of the crawl. */
  skipped(event: SkipEvent): void {
    this.emit(skipRecord(event, this.context));
  }

  /** Writes what the records file buffers, pushes what the dataset sink holds, and waits for snapshots written in the background. */
  async flush(): Promise<void> {
    this.file?.flush();
    await Promise.all([this.dataset?.flush(), this.manager.snapshotsWritten?.()]);
  }

  /** Flushes and closes the records file and stops keeping snapshots. */
  async close(): Promise<void> {
    this.stopSnapshots?.();
    await this.flush();
    this.file?.close();
    await this.dataset?.close();
  }

  private emit(record: CrawlRecord): void {
    if (this.file !== undefined || this.dataset !== undefined) {
      const line = JSON.stringify(record);
      this.file?.write(line);
      this.dataset?.write(record, line.length);
    }
    if (this.onRecord === undefined) return;
    try {
      this.onRecord(record);
    } catch (error) {
      // A sink that throws must not stop the crawl, nor fill the log with a line per request.
      this.onRecord = undefined;
      this.warn(`RobotsPlugin: records.onRecord threw (${error instanceof Error ? error.message : String(error)}); it is not called again`);
    }
  }
}
