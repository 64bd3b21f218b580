/**
 * robots.txt as a kind of file the loader fetches (see `loader/origin-file-loader.ts`): its key is
 * the origin, its parsed form the parser's `RobotsTxt`, and the verdicts `decide()` gives.
 */
import { decidingLineOfPacked, parseRobotsTxt, type ProductTokens, type RobotsTxt } from '@heed/parser';
import type { FileKind, LoadedFile } from './origin-file-loader.js';
import type { ResolvedOptions } from '../options.js';
import { robotsTxtUrl } from '../origin.js';
import type { RobotsRecord } from '../record.js';
import type { SnapshotKeeper } from '../snapshots/keeper.js';
import type { VerdictReason } from '../policy.js';
import { ManagerVerdict, whenExplained, type Verdict, type VerdictRecord } from '../verdict.js';

/** An origin's robots.txt as the cache holds it. */
export interface RobotsRules {
  /** Parsed rules, when the policy in force is `rules`. */
  readonly robots: RobotsTxt | undefined;
  /** The record as verdicts show it, one per entry: shared by every verdict of the origin. */
  readonly record: VerdictRecord;
  /** The id of the snapshot the verdicts are made with (`sha256:<hex>` of the body in force). */
  readonly snapshot: string;
  /** The reason of every verdict of the policy in force (its rules, or the status that decided). */
  readonly reason: VerdictReason;
}

export type LoadedRobots = LoadedFile<RobotsRules>;

/**
 * robots.txt for the loader. `snapshots` learns of every record taken into the cache, with its
 * snapshot id: worked out here, once per accepted record (a record read again with the same body
 * keeps its id), never per check.
 */
export function robotsKind(options: ResolvedOptions, snapshots: SnapshotKeeper, recount: (origin: string) => void): FileKind<RobotsRules> {
  return {
    name: 'robots.txt',
    keyOf: (origin) => origin,
    urlOf: robotsTxtUrl,
    maxBytes: () => options.maxBytes,
    parse(key, record, policy, previous) {
      const view = new RecordView(record, options.now);
      const sameBody =
        previous !== undefined &&
        previous.policy.kind === policy.kind &&
        (policy.kind !== 'rules' || (previous.policy.kind === 'rules' && previous.policy.body === policy.body));
      const snapshot = sameBody ? previous.value.snapshot : snapshots.idOf(policy);
      // The same record taken in again (another flight, a re-read) is the same sighting.
      if (!sameBody || previous.record.fetchedAt !== record.fetchedAt || previous.policy.reason !== policy.reason) {
        snapshots.accepted({ origin: key, record, policy, snapshot });
      }
      const { reason } = policy;
      if (policy.kind !== 'rules') return { value: { robots: undefined, record: view, snapshot, reason }, bytes: 0 };
      // A record read back again (another flight, a re-read) need not be parsed twice.
      if (sameBody && previous.value.robots !== undefined) {
        return { value: { robots: previous.value.robots, record: view, snapshot, reason }, bytes: previous.valueBytes };
      }
      const robots = parseRobotsTxt(Buffer.from(policy.body, 'base64'), options.parseOptions);
      // Counted for what it holds now, its table; checks count it again as they make it grow, and
      // so does explaining one of its verdicts.
      whenExplained.set(robots, recount);
      return { value: { robots, record: view, snapshot, reason }, bytes: robots.heldBytes };
    },
    heldBytes: (value) => value.robots?.heldBytes ?? 0,
    unreachableWarning: (origin, record) =>
      `robots.txt of ${origin} is unreachable (${record.problem.code}); ${
        record.lastGood === undefined ? 'its URLs are disallowed' : 'using the last good copy'
      } until a retry succeeds.`,
  };
}

/**
 * The verdict of a loaded origin for `url`. The parser answers in one number (the deciding line,
 * negated when it disallows), so the cache keeps no answer object per origin; the record view is
 * shared per entry: a check builds the verdict object alone.
 */
