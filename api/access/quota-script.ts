/**
 * The quota decisions of many requests in one Redis round trip: a Lua script
 * that, for each request in order, takes one request from its minute
 * window, then from its day window, and gives its own increments back when a
 * window is spent — the rules of ./quota.ts, executed atomically in Redis
 * instead of as two or three round trips per request (rate-limiter-flexible
 * counts one window per call). Redis runs a script alone, so the requests of
 * one call are decided one after the other exactly as separate calls would
 * decide them, and no other client's request comes between.
 *
 * The counters are rate-limiter-flexible's own (keys `<prefix>:<key>`,
 * integer values, expiry set on creation), so its `get` and `reward` (used by
 * peek, refund and the outage path) read and change the same counters.
 */
import { createHash } from 'node:crypto';
import { Command, type Redis } from 'ioredis';

/**
 * Per request i (from 0): KEYS[3i+1..3i+3] = minute counter, day counter,
 * flood-guard counter (./flood-guard.ts); ARGV[5i+1..5i+5] = minute limit,
 * day limit, minute window s, day counter lifetime s, flood limit (0: no
 * flood check). Returns, per request, five integers {outcome, minute count,
 * minute ms left, day count, flood ms left}, flat, packed as little-endian
 * doubles in one string (exact for integers below 2^53: one value for the
 * client to decode instead of five per request, and no number formatting in
 * Lua, which costs Redis more than the integer replies: readNumbers);
 * outcome 0 = refused by the
 * minute (its increment given back; the count is the one that was refused),
 * 1 = refused by the day (both increments given back; the minute count is
 * after the give-back), 2 = taken, 3 = refused by the flood guard (nothing
 * taken; the counts as they stand, and how long the block lasts).
 *
 * A key that comes back within one call (a client's requests read together)
 * is read and set up once (created with its expiry, its time left read) and
 * then counted in the script's own table; what the call added to each
 * counter is written at the end with one INCRBY. Nothing else runs while a
 * script runs, so the counters end, and each request is decided, exactly as
 * with a command per step; the Redis work of a repeated key falls from seven
 * commands per request to none (plus one INCRBY per counter per call). The
 * only difference: a repeated key's minute time left is the one read at its
 * first request of the call (the call lasts well under a millisecond).
 */
const CONSUME_MANY_LUA = `
local out = {}
local mCount, mTtl, mAdded, dCount, dAdded, fCount = {}, {}, {}, {}, {}, {}
local function counter(k, cache)
  local c = cache[k]
  if c == nil then c = tonumber(redis.call('get', k) or '0') end
  return c
end
for i = 0, #KEYS / 3 - 1 do
  local km, kd, kf = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
  local a = 5 * i
  local minuteLimit, dayLimit, minuteS, dayS, floodLimit = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), ARGV[a + 3], ARGV[a + 4], tonumber(ARGV[a + 5])
  local n = #out
  local flooded = false
  if floodLimit > 0 then
    if fCount[kf] == nil then fCount[kf] = tonumber(redis.call('get', kf) or '0') end
    flooded = fCount[kf] >= floodLimit
  end
  if flooded then
    out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = 3, counter(km, mCount), mTtl[km] or redis.call('pttl', km), counter(kd, dCount), redis.call('pttl', kf)
  else
    local m, mttl
    if mCount[km] == nil then
      redis.call('set', km, 0, 'EX', minuteS, 'NX')
      m = redis.call('incr', km)
      mttl = redis.call('pttl', km)
      if mttl == -1 then redis.call('expire', km, minuteS); mttl = 1000 * minuteS end
      mTtl[km], mAdded[km] = mttl, 0
    else
      m, mttl = mCount[km] + 1, mTtl[km]
      mAdded[km] = mAdded[km] + 1
    end
    mCount[km] = m
    if m > minuteLimit then
      mCount[km], mAdded[km] = m - 1, mAdded[km] - 1
      out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = 0, m, mttl, counter(kd, dCount), 0
    else
      local d
      if dCount[kd] == nil then
        redis.call('set', kd, 0, 'EX', dayS, 'NX')
        d = redis.call('incr', kd)
        if redis.call('ttl', kd) == -1 then redis.call('expire', kd, dayS) end
        dAdded[kd] = 0
      else
        d = dCount[kd] + 1
        dAdded[kd] = dAdded[kd] + 1
      end
      dCount[kd] = d
      if d > dayLimit then
        dCount[kd], dAdded[kd] = d - 1, dAdded[kd] - 1
        mCount[km], mAdded[km] = m - 1, mAdded[km] - 1
        out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = 1, m - 1, mttl, d, 0
      else
        out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = 2, m, mttl, d, 0
      end
    end
  end
end
for k, added in pairs(mAdded) do if added ~= 0 then redis.call('incrby', k, added) end end
for k, added in pairs(dAdded) do if added ~= 0 then redis.call('incrby', k, added) end end
return struct.pack('<' .. string.rep('d', #out), unpack(out))`;

