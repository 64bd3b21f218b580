/**
 * The snapshots an audit judges by, read from a snapshot directory (`SnapshotDirectory` of
 * @heed/manager) once each: their bytes hashed against their id, parsed with today's parser, and
 * kept while they fit {@link MAX_HELD_BYTES} (least recently used dropped first, and read again if
 * needed), so a crawl of a million origins is audited in bounded memory.
 */
import { parseRobotsTxt, type RobotsTxt } from '@heed/parser';
import { snapshotIdOf, type SightingLog, SnapshotDirectory } from '@heed/manager';

/** Bytes of snapshot bodies held parsed at most (a parsed file costs several times its bytes). */
const MAX_HELD_BYTES = 32 * 1024 * 1024;

export type LoadedSnapshot =
  | { readonly state: 'ok'; readonly robots: RobotsTxt; readonly sightings: SightingLog; readonly bytes: number }
  | { readonly state: 'missing' }
  | { readonly state: 'altered'; readonly actual: string }
  | { readonly state: 'unreadable'; readonly problem: string };

export class SnapshotShelf {
  private readonly directory: SnapshotDirectory;
  private readonly held = new Map<string, LoadedSnapshot>();
  private heldBytes = 0;
  /** Snapshots read and hashed, each counted once. */
  readonly verified = new Set<string>();

  constructor(path: string) {
    this.directory = new SnapshotDirectory(path);
  }

  async get(id: string): Promise<LoadedSnapshot> {
    const known = this.held.get(id);
    if (known !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.held.delete(id);
      this.held.set(id, known);
      return known;
    }
    const loaded = await this.load(id);
    this.hold(id, loaded);
    return loaded;
  }

  private async load(id: string): Promise<LoadedSnapshot> {
    let stored;
    try {
      stored = await this.directory.getSnapshot(id);
    } catch (error) {
      return { state: 'unreadable', problem: error instanceof Error ? error.message : String(error) };
    }
    if (stored === undefined) return { state: 'missing' };
    const actual = snapshotIdOf(stored.body);
    if (actual !== id) return { state: 'altered', actual };
    this.verified.add(id);
    return { state: 'ok', robots: parseRobotsTxt(stored.body), sightings: stored.sightings, bytes: stored.body.byteLength };
  }

  private hold(id: string, loaded: LoadedSnapshot): void {
    const bytes = loaded.state === 'ok' ? loaded.bytes + 1024 : 256;
    this.held.set(id, loaded);
    this.heldBytes += bytes;
    for (const [oldest, value] of this.held) {
      if (this.heldBytes <= MAX_HELD_BYTES || oldest === id) break;
      this.held.delete(oldest);
      this.heldBytes -= value.state === 'ok' ? value.bytes + 1024 : 256;
    }
  }
}
