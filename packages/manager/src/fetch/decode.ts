/**
 * Decoding a compressed body as it streams: `Content-Encoding: gzip`, `deflate` and `br`, and the
 * plugin's gzipped sitemap files. A body is either decoded completely or the decoding fails with a
 * {@link DecodeError}; it never just ends early, so a damaged robots.txt cannot pass for a shorter
 * one (a lost final `Disallow` would allow what its owner forbade).
 *
 * - gzip is framed here, member by member (RFC 1952), and only each member's deflate data goes
 *   through zlib (raw inflate). Node's own gunzip decodes a member followed by trailing bytes in the
 *   same read and then fails on those bytes, dropping up to a chunk of output it already decoded;
 *   framing the members here sees where each ends. Every complete member is decoded and checked
 *   (CRC-32 and length); zero padding and trailing bytes that do not start a member are ignored, as
 *   gzip(1) does. A member cut short, a bad checksum or bad deflate data is a `DecodeError`.
 * - deflate (the zlib format) and br go through Node's decoders, which ignore bytes after the end
 *   of the stream and, finishing with a full flush, report a stream cut short.
 * - The output is pulled, not pushed: the caller's pace is the decoding's pace, so a caller that
 *   stops reading at its size cap bounds what a decompression bomb costs.
 *
 * Public (`decoded`, `DecodeError`): a file that is compressed without a `Content-Encoding` (a
 * sitemap served as `.xml.gz`) is decoded by its reader with the same code.
 */
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';

/** The content codings decoded. */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

/** A compressed body that could not be decoded completely: damaged, cut short or not in the format it claimed. */
export class DecodeError extends Error {
  constructor(
    readonly coding: ContentCoding,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(`the ${coding} data is ${reason}`, options);
    this.name = 'DecodeError';
  }
}

/** The coding a `Content-Encoding` header names, or undefined for identity and codings Heed does not decode. */
export function contentCoding(header: string | readonly string[] | undefined): ContentCoding | undefined {
  const value = (typeof header === 'string' ? header : (header?.join(',') ?? '')).trim().toLowerCase();
  switch (value) {
    case 'gzip':
    case 'x-gzip':
      return 'gzip';
    case 'deflate':
    case 'x-deflate':
      return 'deflate';
    case 'br':
      return 'br';
    default:
      return undefined;
  }
}

/**
 * `source` decoded from `coding`, as the caller reads. Rejects with a {@link DecodeError} for data
 * that does not decode completely; an error of `source` itself (the network) passes through as is.
 */
export function decoded(source: AsyncIterable<Uint8Array>, coding: ContentCoding): AsyncGenerator<Buffer> {
  return coding === 'gzip' ? gunzipped(source) : throughZlib(source, coding);
}

async function* throughZlib(source: AsyncIterable<Uint8Array>, coding: 'deflate' | 'br'): AsyncGenerator<Buffer> {
  // Sync flush as it streams, so what arrived is handed on; the default finishing flush at the end
  // makes a stream cut short an error.
  const decoder =
    coding === 'br'
      ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH })
      : zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH });
  const input = new TrackedSource(source);
  // pipeline() carries an error of the source into the decoder, which ends the loop below with it.
  pipeline(Readable.from(input.chunks()), decoder, () => {});
  try {
    yield* decoder as AsyncIterable<Buffer>;
  } catch (error) {
    throw input.failed(error) ? error : new DecodeError(coding, describe(error), { cause: error });
  } finally {
    decoder.destroy();
  }
}

/** A source whose own errors can be told from the decoder's. */
class TrackedSource {
  private error: unknown = undefined;
  private hasFailed = false;

  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  async *chunks(): AsyncGenerator<Uint8Array> {
    try {
      yield* this.source;
    } catch (error) {
      this.hasFailed = true;
      this.error = error;
      throw error;
    }
  }

  failed(error: unknown): boolean {
    return this.hasFailed && error === this.error;
  }
}

const GZIP_ID1 = 0x1f;
const GZIP_ID2 = 0x8b;
const GZIP_DEFLATE = 8;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const FRESERVED = 0xe0;

async function* gunzipped(source: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  const input = new ByteReader(iterator);
  try {
    for (let members = 0; ; members++) {
      if (members > 0 && !(await input.startsMember())) return; // the end, zero padding or trailing bytes
      yield* member(input);
    }
  } finally {
    // Not awaited: a read of the source still pending ends when the caller drops the connection.
    void iterator.return?.().catch(() => {});
  }
}

