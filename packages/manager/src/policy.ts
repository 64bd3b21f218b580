/**
 * The status policy: a pure function from what a fetch saw to the record kept for the origin, and
 * a pure function from a record to the verdict policy in force. No I/O, no clock (the caller
 * passes `now`), so every row of the table below is a one-line test.
 *
 * | Fetch outcome                                   | Record        | Verdicts                         | Cached for                         |
 * |-------------------------------------------------|---------------|----------------------------------|------------------------------------|
 * | 2xx                                             | `ok`          | the rules in the body            | `max-age` within bounds, else 24 h |
 * | 3xx beyond `maxRedirects` hops, a loop, a bad `Location` | `unavailable` | allow all               | 24 h                               |
 * | 3xx without `Location` (e.g. 304)                | `unavailable` | allow all                        | 24 h                               |
 * | 4xx except 429                                   | `unavailable` | allow all                        | 24 h                               |
 * | 429, 5xx, other status, network failure          | `unreachable` | disallow all; the last good copy if any (`stale-copy`); allow all once failures spread over 30 days show the outage, with no good copy | the retry interval: `Retry-After`, else exponential backoff |
 *
 * These follow RFC 9309 §2.3.1 and Google's documented handling; the departures are the 30-day rule
 * (Google's, not the RFC's; it needs failures spread across the period, see `nextFailureRun`) and that a 4xx is cached like a success (RFC: "MAY access any resources").
 */
import type { FetchOutcome } from './fetch/fetch-file.js';
import { parseRetryAfter } from './retry-after.js';
import {
  RECORD_VERSION,
  type GoodCopy,
  type OkRecord,
  type RobotsRecord,
  type UnavailableRecord,
  type UnreachableRecord,
} from './record.js';

/** The tunable numbers of the status policy. Every field has a default in {@link POLICY_DEFAULTS}. */
export interface StatusPolicyOptions {
  /** How long a fetched robots.txt (or a 4xx) is used without `Cache-Control: max-age`. Default: 24 h. */
  readonly defaultTtlMs: number;
  /** The shortest cache time honoured from `max-age` (and used for `no-cache`/`no-store`). Default: 5 min. */
  readonly minTtlMs: number;
  /** The longest cache time honoured from `max-age`. Default: 24 h (RFC 9309 §2.4: "SHOULD NOT ... more than 24 hours"). */
  readonly maxTtlMs: number;
  /** Retry interval after the first failure; doubled per consecutive failure. Default: 1 min. */
  readonly retryBaseMs: number;
  /** Longest retry interval, also the cap on `Retry-After`. Default: 1 h. */
  readonly retryMaxMs: number;
  /**
   * After this long unreachable with no good copy, everything is allowed (Google's rule; RFC 9309
   * says "MAY" after "a reasonably long period"). `Infinity` keeps disallowing. Default: 30 days.
   */
  readonly unreachableAllowAfterMs: number;
}

const HOUR = 3_600_000;

/** Defaults of the status policy. */
export const POLICY_DEFAULTS: StatusPolicyOptions = Object.freeze({
  defaultTtlMs: 24 * HOUR,
  minTtlMs: 5 * 60_000,
  maxTtlMs: 24 * HOUR,
  retryBaseMs: 60_000,
  retryMaxMs: HOUR,
  unreachableAllowAfterMs: 30 * 24 * HOUR,
});

/** The shortest retry interval, whatever `Retry-After` says: a `0` must not cause a fetch storm. */
const MIN_RETRY_MS = 1_000;

/**
 * The status policy: the record to keep for `origin` after a fetch ended with `outcome`, given the
 * record kept before (for the backoff, the unreachable streak and the last good copy). Pure.
 */
