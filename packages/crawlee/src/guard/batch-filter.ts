/**
 * The enqueue door for batches: the requests of a batch that may enter the queue, in order, each
 * judged by `Checkpoints.enqueue`, its skip reported. From the first URL of an origin whose record
 * is not at hand, the origins of the rest of the batch are fetched in parallel (one robots.txt
 * request per origin, however many links point there).
 */
import type { Checked, Checkpoints, EnqueueSource } from './checkpoints.js';
import type { SkipEvent } from '../report/skip-events.js';
import type { Skips } from '../report/skips.js';
import type { Verdicts } from './verdicts.js';

/** Anything Crawlee accepts as a request source: a URL string, request options or a `Request`. */
export type RequestLike = string | { url?: unknown };

/** Where a filtered batch comes from: {@link EnqueueSource}, and who else to tell of its skips. */
export interface FilterContext extends EnqueueSource {
  /** Also tell this callback (an `enqueueLinks` call's own `onSkippedRequest`). */
  readonly alsoNotify?: (url: string) => Promise<void>;
}

export class BatchFilter {
  constructor(
    private readonly checkpoints: Checkpoints,
    private readonly verdicts: Verdicts,
    private readonly skips: Skips,
    private readonly batchSize: number,
  ) {}

  /** The requests of `source` that may be enqueued, lazily, judged `prefetchBatchSize` at a time. */
  async *filter<T extends RequestLike>(source: Iterable<T> | AsyncIterable<T>, context: FilterContext): AsyncGenerator<T> {
    let buffer: T[] = [];
    for await (const item of source) {
      buffer.push(item);
      if (buffer.length >= this.batchSize) {
        yield* await this.filterBatch(buffer, context);
        buffer = [];
      }
    }
    if (buffer.length > 0) yield* await this.filterBatch(buffer, context);
  }

  /** The requests of `items` that may be enqueued, in order; skips are reported, in order. */
  async filterBatch<T extends RequestLike>(items: readonly T[], context: FilterContext): Promise<T[]> {
    const kept: T[] = [];
    let prefetched = false;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const url = urlOf(item);
      // Not a URL Crawlee could fetch: leave the error (or the filter) to Crawlee.
      if (url === undefined) {
        kept.push(item);
        continue;
      }
      let checked: Checked | Promise<Checked> = this.checkpoints.enqueue(url, context);
      if (checked instanceof Promise) {
        if (!prefetched) {
          prefetched = true;
          await this.verdicts.prefetch(urlsOf(items, i));
        }
        checked = await checked;
      }
      if (checked === undefined) kept.push(item);
      else await this.skip(checked, context);
    }
    return kept;
  }

  private async skip(event: SkipEvent, context: FilterContext): Promise<void> {
    await this.skips.report(event);
    await context.alsoNotify?.(event.url);
  }
}

/** The URLs of `items` from `start` on (those that have one). */
function urlsOf(items: readonly RequestLike[], start: number): string[] {
  const urls: string[] = [];
  for (let i = start; i < items.length; i++) {
    const url = urlOf(items[i]!);
    if (url !== undefined) urls.push(url);
  }
  return urls;
}

/** The URL of a request source, when it has one. */
export function urlOf(item: RequestLike): string | undefined {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object' && typeof item.url === 'string') return item.url;
  return undefined;
}