/** One gzip member: header, deflate data, trailer. */
async function* member(input: ByteReader): AsyncGenerator<Buffer> {
  const header = await input.take(10);
  if (header.length < 10) throw new DecodeError('gzip', header.length === 0 ? 'empty' : 'cut short in its header');
  if (header[0] !== GZIP_ID1 || header[1] !== GZIP_ID2) throw new DecodeError('gzip', 'not gzip (no gzip magic bytes)');
  if (header[2] !== GZIP_DEFLATE) throw new DecodeError('gzip', `compressed with unknown method ${String(header[2])}`);
  const flags = header[3] ?? 0;
  if ((flags & FRESERVED) !== 0) throw new DecodeError('gzip', 'damaged (reserved header flags set)');
  if ((flags & FEXTRA) !== 0) {
    const length = await input.take(2);
    if (length.length < 2 || (await input.take(length.readUInt16LE(0))).length < length.readUInt16LE(0))
      throw new DecodeError('gzip', 'cut short in its header');
  }
  if ((flags & FNAME) !== 0 && !(await input.skipThroughZero())) throw new DecodeError('gzip', 'cut short in its header');
  if ((flags & FCOMMENT) !== 0 && !(await input.skipThroughZero())) throw new DecodeError('gzip', 'cut short in its header');
  if ((flags & FHCRC) !== 0 && (await input.take(2)).length < 2) throw new DecodeError('gzip', 'cut short in its header');

  let crc = 0;
  let size = 0;
  const inflater = zlib.createInflateRaw({ flush: zlib.constants.Z_SYNC_FLUSH });
  const fed = feed(inflater, input);
  // A failed feed (the source failed) fails the read below with the same error.
  fed.catch((error: unknown) => inflater.destroy(error instanceof Error ? error : new Error(String(error))));
  try {
    // Kept open at its end: the feed may still be putting back what follows the deflate data.
    for await (const chunk of inflater.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      crc = zlib.crc32(chunk, crc);
      size += chunk.length;
      yield chunk;
    }
    await fed;
  } catch (error) {
    if (input.failed(error)) throw error;
    throw new DecodeError('gzip', describe(error), { cause: error });
  } finally {
    inflater.destroy();
  }
  const trailer = await input.take(8);
  if (trailer.length < 8) throw new DecodeError('gzip', 'cut short in its trailer');
  if (trailer.readUInt32LE(0) !== crc || trailer.readUInt32LE(4) !== size % 2 ** 32)
    throw new DecodeError('gzip', 'damaged (its checksum or length does not match what it decoded to)');
}

/**
 * Writes `input` into `inflater` until its deflate stream ends, and puts back what follows it (the
 * member's trailer, and whatever comes next). One chunk at a time: the write's callback says how
 * much of the chunk the stream took.
 */
async function feed(inflater: zlib.InflateRaw, input: ByteReader): Promise<void> {
  for (;;) {
    const chunk = await input.chunk();
    if (chunk === undefined) {
      inflater.end(); // finishing: a stream cut short fails the inflater
      return;
    }
    const before = inflater.bytesWritten;
    await new Promise<void>((resolve, reject) => {
      inflater.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
    const used = inflater.bytesWritten - before;
    if (used < chunk.length) {
      input.unread(chunk.subarray(used));
      inflater.end();
      return;
    }
  }
}

/** Bytes pulled from a source, with look-ahead for the gzip framing read here. */
class ByteReader {
  private pending: Buffer | undefined;
  private error: unknown = undefined;
  private hasFailed = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** The next bytes (what was put back first), or undefined at the end. */
  async chunk(): Promise<Buffer | undefined> {
    if (this.pending !== undefined) {
      const pending = this.pending;
      this.pending = undefined;
      return pending;
    }
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await this.source.next();
      } catch (error) {
        this.hasFailed = true;
        this.error = error;
        throw error;
      }
      if (next.done === true) return undefined;
      if (next.value.length > 0) return Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
  }

  /** Puts `bytes` back in front of what is still to be read. */
  unread(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pending = this.pending === undefined ? bytes : Buffer.concat([bytes, this.pending]);
  }

  /** The next `count` bytes, or fewer at the end. */
  async take(count: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let length = 0;
    while (length < count) {
      const chunk = await this.chunk();
      if (chunk === undefined) break;
      const wanted = count - length;
      if (chunk.length > wanted) this.unread(chunk.subarray(wanted));
      const part = chunk.subarray(0, wanted);
      parts.push(part);
      length += part.length;
    }
    return Buffer.concat(parts);
  }

  /** Skips a zero-terminated header field; false when the input ended first. */
  async skipThroughZero(): Promise<boolean> {
    for (;;) {
      const chunk = await this.chunk();
      if (chunk === undefined) return false;
      const zero = chunk.indexOf(0);
      if (zero >= 0) {
        this.unread(chunk.subarray(zero + 1));
        return true;
      }
    }
  }

  /**
   * After a member: true when another member starts here. Zero bytes (padding) are skipped; the
   * end, or bytes that do not start with the gzip magic, end the gzip data, and are not read further.
   */
  async startsMember(): Promise<boolean> {
    for (;;) {
      const chunk = await this.chunk();
      if (chunk === undefined) return false;
      const start = chunk.findIndex((byte) => byte !== 0);
      if (start < 0) continue;
      const rest = chunk.subarray(start);
      this.unread(rest);
      if (rest[0] !== GZIP_ID1) return false;
      const magic = await this.take(2);
      this.unread(magic);
      return magic[1] === GZIP_ID2 || magic.length < 2;
    }
  }

  /** Whether `error` is the source's own (the network), not a decoding one. */
  failed(error: unknown): boolean {
    return this.hasFailed && error === this.error;
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `damaged or cut short (${message})`;
}
