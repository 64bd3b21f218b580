/**
 * The record a store keeps per origin: the raw robots.txt bytes and what the fetch saw, never a
 * parsed object (parsing is cheap and the parser may change between versions). It is plain JSON
 * with a version number, so a Redis or a key-value store shared by several Heed versions, or
 * holding somebody else's data under our key, never feeds garbage to the manager: anything that
 * does not decode to this exact version is ignored and the robots.txt is fetched again.
 */

/** Version of the stored record format. Bump it when the shape changes incompatibly. */
export const RECORD_VERSION = 1;

/** Most entries of {@link RobotsRecord.failedAt} a stored record may hold (the policy keeps about 10). */
export const MAX_FAILED_AT = 64;

/**
 * What the last fetch of an origin's robots.txt came to (see the status policy in `policy.ts`):
 * - `ok`: a 2xx; the body holds the rules.
 * - `unavailable`: 4xx (except 429), or redirects beyond the limit or in a loop: no rules, all allowed.
 * - `unreachable`: 5xx, 429 or a network failure: all disallowed, unless a last good copy exists.
 */
export type RobotsRecordStatus = 'ok' | 'unavailable' | 'unreachable';

/** Why a record is `unavailable` or `unreachable`, as a stable code and a human message. */
export interface RecordProblem {
  /** `http-404`, `http-503`, `too-many-redirects`, `redirect-loop`, or a `RobotsFetchError` code. */
  readonly code: string;
  readonly message: string;
}

/** The last successful (`ok` or `unavailable`) state, kept while an origin is unreachable. */
export type GoodCopy =
  | {
      readonly status: 'ok';
      readonly httpStatus?: number;
      /** The robots.txt bytes, base64. */
      readonly body: string;
      readonly fetchedAt: number;
    }
  | {
      readonly status: 'unavailable';
      readonly httpStatus?: number;
      readonly fetchedAt: number;
    };

/** What every record holds, whatever its status. */
interface RecordBase {
  readonly version: typeof RECORD_VERSION;
  /** `scheme://host[:port]`, as `originOf()` writes it. */
  readonly origin: string;
  /** HTTP status of the final response, when there was one. */
  readonly httpStatus?: number;
  /** When the fetch that produced this record ended (ms since the epoch). */
  readonly fetchedAt: number;
  /** When the record should be fetched again: the cache TTL, or the retry time of a failure. */
  readonly expiresAt: number;
  /** The URL the body finally came from, when redirects were followed. */
  readonly finalUrl?: string;
  /** Redirect hops followed. */
  readonly redirects?: number;
}

/** A 2xx: the body holds the rules. */
export interface OkRecord extends RecordBase {
  readonly status: 'ok';
  /** The bytes read (at most `maxBytes`), base64. */
  readonly body: string;
  /** The body was longer than `maxBytes`: only the first `maxBytes` were read and parsed. */
  readonly bodyCapped?: boolean;
}

/** A 4xx (except 429), or redirects beyond the limit or in a loop: no rules, all allowed. */
export interface UnavailableRecord extends RecordBase {
  readonly status: 'unavailable';
  /** Why: `http-404`, `too-many-redirects`, ... */
  readonly problem: RecordProblem;
}

/** A 5xx, 429 or a network failure: all disallowed, unless a last good copy exists. */
export interface UnreachableRecord extends RecordBase {
  readonly status: 'unreachable';
  /** Why: `http-503`, `timeout`, ... */
  readonly problem: RecordProblem;
  /** Consecutive unreachable fetches, for the retry backoff. */
  readonly failures: number;
  /** When the current unreachable streak began. */
  readonly unreachableSince: number;
  /**
   * The evidence the 30-day rule rests on. Times of failed fetches, oldest first: the first of the
   * current run of failures none of which came more than a quarter of `unreachableAllowAfterMs`
   * after the one before, then samples of that run no further apart, the last one being this
   * record's own. A gap longer than that, or a time ahead of the clock that writes the next
   * failure, starts the run again. At most 64 entries (about 10 are kept). A record without it
   * starts its run at its next failure.
   */
  readonly failedAt?: readonly number[];
  /** The last good state, used while the origin is unreachable. */
  readonly lastGood?: GoodCopy;
}

/**
 * One origin's robots.txt as stored: versioned JSON, the raw bytes and the fetch metadata; what it
 * holds depends on its `status` (see `RobotsRecordStatus`).
 */
export type RobotsRecord = OkRecord | UnavailableRecord | UnreachableRecord;

/** Why a record is `unavailable` or `unreachable`; `undefined` for `ok`. */
export function problemOf(record: RobotsRecord): RecordProblem | undefined {
  return record.status === 'ok' ? undefined : record.problem;
}

/** The record as the JSON text stores keep. */
export function encodeRecord(record: RobotsRecord): string {
  return JSON.stringify(record);
}

/**
 * A record from stored JSON (text or an already-parsed value), or `undefined` when it is corrupt,
 * of another version, or for another origin than `expectedOrigin` (a hash collision or a foreign
 * key): the caller then fetches again.
 */
export function decodeRecord(stored: unknown, expectedOrigin?: string): RobotsRecord | undefined {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return undefined;
    }
  }
  return isRecord(value, expectedOrigin) ? value : undefined;
}

function isRecord(value: unknown, expectedOrigin: string | undefined): value is RobotsRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  if (r.version !== RECORD_VERSION) return false;
  if (typeof r.origin !== 'string' || (expectedOrigin !== undefined && r.origin !== expectedOrigin)) return false;
  if (!isFiniteNumber(r.fetchedAt) || !isFiniteNumber(r.expiresAt)) return false;
  if (r.httpStatus !== undefined && !isFiniteNumber(r.httpStatus)) return false;
  if (r.finalUrl !== undefined && typeof r.finalUrl !== 'string') return false;
  if (r.redirects !== undefined && !isFiniteNumber(r.redirects)) return false;
  switch (r.status) {
    case 'ok':
      return typeof r.body === 'string' && (r.bodyCapped === undefined || typeof r.bodyCapped === 'boolean');
    case 'unavailable':
      return isProblem(r.problem);
    case 'unreachable':
      return (
        isProblem(r.problem) &&
        isFiniteNumber(r.failures) &&
        isFiniteNumber(r.unreachableSince) &&
        (r.failedAt === undefined ||
          (Array.isArray(r.failedAt) && r.failedAt.length <= MAX_FAILED_AT && r.failedAt.every(isFiniteNumber))) &&
        (r.lastGood === undefined || isGoodCopy(r.lastGood))
      );
    default:
      return false;
  }
}

function isProblem(value: unknown): value is RecordProblem {
  const p = value as Record<string, unknown> | null | undefined;
  return typeof p === 'object' && p !== null && typeof p.code === 'string' && typeof p.message === 'string';
}

function isGoodCopy(value: unknown): value is GoodCopy {
  const g = value as Record<string, unknown> | null;
  if (typeof g !== 'object' || g === null || !isFiniteNumber(g.fetchedAt)) return false;
  if (g.httpStatus !== undefined && !isFiniteNumber(g.httpStatus)) return false;
  return g.status === 'ok' ? typeof g.body === 'string' : g.status === 'unavailable';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
