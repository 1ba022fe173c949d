/**
 * The Lua script of ./quota-script.ts: the quota decisions of many requests,
 * in order, in one Redis call.
 *
 * The call's keys are KEYS, each once (in the order the requests first name
 * them); ARGV[1] is the requests, in order, as binary records
 * (./quota-script.ts RECORD: little-endian, read with Lua's struct.unpack):
 * the minute counter's, day counter's and flood-guard counter's
 * (./flood-guard.ts) index in KEYS (the last 0: no flood check), how many
 * requests in a row the record stands for (consecutive requests alike in
 * every field share one), then minute limit, day limit, minute window s, day
 * counter lifetime s and flood limit. (Eight arguments per request before:
 * Redis parsing them and copying them into Lua's tables was about a third of
 * its CPU per decision, docs/benchmarks-journal.md, "The quota script's
 * input; the batch that waited for the answers before it".)
 *
 * Each request is decided on its own, in order, by the rules of ./quota.ts:
 * minute first, then day; a refused request gives back its own increments,
 * so the counters hold served requests only. The first request of a record
 * is decided step by step below; the others of the record follow from it
 * (a run of alike requests, docs/benchmarks-journal.md "The quota script's
 * runs"): they see the same counters, limits and flood verdict, so
 * - the first refused (by the flood guard, the minute or the day) changed
 *   nothing, and every other request of the run is refused the same way,
 *   with the same counts;
 * - the first taken, the next k = min(n − 1, minute limit − m, day limit − d)
 *   are taken too (counts m + 1 … m + k and d + 1 … d + k, the minute time
 *   left the first one read), and every one after them is refused alike: by
 *   the minute when m + k + 1 passes its limit (the refused count m + k + 1,
 *   day d + k), else by the day (minute m + k after the give-back, the
 *   refused day count d + k + 1).
 * That is what deciding them one by one gives, without a Lua step per
 * request: the run's requests cost Redis nothing more than its first.
 *
 * Returns, per record, seven integers {outcome, minute count, minute ms
 * left, day count, flood ms left, k, rest} of its first request, k and how
 * the rest are refused (0 minute, 1 day; read only when the first was taken
 * and k < n − 1), flat, packed as little-endian doubles in one string (exact
 * for integers below 2^53; no number formatting in Lua, which costs Redis
 * more than integer replies). Outcome 0 = refused by the minute (its
 * increment given back; the count is the one that was refused), 1 = refused
 * by the day (both increments given back; the minute count is after the
 * give-back), 2 = taken, 3 = refused by the flood guard (nothing taken; the
 * counts as they stand, and how long the block lasts).
 *
 * A key that comes back within one call (a client's requests read together)
 * is read and set up once (incremented, its time left read, its expiry set
 * when it has none: a new counter) and then counted in the script's own
 * table; what the call added to each counter is written at the end with one
 * INCRBY. Nothing else runs while a script runs, so the counters end, and
 * each request is decided, exactly as with a command per step. The only
 * difference: a repeated key's minute time left is the one read at its first
 * request of the call (the call lasts well under a millisecond).
 */
export const CONSUME_MANY_LUA = `
local out = {}
local n = 0
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
  local o, m, mttl, d, f = 2, 0, 0, 0, 0
  local flooded = false
  if floodLimit > 0 then
    if fCount[kf] == nil then fCount[kf] = tonumber(redis.call('get', kf) or '0') end
    flooded = fCount[kf] >= floodLimit
  end
  if flooded then
    o, m, mttl, d, f = 3, counter(km, mCount), mTtl[km] or redis.call('pttl', km), counter(kd, dCount), redis.call('pttl', kf)
  else
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
      o, d = 0, counter(kd, dCount)
    else
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
        o, m = 1, m - 1
      end
    end
  end
  local k, rest = 0, 0
  if o == 2 and times > 1 then
    k = math.min(times - 1, math.floor(minuteLimit - m), math.floor(dayLimit - d))
    mCount[km], mAdded[km] = m + k, mAdded[km] + k
    dCount[kd], dAdded[kd] = d + k, dAdded[kd] + k
    if m + k + 1 > minuteLimit then rest = 0 else rest = 1 end
  end
  out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5], out[n + 6], out[n + 7] = o, m, mttl, d, f, k, rest
  n = n + 7
end
for k, added in pairs(mAdded) do if added ~= 0 then redis.call('incrby', k, added) end end
for k, added in pairs(dAdded) do if added ~= 0 then redis.call('incrby', k, added) end end
return struct.pack('<' .. string.rep('d', n), unpack(out))`;
