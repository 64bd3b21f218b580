/**
 * `RedisStore`: records in Redis, for a fleet of processes or machines. Besides the records it
 * keeps a fetch lock per origin (`SET NX PX`, released by compare-and-delete), so that however
 * many managers wait on a new origin, one request goes out, and a crawl clock per origin
 * (crawl-delay slots and `Retry-After` pauses, see `redis-crawl-clock.ts`), so that the fleet, not
 * each process, keeps an origin's crawl-delay.
 *
 * When Redis is down the store keeps working from process memory (a `MemoryStore` by default),
 * says so once per outage, and goes back to Redis as soon as the client reconnects. Commands are
 * only sent on a ready connection and time out after `commandTimeoutSecs`.
 *
 * A Redis that hangs without closing the connection (frozen by SIGSTOP, swapping, stuck in a slow
 * script) is the worse case: the connection stays "ready" and every command waits its full
 * timeout, and one check of a new origin sends up to five (read, lock, read again, write,
 * release): five seconds a check. So the store is a circuit breaker: after a command times out or
 * fails, Redis is left alone for `circuitBreakSecs` (every command goes to the fallback at once),
 * then one command probes it; a success, or the client reconnecting, closes the circuit. A check
 * thus waits for Redis at most once, `commandTimeoutSecs`, however long the outage. After a timeout,
 * a PING a second, in the background, watches for Redis to answer again (a frozen Redis thawed, a
 * swap storm over): it closes the circuit then, so that a fleet's processes, each on its own crawl
 * clock while the circuit is open, share one clock again within about a second, not 30.
 *
 * What Redis answers is bounded too. A stored value above `maxRecordBytes` is never sent: the read
 * is a script that answers with the value's size instead (a record that big is corrupt, or written
 * by someone else, and is treated as absent, with a warning); a record that would be larger is kept
 * in the fallback rather than written. A `SET NX` answered with anything but `OK` or nil (a proxy
 * that speaks another dialect) takes the fallback's lock, with one warning, rather than reading as
 * "held by another process" forever.
 *
 * `ioredis` is an optional dependency: it is imported only when the store connects itself from a
 * `url`; pass `client` to bring your own (any ioredis `Redis` instance).
 */
import { randomUUID } from 'node:crypto';
import { defineOptions, option, type Fail, type OptionsInput } from '@heed/parser';
import { msOf, timerSecs } from '../options.js';
import { decodeRecord, encodeRecord, type RobotsRecord } from '../record.js';
import { MemoryStore } from './memory.js';
import { MissingDependencyError } from '../errors.js';
import { consoleLog } from './console-log.js';
import { assertInstalled } from './optional-dependency.js';
import { CLAIM_SEND_SCRIPT, CONFIRM_SEND_SCRIPT, PAUSE_SCRIPT, RESERVE_SLOT_SCRIPT, slotReply } from './redis-crawl-clock.js';
import type { CrawlSlot, Log, RobotsStore, StoreLock } from './store.js';
import { isSighting, MAX_SIGHTINGS, type SightingLog, type SnapshotSighting, type StoredSnapshot } from '../snapshots/snapshot.js';
import { checkedAtCall } from '../call-errors.js';