export function verdictOf(entry: LoadedRobots, url: string, token: ProductTokens): Verdict {
  const { policy, value } = entry;
  if (policy.kind !== 'rules' || value.robots === undefined)
    return verdictWith(value, policy.kind === 'allow-all', 0, url, entry.key, token);
  const line = value.robots.decidingLine(url, token);
  return verdictWith(value, line >= 0, line, url, entry.key, token);
}

/** The verdict of an origin whose parsed form is `value`, by `line` (negated when it disallows, 0: none). */
function verdictWith(value: RobotsRules, allowed: boolean, line: number, url: string, origin: string, token: ProductTokens): Verdict {
  return new ManagerVerdict(allowed, value.reason, Math.abs(line), url, origin, token, value.record, value.snapshot, value.robots);
}

/** The quick form of an origin whose policy allows every URL, and of one whose policy allows none. */
const ALLOW_ALL = 'allow-all';
const DISALLOW_ALL = 'disallow-all';

/**
 * The quick form of a loaded origin for `token`: one string from which {@link quickVerdict} answers
 * as {@link verdictOf} would, so a warm check reads that string and nothing of the parsed file. For
 * a policy that allows or disallows every URL, a constant; for rules, the parser's packed rules of
 * the token, once its second check has compiled them (undefined before, and for rule sets too large
 * to pack).
 */
export function quickOf(entry: LoadedRobots, token: ProductTokens): string | undefined {
  const { policy, value } = entry;
  if (policy.kind !== 'rules' || value.robots === undefined) return policy.kind === 'allow-all' ? ALLOW_ALL : DISALLOW_ALL;
  return value.robots.packedRules(token);
}

/**
 * {@link verdictOf} answered from the quick form of the origin's entry and its parsed form `value`:
 * the entry itself is not read. `origin` is the origin of `url`, its entry's key.
 */
export function quickVerdict(value: RobotsRules, quick: string, url: string, origin: string, token: ProductTokens): Verdict {
  const whole = quick === ALLOW_ALL || quick === DISALLOW_ALL;
  const line = whole ? 0 : decidingLineOfPacked(quick, url);
  return verdictWith(value, whole ? quick === ALLOW_ALL : line >= 0, line, url, origin, token);
}

/** {@link quickVerdict}'s `allowed`, with no verdict built. */
export function quickAllows(quick: string, url: string): boolean {
  if (quick === ALLOW_ALL || quick === DISALLOW_ALL) return quick === ALLOW_ALL;
  return decidingLineOfPacked(quick, url) >= 0;
}

/** Whether a loaded origin allows `url`: `verdictOf(...).allowed`, with no verdict built. */
export function allowedBy(entry: LoadedRobots, url: string, token: ProductTokens): boolean {
  const { policy, value } = entry;
  if (policy.kind !== 'rules' || value.robots === undefined) return policy.kind === 'allow-all';
  return value.robots.isAllowed(url, token);
}

/**
 * The record as a verdict shows it; `ageMs` is read from the manager's clock when asked. A class,
 * so that the getter is the prototype's: a broad crawl holds one per origin, and an object literal
 * with a getter of its own took a closure, its context and a slow-mode object each (about 400 B).
 */
class RecordView implements VerdictRecord {
  readonly status: RobotsRecord['status'];
  declare readonly httpStatus?: number;
  readonly fetchedAt: number;
  readonly #clock: () => number;

  constructor(record: RobotsRecord, clock: () => number) {
    this.status = record.status;
    if (record.httpStatus !== undefined) (this as { httpStatus?: number }).httpStatus = record.httpStatus;
    this.fetchedAt = record.fetchedAt;
    this.#clock = clock;
    Object.freeze(this);
  }

  get ageMs(): number {
    return Math.max(0, this.#clock() - this.fetchedAt);
  }

  /** As JSON, with the age read now. */
  toJSON(): { status: RobotsRecord['status']; httpStatus?: number; fetchedAt: number; ageMs: number } {
    const { status, httpStatus, fetchedAt, ageMs } = this;
    return { status, ...(httpStatus === undefined ? {} : { httpStatus }), fetchedAt, ageMs };
  }
}
