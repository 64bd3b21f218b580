/**
 * `heed audit`'s judgement: every crawl record judged again against the robots.txt snapshot it
 * names, with today's parser and the record's own product token(s). What is found:
 *
 * | finding | violation | when |
 * | --- | --- | --- |
 * | `disallowed-request` | yes | a request left that the snapshot's rules (or its status policy outcome) do not allow |
 * | `unchecked-request` | yes | a request left with no robots.txt check (`checkRedirects: false`), or with no snapshot named |
 * | `snapshot-missing` | yes | the snapshot a record names is not in the directory |
 * | `snapshot-altered` | yes | the snapshot's bytes do not hash to its id |
 * | `outcome-not-seen` | yes | the snapshot was never seen for the record's origin with the record's outcome |
 * | `malformed-line` | yes | a line is not a crawl record (named by its number) |
 * | `skip-now-allowed` | no | a skip that today's parser would allow (the parser changed, or a conservative skip) |
 * | `sighting-unconfirmed` | no | the origin is not among the snapshot's kept sightings, and some were dropped (bounded logs) |
 *
 * Memory is bounded whatever the file's size: findings past {@link MAX_FINDINGS} are counted, not
 * kept, and origins past {@link MAX_ORIGINS} are summed into one row.
 */
import type { RobotsTxt } from '@heed/parser';
import { originOf, sightingsOf } from '@heed/manager';
import { readLines } from './lines.js';
import { readRecord, type AuditedRecord } from './record.js';
import { SnapshotShelf } from './snapshots.js';

export const VIOLATIONS = [
  'disallowed-request',
  'unchecked-request',
  'snapshot-missing',
  'snapshot-altered',
  'outcome-not-seen',
  'malformed-line',
] as const;
export const NOTES = ['skip-now-allowed', 'sighting-unconfirmed'] as const;
export type FindingKind = (typeof VIOLATIONS)[number] | (typeof NOTES)[number];

export interface Finding {
  readonly kind: FindingKind;
  /** The line of the records file. */
  readonly line: number;
  readonly url?: string;
  readonly snapshot?: string;
  /** What was found, in words (from the file's bytes: escape it before a terminal sees it). */
  readonly detail: string;
}

export interface OriginSummary {
  readonly origin: string;
  /** Distinct snapshots (robots.txt versions) records of the origin named, up to {@link MAX_VERSIONS_PER_ORIGIN}. */
  readonly versions: number;
  readonly requests: number;
  readonly skips: number;
  readonly skipsByReason: Readonly<Record<string, number>>;
}

export interface AuditReport {
  readonly records: number;
  readonly requests: number;
  readonly skips: number;
  readonly lines: number;
  readonly snapshotsVerified: number;
  readonly violations: number;
  readonly findings: readonly Finding[];
  /** Findings counted but not kept (past {@link MAX_FINDINGS}). */
  readonly findingsOmitted: number;
  readonly origins: readonly OriginSummary[];
  /** Origins past {@link MAX_ORIGINS}, summed into the last row. */
  readonly originsOmitted: number;
}

export const MAX_FINDINGS = 1_000;
export const MAX_ORIGINS = 100_000;
const MAX_VERSIONS_PER_ORIGIN = 1_000;
const OTHER_ORIGINS = '(other origins)';

/** Outcomes under which the rules in the snapshot's body decide; the others allow or disallow everything. */
const RULE_OUTCOMES = new Set(['rules', 'stale-copy']);
const ALLOW_ALL = new Set(['unavailable', 'long-unreachable']);
/** Skip reasons a robots.txt verdict gave (the others, `nofollow`, `usage`, ..., are not robots.txt's). */
const ROBOTS_SKIPS = new Set(['rules', 'stale-copy', 'unreachable']);

interface OriginCounts {
  versions: Set<string>;
  requests: number;
  skips: number;
  skipsByReason: Record<string, number>;
}

/** Audits the records file `path` against the snapshot directory `snapshots`. `onBytes`: progress, in bytes read. */
export async function audit(path: string, snapshots: string, onBytes?: (bytes: number, records: number) => void): Promise<AuditReport> {
  const shelf = new SnapshotShelf(snapshots);
  const findings: Finding[] = [];
  let findingsOmitted = 0;
  let violations = 0;
  let records = 0;
  let requests = 0;
  let skips = 0;
  let lines = 0;
  const origins = new Map<string, OriginCounts>();
  let originsOmitted = 0;

  const find = (finding: Finding): void => {
    if ((VIOLATIONS as readonly string[]).includes(finding.kind)) violations++;
    if (findings.length < MAX_FINDINGS) findings.push(finding);
    else findingsOmitted++;
  };
  const countsOf = (origin: string): OriginCounts => {
    let counts = origins.get(origin);
    if (counts === undefined) {
      if (origins.size >= MAX_ORIGINS) {
        originsOmitted++;
        origin = OTHER_ORIGINS;
        counts = origins.get(origin);
      }
      if (counts === undefined) {
        counts = { versions: new Set(), requests: 0, skips: 0, skipsByReason: {} };
        origins.set(origin, counts);
      }
    }
    return counts;
  };

  for await (const line of readLines(path, (bytes) => onBytes?.(bytes, records))) {
    lines = line.number;
    if ('problem' in line) {
      find({ kind: 'malformed-line', line: line.number, detail: line.problem });
      continue;
    }
    const record = readRecord(line.text);
    if ('problem' in record) {
      find({ kind: 'malformed-line', line: line.number, detail: record.problem });
      continue;
    }
    // A record's rules are those of its URL's origin: a URL moved to another origin is not judged by the first one's file.
    if (record.origin !== '' && originOf(httpUrlOf(record.url)) !== record.origin) {
      find({
        kind: 'malformed-line',
        line: line.number,
        url: record.url,
        detail: `the URL ${record.url} is not of the record's origin ${record.origin}`,
      });
      continue;
    }
    records++;
    const counts = countsOf(record.origin);
    if (record.snapshot !== undefined && counts.versions.size < MAX_VERSIONS_PER_ORIGIN) counts.versions.add(record.snapshot);
    if (record.allowed) {
      requests++;
      counts.requests++;
    } else {
      skips++;
      counts.skips++;
      counts.skipsByReason[record.reason] = (counts.skipsByReason[record.reason] ?? 0) + 1;
    }
    await judge(record, line.number, shelf, find);
  }
  return {
    records,
    requests,
    skips,
    lines,
    snapshotsVerified: shelf.verified.size,
    violations,
    findings,
    findingsOmitted,
    origins: [...origins].map(([origin, c]) => ({
      origin,
      versions: c.versions.size,
      requests: c.requests,
      skips: c.skips,
      skipsByReason: c.skipsByReason,
    })),
    originsOmitted,
  };
}