/** The part of an ioredis `Redis` client this store uses. */
export interface RedisClientLike {
  /** ioredis connection status: `wait`, `connecting`, `connect`, `ready`, `reconnecting`, `close`, `end`. */
  readonly status: string;
  call(command: string, args: (string | number)[]): Promise<unknown>;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
  connect?(): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** Default of `maxRecordBytes`: two 500 KB bodies in base64 (a record's most, at the default `maxBytes`), with room. */
const DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024;
const WHERE = 'new RedisStore()';
/** How often a PING asks an open circuit's Redis whether it answers again (see `watchForAnswer`). */
const PING_EVERY_MS = 1_000;
/** What else a caller without ioredis may do. */
const NO_IOREDIS = 'pass an ioredis client as "client"';

/** The options of `new RedisStore()` (the reference's table is written from them). */
export const REDIS_STORE_OPTIONS = defineOptions(WHERE, {
  /**
   * An ioredis client to use (the store never closes it).
   * @default one made from `url`
   */
  client: option.custom<RedisClientLike | undefined>({ default: undefined, check: clientCheck }),
  /**
   * Where to connect when no `client` is given.
   * @default `'redis://127.0.0.1:6379'`
   */
  url: option.custom<string>({ default: 'redis://127.0.0.1:6379', check: urlCheck }),
  /**
   * Prefix of every key the store writes.
   * @default `'heed:robots:'`
   */
  keyPrefix: option.custom<string>({ default: 'heed:robots:', check: (value) => value as string }),
  /**
   * Seconds after which a Redis command counts as Redis being down; fractions of a second are fine.
   * @default `1`
   */
  commandTimeoutSecs: timerSecs(1),
  /**
   * Seconds the first command waits for the initial connection.
   * @default `2`
   */
  connectTimeoutSecs: timerSecs(2),
  /**
   * After a command times out or fails, how many seconds Redis is left alone (records go to the
   * fallback without waiting) before one command probes it again. The client reconnecting ends it
   * early, and so does, after a timeout, Redis answering the PING the store sends it once a second
   * meanwhile (in the background: nothing waits on it).
   * @default `30`
   */
  circuitBreakSecs: timerSecs(30),
  /**
   * The largest record read from or written to Redis, in bytes of its JSON. A larger stored value
   * is treated as absent (and never transferred); a larger record is kept in the fallback. A
   * record holds up to two bodies in base64: raise this to about 3 × the manager's `maxBytes` when
   * you raise that above its 500 KB default.
   * @default `4_194_304` (4 MiB)
   */
  maxRecordBytes: option.number({
    default: DEFAULT_MAX_RECORD_BYTES,
    min: 1024,
    max: 512 * 1024 * 1024,
    integer: true,
    unit: 'bytes',
    why: "1 KiB to 512 MiB, Redis's largest string",
  }),
  /**
   * Where records go while Redis is down.
   * @default a new `MemoryStore()`
   */
  fallback: option.custom<RobotsStore | undefined>({ default: undefined, check: (value) => value as RobotsStore }),
  /**
   * Where the outage and the recovery are reported.
   * @default warnings and errors to the console
   */
  log: option.custom<Log | undefined>({ default: undefined, check: (value) => value as Log }),
});

/** Options of {@link RedisStore}. */
export type RedisStoreOptions = OptionsInput<typeof REDIS_STORE_OPTIONS>;

function clientCheck(value: unknown, _name: string, fail: Fail): RedisClientLike {
  const client = value as Partial<RedisClientLike> | null;
  if (typeof client !== 'object' || client === null || typeof client.call !== 'function') fail('expected an ioredis Redis instance.');
  return value as RedisClientLike;
}

function urlCheck(value: unknown, _name: string, fail: Fail): string {
  if (typeof value !== 'string' || !/^rediss?:\/\//.test(value))
    fail('expected a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379".');
  return value;
}

/** GET, unless the value is larger than ARGV[1] bytes: then its size (an integer reply), so it never crosses the wire. */
const BOUNDED_GET_SCRIPT =
  "local size = redis.call('strlen', KEYS[1]) if size > tonumber(ARGV[1]) then return size end return redis.call('get', KEYS[1])";

const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Adds a sighting (ARGV[1], its JSON) to a snapshot's log: KEYS[1] the first sightings, KEYS[2] the
 * latest, KEYS[3] how many were dropped; ARGV[2] the bound of each list. A sighting already kept is
 * not added again. Atomic, so every process of a fleet adds to one log.
 */
const ADD_SIGHTING_SCRIPT = `
local s = ARGV[1]
local max = tonumber(ARGV[2])
for _, key in ipairs({KEYS[1], KEYS[2]}) do
  for _, v in ipairs(redis.call('LRANGE', key, 0, -1)) do if v == s then return 0 end end
end
if redis.call('LLEN', KEYS[1]) < max then redis.call('RPUSH', KEYS[1], s) return 1 end
redis.call('RPUSH', KEYS[2], s)
local over = redis.call('LLEN', KEYS[2]) - max
if over > 0 then
  redis.call('LTRIM', KEYS[2], over, -1)
  redis.call('INCRBY', KEYS[3], over)
end
return 1`;

/** Records in Redis with a cross-process fetch lock; process memory while Redis is down. */
export class RedisStore implements RobotsStore {
  private readonly ownsClient: boolean;
  private readonly url: string;
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly circuitBreakMs: number;
  private readonly maxRecordBytes: number;
  private readonly fallback: RobotsStore;
  private readonly log: Log;
  private clientPromise: Promise<RedisClientLike> | undefined;
  private everReady = false;
  private down = false;
  private closed = false;
  /** Until when commands skip Redis (0: the circuit is closed). */
  private openUntil = 0;
  /** A probe command is out: the others keep skipping Redis until it is back. */
  private probing = false;
  /** The wait for the first connection, shared by every command sent before it (one 'ready' listener, not one each). */
  private firstReady: Promise<boolean> | undefined;
  /** A wrong answer to `SET NX` has been reported (once per store). */
  private warnedLockReply = false;
  /** The client we listen on for 'ready' while the circuit is open. */
  private readyListener: { client: RedisClientLike; listener: () => void } | undefined;
  /** The next background PING while the circuit is open (see {@link watchForAnswer}). */
  private pingTimer: NodeJS.Timeout | undefined;

  constructor(options: RedisStoreOptions = {}) {
    const resolved = checkedAtCall(new.target, () => REDIS_STORE_OPTIONS.resolve(options));
    this.ownsClient = resolved.client === undefined;
    this.url = resolved.url;
    this.keyPrefix = resolved.keyPrefix;
    this.commandTimeoutMs = msOf(resolved.commandTimeoutSecs);
    this.connectTimeoutMs = msOf(resolved.connectTimeoutSecs);
    this.circuitBreakMs = msOf(resolved.circuitBreakSecs);
    this.maxRecordBytes = resolved.maxRecordBytes;
    this.fallback = resolved.fallback ?? new MemoryStore();
    this.log = resolved.log ?? consoleLog;
    if (resolved.client !== undefined) this.clientPromise = Promise.resolve(resolved.client);
    else assertInstalled('ioredis', 'new RedisStore({ url })', NO_IOREDIS);
  }

  /** Whether the store is currently working from its memory fallback. */
  get usingFallback(): boolean {
    return this.down;
  }

  async get(origin: string): Promise<RobotsRecord | undefined> {
    const key = this.recordKey(origin);
    const fromRedis = await this.run(
      async (client) => ({ value: this.readReply(await client.call('EVAL', [BOUNDED_GET_SCRIPT, 1, key, this.maxRecordBytes]), origin) }),
      async () => undefined,
    );
    if (fromRedis !== undefined && fromRedis.value !== undefined) return fromRedis.value;
    // Redis down, or it has nothing (yet): what was kept in memory during an outage still counts.
    return this.fallback.get(origin);
  }

  async set(origin: string, record: RobotsRecord, retainMs: number): Promise<void> {
    const encoded = encodeRecord(record);
    if (Buffer.byteLength(encoded) > this.maxRecordBytes) {
      this.log.warning(
        `The robots record of ${origin} is larger than RedisStore's maxRecordBytes (${this.maxRecordBytes}): it is kept in process memory only, and other processes fetch it themselves. Raise maxRecordBytes to share it.`,
        { origin, bytes: Buffer.byteLength(encoded) },
      );
      await this.fallback.set(origin, record, retainMs);
      // An older copy in Redis would be read before the fallback's: it goes.
      await this.run(
        async (client) => client.call('DEL', [this.recordKey(origin)]),
        async () => undefined,
      );
      return;
    }
    const args: (string | number)[] = [this.recordKey(origin), encoded];
    if (Number.isFinite(retainMs)) args.push('PX', Math.max(1, Math.ceil(retainMs)));
    const stored = await this.run(
      async (client) => client.call('SET', args),
      async () => undefined,
    );
    if (stored === undefined) await this.fallback.set(origin, record, retainMs);
  }

  async delete(origin: string): Promise<void> {
    await this.run(
      async (client) => client.call('DEL', [this.recordKey(origin)]),
      async () => undefined,
    );
    await this.fallback.delete(origin);
  }

  async lock(origin: string, ttlMs: number): Promise<StoreLock | undefined> {
    const key = `${this.keyPrefix}lock:${origin}`;
    const token = randomUUID();
    const answer = await this.run(
      async (client) => ({ reply: await client.call('SET', [key, token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX']) }),
      async () => undefined,
    );
    if (answer === undefined) return this.fallback.lock?.(origin, ttlMs);
    // nil: another process holds it. Anything but OK or nil is no answer to SET NX: read as "held",
    // it would keep every new origin waiting for a lock that never comes.
    if (answer.reply === null) return undefined;
    if (answer.reply !== 'OK') {
      if (!this.warnedLockReply) {
        this.warnedLockReply = true;
        this.log.warning(
          `Redis answered the fetch lock of ${origin} (SET NX) with ${describeReply(answer.reply)}, not OK or nil: fetch locks are taken in process memory from now on, so each process fetches a new origin itself. Check that the Redis URL points at Redis, not a proxy that rewrites replies.`,
          { origin },
        );
      }
      return this.fallback.lock?.(origin, ttlMs);
    }
    return {
      release: async () => {
        await this.run(
          async (client) => client.call('EVAL', [RELEASE_SCRIPT, 1, key, token]),
          async () => undefined,
        );
      },
    };
  }

  /**
   * Keeps a robots.txt snapshot for the fleet: the body (base64, `SET NX`: written once) under
   * `<prefix>snapshot:<id>`, the sightings in two lists and a counter beside it, without expiry.
   * A body above `maxRecordBytes`, or Redis down: kept in the fallback.
   */
  async keepSnapshot(id: string, body: Uint8Array, sighting: SnapshotSighting): Promise<void> {
    const encoded = Buffer.from(body).toString('base64');
    if (encoded.length > this.maxRecordBytes) return this.fallback.keepSnapshot?.(id, body, sighting);
    const keys = this.snapshotKeys(id);
    const done = await this.run(
      async (client) => {
        await client.call('SET', [keys.body, encoded, 'NX']);
        return client.call('EVAL', [
          ADD_SIGHTING_SCRIPT,
          3,
          keys.first,
          keys.latest,
          keys.dropped,
          encodeSighting(sighting),
          MAX_SIGHTINGS,
        ]);
      },
      async () => undefined,
    );
    if (done === undefined) await this.fallback.keepSnapshot?.(id, body, sighting);
  }

  async getSnapshot(id: string): Promise<StoredSnapshot | undefined> {
    const keys = this.snapshotKeys(id);
    const fromRedis = await this.run(
      async (client) => {
        const body = await client.call('EVAL', [BOUNDED_GET_SCRIPT, 1, keys.body, this.maxRecordBytes]);
        if (typeof body !== 'string') return { value: undefined };
        const [first, latest, dropped] = await Promise.all([
          client.call('LRANGE', [keys.first, 0, MAX_SIGHTINGS * 4]),
          client.call('LRANGE', [keys.latest, 0, MAX_SIGHTINGS * 4]),
          client.call('GET', [keys.dropped]),
        ]);
        const sightings: SightingLog = {
          first: decodeSightingList(first),
          latest: decodeSightingList(latest),
          dropped: Math.max(0, Number(dropped) || 0),
        };
        return { value: { id, body: Buffer.from(body, 'base64'), sightings } };
      },
      async () => undefined,
    );
    return fromRedis?.value ?? this.fallback.getSnapshot?.(id);
  }

  /**
   * The origin's next crawl slot for the whole fleet (see `redis-crawl-clock.ts`); `undefined` while
   * Redis is down, and the caller's per-process clock decides.
   */
  async reserveCrawlSlot(origin: string, delayMs: number, held?: number): Promise<CrawlSlot | undefined> {
    const args = [RESERVE_SLOT_SCRIPT, 1, this.paceKey(origin), Math.max(0, Math.round(delayMs)), held === undefined ? '' : held];
    return this.run(
      async (client) => slotReply(await client.call('EVAL', args)),
      async () => undefined,
    );
  }

  /** 0 when a request to `origin` may leave now (recorded for the fleet), else the ms to wait; `undefined` while Redis is down. */
  async claimCrawlSend(origin: string, delayMs: number): Promise<number | undefined> {
    const args = [CLAIM_SEND_SCRIPT, 1, this.paceKey(origin), Math.max(0, Math.round(delayMs))];
    const reply = await this.run(
      async (client) => Number(await client.call('EVAL', args)),
      async () => undefined,
    );
    return reply === undefined || !Number.isFinite(reply) ? undefined : reply;
  }

  /** A request to `origin` was written `agoMs` ago: the fleet's delay counts from then if later than its claim; false while Redis is down. */
  async confirmCrawlSend(origin: string, delayMs: number, agoMs: number): Promise<boolean> {
    const args = [CONFIRM_SEND_SCRIPT, 1, this.paceKey(origin), Math.max(0, Math.round(delayMs)), Math.max(0, Math.round(agoMs))];
    const reply = await this.run(
      async (client) => client.call('EVAL', args),
      async () => undefined,
    );
    return reply !== undefined;
  }

  /** Pauses `origin` for the fleet for `pauseMs` from now; false while Redis is down. */
  async pauseOrigin(origin: string, pauseMs: number): Promise<boolean> {
    const args = [PAUSE_SCRIPT, 1, this.paceKey(origin), Math.max(0, Math.round(pauseMs))];
    const reply = await this.run(
      async (client) => client.call('EVAL', args),
      async () => undefined,
    );
    return reply !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closeCircuit();
    clearTimeout(this.pingTimer);
    await this.fallback.close?.();
    if (!this.ownsClient || this.clientPromise === undefined) return;
    const client = await this.clientPromise.catch(() => undefined);
    if (client === undefined) return;
    try {
      await withTimeout(client.quit(), this.commandTimeoutMs);
    } catch {
      client.disconnect();
    }
  }

  /** A bounded GET's reply as a record: an integer is the size of a value too large to send. */
  private readReply(reply: unknown, origin: string): RobotsRecord | undefined {
    const size =
      typeof reply === 'number' ? reply : typeof reply === 'string' && reply.length > this.maxRecordBytes ? reply.length : undefined;
    if (size === undefined) return decodeRecord(reply, origin);
    this.log.warning(
      `The stored robots record of ${origin} is ${size} bytes, above RedisStore's maxRecordBytes (${this.maxRecordBytes}): it is ignored as corrupt and the file is fetched again.`,
      { origin, bytes: size },
    );
    return undefined;
  }

  private recordKey(origin: string): string {
    return `${this.keyPrefix}record:${origin}`;
  }

  private snapshotKeys(id: string): { body: string; first: string; latest: string; dropped: string } {
    const base = `${this.keyPrefix}snapshot:${id}`;
    return { body: base, first: `${base}:first`, latest: `${base}:latest`, dropped: `${base}:dropped` };
  }

  private paceKey(origin: string): string {
    return `${this.keyPrefix}pace:${origin}`;
  }

  /**
   * Runs `command` on Redis when it is up and the circuit is closed (or this is the probe);
   * otherwise, or when it fails or times out, `whenDown`, noting the outage.
   */
  private async run<T>(command: (client: RedisClientLike) => Promise<T>, whenDown: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.closed) return whenDown();
    let probe = false;
    if (this.openUntil !== 0) {
      if (this.probing || Date.now() < this.openUntil) return whenDown();
      this.probing = probe = true;
    }
    try {
      let client: RedisClientLike;
      try {
        client = await this.client();
      } catch (error) {
        this.noteDown(error);
        return await whenDown();
      }
      if (!(await this.ready(client))) {
        // Not connected: nothing waits on it, and ioredis says when it is back ('ready').
        this.noteDown(new Error(`the Redis connection is ${client.status}`));
        return await whenDown();
      }
      try {
        const result = await withTimeout(command(client), this.commandTimeoutMs);
        this.closeCircuit();
        this.noteUp();
        return result;
      } catch (error) {
        this.openCircuit(client, error instanceof CommandTimeout);
        this.noteDown(error);
        return await whenDown();
      }
    } finally {
      if (probe) this.probing = false;
    }
  }

  /** `hung`: the command timed out (Redis frozen or swapping), rather than failed with an answer. */
  private openCircuit(client: RedisClientLike, hung: boolean): void {
    this.openUntil = Date.now() + this.circuitBreakMs;
    // Only a hang is watched for its end: a Redis that answers with errors (out of memory, say)
    // would answer the PING at once, and the store would flip back and forth every second.
    if (hung) this.watchForAnswer(client);
    if (this.readyListener !== undefined) return;
    // A reconnect (Redis restarted, the network back) closes the circuit at once.
    const listener = () => {
      this.readyListener = undefined;
      this.openUntil = 0;
    };
    this.readyListener = { client, listener };
    client.once('ready', listener);
  }

  /**
   * While the circuit a command's timeout opened is open, PINGs Redis every {@link PING_EVERY_MS}
   * (at most the break), one at a time, each given `commandTimeoutSecs`: the first answered closes
   * the circuit. Nothing waits on
   * it, so a Redis still hung costs no check anything, and a thawed one is used again at once
   * rather than at the end of the break (a fleet spends the break on per-process clocks).
   */
  private watchForAnswer(client: RedisClientLike): void {
    if (this.pingTimer !== undefined || this.closed) return;
    this.pingTimer = setTimeout(() => void this.ping(client), Math.min(PING_EVERY_MS, this.circuitBreakMs));
    // A store left open must not keep the process alive.
    this.pingTimer.unref();
  }

  private async ping(client: RedisClientLike): Promise<void> {
    let answered = false;
    if (this.openUntil !== 0 && !this.closed && client.status === 'ready') {
      answered = await withTimeout(client.call('PING', []), this.commandTimeoutMs).then(
        () => true,
        () => false,
      );
    }
    this.pingTimer = undefined;
    if (this.openUntil === 0 || this.closed) return;
    if (!answered) {
      this.watchForAnswer(client);
      return;
    }
    this.closeCircuit();
    this.noteUp();
  }

  private closeCircuit(): void {
    this.openUntil = 0;
    if (this.readyListener === undefined) return;
    this.readyListener.client.off('ready', this.readyListener.listener);
    this.readyListener = undefined;
  }

  /** Ready now, or (only before the first successful connection) ready within `connectTimeoutSecs`. */
  private async ready(client: RedisClientLike): Promise<boolean> {
    if (client.status === 'ready') {
      this.everReady = true;
      return true;
    }
    if (this.everReady || client.status === 'end' || client.status === 'close') return false;
    this.firstReady ??= this.waitForFirstReady(client);
    return this.firstReady;
  }

  private waitForFirstReady(client: RedisClientLike): Promise<boolean> {
    if (client.status === 'wait') void client.connect?.().catch(() => undefined);
    return new Promise<boolean>((resolve) => {
      const onReady = () => {
        clearTimeout(timer);
        this.everReady = true;
        resolve(true);
      };
      const timer = setTimeout(() => {
        client.off('ready', onReady);
        // Don't wait again on the next command: we are in an outage until the client reconnects.
        this.everReady = true;
        resolve(client.status === 'ready');
      }, this.connectTimeoutMs);
      client.once('ready', onReady);
    });
  }

  private client(): Promise<RedisClientLike> {
    this.clientPromise ??= this.connect();
    return this.clientPromise;
  }

  private async connect(): Promise<RedisClientLike> {
    let Redis: new (url: string, options: object) => RedisClientLike & { on(event: string, listener: (error: Error) => void): unknown };
    try {
      ({ Redis } = (await import('ioredis')) as unknown as { Redis: typeof Redis });
    } catch {
      // Installed when the store was made (the constructor checks), gone or broken since.
      this.clientPromise = undefined;
      throw new MissingDependencyError('ioredis', 'new RedisStore({ url })', NO_IOREDIS);
    }
    const client = new Redis(this.url, {
      // Fail fast while disconnected (we fall back to memory) instead of queueing commands.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: this.connectTimeoutMs,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    });
    // ioredis reports every failed reconnect as an 'error' event; the outage is logged once in run().
    client.on('error', (error: Error) => this.log.debug('Redis connection error', { error: error.message }));
    return client;
  }

  private noteDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log.warning(
      'Redis is unreachable: robots records, crawl-delay slots and Retry-After pauses are kept in process memory (each process on its own) until it is back.',
      {
        error: error instanceof Error ? error.message : String(error),
      },
    );
  }

  private noteUp(): void {
    if (!this.down) return;
    this.down = false;
    this.log.info('Redis is reachable again: robots records and crawl clocks are shared through Redis again.');
  }
}

/** A command Redis did not answer in time (the connection open: frozen, swapping, a slow script). */
class CommandTimeout extends Error {}

/** A sighting as the lists hold it: its JSON, fields in one order, so one sighting is one string. */
function encodeSighting(s: SnapshotSighting): string {
  return JSON.stringify({
    origin: s.origin,
    fetchedAt: s.fetchedAt,
    ...(s.httpStatus === undefined ? {} : { httpStatus: s.httpStatus }),
    outcome: s.outcome,
  });
}

/** The sightings of an `LRANGE` reply; entries that are not sightings are left out. */
function decodeSightingList(reply: unknown): SnapshotSighting[] {
  if (!Array.isArray(reply)) return [];
  const out: SnapshotSighting[] = [];
  for (const item of reply) {
    if (typeof item !== 'string' || item.length > 1024) continue;
    try {
      const value: unknown = JSON.parse(item);
      if (isSighting(value)) out.push(value);
    } catch {
      // Not JSON: not written by Heed.
    }
  }
  return out;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CommandTimeout(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A reply as a warning shows it: its type, and a short value. */
function describeReply(reply: unknown): string {
  if (typeof reply === 'string') return `the string ${JSON.stringify(reply.slice(0, 20))}`;
  if (typeof reply === 'number') return `the integer ${reply}`;
  return Array.isArray(reply) ? 'an array' : typeof reply;
}
