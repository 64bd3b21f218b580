/**
 * `KeyValueStoreStore`: records in a Crawlee `KeyValueStore`. A named store is not purged between
 * runs, so a second run over the same storage directory (or the same Apify platform store) starts
 * with every robots.txt the first one fetched; and Crawlee opens one instance per name, so every
 * crawler of a process shares it.
 *
 * Keys are `robots-` plus a SHA-256 of the origin (Crawlee keys allow only `[a-zA-Z0-9!-_.'()]` and
 * 256 characters); the record carries its origin, so a collision or a foreign value under the key
 * is detected and ignored. `@crawlee/core` is an optional peer dependency: it is imported only
 * when the store opens itself by name.
 *
 * Retention: a key-value store has no expiry of its own, so each record is stored with the time it
 * may be dropped (`{ retainUntil, record }`). A record read past it is absent, and deleted. Records
 * of origins never asked for again are dropped by a sweep: on open, at most once per
 * {@link SWEEP_INTERVAL_MS} for all processes and runs sharing the store (the time of the last sweep
 * is itself a record, `robots-swept`), in the background, one key listing and one read per record.
 * Listing and reading every record on each open, or on each call, would cost an Apify platform
 * store one API call per record per run; once a day is one per record per day. A store that cannot
 * list its keys (no `forEachKey`) only expires records when they are read.
 */
import { createHash } from 'node:crypto';
import { defineOptions, InvalidOptionsError, option, type Fail, type OptionsInput } from '@heed/parser';
import { POLICY_DEFAULTS } from '../policy.js';
import { decodeRecord, type RobotsRecord } from '../record.js';
import type { RobotsStore } from './store.js';
import {
  addSighting,
  decodeSightings,
  EMPTY_SIGHTINGS,
  SNAPSHOT_ID,
  type SnapshotSighting,
  type StoredSnapshot,
} from '../snapshots/snapshot.js';
import { checkedAtCall } from '../call-errors.js';

/** The part of Crawlee's `KeyValueStore` this store uses; a `KeyValueStore` instance fits. */
export interface KeyValueStoreLike {
  getValue(key: string): Promise<unknown>;
  setValue(key: string, value: unknown, options?: { contentType?: string }): Promise<void>;
  /** Lists the keys (Crawlee's `forEachKey`); without it expired records are only dropped when read. */
  forEachKey?(iteratee: (key: string, index: number, info: { size: number }) => unknown): Promise<void>;
}

/** How often, at most, the records of a store are swept for expired ones (over all runs sharing it). */
export const SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The key of the record that holds when the store was last swept. */
const SWEPT_KEY = 'robots-swept';
/** Keys of records (`keyOf`). */
const RECORD_KEY = /^robots-[0-9a-f]{40}$/;
/** Retention of a record stored by an older Heed without one: its expiry plus the default unreachable window. */
const LEGACY_RETAIN_MS = POLICY_DEFAULTS.unreachableAllowAfterMs;

/** What is stored under a record's key. `retainUntil` is absent for a record kept without end. */
interface Stored {
  readonly retainUntil?: number;
  readonly record: unknown;
}

/** What `openOptions` passes on to `KeyValueStore.open()`. */
export interface KeyValueStoreOpenOptions {
  readonly config?: object;
  readonly storageClient?: object;
}

const keyValueStoreStoreOptions = defineOptions('new KeyValueStoreStore()', {
  /**
   * A key-value store to use, e.g. `await KeyValueStore.open('robots')`.
   * @default opened from `name`
   */
  store: option.custom<KeyValueStoreLike | undefined>({ default: undefined, check: keyValueStoreCheck }),
  /**
   * Name of the store opened with `KeyValueStore.open(name)` on first use.
   * @default `'heed-robots'`
   */
  name: option.custom<string>({ default: 'heed-robots', check: storeNameCheck }),
  /**
   * Options passed to `KeyValueStore.open()` (`config`, `storageClient`), e.g. a `Configuration`
   * with another storage directory.
   * @default Crawlee's global configuration
   */
  openOptions: option.custom<KeyValueStoreOpenOptions | undefined>({
    default: undefined,
    check: (value) => value as KeyValueStoreOpenOptions,
  }),
});

/** Options of {@link KeyValueStoreStore}. Give `store`, or let it open the store named `name`. */
export type KeyValueStoreStoreOptions = OptionsInput<typeof keyValueStoreStoreOptions>;

