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
 * The call's keys are KEYS, each once (in the order the requests first name
 * them); ARGV[1] is the requests, in order, as binary records
 * ({@link RECORD}: little-endian, read with Lua's struct.unpack): the minute
 * counter's, day counter's and flood-guard counter's (./flood-guard.ts)
 * index in KEYS (the last 0: no flood check), how many requests in a row the
 * record stands for (consecutive requests alike in every field share one),
 * then minute limit, day limit, minute window s, day counter lifetime s and
 * flood limit. Each request is still decided on its own, in order: a record
 * of n requests runs the decision n times. (Eight arguments per request
 * before: Redis parsing them and copying them into Lua's tables was about a
 * third of its CPU per decision, docs/benchmarks-journal.md, "The quota
 * script's input; the batch that waited for the answers before it".)
 *
 * Returns, per request, five integers {outcome, minute count,
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
 * is read and set up once (incremented, its time left read, its expiry set
 * when it has none: a new counter) and then counted in the script's own
 * table; what the call added to each counter is written at the end with one
 * INCRBY. Nothing else runs while a script runs, so the counters end, and
 * each request is decided, exactly as with a command per step; the Redis
 * work of a repeated key falls from seven commands per request to none
 * (plus one INCRBY per counter per call). The only difference: a repeated
 * key's minute time left is the one read at its first request of the call
 * (the call lasts well under a millisecond).
 */
const CONSUME_MANY_LUA = `
local out = {}
local mCount, mTtl, mAdded, dCount, dAdded, fCount = {}, {}, {}, {}, {}, {}
local function counter(k, cache)
  local c = cache[k]
  if c == nil then c = tonumber(redis.call('get', k) or '0') end
  return c
end
local spec = ARGV[1]
local pos, last = 1, #spec
while pos <= last do
  local mi, di, fi, times, minuteLimit, dayLimit, minuteS, dayS, floodLimit
  mi, di, fi, times, minuteLimit, dayLimit, minuteS, dayS, floodLimit, pos = struct.unpack('<HHHHddddd', spec, pos)
  local km, kd, kf = KEYS[mi], KEYS[di], KEYS[fi]
  for _ = 1, times do
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
 * A script call whose RESP bytes are written here in one pass (see
 * {@link consumeMany}) instead of by ioredis from an argument list. Sent with
 * the client's sendCommand, so it keeps everything else the client does: the
 * command timeout, the hang breaker's count (./redis-connection.ts), no
 * offline queue, the reply matched in order. No reply encoding: the reply,
 * one string, comes back as bytes for readNumbers.
 */
class ScriptCall extends Command {
  constructor(
    name: 'evalsha' | 'eval',
    private readonly resp: Buffer,
  ) {
    super(name, [], { replyEncoding: null });
  }

  override toWritable(): Buffer {
    return this.resp;
  }
}

/** RESP bulk string of a text value (its length counted in UTF-8 bytes). */
function bulk(value: string): string {
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

const CRLF = Buffer.from('\r\n');

/** EVALSHA (or EVAL, `lua`) of the script with `keys` (`keyCount` of them, already in RESP) and the requests' records `spec` as its one argument. */
function scriptCall(lua: string | null, keyCount: number, keys: string, spec: Buffer): Buffer {
  const head = lua === null ? `$7\r\nevalsha\r\n$40\r\n${SCRIPT_SHA}\r\n` : `$4\r\neval\r\n${bulk(lua)}`;
  const text = `*${4 + keyCount}\r\n${head}${bulk(String(keyCount))}${keys}$${spec.length}\r\n`;
  return Buffer.concat([Buffer.from(text), spec, CRLF]);
}

/**
 * One request record of ARGV[1] (see CONSUME_MANY_LUA): four unsigned 16-bit
 * integers (minute, day and flood key index, requests in a row) and five
 * doubles (minute limit, day limit, minute window s, day counter lifetime s,
 * flood limit), little-endian, unpadded: Lua's struct format `<HHHHddddd`.
 */
const RECORD_BYTES = 4 * 2 + 5 * 8;
/** Most requests one record stands for (its count is 16 bits). */
const MAX_RUN = 0xffff;

/** Whether `b` is decided with exactly the inputs of `a` (the same counters, limits and lifetimes). */
function alike(a: WindowsRequest, b: WindowsRequest): boolean {
  const fa = a.flood ?? NO_FLOOD;
  const fb = b.flood ?? NO_FLOOD;
  return a.minuteKey === b.minuteKey && a.dayKey === b.dayKey && fa.limit === fb.limit && (fa.limit === 0 || fa.key === fb.key)
    && a.limits.minute === b.limits.minute && a.limits.day === b.limits.day && a.minuteS === b.minuteS && a.dayS === b.dayS;
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
  const keyIndex = new Map<string, number>();
  let keys = '';
  const indexOf = (key: string): number => {
    let i = keyIndex.get(key);
    if (i === undefined) {
      i = keyIndex.size + 1;
      keyIndex.set(key, i);
      keys += bulk(key);
    }
    return i;
  };
  const spec = Buffer.allocUnsafe(RECORD_BYTES * requests.length);
  let at = 0;
  let prev: WindowsRequest | undefined;
  let run = 0;
  for (const r of requests) {
    if (prev !== undefined && run < MAX_RUN && alike(prev, r)) {
      spec.writeUInt16LE(++run, at - RECORD_BYTES + 6);
      continue;
    }
    const flood = r.flood ?? NO_FLOOD;
    spec.writeUInt16LE(indexOf(r.minuteKey), at);
    spec.writeUInt16LE(indexOf(r.dayKey), at + 2);
    spec.writeUInt16LE(flood.limit > 0 ? indexOf(flood.key) : 0, at + 4);
    spec.writeUInt16LE((run = 1), at + 6);
    spec.writeDoubleLE(r.limits.minute, at + 8);
    spec.writeDoubleLE(r.limits.day, at + 16);
    spec.writeDoubleLE(r.minuteS, at + 24);
    spec.writeDoubleLE(r.dayS, at + 32);
    spec.writeDoubleLE(flood.limit, at + 40);
    at += RECORD_BYTES;
    prev = r;
  }
  const records = spec.subarray(0, at);
  const keyCount = keyIndex.size;
  let reply: Buffer;
  try {
    reply = (await redis.sendCommand(new ScriptCall('evalsha', scriptCall(null, keyCount, keys, records)))) as Buffer;
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    reply = (await redis.sendCommand(new ScriptCall('eval', scriptCall(CONSUME_MANY_LUA, keyCount, keys, records)))) as Buffer;
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
