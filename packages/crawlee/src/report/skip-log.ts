/**
 * The skip log: each skipped URL once, one line through the crawler's log, saying why (the deciding
 * robots.txt line and rule, or the robots.txt status, or the `nofollow` that kept a link out) and
 * where (stage, referrer). A link found on six pages is skipped six times but logged once: URLs are
 * remembered by URL and reason, the most recently met kept, so memory stays bounded in a broad crawl.
 *
 * The same memory counts distinct URLs for the summary line, which separates URLs never fetched
 * (robots.txt and the other reasons) from links not followed (`nofollow`): a link not followed from
 * one page may well be crawled from another.
 */
import { SKIP_REASONS, type SkipEvent, type SkipReason } from './skip-events.js';

/**
 * How skipped URLs are logged (plugin option `logSkips`):
 * - `'each'`: each skipped URL once, at info level;
 * - `'summary'`: each skipped URL once at debug level (`CRAWLEE_LOG_LEVEL=DEBUG` shows them); the
 *   end-of-run summary line (option `logSummary`) gives the counts;
 * - `false`: no line per URL.
 */
export const LOG_SKIPS_MODES = ['each', 'summary', false] as const;
export type LogSkipsMode = (typeof LOG_SKIPS_MODES)[number];

/**
 * Distinct skips remembered for de-duplication (URL and reason), the least recently met forgotten
 * first: a URL met again after this many others is logged (and counted) again.
 */
export const MAX_REMEMBERED_SKIPS = 10_000;

/** The log levels the skip log writes at (Crawlee's `log` fits). */
export interface SkipLogSink {
  info(message: string): void;
  debug(message: string): void;
}

/** Distinct prices a summary names at most. */
const MAX_SUMMARY_PRICES = 3;

/** Skips seen, by URL and reason, bounded; and how many distinct ones there were per reason. */
export class SeenSkips {
  private readonly keys = new Map<string, true>();
  private readonly distinct = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;
  /** The first few distinct `crawler-price`s of `payment-required` skips, for the summary. */
  readonly prices: string[] = [];

  constructor(private readonly max = MAX_REMEMBERED_SKIPS) {}

  /** Notes `event`; `true` when its URL was not skipped for this reason before (as far as memory reaches). */
  note(event: SkipEvent): boolean {
    const key = `${event.reason} ${event.url}`;
    if (this.keys.delete(key)) {
      // Met again: now the most recent.
      this.keys.set(key, true);
      return false;
    }
    if (this.keys.size >= this.max) this.keys.delete(this.keys.keys().next().value as string);
    this.keys.set(key, true);
    this.distinct[event.reason]++;
    if (event.price && this.prices.length < MAX_SUMMARY_PRICES && !this.prices.includes(event.price)) this.prices.push(event.price);
    return true;
  }

  /** Distinct URLs skipped, by reason. */
  get byReason(): Readonly<Record<SkipReason, number>> {
    return this.distinct;
  }
}

/** Writes the one line of each first-seen skip, at the level `mode` gives. */
export class SkipLog {
  constructor(
    private readonly mode: LogSkipsMode,
    private readonly sink: SkipLogSink,
  ) {}

  /** Logs `event` when it is the first of its URL and reason (`first`, from {@link SeenSkips.note}). */
  write(event: SkipEvent, first: boolean): void {
    if (!first || this.mode === false) return;
    const line = skipLine(event);
    if (this.mode === 'each') this.sink.info(line);
    else this.sink.debug(line);
  }
}

/**
 * The line for one skip, e.g.
 * `RobotsPlugin: skipped https://x/private/a (robots.txt line 3: Disallow: /private/, stage enqueue, from https://x/)`
 * or `RobotsPlugin: link not followed https://x/a (nofollow: meta robots, on https://x/list)`.
 */
export function skipLine(event: SkipEvent): string {
  const from = event.referrer !== undefined ? `, from ${event.referrer}` : '';
  if (event.reason === 'nofollow') return `RobotsPlugin: link not followed ${event.url} (${event.message})`;
  return `RobotsPlugin: skipped ${event.url} (${why(event)}, stage ${event.stage}${from})`;
}

function why(event: SkipEvent): string {
  if ((event.reason === 'rules' || event.reason === 'stale-copy') && event.rule !== undefined) {
    const copy = event.reason === 'stale-copy' ? ' of the last good copy, robots.txt is unreachable now' : '';
    const directive = event.rule.directive === 'allow' ? 'Allow' : 'Disallow';
    return `robots.txt line ${event.line}${copy}: ${directive}: ${event.rule.pattern}`;
  }
  return event.message;
}

/**
 * The skip part of the summary line: `3 URLs never fetched (rules 2, unreachable 1), 4 links not
 * followed (nofollow)`, distinct URLs counted.
 */
export function skipSummary(distinct: Readonly<Record<SkipReason, number>>, prices: readonly string[] = []): string {
  const never = SKIP_REASONS.filter((r) => r !== 'nofollow' && r !== 'payment-required' && distinct[r] > 0);
  const neverCount = never.reduce((sum, r) => sum + distinct[r], 0);
  const notFollowed = distinct.nofollow;
  const parts = [
    `${neverCount} URL${neverCount === 1 ? '' : 's'} never fetched${never.length ? ` (${never.map((r) => `${r} ${distinct[r]}`).join(', ')})` : ''}`,
  ];
  if (notFollowed > 0) parts.push(`${notFollowed} link${notFollowed === 1 ? '' : 's'} not followed (nofollow)`);
  const unpaid = distinct['payment-required'];
  if (unpaid > 0) {
    const asked = prices.length === 0 ? '' : `; crawler-price ${prices.join(', ')}`;
    parts.push(`${unpaid} page${unpaid === 1 ? '' : 's'} not paid for (402 Payment Required${asked})`);
  }
  return parts.join(', ');
}
