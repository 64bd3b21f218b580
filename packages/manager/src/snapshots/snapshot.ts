/**
 * robots.txt snapshots: every body the manager accepts, kept once by its content so that a crawl
 * can prove afterwards which rules each request was judged by. A snapshot's id is `sha256:<hex>` of
 * the body bytes (the empty body for outcomes without rules: a 4xx, an unreachable origin); a body
 * seen again, by any origin, adds a sighting (which origin, when, its HTTP status and how the status
 * policy read it), never a copy. Sightings are bounded per snapshot: the first and the latest
 * {@link MAX_SIGHTINGS} are kept and the rest counted, because one body (the empty one of every 404)
 * may be seen by a million origins.
 *
 * Pure: ids, sighting logs and their checked JSON. The stores (`cache/*.ts`) and the snapshot
 * directory (`snapshots/directory.ts`) keep them.
 */
import { hash } from 'node:crypto';
import type { VerdictReason } from '../policy.js';

/** How the status policy read a fetch: the verdict reasons an origin's record can give (all but `invalid-url`). */
export const SNAPSHOT_OUTCOMES = ['rules', 'stale-copy', 'unavailable', 'unreachable', 'long-unreachable'] as const;
/**
 * How the status policy read the record a snapshot was taken from:
 * - `rules`: a 2xx, the body's rules decide;
 * - `stale-copy`: unreachable now, the last good copy decides (its body, or allow-all when that copy was a 4xx);
 * - `unavailable`: a 4xx (or redirect trouble), everything allowed;
 * - `unreachable`: 5xx, 429 or a network failure with no good copy, everything disallowed;
 * - `long-unreachable`: unreachable for 30 days with no good copy, everything allowed.
 */
export type SnapshotOutcome = (typeof SNAPSHOT_OUTCOMES)[number] & VerdictReason;

/** First and latest sightings kept per snapshot (each); the ones between are only counted. */
export const MAX_SIGHTINGS = 8;

/** Longest origin a sighting holds (`scheme://host:port`; a host is at most 253 bytes). */
const MAX_ORIGIN_LENGTH = 300;

/** One time an origin's robots.txt came to a snapshot. */
export interface SnapshotSighting {
  /** `scheme://host[:port]`. */
  readonly origin: string;
  /** When the fetch behind the record ended (ms since the epoch). */
  readonly fetchedAt: number;
  /** HTTP status of that fetch, when there was a response. */
  readonly httpStatus?: number;
  /** How the status policy read it. */
  readonly outcome: SnapshotOutcome;
}

/** The sightings of one snapshot, bounded: the first and the latest {@link MAX_SIGHTINGS}, and how many fell between. */
export interface SightingLog {
  readonly first: readonly SnapshotSighting[];
  readonly latest: readonly SnapshotSighting[];
  /** Sightings seen but kept in neither list. */
  readonly dropped: number;
}

/** A snapshot as a store hands it back: its id, its bytes and its sightings. */
export interface StoredSnapshot {
  readonly id: string;
  readonly body: Uint8Array;
  readonly sightings: SightingLog;
}

/** The shape of a snapshot id: `sha256:` and 64 lower-case hex digits. */
export const SNAPSHOT_ID = /^sha256:[0-9a-f]{64}$/;

/** The id of a body: `sha256:<hex>` of its bytes. */
export function snapshotIdOf(body: Uint8Array): string {
  return `sha256:${hash('sha256', body, 'hex')}`;
}

/** The id of the empty body: the snapshot of every outcome without rules. */
export const EMPTY_SNAPSHOT_ID = snapshotIdOf(new Uint8Array(0));

export const EMPTY_SIGHTINGS: SightingLog = Object.freeze({ first: Object.freeze([]), latest: Object.freeze([]), dropped: 0 });

/** Whether two sightings are the same event (one record read twice: from the store, after an eviction). */
function sameSighting(a: SnapshotSighting, b: SnapshotSighting): boolean {
  return a.origin === b.origin && a.fetchedAt === b.fetchedAt && a.outcome === b.outcome;
}

/**
 * `log` with `sighting` added: into `first` while it has room, else into `latest` (the oldest of a
 * full `latest` counted in `dropped`). A sighting already kept changes nothing. Pure.
 */
export function addSighting(log: SightingLog, sighting: SnapshotSighting, max = MAX_SIGHTINGS): SightingLog {
  if (log.first.some((s) => sameSighting(s, sighting)) || log.latest.some((s) => sameSighting(s, sighting))) return log;
  if (log.first.length < max) return { ...log, first: [...log.first, sighting] };
  const latest = [...log.latest, sighting];
  const over = Math.max(0, latest.length - max);
  return { first: log.first, latest: latest.slice(over), dropped: log.dropped + over };
}

/** Every kept sighting of `origin` in `log`. */
export function sightingsOf(log: SightingLog, origin: string): SnapshotSighting[] {
  return [...log.first, ...log.latest].filter((s) => s.origin === origin);
}

/**
 * A sighting log from stored JSON (text or parsed), or `undefined` when it is not one: wrong
 * types, an unknown outcome, more sightings than the bound, an origin too long. A store or a
 * directory may hold anything; nothing unchecked reaches an audit.
 */
export function decodeSightings(stored: unknown): SightingLog | undefined {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { first, latest, dropped } = value as Record<string, unknown>;
  if (!isSightingList(first) || !isSightingList(latest)) return undefined;
  if (typeof dropped !== 'number' || !Number.isSafeInteger(dropped) || dropped < 0) return undefined;
  return { first, latest, dropped };
}

function isSightingList(value: unknown): value is SnapshotSighting[] {
  return Array.isArray(value) && value.length <= MAX_SIGHTINGS * 4 && value.every(isSighting);
}

export function isSighting(value: unknown): value is SnapshotSighting {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.origin === 'string' &&
    s.origin.length <= MAX_ORIGIN_LENGTH &&
    typeof s.fetchedAt === 'number' &&
    Number.isFinite(s.fetchedAt) &&
    (s.httpStatus === undefined || (typeof s.httpStatus === 'number' && Number.isInteger(s.httpStatus))) &&
    (SNAPSHOT_OUTCOMES as readonly unknown[]).includes(s.outcome)
  );
}

/** Where snapshots are kept: the manager's store (optional methods) or a {@link SnapshotDirectory}. */
export interface SnapshotStore {
  /**
   * Keeps `body` under `id` (once: a body already kept is not written again) and adds `sighting`
   * to its log. `id` is `snapshotIdOf(body)`.
   */
  keepSnapshot(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void>;
  /** The snapshot `id` with its sightings, or `undefined` when it is not kept. */
  getSnapshot(id: string): Promise<StoredSnapshot | undefined>;
}
