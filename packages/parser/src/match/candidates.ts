/**
 * Which rules a check visits. The entries of a rule set (rules, or sketch groups of rules) are
 * listed by the byte after the leading `/` of their literal prefix, so a check visits only the
 * entries that can match its path; large sets are also bucketed by the first bytes of their prefix.
 * Every list keeps the entries in ascending order, which is precedence order: the matcher can stop
 * at the first entry that cannot beat the best rule found.
 */
import { OBJECT, SLOT, STRING, TYPED_VIEW, typedArrayBytes } from './held-bytes.js';
import { ASCII, NO_PATH, PREFIX_END, SPAN, START } from './layout.js';

/**
 * Entry sets up to this size are listed whole by the byte after `/`; larger ones are bucketed by
 * literal prefix, and only the entries too short for a bucket are listed.
 */
const LINEAR_LIMIT = 256;
/** Entry sets up to this size are one list, scanned whole with the second-byte check. */
export const SMALL_SET = 32;
/** Bucket key length: large entry sets are bucketed by the first bytes of their literal prefix. */
const KEY_LENGTH = 5;
/** Bucket offsets and lengths share one number: offset * BUCKET_SPLIT + length. */
const BUCKET_SPLIT = 2 ** 21;
/** The candidate lists may hold at most this many entries per entry (plus one per byte). */
const LIST_GROWTH = 4;

/** The rules an entry stands for share its literal prefix: `lead(e)` is one of them. */
export interface Entries {
  /** The entries, ascending. */
  readonly ids: readonly number[];
  /** A rule of entry `e`: its prefix and byte after `/` are those of all the entry's rules. */
  lead(e: number): number;
}

export class CandidateIndex {
  /** All candidate lists back to back: for each byte after `/`, the entries that can match. */
  readonly lists: Int32Array;
  /**
   * Where each byte's list starts and ends in {@link lists}: `[start, end]` per byte; `undefined`
   * when one list serves every byte (see {@link from}).
   */
  private readonly bounds: Int32Array | undefined;
  /** The lists were not split by the byte after `/` (see the constructor): check it per entry. */
  readonly checkIndexed: boolean;
  /** Bucket key → [offset, length] in `bucketItems`, for large sets: one array for all buckets. */
  private readonly buckets: Map<string, number> | undefined;
  private readonly bucketItems: Int32Array | undefined;

  /** The list is a view of the matcher's buffer (`room`), counted there. */
  private readonly listInRoom: boolean;

  /**
   * `spans` and `seconds` are the matcher's: each rule's layout, and the byte after `/` it needs (0
   * for any). `room`, when given, is where a single list of at most its length is written (a view
   * of the matcher's one buffer) instead of an array of its own.
   */
  constructor(entries: Entries, text: string, spans: Int32Array, seconds: Uint8Array, room?: Int32Array) {
    this.listInRoom = false;
    let listed: readonly number[] = entries.ids;
    if (entries.ids.length <= LINEAR_LIMIT) {
      this.buckets = undefined;
      this.bucketItems = undefined;
    } else {
      const short: number[] = [];
      const buckets = new Map<string, number[]>();
      for (const e of entries.ids) {
        const at = entries.lead(e) * SPAN;
        const start = spans[at + START] as number;
        if ((spans[at + PREFIX_END] as number) - start < KEY_LENGTH) {
          short.push(e);
          continue;
        }
        const key = text.slice(start, start + KEY_LENGTH);
        const bucket = buckets.get(key);
        if (bucket === undefined) buckets.set(key, [e]);
        else bucket.push(e);
      }
      const items: number[] = [];
      this.buckets = new Map();
      for (const [key, list] of buckets) {
        this.buckets.set(key, items.length * BUCKET_SPLIT + list.length);
        items.push(...list);
      }
      this.bucketItems = new Int32Array(items);
      listed = short;
    }

    const any: number[] = [];
    const bySecond = new Map<number, number[]>();
    for (const e of listed) {
      const second = seconds[entries.lead(e)] as number;
      if (second === 0) {
        any.push(e);
        for (const list of bySecond.values()) list.push(e);
        continue;
      }
      if (second === NO_PATH) continue;
      let list = bySecond.get(second);
      if (list === undefined) {
        list = [...any];
        bySecond.set(second, list);
      }
      list.push(e);
    }
    let size = any.length;
    for (const list of bySecond.values()) size += list.length;
    if (listed.length <= SMALL_SET || size > LIST_GROWTH * entries.ids.length + ASCII) {
      // One list for all bytes, read with the second-byte check: a few entries are scanned as fast
      // as they are looked up, and the per-byte bounds (1 KiB) would outweigh a typical file's
      // rules; many entries without a second byte and many distinct second bytes would make
      // (bytes × entries) copies.
      this.bounds = undefined;
      const list = listed.filter((e) => seconds[entries.lead(e)] !== NO_PATH);
      if (room !== undefined && list.length <= room.length) {
        room.set(list);
        this.lists = room.subarray(0, list.length);
        this.listInRoom = true;
      } else {
        this.lists = new Int32Array(list);
      }
      this.checkIndexed = true;
      return;
    }
    this.bounds = new Int32Array(ASCII * 2);
    const lists: number[] = [...any];
    for (let code = 0; code < ASCII; code++) {
      const list = bySecond.get(code);
      if (list === undefined) {
        this.bounds[code * 2 + 1] = any.length; // the shared list of entries without a second byte
        continue;
      }
      this.bounds[code * 2] = lists.length;
      lists.push(...list);
      this.bounds[code * 2 + 1] = lists.length;
    }
    this.lists = new Int32Array(lists);
    this.checkIndexed = false;
  }

  /** Where the list of the paths whose byte after `/` is `code` starts in {@link lists}. */
  from(code: number): number {
    return this.bounds === undefined ? 0 : (this.bounds[code * 2] as number);
  }

  /** Where the list of the paths whose byte after `/` is `code` ends in {@link lists}. */
  to(code: number): number {
    return this.bounds === undefined ? this.lists.length : (this.bounds[code * 2 + 1] as number);
  }

  /** The bytes this index holds (see held-bytes.ts). */
  heldBytes(): number {
    const buckets = this.buckets === undefined ? 0 : OBJECT + this.buckets.size * (4 * SLOT + STRING + KEY_LENGTH);
    const lists = this.listInRoom ? TYPED_VIEW : typedArrayBytes(this.lists);
    return OBJECT + lists + typedArrayBytes(this.bounds) + typedArrayBytes(this.bucketItems) + buckets;
  }

  /** The entries of a large set whose literal prefix starts as `path` does. */
  bucketFor(path: string): Int32Array | undefined {
    if (this.buckets === undefined || this.bucketItems === undefined || path.length < KEY_LENGTH) return undefined;
    const bucket = this.buckets.get(path.slice(0, KEY_LENGTH));
    if (bucket === undefined) return undefined;
    const offset = Math.floor(bucket / BUCKET_SPLIT);
    return this.bucketItems.subarray(offset, offset + (bucket % BUCKET_SPLIT));
  }
}
