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
import { passRecord, proxyUsed, skipRecord, type CrawlRecord, type PassDoor, type RecordContext } from './crawl-record.js';
import { RecordsDataset, type RecordsDatasetTarget } from './records-dataset.js';
import { RecordsFile } from './records-file.js';
import type { ResolvedRecordsOptions } from './records-options.js';

/**
 * Pages let go by the check before the fetch whose records wait for the page to leave, at most: a
 * crawl has about as many in flight as its concurrency. Past it, a record is written at once,
 * without its proxy.
 */
const MAX_WAITING_PAGES = 10_000;

export class CrawlRecorder {
  /**
   * The `before-fetch` records of pages not yet left, by their request: Crawlee picks a request's
   * session and proxy after the check, so its record is written when the page leaves, naming them.
   */
  private readonly waiting = new Map<object, CrawlRecord>();
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
      // On a signal or at exit, the records of pages checked but not yet left go to the file too.
      this.file = new RecordsFile(options.file, limits, () => this.writeWaiting());
      this.file.open();
    }
    const { dataset } = options;
    if (dataset !== undefined) this.dataset = new RecordsDataset(() => openDataset(dataset), limits, warn);
  }

  /**
   * A checkpoint let a request go by `door`, on `verdict` (`undefined`: no check was asked for).
   * `page`: the queue's request, whose record waits for {@link pageLeaves}.
   */
  passed(door: PassDoor, url: string, verdict: Verdict | undefined, from?: string, page?: object): void {
    const usage = this.context.purposes.length === 0 ? undefined : this.usage?.known(url);
    const record = passRecord(door, url, verdict, from, this.context, usage);
    if (page === undefined || door !== 'before-fetch' || this.waiting.size >= MAX_WAITING_PAGES) return this.emit(record);
    // A request checked again (a retry) whose page never left: its first check is written now.
    const earlier = this.waiting.get(page);
    if (earlier !== undefined) this.emit(earlier);
    this.waiting.set(page, record);
  }

  /** The page of `page` leaves through `proxyInfo` (Crawlee's `ProxyInfo`, or none): its record is written, naming the proxy. */
  pageLeaves(page: object, proxyInfo: unknown): void {
    const record = this.waiting.get(page);
    if (record === undefined) return;
    this.waiting.delete(page);
    const proxy = proxyUsed(proxyInfo);
    this.emit(proxy === undefined ? record : { ...record, proxy });
  }

  /** Writes the records of pages checked but not yet left, without a proxy: the run has ended, or the process is going. */
  private writeWaiting(): void {
    for (const record of this.waiting.values()) this.emit(record);
    this.waiting.clear();
  }

  /** A URL was kept out of the crawl. */
  skipped(event: SkipEvent): void {
    this.emit(skipRecord(event, this.context));
  }

  /** At the end of a `crawler.run()`: the records of pages that never left are written, then everything is flushed. */
  async endOfRun(): Promise<void> {
    this.writeWaiting();
    await this.flush();
  }

  /** Writes what the records file buffers, pushes what the dataset sink holds, and waits for snapshots written in the background. */
  async flush(): Promise<void> {
    this.file?.flush();
    await Promise.all([this.dataset?.flush(), this.manager.snapshotsWritten?.()]);
  }

  /** Flushes and closes the records file and stops keeping snapshots. */
  async close(): Promise<void> {
    this.stopSnapshots?.();
    await this.endOfRun();
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
