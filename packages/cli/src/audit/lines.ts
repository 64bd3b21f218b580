/**
 * A records file as numbered lines, read in chunks: memory is bounded by the chunk and the longest
 * line kept ({@link MAX_LINE_BYTES}), whatever the file's size. A longer line is not kept: it is
 * reported by number as too long, and its bytes skipped to the next newline. Bytes that are not
 * UTF-8 make a line unreadable, never a crash.
 *
 * A folder is a local Crawlee dataset (option `records.dataset`): one JSON file per record, named
 * by its number, each read as one line.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The longest line read (a crawl record is a few hundred bytes; a URL of 8 KiB makes one of about 9 KiB). */
export const MAX_LINE_BYTES = 1024 * 1024;

export type Line = { readonly number: number; readonly text: string } | { readonly number: number; readonly problem: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The lines of `path`, numbered from 1 (a last line without its newline included, empty lines
 * left out). `onBytes` is told how many bytes have been read, after each chunk.
 */
export async function* readLines(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<Line> {
  if (statSync(path).isDirectory()) {
    yield* readDatasetItems(path, onBytes);
    return;
  }
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let number = 0;
  let read = 0;
  const finish = function* (): Generator<Line> {
    number++;
    if (tooLong) yield { number, problem: `longer than ${MAX_LINE_BYTES} bytes` };
    else if (partBytes > 0) {
      const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, partBytes);
      let text: string | undefined;
      try {
        text = decoder.decode(bytes);
      } catch {
        yield { number, problem: 'not UTF-8' };
      }
      if (text !== undefined && text.trim() !== '') yield { number, text };
    }
    parts = [];
    partBytes = 0;
    tooLong = false;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    read += chunk.length;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!tooLong) {
        if (partBytes + (end - start) > MAX_LINE_BYTES) {
          tooLong = true;
          parts = [];
          partBytes = 0;
        } else if (end > start) {
          parts.push(chunk.subarray(start, end));
          partBytes += end - start;
        }
      }
      if (newline === -1) break;
      yield* finish();
      start = newline + 1;
    }
    onBytes?.(read);
  }
  if (partBytes > 0 || tooLong) yield* finish();
}

/** The records of a local dataset folder, in the order they were pushed: each item's file, a line numbered as its file is. */
async function* readDatasetItems(dir: string, onBytes?: (bytes: number) => void): AsyncGenerator<Line> {
  const items = readdirSync(dir)
    .map((name) => ({ name, number: /^(\d+)\.json$/.exec(name)?.[1] }))
    .filter((item): item is { name: string; number: string } => item.number !== undefined)
    .sort((a, b) => Number(a.number) - Number(b.number));
  let read = 0;
  for (const { name, number } of items) {
    const path = join(dir, name);
    const size = statSync(path).size;
    read += size;
    if (size > MAX_LINE_BYTES) yield { number: Number(number), problem: `${name}: longer than ${MAX_LINE_BYTES} bytes` };
    else {
      let text: string | undefined;
      try {
        text = decoder.decode(await readFile(path));
      } catch {
        yield { number: Number(number), problem: `${name}: not UTF-8` };
      }
      if (text !== undefined && text.trim() !== '') yield { number: Number(number), text };
    }
    onBytes?.(read);
  }
}
