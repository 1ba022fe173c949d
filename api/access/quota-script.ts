/**
 * Both quota windows in one Redis round trip: a Lua script that takes one
 * request from the minute window, then from the day window, and gives its
 * own increments back when a window is spent — the rules of ./quota.ts,
 * executed atomically in Redis instead of as two or three round trips
 * (rate-limiter-flexible counts one window per call).
 *
 * The counters are rate-limiter-flexible's own (keys `<prefix>:<key>`,
 * integer values, expiry set on creation), so its `get` and `reward` (used by
 * peek, refund and the outage path) read and change the same counters.
 */
import type { Redis } from 'ioredis';

/**
 * KEYS: minute counter, day counter, flood-guard counter (./flood-guard.ts).
 * ARGV: minute limit, day limit, minute window s, day counter lifetime s,
 * flood limit (0: no flood check). Returns {outcome, minute count, minute ms
 * left, day count, flood ms left}; outcome 0 = refused by the minute (its
 * increment given back; the count is the one that was refused), 1 = refused
 * by the day (both increments given back; the minute count is after the
 * give-back), 2 = taken, 3 = refused by the flood guard (nothing taken; the
 * counts as they stand, and how long the block lasts).
 */
const CONSUME_LUA = `
if tonumber(ARGV[5]) > 0 and tonumber(redis.call('get', KEYS[3]) or '0') >= tonumber(ARGV[5]) then
  return {3, tonumber(redis.call('get', KEYS[1]) or '0'), redis.call('pttl', KEYS[1]), tonumber(redis.call('get', KEYS[2]) or '0'), redis.call('pttl', KEYS[3])}
end
redis.call('set', KEYS[1], 0, 'EX', ARGV[3], 'NX')
local m = redis.call('incr', KEYS[1])
local mttl = redis.call('pttl', KEYS[1])
if mttl == -1 then redis.call('expire', KEYS[1], ARGV[3]); mttl = 1000 * ARGV[3] end
if m > tonumber(ARGV[1]) then
  redis.call('decr', KEYS[1])
  return {0, m, mttl, tonumber(redis.call('get', KEYS[2]) or '0'), 0}
end
redis.call('set', KEYS[2], 0, 'EX', ARGV[4], 'NX')
local d = redis.call('incr', KEYS[2])
if redis.call('ttl', KEYS[2]) == -1 then redis.call('expire', KEYS[2], ARGV[4]) end
if d > tonumber(ARGV[2]) then
  redis.call('decr', KEYS[2])
  redis.call('decr', KEYS[1])
  return {1, m - 1, mttl, d, 0}
end
return {2, m, mttl, d, 0}`;

export interface BothWindows {
  outcome: 'minute' | 'day' | 'taken' | 'flood';
  minuteCount: number;
  /** Negative when the minute counter does not exist (Redis PTTL). */
  minuteMsLeft: number;
  dayCount: number;
  /** How long the flood block lasts ('flood' only), ms. */
  floodMsLeft: number;
}

/** The flood-guard counter the script checks first, or none (limit 0). */
export interface FloodCounter {
  key: string;
  limit: number;
}

const NO_FLOOD: FloodCounter = { key: 'mp:flood:none', limit: 0 };

interface WithScript {
  mpQuotaConsume(
    minuteKey: string, dayKey: string, floodKey: string, minuteLimit: number, dayLimit: number, minuteS: number, dayS: number, floodLimit: number,
  ): Promise<[number, number, number, number, number]>;
}

/** Registers the script on `redis` (EVALSHA, loaded on first use). */
export function defineQuotaScript(redis: Redis): void {
  if (!('mpQuotaConsume' in redis)) redis.defineCommand('mpQuotaConsume', { numberOfKeys: 3, lua: CONSUME_LUA });
}

/** One round trip: see CONSUME_LUA. Rejects when Redis does not answer (the caller falls back). */
export async function consumeBoth(
  redis: Redis, minuteKey: string, dayKey: string, limits: { minute: number; day: number }, minuteS: number, dayS: number,
  flood: FloodCounter = NO_FLOOD,
): Promise<BothWindows> {
  const [o, m, mttl, d, fttl] = await (redis as unknown as WithScript).mpQuotaConsume(
    minuteKey, dayKey, flood.key, limits.minute, limits.day, minuteS, dayS, flood.limit,
  );
  const outcome = o === 0 ? 'minute' : o === 1 ? 'day' : o === 3 ? 'flood' : 'taken';
  return { outcome, minuteCount: m, minuteMsLeft: mttl, dayCount: d, floodMsLeft: fttl };
}
