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
 * KEYS: minute counter, day counter. ARGV: minute limit, day limit, minute
 * window s, day counter lifetime s. Returns {outcome, minute count, minute
 * ms left, day count}; outcome 0 = refused by the minute (its increment given
 * back; the count is the one that was refused), 1 = refused by the day (both
 * increments given back; the minute count is after the give-back), 2 = taken.
 */
const CONSUME_LUA = `
redis.call('set', KEYS[1], 0, 'EX', ARGV[3], 'NX')
local m = redis.call('incr', KEYS[1])
local mttl = redis.call('pttl', KEYS[1])
if mttl == -1 then redis.call('expire', KEYS[1], ARGV[3]); mttl = 1000 * ARGV[3] end
if m > tonumber(ARGV[1]) then
  redis.call('decr', KEYS[1])
  return {0, m, mttl, tonumber(redis.call('get', KEYS[2]) or '0')}
end
redis.call('set', KEYS[2], 0, 'EX', ARGV[4], 'NX')
local d = redis.call('incr', KEYS[2])
if redis.call('ttl', KEYS[2]) == -1 then redis.call('expire', KEYS[2], ARGV[4]) end
if d > tonumber(ARGV[2]) then
  redis.call('decr', KEYS[2])
  redis.call('decr', KEYS[1])
  return {1, m - 1, mttl, d}
end
return {2, m, mttl, d}`;

export interface BothWindows {
  outcome: 'minute' | 'day' | 'taken';
  minuteCount: number;
  minuteMsLeft: number;
  dayCount: number;
}

interface WithScript {
  mpQuotaConsume(minuteKey: string, dayKey: string, minuteLimit: number, dayLimit: number, minuteS: number, dayS: number): Promise<[number, number, number, number]>;
}

/** Registers the script on `redis` (EVALSHA, loaded on first use). */
export function defineQuotaScript(redis: Redis): void {
  if (!('mpQuotaConsume' in redis)) redis.defineCommand('mpQuotaConsume', { numberOfKeys: 2, lua: CONSUME_LUA });
}

/** One round trip: see CONSUME_LUA. Rejects when Redis does not answer (the caller falls back). */
export async function consumeBoth(
  redis: Redis, minuteKey: string, dayKey: string, limits: { minute: number; day: number }, minuteS: number, dayS: number,
): Promise<BothWindows> {
  const [o, m, mttl, d] = await (redis as unknown as WithScript).mpQuotaConsume(minuteKey, dayKey, limits.minute, limits.day, minuteS, dayS);
  return { outcome: o === 0 ? 'minute' : o === 1 ? 'day' : 'taken', minuteCount: m, minuteMsLeft: mttl, dayCount: d };
}