async function judge(record: AuditedRecord, line: number, shelf: SnapshotShelf, find: (finding: Finding) => void): Promise<void> {
  const { url, snapshot } = record;
  if (snapshot === undefined) {
    if (record.allowed) {
      const why =
        record.reason === 'unchecked'
          ? 'it left without a robots.txt check (checkRedirects: false?)'
          : 'its record names no robots.txt snapshot';
      find({ kind: 'unchecked-request', line, url, detail: `${url} left at stage ${record.stage}, but ${why}` });
    }
    return;
  }
  const loaded = await shelf.get(snapshot);
  if (loaded.state === 'missing') {
    find({ kind: 'snapshot-missing', line, url, snapshot, detail: `the snapshot ${snapshot} of ${url} is not in the snapshot directory` });
    return;
  }
  if (loaded.state === 'altered') {
    find({
      kind: 'snapshot-altered',
      line,
      url,
      snapshot,
      detail: `the snapshot file of ${snapshot} was changed: its bytes hash to ${loaded.actual}`,
    });
    return;
  }
  if (loaded.state === 'unreadable') {
    find({ kind: 'snapshot-missing', line, url, snapshot, detail: `the snapshot ${snapshot} cannot be read: ${loaded.problem}` });
    return;
  }
  const outcome = outcomeOf(record);
  if (outcome !== undefined) {
    const seen = sightingsOf(loaded.sightings, record.origin);
    if (!seen.some((s) => s.outcome === outcome)) {
      const kind = seen.length === 0 && loaded.sightings.dropped > 0 ? 'sighting-unconfirmed' : 'outcome-not-seen';
      const detail =
        kind === 'sighting-unconfirmed'
          ? `${record.origin} is not among the kept sightings of ${snapshot} (${loaded.sightings.dropped} were only counted)`
          : `${snapshot} was never seen for ${record.origin} as "${outcome}" (seen: ${seen.map((s) => s.outcome).join(', ') || 'never for this origin'})`;
      find({ kind, line, url, snapshot, detail });
    }
    let allowed: boolean;
    try {
      allowed = allowedBy(outcome, loaded.robots, record);
    } catch (error) {
      // A product token the parser cannot match by: the record cannot be judged as it stands.
      find({ kind: 'malformed-line', line, url, detail: `cannot be judged: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (record.allowed && !allowed) {
      const decision = RULE_OUTCOMES.has(outcome) ? loaded.robots.decide(url, record.productToken) : undefined;
      const by =
        decision !== undefined && decision.line > 0
          ? ` (line ${decision.line})`
          : outcome === 'unreachable'
            ? ' (robots.txt was unreachable: everything disallowed)'
            : '';
      find({
        kind: 'disallowed-request',
        line,
        url,
        snapshot,
        detail: `${url} left at stage ${record.stage}, but ${snapshot} disallows it for ${tokenLabel(record)}${by}`,
      });
    } else if (!record.allowed && allowed) {
      find({
        kind: 'skip-now-allowed',
        line,
        url,
        snapshot,
        detail: `${url} was skipped (${record.reason}), and ${snapshot} allows it today`,
      });
    }
  }
}

/** The status-policy outcome a record's verdict rests on; `undefined` for skips no robots.txt verdict made. */
function outcomeOf(record: AuditedRecord): string | undefined {
  if (record.allowed) return record.reason;
  return ROBOTS_SKIPS.has(record.reason) ? record.reason : undefined;
}

function allowedBy(outcome: string, robots: RobotsTxt, record: AuditedRecord): boolean {
  if (RULE_OUTCOMES.has(outcome)) return robots.isAllowed(record.url, record.productToken);
  return ALLOW_ALL.has(outcome);
}

/** A WebSocket URL as robots.txt judges it, by its http(s) twin (as the plugin checks it); any other URL as it is. */
function httpUrlOf(url: string): string {
  return url.replace(/^ws(s?):/i, 'http$1:');
}

function tokenLabel(record: AuditedRecord): string {
  return typeof record.productToken === 'string' ? record.productToken : record.productToken.join(', ');
}
