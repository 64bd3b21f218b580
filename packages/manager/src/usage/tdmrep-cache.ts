/**
 * `/.well-known/tdmrep.json` per origin, fetched and cached the way robots.txt is: the same bounded
 * GET (`fetchRobotsTxt`: timeouts, redirects, proxy), the same status policy (`decideRecord`: 2xx →
 * the file; 4xx → none, i.e. no reservation; 5xx/429/network → unreachable, retried with backoff,
 * the last good copy meanwhile), the same cache TTL (`Cache-Control: max-age` within bounds) and the
 * same store, under a key of its own: the file's URL (`https://a.example/.well-known/tdmrep.json`),
 * which is also the record's `origin`, so a robots record can never be read as a tdmrep one.
 *
 * Where robots.txt and TDMRep differ: an unreachable tdmrep.json with no good copy states nothing
 * (every category unknown) rather than disallowing everything: robots.txt already decides whether
 * the origin may be crawled, and a TDM reservation is a statement, not a gate. A body larger than
 * {@link MAX_TDMREP_BYTES} is refused whole (no rule is guessed from half a file).
 *
 * One load per file at a time in this process (single flight). The store's lock, when it has one,
 * is held around the fetch; a manager that finds it taken fetches anyway (a tdmrep.json is small and
 * asked for only by crawls with AI purposes), where robots.txt fetches wait for the holder.
 */
import { LRUCache } from 'lru-cache';
import type PQueue from 'p-queue';
import type { Log, RobotsStore } from '../cache/store.js';
import { ManagerClosedError } from '../errors.js';
import { fetchRobotsTxt } from '../fetch.js';
import type { ResolvedOptions } from '../options.js';
import { capExpiry, decideRecord, effectivePolicy, policyChangesAt } from '../policy.js';
import { decodeRecord, type RobotsRecord } from '../record.js';
import { MAX_TDMREP_BYTES, parseTdmRep, TdmRepMatcher } from '../tdmrep/index.js';

/** The path of the file (TDMRep, "TDM Reservation Protocol", §3.2.1). */
export const TDMREP_PATH = '/.well-known/tdmrep.json';

/** An origin's tdmrep.json, ready to answer. */
export interface TdmRepEntry {
  /** The file's URL, also its store key. */
  readonly url: string;
  readonly record: RobotsRecord;
  /** The parsed rules, when the file was read (`ok`, or the last good copy while unreachable). */
  readonly matcher: TdmRepMatcher | undefined;
  /** Why there are no rules, or what was wrong with the file: for explanations. */
  readonly note: string | undefined;
  readonly validUntil: number;
}

interface Dependencies {
  readonly store: RobotsStore;
  readonly options: ResolvedOptions;
  readonly log: Log;
  readonly clock: () => number;
  /** The manager's fetch queue: tdmrep.json fetches share its `concurrency`. */
  readonly queue: PQueue;
  readonly signal: AbortSignal;
}

/** Files kept parsed in process (a file is a few hundred bytes; at most 64 KiB). */
const CACHE_ENTRIES = 1_000;

export class TdmRepCache {
  private readonly entries = new LRUCache<string, TdmRepEntry>({ max: CACHE_ENTRIES });
  private readonly flights = new Map<string, Promise<TdmRepEntry>>();
  /** tdmrep.json fetches made. */
  fetches = 0;

  constructor(private readonly deps: Dependencies) {}

  /** The tdmrep.json of `origin` (`scheme://host[:port]`), loaded once. */
  async entryFor(origin: string): Promise<TdmRepEntry> {
    const url = `${origin}${TDMREP_PATH}`;
    const cached = this.entries.get(url);
    if (cached !== undefined && this.deps.clock() < cached.validUntil) return cached;
    let flight = this.flights.get(url);
    if (flight === undefined) {
      flight = this.load(url, cached?.record).finally(() => this.flights.delete(url));
      this.flights.set(url, flight);
    }
    return flight;
  }

  clear(): void {
    this.entries.clear();
  }

  private async load(url: string, previous: RobotsRecord | undefined): Promise<TdmRepEntry> {
    const { store, clock, queue, signal, log } = this.deps;
    const stored = await this.storeGet(url);
    if (stored !== undefined && clock() < stored.expiresAt) return this.remember(url, stored);
    const latest = newest(stored, previous);
    const lock = await store.lock?.(url, this.deps.options.lockTtlMs).catch(() => undefined);
    try {
      const record = await queue.add(() => this.fetch(url, latest), { signal });
      if (record === undefined) throw new ManagerClosedError('usage');
      try {
        await store.set(url, record, record.expiresAt - clock() + this.deps.options.unreachableAllowAfterMs);
      } catch (error) {
        log.warning('writing a tdmrep.json record to the store failed; it is kept in process only', { url, error: String(error) });
      }
      return this.remember(url, record);
    } finally {
      await lock?.release().catch(() => undefined);
    }
  }

  private async fetch(url: string, previous: RobotsRecord | undefined): Promise<RobotsRecord> {
    const { options, clock, signal } = this.deps;
    this.fetches++;
    const outcome = await fetchRobotsTxt(url, {
      userAgent: options.userAgent,
      ...(options.proxyUrl === undefined ? {} : { proxyUrl: options.proxyUrl }),
      connectTimeoutMs: options.connectTimeoutMs,
      timeoutMs: options.timeoutMs,
      // One byte past the limit: a longer file arrives capped, and parseTdmRep refuses it whole.
      maxBytes: MAX_TDMREP_BYTES + 1,
      maxRedirects: options.maxRedirects,
      signal,
    });
    const record = decideRecord(url, outcome, previous, clock(), options);
    this.deps.log.debug('tdmrep.json fetched', {
      url,
      status: record.status,
      httpStatus: record.httpStatus,
      problem: record.problem?.code,
    });
    return record;
  }

  private remember(url: string, record: RobotsRecord): TdmRepEntry {
    const now = this.deps.clock();
    const policy = effectivePolicy(record, now, this.deps.options);
    let matcher: TdmRepMatcher | undefined;
    let note: string | undefined;
    if (policy.kind === 'rules') {
      const file = parseTdmRep(Buffer.from(policy.body, 'base64'));
      matcher = new TdmRepMatcher(file);
      if (file.problems.length > 0) note = `${url}: ${file.problems.join('; ')}`;
      if (policy.reason === 'stale-copy') note = `${url} is unreachable (${record.problem?.code ?? 'unknown'}); its last good copy is used`;
    } else if (policy.kind === 'allow-all') {
      note = record.status === 'unreachable' ? `${url} has been unreachable too long: no reservation is read` : undefined;
    } else {
      note = `${url} is unreachable (${record.problem?.code ?? 'unknown'}): no reservation could be read`;
    }
    const entry: TdmRepEntry = {
      url,
      record,
      matcher,
      note,
      validUntil: Math.min(record.expiresAt, policyChangesAt(record, this.deps.options)),
    };
    this.entries.set(url, entry);
    return entry;
  }

  private async storeGet(url: string): Promise<RobotsRecord | undefined> {
    try {
      const stored = await this.deps.store.get(url);
      const record = stored === undefined || stored === null ? undefined : decodeRecord(stored, url);
      return record === undefined ? undefined : capExpiry(record, this.deps.clock(), this.deps.options);
    } catch (error) {
      this.deps.log.warning('reading a tdmrep.json record from the store failed; fetching instead', { url, error: String(error) });
      return undefined;
    }
  }
}

function newest(a: RobotsRecord | undefined, b: RobotsRecord | undefined): RobotsRecord | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.fetchedAt >= b.fetchedAt ? a : b;
}
