/**
 * `SnapshotDirectory`: robots.txt snapshots as files, for an audit to read after the crawl. Each
 * snapshot is two files named by its id's hex digits: `<hex>.txt`, the body bytes as fetched, and
 * `<hex>.sightings.json`, its sighting log (see `snapshot.ts`). Both are written atomically (a
 * temporary file renamed over the name), so a reader never sees half a file.
 *
 * Writes are synchronous, on purpose: a snapshot is written once per new robots.txt body and a
 * sighting once per record the manager accepts (once per origin and cache lifetime), far from the
 * per-URL path, and a synchronous write puts the snapshot on disk before the first verdict made
 * with it is handed out. A crawl killed at any moment thus never leaves a crawl record naming a
 * snapshot the directory does not hold.
 *
 * One process writes a directory at a time: two processes adding sightings to one snapshot at the
 * same moment may lose one of them (the body files are safe: same id, same bytes). Give each
 * worker of a fleet its own directory.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import {
  addSighting,
  decodeSightings,
  EMPTY_SIGHTINGS,
  SNAPSHOT_ID,
  type SightingLog,
  type SnapshotSighting,
  type SnapshotStore,
  type StoredSnapshot,
} from './snapshot.js';

/** Largest body file read back (a robots.txt the manager keeps is at most its `maxBytes`, 500 KiB by default). */
const MAX_BODY_FILE_BYTES = 64 * 1024 * 1024;
/** Largest sightings file read back: 16 sightings of a few hundred bytes each, with room. */
const MAX_SIGHTINGS_FILE_BYTES = 256 * 1024;
/** Sighting logs and written ids remembered, so a busy snapshot is not read back for every sighting. */
const REMEMBERED = 4_096;

/** A snapshot file that could not be read back: too large, or not what Heed writes. */
export class SnapshotFileError extends Error {
  override readonly name = 'SnapshotFileError';
}

export class SnapshotDirectory implements SnapshotStore {
  /** The directory's path, as given. */
  readonly path: string;
  private created = false;
  /** Ids whose body file is known to be there. */
  private readonly written = new LRUCache<string, true>({ max: REMEMBERED });
  /** The sighting logs last written. */
  private readonly logs = new LRUCache<string, SightingLog>({ max: REMEMBERED });

  /** `path`: the directory; it is created (with its parents) on the first write. */
  constructor(path: string) {
    if (typeof path !== 'string' || path.length === 0)
      throw new TypeError('new SnapshotDirectory(path): path is a directory path, e.g. "robots-snapshots/".');
    this.path = path;
  }

  async keepSnapshot(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void> {
    this.keepSnapshotSync(id, body, sighting);
  }

  /** {@link keepSnapshot}, done before it returns (see the module header for why synchronous). */
  keepSnapshotSync(id: string, body: Uint8Array, sighting: SnapshotSighting): void {
    const hex = hexOf(id);
    if (!this.created) {
      mkdirSync(this.path, { recursive: true });
      this.created = true;
    }
    if (!this.written.has(id)) {
      const file = join(this.path, `${hex}.txt`);
      if (!existsSync(file)) this.writeAtomically(file, body);
      this.written.set(id, true);
    }
    const before = this.logs.get(id) ?? this.readSightings(hex) ?? EMPTY_SIGHTINGS;
    const after = addSighting(before, sighting);
    if (after !== before) this.writeAtomically(join(this.path, `${hex}.sightings.json`), `${JSON.stringify(after)}\n`);
    this.logs.set(id, after);
  }

  /**
   * The snapshot `id` as its files hold it now (the bytes unchecked: an audit hashes them), or
   * `undefined` when its body file is missing. A sightings file that is missing or unreadable
   * reads as no sightings.
   * @throws SnapshotFileError when the body file is larger than 64 MiB.
   */
  async getSnapshot(id: string): Promise<StoredSnapshot | undefined> {
    const hex = hexOf(id);
    const body = readBounded(join(this.path, `${hex}.txt`), MAX_BODY_FILE_BYTES);
    if (body === undefined) return undefined;
    return { id, body, sightings: this.readSightings(hex) ?? EMPTY_SIGHTINGS };
  }

  private readSightings(hex: string): SightingLog | undefined {
    let bytes: Uint8Array | undefined;
    try {
      bytes = readBounded(join(this.path, `${hex}.sightings.json`), MAX_SIGHTINGS_FILE_BYTES);
    } catch {
      return undefined;
    }
    return bytes === undefined ? undefined : decodeSightings(Buffer.from(bytes).toString('utf8'));
  }

  private writeAtomically(file: string, data: Uint8Array | string): void {
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  }
}

/** The hex digits of a snapshot id, which name its files. */
function hexOf(id: string): string {
  if (typeof id !== 'string' || !SNAPSHOT_ID.test(id))
    throw new TypeError(`not a snapshot id: ${JSON.stringify(String(id).slice(0, 80))} (expected sha256: and 64 hex digits)`);
  return id.slice('sha256:'.length);
}

/** The bytes of `file`, or `undefined` when it does not exist. Throws past `max` bytes. */
function readBounded(file: string, max: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = fstatSync(fd);
    if (size > max)
      throw new SnapshotFileError(`${file} is ${size} bytes, more than the ${max} a snapshot file may hold: not a file Heed wrote`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
