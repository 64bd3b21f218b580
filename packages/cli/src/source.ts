/**
 * Where a robots.txt comes from for `explain` and `lint`: a file, read up to the size crawlers
 * read (plus one byte, to know there was more) whatever it is — a 1 GB file or `/dev/zero` costs
 * 500 KiB — or a site's robots.txt fetched by a `RobotsManager` (same caps, redirects and
 * user-agent header as a crawler's) and judged by its status policy, so `heed explain https://...`
 * and a crawler agree on what a 404 or a 503 means.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { printable } from '@heed/parser';
import { originOf, type RecordProblem, type RobotsRecord } from '@heed/manager';
import { READ_LIMIT, UsageError, type CliOptions } from './args.js';
import { openManager } from './manager.js';

export { READ_LIMIT };

/** An input the command cannot read (a missing file, a directory, no permission): one line, exit 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

export interface LoadedRobots {
  /** The file path or the robots.txt URL, as shown to the user. */
  readonly name: string;
  /** The body read, when there are rules to read (a file, or a 2xx response): at most {@link READ_LIMIT} bytes. */
  readonly body?: Uint8Array;
  /** The file or response was longer than {@link READ_LIMIT}: `body` is its first bytes. */
  readonly truncated: boolean;
  /** Its whole size in bytes, when known (a regular file). */
  readonly size?: number;
  /** For URLs: the record the manager's status policy made of the fetch. */
  readonly record?: RobotsRecord;
}

/** Whether a command-line operand names a URL rather than a file. */
export function isUrl(operand: string): boolean {
  return /^https?:\/\//i.test(operand);
}

/**
 * The robots.txt URL an operand means: any URL of a site stands for that site's `/robots.txt`, the
 * one file crawlers read. A URL of another `.txt` file is refused rather than silently replaced,
 * since its author wants that file judged.
 */
export function robotsUrlFor(operand: string): string {
  const url = new URL(operand);
  const robotsTxt = `${url.origin}/robots.txt`;
  if (url.pathname.toLowerCase().endsWith('.txt') && url.pathname !== '/robots.txt')
    throw new UsageError(
      `"${operand}" is not a site's /robots.txt; heed fetches ${robotsTxt}, as crawlers do. To judge another file, download it and pass its path.`,
    );
  return robotsTxt;
}

/** The first `limit` bytes of a file or device, whether there were more, and its size when it has one. */
export interface BoundedRead {
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
  readonly size?: number;
}

/**
 * Reads at most `limit` bytes of `path` (and one more, to know whether it goes on), in a loop of
 * bounded reads on one descriptor: never the whole file, so a huge file or an endless device ends
 * at once with a buffer of `limit` + 1 bytes. Throws {@link InputError} for what cannot be read,
 * naming the file as `what`.
 */
export async function readBounded(path: string, limit: number = READ_LIMIT, what = 'robots.txt file'): Promise<BoundedRead> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    // A regular file says how big it is, so a small one gets a small buffer; devices and files that
    // report no size (/proc) get the limit.
    const known = stat.isFile() && stat.size > 0;
    const capacity = known ? Math.min(stat.size, limit) + 1 : limit + 1;
    const buffer = Buffer.allocUnsafe(capacity);
    let filled = 0;
    while (filled < capacity) {
      const { bytesRead } = await handle.read(buffer, filled, capacity - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, Math.min(filled, limit));
    const size = known && stat.size >= filled ? stat.size : undefined;
    return { bytes, truncated: filled > limit || (size ?? 0) > limit, ...(size === undefined ? {} : { size }) };
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read the ${what} "${path}": ${readProblem(error)}.`);
  } finally {
    await handle?.close();
  }
}

/** A file-system error in words. */
export function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

export async function loadRobots(operand: string, options: CliOptions): Promise<LoadedRobots> {
  if (!isUrl(operand)) {
    const read = await readBounded(operand);
    return {
      name: operand,
      body: read.bytes,
      truncated: read.truncated,
      ...(read.size === undefined ? {} : { size: read.size }),
    };
  }
  let url: string;
  try {
    url = robotsUrlFor(operand);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`"${operand}" is not a valid URL.`);
  }
  if (originOf(url) === undefined) throw new UsageError(`"${operand}" is not a valid URL.`);
  const manager = openManager(options.manager);
  let record: RobotsRecord;
  try {
    record = await manager.get(url);
  } finally {
    await manager.close();
  }
  // Only a 2xx keeps its body: the rules. Other answers are judged by their status alone.
  if (record.status !== 'ok') return { name: url, record, truncated: false };
  return { name: url, record, truncated: record.bodyCapped === true, body: new Uint8Array(Buffer.from(record.body, 'base64')) };
}

/** Whether a record's robots.txt has rules to read (a 2xx); otherwise its status alone decides. */
export function hasRules(record: RobotsRecord | undefined): boolean {
  return record === undefined || record.status === 'ok';
}

/** One sentence on why a record that is not `ok` allows or disallows everything. */
export function describeRecord(record: RobotsRecord): string {
  // The problem's message is the network's (an error, a proxy's answer): printed escaped.
  const problem = record.status === 'ok' ? undefined : { ...record.problem, message: printable(record.problem.message) };
  const answer = record.httpStatus !== undefined ? `answered HTTP ${record.httpStatus}` : `could not be fetched (${fetchProblem(problem)})`;
  const detail =
    problem !== undefined && record.httpStatus !== undefined && !problem.code.startsWith('http-') ? ` (${problem.message})` : '';
  switch (record.status) {
    case 'ok':
      return `robots.txt ${answer}: its rules apply.`;
    case 'unavailable':
      return `robots.txt ${answer}${detail}: it is unavailable, so crawlers may fetch everything (RFC 9309 §2.3.1.3).`;
    case 'unreachable':
      return `robots.txt ${answer}${detail}: it is unreachable, so crawlers must fetch nothing until it answers again (RFC 9309 §2.3.1.4).`;
  }
}

/** `refused: connect ECONNREFUSED 127.0.0.1:1` from a RobotsFetchError message, without the URL already shown. */
function fetchProblem(problem: RecordProblem | undefined): string {
  if (problem === undefined) return 'network error';
  const detail = problem.message.replace(/^Fetching \S+ failed \([^)]*\): /, '');
  return detail === problem.code ? detail : `${problem.code}: ${detail}`;
}
