/**
 * Crawl records pushed to a Crawlee Dataset of the crawler's own storage (option `records.dataset`),
 * so they land where the crawl's data lands: the local `storage/datasets/<name>/` or the platform's
 * dataset. Records are held in a bounded buffer and pushed in batches. What is pushed when:
 *
 * - when the buffer holds `maxBufferBytes`, at once (not awaited: the crawl goes on);
 * - `flushSecs` after the first record of a batch, on a timer;
 * - at the end of every `crawler.run()`, awaited before `run()` returns or throws;
 * - at `plugin.close()`, awaited.
 *
 * A push is asynchronous, so unlike the records file it cannot finish inside a `SIGINT` listener:
 * a crawl stopped by a signal loses the records of its last `flushSecs` from the dataset. Use
 * `records.file` beside it where those must survive.
 */

import type { RecordsFileLimits } from './records-file.js';

/** What the sink needs of a Crawlee Dataset. */
export interface RecordsDatasetTarget {
  pushData(items: object[]): Promise<unknown>;
}

export class RecordsDataset {
  private batch: object[] = [];
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dataset: Promise<RecordsDatasetTarget> | undefined;
  /** The last push: each waits for the one before, so batches land in the order they were made. */
  private pushes: Promise<void> = Promise.resolve();
  private closed = false;
  /** Records pushed to the dataset so far. */
  pushed = 0;

  constructor(
    /** Opens the dataset (the crawler's `getDataset(name)`), once, at the first push. */
    private readonly open: () => Promise<RecordsDatasetTarget>,
    /** The same bounds as the records file's. */
    private readonly limits: RecordsFileLimits,
    private readonly warn: (message: string) => void,
  ) {}

  /** Adds one record; `size` is its length as JSON, which bounds the buffer. */
  write(record: object, size: number): void {
    if (this.closed) return;
    this.batch.push(record);
    this.bytes += size;
    if (this.bytes >= this.limits.maxBufferBytes) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.limits.flushMs);
      // The timer must not keep a finished crawl's process alive: run() and close() flush.
      this.timer.unref();
    }
  }

  /** Pushes what the buffer holds and waits until every push so far has settled (in order). */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.batch.length > 0) {
      const items = this.batch;
      this.batch = [];
      this.bytes = 0;
      // push() never rejects: it says what it lost instead.
      this.pushes = this.pushes.then(() => this.push(items));
    }
    await this.pushes;
  }

  /** Flushes; later records are dropped. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async push(items: object[]): Promise<void> {
    try {
      this.dataset ??= this.open();
      await (await this.dataset).pushData(items);
      this.pushed += items.length;
    } catch (error) {
      // A dataset that cannot be opened or written must not stop the crawl: say what was lost.
      this.dataset = undefined;
      this.warn(
        `RobotsPlugin: ${items.length} crawl record${items.length === 1 ? '' : 's'} could not be pushed to the records dataset ` +
          `(${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
}
