/**
 * What the parsed and compiled structures hold, in bytes, for a cache that bounds memory
 * (`@heed/manager`'s `maxCacheBytes`). JavaScript cannot ask the heap what an object costs, so each
 * structure counts what it is made of: its typed arrays by their length, its strings by their
 * characters, its objects and array slots by V8's sizes on 64-bit Node without pointer compression,
 * each rounded up. test/manager/memory-bound.test.ts checks the sums against the heap.
 */

/** A typed array: the view, its `ArrayBuffer` and the backing store's allocation, beside the bytes. */
export const TYPED_ARRAY = 208;
/** A typed array that is a view of a buffer counted elsewhere: the view object alone. */
export const TYPED_VIEW = 112;
/** An object's header and a few fields. */
export const OBJECT = 64;
/** A slot of an array or an object: one pointer. */
export const SLOT = 8;
/** A string's header: a copied string holds its characters beside it, a slice a pointer to its parent. */
export const STRING = 32;

/** The bytes of a typed array (0 for none). */
export function typedArrayBytes(array: ArrayBufferView | undefined): number {
  return array === undefined ? 0 : TYPED_ARRAY + array.byteLength;
}

/** The bytes of an array of strings and the strings (one byte a character: the table's strings are byte strings). */
export function stringsBytes(strings: readonly string[]): number {
  let bytes = OBJECT + SLOT * strings.length;
  for (const string of strings) bytes += STRING + string.length;
  return bytes;
}