/**
 * The updates of one key of one key-value store waiting on each other. A snapshot's sightings are
 * read, added to and written back; two managers of a process (two crawlers, one Crawlee store
 * instance) adding sightings to one snapshot at once would otherwise each write over the other's.
 * Keyed by the store object, so every `KeyValueStoreStore` opened on the same store shares the turns.
 */
const turns = new WeakMap<KeyValueStoreLike, Map<string, Promise<void>>>();

async function oneAtATime(store: KeyValueStoreLike, key: string, update: () => Promise<void>): Promise<void> {
  let byKey = turns.get(store);
  if (byKey === undefined) turns.set(store, (byKey = new Map<string, Promise<void>>()));
  const before = byKey.get(key) ?? Promise.resolve();
  const mine = before.then(update, update);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  byKey.set(key, settled);
  try {
    await mine;
  } finally {
    // The last in line clears the key, so the map holds only keys being written.
    if (byKey.get(key) === settled) byKey.delete(key);
  }
}

function keyValueStoreCheck(value: unknown, _name: string, fail: Fail): KeyValueStoreLike {
  const store = value as Partial<KeyValueStoreLike> | null;
  if (typeof store !== 'object' || store === null || typeof store.getValue !== 'function' || typeof store.setValue !== 'function')
    fail('expected a Crawlee KeyValueStore (an object with getValue() and setValue()).');
  return value as KeyValueStoreLike;
}

function storeNameCheck(value: unknown, _name: string, fail: Fail): string {
  if (typeof value !== 'string' || !/^[a-zA-Z0-9-]{1,63}$/.test(value))
    fail('a store name is 1 to 63 letters, digits and "-" (Crawlee\'s rule for named storages).');
  return value;
}

/**
 * The record stored under a key and when it may be dropped (`Infinity`: never). A bare record
 * (stored by a Heed without retention) is kept until its expiry plus the default unreachable window.
 */
function unwrap(value: unknown): { record: unknown; retainUntil: number } {
  if (typeof value === 'object' && value !== null && 'record' in value) {
    const { record, retainUntil } = value as Stored;
    return { record, retainUntil: typeof retainUntil === 'number' && Number.isFinite(retainUntil) ? retainUntil : Infinity };
  }
  const expiresAt = typeof value === 'object' && value !== null ? (value as { expiresAt?: unknown }).expiresAt : undefined;
  return { record: value, retainUntil: typeof expiresAt === 'number' ? expiresAt + LEGACY_RETAIN_MS : Infinity };
}

/** A snapshot as stored, or `undefined` for anything else under its key (checked: a store may hold anything). */
function readSnapshot(value: unknown, id: string): StoredSnapshot | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const sightings = decodeSightings(v.sightings);
  if (v.id !== id || typeof v.body !== 'string' || sightings === undefined) return undefined;
  return { id, body: Buffer.from(v.body, 'base64'), sightings };
}

/** Records in a named Crawlee `KeyValueStore`: they survive runs and are shared in the process; expired ones are dropped. */
export class KeyValueStoreStore implements RobotsStore {
  private readonly name: string;
  private readonly openOptions: object | undefined;
  private opened: Promise<KeyValueStoreLike> | undefined;
  private sweeping: Promise<void> | undefined;
  private closed = false;

  constructor(options: KeyValueStoreStoreOptions = {}) {
    const { store, name, openOptions } = checkedAtCall(new.target, () => keyValueStoreStoreOptions.resolve(options));
    this.name = name;
    this.openOptions = openOptions;
    if (store !== undefined) this.opened = Promise.resolve(store);
  }

  /** The key a record of `origin` is stored under. */
  static keyOf(origin: string): string {
    return `robots-${createHash('sha256').update(origin).digest('hex').slice(0, 40)}`;
  }

  async get(origin: string): Promise<RobotsRecord | undefined> {
    const store = await this.store();
    const key = KeyValueStoreStore.keyOf(origin);
    const { record, retainUntil } = unwrap(await store.getValue(key));
    const decoded = decodeRecord(record, origin);
    if (decoded === undefined) return undefined;
    if (Date.now() > retainUntil) {
      await store.setValue(key, null);
      return undefined;
    }
    return decoded;
  }

