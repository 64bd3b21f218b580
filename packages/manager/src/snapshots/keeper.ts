/**
 * The manager's side of snapshots: each record it accepts (fetched, or read from its store) is
 * turned into its snapshot id once, here, and the snapshot and its sighting are handed to every
 * place that keeps them: the store, when it has the optional snapshot methods, and the snapshot
 * stores added with `RobotsManager.keepSnapshotsIn()` (a `SnapshotDirectory`).
 *
 * A place that can write synchronously (`keepSnapshotSync`) is written before the verdicts of the
 * record are given; the others are written in the background, and `settled()` waits for them.
 * A failed write is logged, never thrown: keeping evidence must not stop a crawl.
 */
import type { Log, RobotsStore } from '../cache/store.js';
import type { EffectivePolicy } from '../policy.js';
import type { RobotsRecord } from '../record.js';
import { EMPTY_SNAPSHOT_ID, snapshotIdOf, type SnapshotSighting, type SnapshotStore } from './snapshot.js';

/** A snapshot store that may also write synchronously (`SnapshotDirectory` does). */
export type SnapshotSink = SnapshotStore & { keepSnapshotSync?(id: string, body: Uint8Array, sighting: SnapshotSighting): void };

/** A record the manager holds, as a snapshot stands for it. */
export interface AcceptedRecord {
  readonly origin: string;
  readonly record: RobotsRecord;
  readonly policy: EffectivePolicy;
  readonly snapshot: string;
}

const EMPTY = new Uint8Array(0);

export class SnapshotKeeper {
  private readonly sinks = new Set<SnapshotSink>();
  private readonly pending = new Set<Promise<void>>();
  private warned = false;

  constructor(
    private readonly store: RobotsStore,
    private readonly log: Log,
  ) {}

  /** The snapshot id of a record read under `policy`: computed here, once per accepted record. */
  idOf(policy: EffectivePolicy): string {
    return policy.kind === 'rules' ? snapshotIdOf(Buffer.from(policy.body, 'base64')) : EMPTY_SNAPSHOT_ID;
  }

  /** `accepted` was taken into the manager's cache: its snapshot and sighting go to every place that keeps them. */
  accepted(accepted: AcceptedRecord): void {
    const storeKeeps = typeof this.store.keepSnapshot === 'function';
    if (!storeKeeps && this.sinks.size === 0) return;
    const { body, sighting } = snapshotOf(accepted);
    if (storeKeeps) this.track(() => this.store.keepSnapshot!(accepted.snapshot, body, sighting));
    for (const sink of this.sinks) this.keepIn(sink, accepted.snapshot, body, sighting);
  }

  /**
   * Adds `sink`, and writes to it the snapshots of `held` (the records the manager holds now, which
   * verdicts may still be made with). Resolves to a function that removes it.
   */
  add(sink: SnapshotSink, held: Iterable<AcceptedRecord>): () => void {
    this.sinks.add(sink);
    for (const accepted of held) {
      const { body, sighting } = snapshotOf(accepted);
      this.keepIn(sink, accepted.snapshot, body, sighting);
    }
    return () => this.sinks.delete(sink);
  }

  /** Resolves once every background write started so far has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private keepIn(sink: SnapshotSink, id: string, body: Uint8Array, sighting: SnapshotSighting): void {
    if (typeof sink.keepSnapshotSync === 'function') {
      try {
        sink.keepSnapshotSync(id, body, sighting);
      } catch (error) {
        this.failed(error);
      }
      return;
    }
    this.track(() => sink.keepSnapshot(id, body, sighting));
  }

  private track(write: () => Promise<void>): void {
    const promise = Promise.resolve()
      .then(write)
      .catch((error: unknown) => this.failed(error))
      .finally(() => this.pending.delete(promise));
    this.pending.add(promise);
  }

  private failed(error: unknown): void {
    // Once per manager at warning level: a full disk would otherwise log a line per origin.
    const message = `keeping a robots.txt snapshot failed: ${error instanceof Error ? error.message : String(error)}`;
    if (this.warned) this.log.debug(message);
    else this.log.warning(`${message}. Crawl records may name snapshots that were not kept; later failures are logged at debug level.`);
    this.warned = true;
  }
}

/** The bytes and the sighting a record stands for. */
function snapshotOf({ origin, record, policy }: AcceptedRecord): { body: Uint8Array; sighting: SnapshotSighting } {
  const body = policy.kind === 'rules' ? Buffer.from(policy.body, 'base64') : EMPTY;
  const sighting: SnapshotSighting = {
    origin,
    fetchedAt: record.fetchedAt,
    ...(record.httpStatus === undefined ? {} : { httpStatus: record.httpStatus }),
    outcome: policy.reason,
  };
  return { body, sighting };
}
