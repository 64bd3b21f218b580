/**
 * The crawl clock `RedisStore` keeps per origin for a fleet: one Redis hash per origin (`slot`: the
 * last slot reserved, `sent`: when the last request left, `pause`: the end of a `Retry-After`
 * pause), read and written by Lua scripts so that every step is atomic however many processes ask
 * at once. Times are Redis's own clock (`TIME`): processes on machines whose clocks differ still
 * agree, and they only ever exchange durations with Redis.
 *
 * Bounded: each write sets the hash to expire once nothing in it can hold a request back any
 * more (its latest time plus the delay, and a second of margin), so idle origins leave Redis.
 */

/**
 * Lua prelude of every script: `now` in ms on Redis's clock, the hash's three times. Scripts that
 * read `TIME` and then write need effects replication: the default from Redis 5, asked for on 3.2–4.
 */
const PRELUDE = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = redis.call('HMGET', KEYS[1], 'slot', 'sent', 'pause')
local slot = tonumber(v[1]) or 0
local sent = tonumber(v[2]) or 0
local pause = tonumber(v[3]) or 0
local function keep(untilMs)
  local ttl = math.floor(untilMs - now) + 1000
  if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
end
`;

/**
 * ARGV: delay ms, held slot (or ''). Replies `{wait, slot}`. A held slot no pause has moved past is
 * kept; else the next free one is reserved. An origin without a delay keeps no slots (nothing is
 * written): only a pause holds it back.
 */
export const RESERVE_SLOT_SCRIPT = `${PRELUDE}
local delay = tonumber(ARGV[1])
local held = tonumber(ARGV[2])
if held and held >= pause then return {held - now, held} end
local free = math.max(now, pause)
if delay > 0 then
  free = math.max(free, slot + delay, sent + delay)
  redis.call('HSET', KEYS[1], 'slot', free)
  keep(math.max(free, pause) + delay)
end
return {free - now, free}
`;

/** ARGV: delay ms. Replies 0 (sent now, recorded) or the ms to wait. */
export const CLAIM_SEND_SCRIPT = `${PRELUDE}
local delay = tonumber(ARGV[1])
local due = pause
if delay > 0 then due = math.max(due, sent + delay) end
if now < due then return due - now end
if delay > 0 then
  redis.call('HSET', KEYS[1], 'sent', now)
  keep(math.max(slot, pause, now) + delay)
end
return 0
`;

/** ARGV: delay ms, how many ms ago the request was written. Moves `sent` there if that is later. Replies 1. */
export const CONFIRM_SEND_SCRIPT = `${PRELUDE}
local delay = tonumber(ARGV[1])
local at = now - tonumber(ARGV[2])
if delay > 0 and at > sent then
  redis.call('HSET', KEYS[1], 'sent', at)
  keep(math.max(slot, pause, at) + delay)
end
return 1
`;

/** ARGV: pause ms. Moves the origin's pause to now + ms unless it already ends later. Replies 1. */
export const PAUSE_SCRIPT = `${PRELUDE}
local untilMs = now + tonumber(ARGV[1])
if untilMs > pause then
  redis.call('HSET', KEYS[1], 'pause', untilMs)
  keep(untilMs)
end
return 1
`;

/** `{wait, slot}` from {@link RESERVE_SLOT_SCRIPT}, or `undefined` for any other reply. */
export function slotReply(reply: unknown): { waitMs: number; at: number } | undefined {
  if (!Array.isArray(reply) || reply.length !== 2) return undefined;
  const [waitMs, at] = reply.map(Number) as [number, number];
  return Number.isFinite(waitMs) && Number.isFinite(at) ? { waitMs, at } : undefined;
}
