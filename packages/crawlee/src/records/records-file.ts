/**
 * A crawl records file: JSON Lines appended through a bounded buffer. What is flushed when:
 *
 * - when the buffer holds {@link RecordsFileLimits.maxBufferBytes} (64 KiB by default), at once;
 * - {@link RecordsFileLimits.flushMs} (1 s by default) after the first record of a buffer, on a timer;
 * - at the end of every `crawler.run()` (the plugin flushes), whether it ended or threw;
 * - on `SIGINT` and `SIGTERM`, synchronously, in the signal's listener; then the signal goes on as
 *   it would have without us (see {@link onSignal});
 * - on the process's `exit` event (`process.exit()`, an uncaught exception), synchronously.
 *
 * Writes are synchronous (`fs.writeSync`): a flush is one write of at most the buffer, which the
 * page cache takes in microseconds, and a synchronous write is the only kind a signal listener or an
 * `exit` listener can finish. A record lost is thus at most what a `SIGKILL` or a power cut catches
 * in the buffer: the last second's records at most.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** How much a records file buffers before it writes. */
export interface RecordsFileLimits {
  /** Bytes buffered before a write. @default 65_536 */
  readonly maxBufferBytes: number;
  /** Milliseconds a record waits in the buffer at most. @default 1_000 */
  readonly flushMs: number;
}

const DEFAULT_LIMITS: RecordsFileLimits = { maxBufferBytes: 65_536, flushMs: 1_000 };
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Files open in this process: flushed together on a signal or at exit. */
const open = new Set<RecordsFile>();

export class RecordsFile {
  private fd: number | undefined;
  private chunks: string[] = [];
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Records written to the file so far. */
  written = 0;
  private pendingRecords = 0;

  constructor(
    /** The file, appended to (created with its directory when missing). */
    readonly path: string,
    private readonly limits: RecordsFileLimits = DEFAULT_LIMITS,
    /** Called first on a signal and at exit: the writer's last chance to hand over what it still holds. */
    readonly lastChance?: () => void,
  ) {}

  /** Opens the file now, so a path that cannot be written fails at `attach()`, not mid-crawl. */
  open(): void {
    if (this.fd !== undefined) return;
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, 'a');
    open.add(this);
    listen();
  }

  /** Adds one record (a line of JSON, without its newline). */
  write(line: string): void {
    if (this.closed) return;
    this.chunks.push(line, '\n');
    // Length in UTF-16 units: a bound on memory, near enough to the bytes written.
    this.bytes += line.length + 1;
    this.pendingRecords++;
    if (this.bytes >= this.limits.maxBufferBytes) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.limits.flushMs);
      // The timer must not keep a finished crawl's process alive: exit flushes anyway.
      this.timer.unref();
    }
  }

  /** Writes what the buffer holds, before returning. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.bytes === 0) return;
    if (this.fd === undefined) this.open();
    const text = this.chunks.join('');
    this.chunks = [];
    this.bytes = 0;
    const buffer = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(this.fd as number, buffer, offset, buffer.length - offset);
    this.written += this.pendingRecords;
    this.pendingRecords = 0;
  }

  /** Flushes and closes the file; later records are dropped. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    open.delete(this);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (open.size === 0) unlisten();
  }
}

function flushAll(): void {
  for (const file of open) {
    try {
      file.lastChance?.();
      file.flush();
    } catch {
      // A file that cannot be written (a full disk) must not keep the others from theirs.
    }
  }
}

/**
 * On a signal: flush, then step aside, so the signal does what it would have done without us. Our
 * listener runs first (it is prepended) and removes itself before the others of the same signal
 * run: a listener that acts only when it is alone (signal-exit, which Crawlee's dependencies
 * install, re-raises the signal then) sees the listeners as they would be without us, and
 * Crawlee's own `SIGINT` listener still pauses the run. With no listener left at all, the signal is
 * raised again, and Node.js ends the process by it. We listen again once the others have run, for
 * the next signal.
 */
const onSignal = (signal: NodeJS.Signals): void => {
  flushAll();
  unlisten();
  if (process.listenerCount(signal) === 0) {
    process.kill(process.pid, signal);
    return;
  }
  setImmediate(() => {
    if (open.size > 0) listen();
  });
};
const onExit = (): void => flushAll();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
  process.on('exit', onExit);
}

function unlisten(): void {
  if (!listening) return;
  listening = false;
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off('exit', onExit);
}