/** One request's decision, as the script asks for it. */
export interface WindowsRequest {
  minuteKey: string;
  dayKey: string;
  limits: { minute: number; day: number };
  minuteS: number;
  /** The day counter's lifetime, s. */
  dayS: number;
  /** The flood-guard counter checked first, or none. */
  flood?: FloodCounter | undefined;
}

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

const SCRIPT_SHA = createHash('sha1').update(CONSUME_MANY_LUA).digest('hex');

/**
 * A script call whose RESP text is written here in one pass (see
 * {@link consumeMany}) instead of by ioredis from an argument list. Sent with
 * the client's sendCommand, so it keeps everything else the client does: the
 * command timeout, the hang breaker's count (./redis-connection.ts), no
 * offline queue, the reply matched in order. No reply encoding: the reply,
 * one string, comes back as bytes for readNumbers.
 */
class ScriptCall extends Command {
  constructor(
    name: 'evalsha' | 'eval',
    private readonly resp: string,
  ) {
    super(name, [], { replyEncoding: null });
  }

  override toWritable(): string {
    return this.resp;
  }
}

/** RESP bulk string of an ASCII value (numbers, Redis keys built from key prefixes and addresses). */
function bulk(value: string): string {
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

/** EVALSHA (or EVAL, `lua`) of the script with `numKeys` keys, then `body` (the keys and arguments, already in RESP). */
function scriptCall(lua: string | null, numKeys: number, argCount: number, body: string): string {
  const head = lua === null ? `$7\r\nevalsha\r\n$40\r\n${SCRIPT_SHA}\r\n` : `$4\r\neval\r\n${bulk(lua)}`;
  return `*${3 + argCount}\r\n${head}${bulk(String(numKeys))}${body}`;
}

const OUTCOMES = ['minute', 'day', 'taken', 'flood'] as const;

/** The numbers of the script's reply (little-endian doubles, see CONSUME_MANY_LUA); throws on anything else. */
export function readNumbers(reply: Buffer): number[] {
  if (!Buffer.isBuffer(reply) || reply.length % 8 !== 0) throw new Error('quota script: malformed reply');
  const out: number[] = new Array(reply.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = reply.readDoubleLE(8 * i);
  return out;
}

/**
 * One round trip for all of `requests`, decided in their order (see
 * CONSUME_MANY_LUA). Rejects when Redis does not answer (the callers fall back).
 *
 * The command is written directly in RESP: EVALSHA, and EVAL with the
 * script's text when Redis does not hold it yet (a new or restarted Redis,
 * SCRIPT FLUSH), as ioredis's own script commands do. Building it from an
 * argument list of eight per request cost ioredis about a third of the
 * call's client CPU (docs/benchmarks-journal.md, "The access layer's CPU").
 */
export async function consumeMany(redis: Redis, requests: readonly WindowsRequest[]): Promise<BothWindows[]> {
  let keys = '';
  let args = '';
  for (const r of requests) {
    const flood = r.flood ?? NO_FLOOD;
    keys += bulk(r.minuteKey) + bulk(r.dayKey) + bulk(flood.key);
    args += bulk(String(r.limits.minute)) + bulk(String(r.limits.day)) + bulk(String(r.minuteS)) + bulk(String(r.dayS)) + bulk(String(flood.limit));
  }
  const numKeys = 3 * requests.length;
  const argCount = numKeys + 5 * requests.length;
  const body = keys + args;
  let reply: Buffer;
  try {
    reply = (await redis.sendCommand(new ScriptCall('evalsha', scriptCall(null, numKeys, argCount, body)))) as Buffer;
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    reply = (await redis.sendCommand(new ScriptCall('eval', scriptCall(CONSUME_MANY_LUA, numKeys, argCount, body)))) as Buffer;
  }
  const flat = readNumbers(reply);
  if (flat.length !== 5 * requests.length) throw new Error(`quota script: ${flat.length} numbers for ${requests.length} requests`);
  const out: BothWindows[] = new Array(requests.length);
  for (let i = 0; i < requests.length; i++) {
    const outcome = OUTCOMES[flat[5 * i]!];
    if (!outcome) throw new Error(`quota script: unknown outcome ${flat[5 * i]}`);
    out[i] = { outcome, minuteCount: flat[5 * i + 1]!, minuteMsLeft: flat[5 * i + 2]!, dayCount: flat[5 * i + 3]!, floodMsLeft: flat[5 * i + 4]! };
  }
  return out;
}