export function decideRecord(
  origin: string,
  outcome: FetchOutcome,
  previous: RobotsRecord | undefined,
  now: number,
  policy: StatusPolicyOptions = POLICY_DEFAULTS,
): RobotsRecord {
  const redirects = outcome.redirects.length;
  // Each record is an object literal of one shape per status, its optional fields set after it in
  // order (their transitions shared): built by spreading, every record of a long crawl got a hidden
  // class of its own, about 330 B more per origin held.
  if (outcome.kind === 'redirect-failure') {
    const message =
      outcome.reason === 'redirect-loop'
        ? `the redirects came back to ${outcome.finalUrl}`
        : outcome.reason === 'too-many-redirects'
          ? `more than ${redirects} redirect hops`
          : `redirect from ${outcome.finalUrl} to an unusable Location`;
    const record: Writable<UnavailableRecord> = {
      version: RECORD_VERSION,
      origin,
      fetchedAt: now,
      status: 'unavailable',
      httpStatus: outcome.status,
      expiresAt: now + cacheTtl(undefined, policy),
      finalUrl: outcome.finalUrl,
      redirects,
      problem: { code: outcome.reason, message },
    };
    return record;
  }

  if (outcome.kind === 'response') {
    const status = outcome.status;
    if (status >= 200 && status < 300) {
      const record: Writable<OkRecord> = {
        version: RECORD_VERSION,
        origin,
        fetchedAt: now,
        status: 'ok',
        httpStatus: status,
        expiresAt: now + cacheTtl(outcome.headers.cacheControl, policy),
        body: Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength).toString('base64'),
      };
      if (outcome.bodyCapped) record.bodyCapped = true;
      if (redirects > 0) {
        record.finalUrl = outcome.finalUrl;
        record.redirects = redirects;
      }
      return record;
    }
    if (status >= 300 && status < 500 && status !== 429) {
      const record: Writable<UnavailableRecord> = {
        version: RECORD_VERSION,
        origin,
        fetchedAt: now,
        status: 'unavailable',
        httpStatus: status,
        expiresAt: now + cacheTtl(outcome.headers.cacheControl, policy),
        problem: { code: `http-${status}`, message: `robots.txt answered HTTP ${status}` },
      };
      if (redirects > 0) {
        record.finalUrl = outcome.finalUrl;
        record.redirects = redirects;
      }
      return record;
    }
  }

  // 429, 5xx, any other status, or no response at all: unreachable.
  const streak = previous?.status === 'unreachable' ? previous : undefined;
  const failures = streak === undefined ? 1 : streak.failures + 1;
  // A streak start ahead of this clock was written by a clock running ahead: it starts now.
  const unreachableSince = streak === undefined ? now : Math.min(streak.unreachableSince, now);
  const failedAt = nextFailureRun(streak, now, policy);
  const lastGood = goodCopyOf(previous);
  const retryAfter = outcome.kind === 'response' ? parseRetryAfter(outcome.headers.retryAfter, now) : undefined;
  const retryMs = retryDelay(failures, retryAfter, policy);
  const problem =
    outcome.kind === 'network'
      ? { code: outcome.error.code, message: outcome.error.message }
      : { code: `http-${outcome.status}`, message: `robots.txt answered HTTP ${outcome.status}` };
  const record: Writable<UnreachableRecord> = {
    version: RECORD_VERSION,
    origin,
    fetchedAt: now,
    status: 'unreachable',
    expiresAt: now + retryMs,
    problem,
    failures,
    unreachableSince,
    failedAt,
  };
  if (outcome.kind === 'response') record.httpStatus = outcome.status;
  if (redirects > 0) record.redirects = redirects;
  if (lastGood !== undefined) record.lastGood = lastGood;
  return record;
}

/** `T` with its fields settable: a record is built, then handed out as read-only. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The longest gap between two failures of one run, as a share of `unreachableAllowAfterMs`: the
 * 30-day rule needs failures spread across the whole period (so at least five at a quarter), not
 * one old time and one new failure; an old time may come from a clock far behind.
 */
const RUN_GAP_SHARE = 4;

function runGap(policy: Pick<StatusPolicyOptions, 'unreachableAllowAfterMs'>): number {
  return policy.unreachableAllowAfterMs / RUN_GAP_SHARE;
}

/**
 * The failure run after a failure at `now` that follows `streak` (see `RobotsRecord.failedAt`).
 * A record written before runs were kept counts its own fetch as the run's only failure. The run
 * starts again at `now` after a gap longer than the run gap, or when its last failure is ahead of
 * `now`. Samples are thinned so that any two next-but-one are over a gap apart: the newest failure
 * replaces the last sample when the sample before that is within a gap, which keeps every gap
 * within the run gap and the list at about 2 × `RUN_GAP_SHARE` + 2 entries.
 */
function nextFailureRun(
  streak: UnreachableRecord | undefined,
  now: number,
  policy: Pick<StatusPolicyOptions, 'unreachableAllowAfterMs'>,
): readonly number[] {
  const run = streak === undefined ? [] : (streak.failedAt ?? [streak.fetchedAt]);
  const last = run.at(-1);
  const gap = runGap(policy);
  if (last === undefined || last > now || now - last > gap || !isRun(run, gap)) return [now];
  const beforeLast = run.at(-2);
  return beforeLast !== undefined && now - beforeLast <= gap ? [...run.slice(0, -1), now] : [...run, now];
}

/** Times in order, each within `gap` of the one before. */
function isRun(times: readonly number[], gap: number): boolean {
  return times.every((time, i) => i === 0 || (time >= (times[i - 1] ?? time) && time - (times[i - 1] ?? time) <= gap));
}

/**
 * When the failures of an unreachable record (no good copy) show a streak of
 * `unreachableAllowAfterMs`: the first of its failure times that far after the run's first, else
 * `Infinity`. A record without a run (written before runs were kept), with a broken run, or whose
 * run is shorter never switches by itself; its next failures build the evidence.
 */
function longUnreachableFrom(record: UnreachableRecord, policy: Pick<StatusPolicyOptions, 'unreachableAllowAfterMs'>): number {
  const run = record.failedAt;
  const first = run?.[0];
  if (run === undefined || first === undefined || !isRun(run, runGap(policy))) return Infinity;
  return run.find((time) => time - first >= policy.unreachableAllowAfterMs) ?? Infinity;
}

