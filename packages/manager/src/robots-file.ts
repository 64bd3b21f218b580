/**
 * robots.txt as a kind of file the loader fetches (see `loader/origin-file-loader.ts`): its key is
 * the origin, its parsed form the parser's `RobotsTxt`, and the answers `decide()` gives, one frozen
 * object per deciding line, made the first time each is given.
 */
import { parseRobotsTxt, type ProductTokens, type RobotsTxt } from '@heed/parser';
import { parsedBytes } from './cache/sizes.js';
import type { FileKind, LoadedFile } from './loader/origin-file-loader.js';
import type { ResolvedOptions } from './options.js';
import type { VerdictReason } from './policy.js';
import { robotsTxtUrl } from './origin.js';
import type { RobotsRecordStatus } from './record.js';

/**
 * What `decide()` answers: the verdict of one check and the line that decided it. Shared between
 * the checks an origin's line decides (frozen): nothing is built per check.
 */
export interface Decision {
  readonly allowed: boolean;
  /** The URL's origin (`''` for an invalid URL). */
  readonly origin: string;
  readonly reason: VerdictReason;
  /** The deciding rule's line; 0 when no rule decided (allowed by default, or the status policy decided). */
  readonly line: number;
  /** The status of the origin's record the verdict rests on (`unavailable` for an invalid URL). */
  readonly status: RobotsRecordStatus;
  /** The HTTP status of the record's last fetch, when there was a response. */
  readonly httpStatus?: number;
  /** When the record was fetched (ms since the epoch; 0 for an invalid URL). */
  readonly fetchedAt: number;
}

/** An origin's robots.txt as the cache holds it. */
export interface RobotsRules {
  /** Parsed rules, when the policy in force is `rules`. */
  readonly robots: RobotsTxt | undefined;
  /**
   * `decide()`'s answers, by deciding line (0: no rule decided); at most {@link MAX_ANSWERS} lines
   * are kept (`answersKept`), later ones are made per check.
   */
  readonly answers: (Decision | undefined)[];
  answersKept: number;
}

export type LoadedRobots = LoadedFile<RobotsRules>;

/**
 * Deciding lines whose `decide()` answer an entry keeps (about 100 bytes each): a crawl's URLs of one
 * origin are decided by a few lines; a file of thousands of rules cannot make an entry grow past
 * what `cache/sizes.ts` counts for it.
 */
const MAX_ANSWERS = 256;

export function robotsKind(options: ResolvedOptions): FileKind<RobotsRules> {
  return {
    name: 'robots.txt',
    keyOf: (origin) => origin,
    urlOf: robotsTxtUrl,
    maxBytes: () => options.maxBytes,
    parse(_key, _record, policy, previous) {
      if (policy.kind !== 'rules') return { value: { robots: undefined, answers: [], answersKept: 0 }, bytes: 0 };
      // A record read back again (another flight, a re-read) need not be parsed twice.
      if (previous !== undefined && previous.policy.kind === 'rules' && previous.policy.body === policy.body) {
        return { value: { robots: previous.value.robots, answers: [], answersKept: 0 }, bytes: previous.valueBytes };
      }
      const body = Buffer.from(policy.body, 'base64');
      const robots = parseRobotsTxt(body, options.parseOptions);
      return { value: { robots, answers: [], answersKept: 0 }, bytes: parsedBytes(body, robots.directiveCount) };
    },
    unreachableWarning: (origin, record) =>
      `robots.txt of ${origin} is unreachable (${record.problem.code}); ${
        record.lastGood === undefined ? 'its URLs are disallowed' : 'using the last good copy'
      } until a retry succeeds.`,
  };
}

/** The decision of a loaded origin for `url`: one object per deciding line, made once. */
export function decisionOf(entry: LoadedRobots, url: string, token: ProductTokens): Decision {
  const { policy, value } = entry;
  if (policy.kind !== 'rules' || value.robots === undefined) return value.answers[0] ?? makeAnswer(entry, 0, policy.kind === 'allow-all');
  // A line decides the same way for every agent: its directive (or the default allow, line 0) does.
  const { line, allowed } = value.robots.decide(url, token);
  return value.answers[line] ?? makeAnswer(entry, line, allowed);
}

function makeAnswer(entry: LoadedRobots, line: number, allowed: boolean): Decision {
  const { status, httpStatus, fetchedAt } = entry.record;
  const decision: Decision = Object.freeze({
    allowed,
    origin: entry.key,
    reason: entry.policy.reason,
    line,
    status,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    fetchedAt,
  });
  const { value } = entry;
  if (value.answersKept < MAX_ANSWERS) {
    value.answers[line] = decision;
    value.answersKept++;
  }
  return decision;
}
