/**
 * What a loader's fetches are counted and logged as: the counters `stats()` reports and the one
 * debug line per fetch, kept apart from the loading so that neither hides the other.
 */
import { printable } from '@heed/parser';
import type { Log } from '../cache/store.js';
import type { FetchOutcome } from '../fetch/fetch-file.js';
import { problemOf, type RobotsRecord } from '../record.js';

/** The class of a fetch's final HTTP status; `network` when there was no response. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'other' | 'network';

/** Fetches made, by the record they produced and by status class. */
export interface FetchCounts {
  readonly total: number;
  readonly ok: number;
  readonly unavailable: number;
  readonly unreachable: number;
  readonly byStatusClass: Readonly<Record<StatusClass, number>>;
}

export class FetchLog {
  private total = 0;
  private readonly byStatus = { ok: 0, unavailable: 0, unreachable: 0 };
  private readonly classes: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0, network: 0 };

  /** `fileName` names the file in log lines (`robots.txt`, `tdmrep.json`). */
  constructor(
    private readonly fileName: string,
    private readonly log: Log,
  ) {}

  /** Counts one fetch of `url` and logs what it came to. */
  fetched(url: string, outcome: FetchOutcome, record: RobotsRecord): void {
    this.total++;
    this.byStatus[record.status]++;
    this.classes[statusClass(outcome)]++;
    this.log.debug(`${this.fileName} fetched`, {
      url,
      status: record.status,
      httpStatus: record.httpStatus,
      problem: problemOf(record)?.code,
      durationMs: outcome.durationMs,
    });
    // Pay-per-crawl on the rules themselves: a 4xx, so everything is allowed (RFC 9309), but an
    // operator wants to know the site asked for payment, and how much.
    if (outcome.kind === 'response' && outcome.status === 402)
      this.log.info(
        `${this.fileName} of ${url} answered 402 Payment Required${outcome.headers.crawlerPrice ? ` (crawler-price: ${printable(outcome.headers.crawlerPrice)})` : ''}: a 4xx, so everything is allowed (RFC 9309)`,
        { url, crawlerPrice: outcome.headers.crawlerPrice },
      );
  }

  counts(): FetchCounts {
    return { total: this.total, ...this.byStatus, byStatusClass: { ...this.classes } };
  }
}

function statusClass(outcome: FetchOutcome): StatusClass {
  if (outcome.kind === 'network') return 'network';
  const cls = Math.floor(outcome.status / 100);
  return cls === 2 ? '2xx' : cls === 3 ? '3xx' : cls === 4 ? '4xx' : cls === 5 ? '5xx' : 'other';
}