  async set(origin: string, record: RobotsRecord, retainMs: number): Promise<void> {
    const store = await this.store();
    // JSON has no Infinity: a record kept without end has no `retainUntil`.
    const value: Stored = Number.isFinite(retainMs) ? { retainUntil: Date.now() + retainMs, record } : { record };
    await store.setValue(KeyValueStoreStore.keyOf(origin), value);
  }

  async delete(origin: string): Promise<void> {
    const store = await this.store();
    await store.setValue(KeyValueStoreStore.keyOf(origin), null);
  }

  /**
   * Keeps a robots.txt snapshot under `snapshot-<hex>` (`{ id, body: base64, sightings }`), without
   * end: snapshots are the evidence of past crawls, and the sweep leaves them alone.
   */
  async keepSnapshot(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void> {
    const store = await this.store();
    const key = KeyValueStoreStore.snapshotKeyOf(id);
    await oneAtATime(store, key, async () => {
      const held = readSnapshot(await store.getValue(key), id);
      const sightings = addSighting(held?.sightings ?? EMPTY_SIGHTINGS, sighting);
      if (held !== undefined && sightings === held.sightings) return;
      const stored = { id, body: Buffer.from(held?.body ?? body).toString('base64'), sightings };
      await store.setValue(key, stored);
    });
  }

  async getSnapshot(id: string): Promise<StoredSnapshot | undefined> {
    const store = await this.store();
    return readSnapshot(await store.getValue(KeyValueStoreStore.snapshotKeyOf(id)), id);
  }

  /** The key the snapshot `id` is stored under: `snapshot-` and its 64 hex digits. */
  static snapshotKeyOf(id: string): string {
    if (!SNAPSHOT_ID.test(id)) throw new TypeError(`not a snapshot id: ${JSON.stringify(id.slice(0, 80))}`);
    return `snapshot-${id.slice('sha256:'.length)}`;
  }

  /** Stops a sweep in progress (after the record it is reading) and waits for it. */
  async close(): Promise<void> {
    this.closed = true;
    await this.sweeping;
  }

  /**
   * Drops every expired record, if the store was not swept in the last {@link SWEEP_INTERVAL_MS}
   * (by any process). Runs by itself when the store opens; resolves to the records dropped.
   */
  async sweep(now = Date.now()): Promise<number> {
    const store = await this.connect();
    if (typeof store.forEachKey !== 'function' || this.closed) return 0;
    const last = await store.getValue(SWEPT_KEY);
    const at = typeof last === 'object' && last !== null ? (last as { at?: unknown }).at : undefined;
    if (typeof at === 'number' && now - at < SWEEP_INTERVAL_MS) return 0;
    // Claimed before the listing, so other processes opening meanwhile do not sweep too.
    await store.setValue(SWEPT_KEY, { at: now });
    const keys: string[] = [];
    await store.forEachKey((key) => {
      if (RECORD_KEY.test(key)) keys.push(key);
    });
    let dropped = 0;
    for (const key of keys) {
      if (this.closed) break;
      const { retainUntil } = unwrap(await store.getValue(key));
      if (now > retainUntil) {
        await store.setValue(key, null);
        dropped++;
      }
    }
    return dropped;
  }

  /** The store, opened on first use, when the background sweep starts. */
  private store(): Promise<KeyValueStoreLike> {
    const store = this.connect();
    if (this.sweeping === undefined) this.startSweep();
    return store;
  }

  private connect(): Promise<KeyValueStoreLike> {
    this.opened ??= this.open();
    return this.opened;
  }

  /** The sweep on open, in the background: its failure (a store that cannot list) only leaves records to expire when read. */
  private startSweep(): void {
    this.sweeping = Promise.resolve()
      .then(() => this.sweep())
      .then(
        () => undefined,
        () => undefined,
      );
  }

  private async open(): Promise<KeyValueStoreLike> {
    let crawlee: { KeyValueStore: { open(name: string, options?: object): Promise<KeyValueStoreLike> } };
    try {
      crawlee = await import('@crawlee/core');
    } catch {
      this.opened = undefined;
      throw new InvalidOptionsError(
        'store',
        'opening a key-value store by name needs @crawlee/core (npm i @crawlee/core), or pass an opened KeyValueStore as "store".',
        'new KeyValueStoreStore()',
      );
    }
    return crawlee.KeyValueStore.open(this.name, this.openOptions);
  }
}
