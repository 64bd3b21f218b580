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
 */
import { createHash } from 'node:crypto';
import { checkKnownKeys, optionError, type OptionScope } from '@heed/parser/internal';
import { didYouMean } from '../did-you-mean.js';
import { decodeRecord, type RobotsRecord } from '../record.js';
import type { RobotsStore } from './store.js';

/** The part of Crawlee's `KeyValueStore` this store uses; a `KeyValueStore` instance fits. */
export interface KeyValueStoreLike {
  getValue(key: string): Promise<unknown>;
  setValue(key: string, value: unknown, options?: { contentType?: string }): Promise<void>;
}

/** Options of {@link KeyValueStoreStore}. Give `store`, or let it open the store named `name`. */
export interface KeyValueStoreStoreOptions {
  /**
   * A key-value store to use, e.g. `await KeyValueStore.open('robots')`.
   * @default opened from `name`
   */
  readonly store?: KeyValueStoreLike;
  /**
   * Name of the store opened with `KeyValueStore.open(name)` on first use.
   * @default `'heed-robots'`
   */
  readonly name?: string;
  /**
   * Options passed to `KeyValueStore.open()` (`config`, `storageClient`), e.g. a `Configuration`
   * with another storage directory.
   * @default Crawlee's global configuration
   */
  readonly openOptions?: { readonly config?: object; readonly storageClient?: object };
}

const KNOWN_OPTIONS = ['store', 'name', 'openOptions'];
const SCOPE: OptionScope = { where: 'new KeyValueStoreStore()', suggest: didYouMean };

/** Records in a named Crawlee `KeyValueStore`: they survive runs and are shared in the process. */
export class KeyValueStoreStore implements RobotsStore {
  private readonly name: string;
  private readonly openOptions: object | undefined;
  private opened: Promise<KeyValueStoreLike> | undefined;

  constructor(options: KeyValueStoreStoreOptions = {}) {
    checkKnownKeys(options, KNOWN_OPTIONS, SCOPE);
    if (options.store !== undefined && (typeof options.store.getValue !== 'function' || typeof options.store.setValue !== 'function')) {
      throw optionError('store', 'expected a Crawlee KeyValueStore (an object with getValue() and setValue()).', SCOPE);
    }
    if (options.name !== undefined && (typeof options.name !== 'string' || !/^[a-zA-Z0-9-]{1,63}$/.test(options.name))) {
      throw optionError('name', 'a store name is 1 to 63 letters, digits and "-" (Crawlee\'s rule for named storages).', SCOPE);
    }
    this.name = options.name ?? 'heed-robots';
    this.openOptions = options.openOptions;
    if (options.store !== undefined) this.opened = Promise.resolve(options.store);
  }

  /** The key a record of `origin` is stored under. */
  static keyOf(origin: string): string {
    return `robots-${createHash('sha256').update(origin).digest('hex').slice(0, 40)}`;
  }

  async get(origin: string): Promise<RobotsRecord | undefined> {
    const store = await this.store();
    return decodeRecord(await store.getValue(KeyValueStoreStore.keyOf(origin)), origin);
  }

  // A key-value store has no expiry; records are overwritten on the next fetch instead.
  async set(origin: string, record: RobotsRecord, _retainMs: number): Promise<void> {
    const store = await this.store();
    await store.setValue(KeyValueStoreStore.keyOf(origin), record);
  }

  async delete(origin: string): Promise<void> {
    const store = await this.store();
    await store.setValue(KeyValueStoreStore.keyOf(origin), null);
  }

  private store(): Promise<KeyValueStoreLike> {
    this.opened ??= this.open();
    return this.opened;
  }

  private async open(): Promise<KeyValueStoreLike> {
    let crawlee: { KeyValueStore: { open(name: string, options?: object): Promise<KeyValueStoreLike> } };
    try {
      crawlee = (await import('@crawlee/core')) as unknown as typeof crawlee;
    } catch {
      this.opened = undefined;
      throw optionError('store', 'opening a key-value store by name needs @crawlee/core (npm i @crawlee/core), or pass an opened KeyValueStore as "store".', SCOPE);
    }
    return crawlee.KeyValueStore.open(this.name, this.openOptions);
  }
}
