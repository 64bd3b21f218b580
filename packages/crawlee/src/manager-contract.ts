/**
 * What the plugin needs from a robots manager. `RobotsManager` from `@heed/manager` satisfies it; the
 * plugin depends on this narrow shape (not on the class) so that several crawlers can share one
 * manager, and so tests can hand in a manager built any way they like.
 */
import type { Group, Rule } from '@heed/parser';

/** Why a verdict came out as it did (see `@heed/manager`'s status policy). */
export type VerdictReason = 'rules' | 'unavailable' | 'unreachable' | 'stale-copy' | 'invalid-url';

/** The manager's answer for one URL and one user-agent. */
export interface RobotsVerdict {
  readonly allowed: boolean;
  readonly url: string;
  readonly origin: string;
  readonly userAgent: string;
  readonly reason: VerdictReason;
  /** 1-based line of the deciding rule, when rules decided. */
  readonly line?: number;
  readonly rule?: Rule;
  readonly groups?: readonly Group[];
  readonly record: {
    readonly status: string;
    readonly httpStatus?: number;
    readonly fetchedAt: number;
    readonly ageMs: number;
  };
}

/** The subset of `RobotsManager` the plugin calls. */
export interface RobotsManagerLike {
  check(url: string, userAgent?: string): Promise<RobotsVerdict>;
  sitemaps(url: string): Promise<readonly string[]>;
  crawlDelay(url: string, userAgent?: string): Promise<number | undefined>;
  prefetch(urls: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}