/** The good state a record stands for, to fall back on while the origin is unreachable. */
function goodCopyOf(record: RobotsRecord | undefined): GoodCopy | undefined {
  if (record === undefined) return undefined;
  if (record.status === 'unreachable') return record.lastGood;
  const httpStatus = record.httpStatus === undefined ? {} : { httpStatus: record.httpStatus };
  if (record.status === 'ok') return { status: 'ok', ...httpStatus, body: record.body, fetchedAt: record.fetchedAt };
  return { status: 'unavailable', ...httpStatus, fetchedAt: record.fetchedAt };
}

/**
 * `record` as this manager may obey it at `now`: its expiry capped at what the policy would have
 * given it, `maxTtlMs` after its fetch (`retryMaxMs` for an unreachable record), and a fetch time
 * ahead of `now` counted as `now`. A record read from a store may have been written by another
 * version, another policy, a machine whose clock runs ahead, or by hand: with an `expiresAt` years
 * away it would otherwise be obeyed, never refetched, for years. Pure; `record` itself when within.
 */
export function capExpiry(
  record: RobotsRecord,
  now: number,
  policy: Pick<StatusPolicyOptions, 'maxTtlMs' | 'retryMaxMs'> = POLICY_DEFAULTS,
): RobotsRecord {
  const longest = record.status === 'unreachable' ? policy.retryMaxMs : policy.maxTtlMs;
  const cap = Math.min(record.fetchedAt, now) + longest;
  return record.expiresAt <= cap ? record : { ...record, expiresAt: cap };
}

/** Cache time from `Cache-Control`, clamped to `[minTtlMs, maxTtlMs]`; `defaultTtlMs` without one. */
export function cacheTtl(cacheControl: string | undefined, policy: StatusPolicyOptions = POLICY_DEFAULTS): number {
  const clamp = (ms: number) => Math.min(policy.maxTtlMs, Math.max(policy.minTtlMs, ms));
  if (cacheControl === undefined) return clamp(policy.defaultTtlMs);
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return policy.minTtlMs;
  for (const directive of directives) {
    const match = /^max-age\s*=\s*"?(\d+)"?$/.exec(directive);
    if (match?.[1] !== undefined) return clamp(Number(match[1]) * 1000);
  }
  return clamp(policy.defaultTtlMs);
}

/** Exponential backoff from `retryBaseMs`, or the server's `Retry-After`, within `[1 s, retryMaxMs]`. */
export function retryDelay(failures: number, retryAfterMs: number | undefined, policy: StatusPolicyOptions = POLICY_DEFAULTS): number {
  const wanted = retryAfterMs ?? policy.retryBaseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30);
  return Math.max(MIN_RETRY_MS, Math.min(policy.retryMaxMs, wanted));
}

/** Why a verdict came out the way it did, at the origin level. */
export type VerdictReason =
  /** The robots.txt rules decided (see `line`, and `explain()` for the rule). */
  | 'rules'
  /** robots.txt is unavailable (4xx, redirect trouble): everything is allowed. */
  | 'unavailable'
  /** robots.txt is unreachable (5xx, 429, network) and there is no good copy: everything is disallowed. */
  | 'unreachable'
  /** robots.txt is unreachable; the last good copy decided. */
  | 'stale-copy'
  /** robots.txt has been unreachable longer than `unreachableAllowAfterMs`, no good copy: allowed. */
  | 'long-unreachable'
  /** The URL is not an absolute http(s) URL: nothing to fetch rules from, so it is not allowed. */
  | 'invalid-url';

/** What decides the verdicts of an origin with this record right now. */
export type EffectivePolicy =
  | { readonly kind: 'rules'; readonly reason: 'rules' | 'stale-copy'; readonly body: string }
  | { readonly kind: 'allow-all'; readonly reason: 'unavailable' | 'stale-copy' | 'long-unreachable' }
  | { readonly kind: 'disallow-all'; readonly reason: 'unreachable' };

/** The policy in force for a record at `now`. Pure. */
export function effectivePolicy(
  record: RobotsRecord,
  now: number,
  policy: Pick<StatusPolicyOptions, 'unreachableAllowAfterMs'> = POLICY_DEFAULTS,
): EffectivePolicy {
  if (record.status === 'ok') return { kind: 'rules', reason: 'rules', body: record.body };
  if (record.status === 'unavailable') return { kind: 'allow-all', reason: 'unavailable' };
  const good = record.lastGood;
  if (good !== undefined) {
    return good.status === 'ok' ? { kind: 'rules', reason: 'stale-copy', body: good.body } : { kind: 'allow-all', reason: 'stale-copy' };
  }
  // Failure times ahead of `now` (a writer's clock running ahead) are not evidence yet.
  if (longUnreachableFrom(record, policy) <= now) return { kind: 'allow-all', reason: 'long-unreachable' };
  return { kind: 'disallow-all', reason: 'unreachable' };
}

/** When {@link effectivePolicy} may change without a new fetch (the 30-day switch), else `Infinity`. */
export function policyChangesAt(
  record: RobotsRecord,
  policy: Pick<StatusPolicyOptions, 'unreachableAllowAfterMs'> = POLICY_DEFAULTS,
): number {
  if (record.status !== 'unreachable' || record.lastGood !== undefined) return Infinity;
  return longUnreachableFrom(record, policy);
}
