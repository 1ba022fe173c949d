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
import { CONSUME_MANY_LUA } from './quota-lua.js';

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
  /**
   * The reply whenever it comes, also after the command timeout rejected the
   * call (ioredis still matches the late reply to it); rejects when the call
   * fails otherwise (an error reply, the connection given up).
   */
  readonly answer: Promise<Buffer>;

  constructor(
    name: 'evalsha' | 'eval',
    private readonly resp: Buffer,
  ) {
    super(name, [], { replyEncoding: null });
    const { resolve, reject } = this;
    this.answer = new Promise((ok, fail) => {
      this.resolve = (reply: Buffer) => {
        ok(reply);
        return resolve(reply);
      };
      this.reject = (err: Error) => {
        if (!isTimeout(err)) fail(err);
        reject(err);
      };
    });
    this.answer.catch(() => {}); // read only after a timeout
  }

  override toWritable(): Buffer {
    return this.resp;
  }
}

/** ioredis's command timeout (the one error after which Redis may still run the command and answer). */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && /timed out/i.test(err.message);
}

/**
 * How long a script call that timed out is still waited for, ms. Redis runs
 * a call that arrives, however late; its verdicts are then the only exact
 * ones: a request sent on to the outage path (./quota.ts) would be counted
 * twice, refused while quota remains, and its quota lost for the day
 * (seen at load 14: one reply in 300 came after the 500 ms timeout). A hung
 * Redis holds its first requests back this much longer before the outage path.
 */
export const LATE_REPLY_MS = 2000;

/**
 * The reply to `call`; after a command timeout, the late reply if it comes
 * within {@link LATE_REPLY_MS}, else the timeout. (The timeout still reaches
 * the hang breaker, ./redis-connection.ts, which sees the sent promise.)
 */
async function send(redis: Redis, call: ScriptCall): Promise<Buffer> {
  try {
    return (await redis.sendCommand(call)) as Buffer;
  } catch (err) {
    if (!isTimeout(err)) throw err;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(err), LATE_REPLY_MS)));
    try {
      return await Promise.race([call.answer, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
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
 * A call that times out is still waited for a while (see {@link send}).
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
  const runs: number[] = [];
  for (const r of requests) {
    if (prev !== undefined && run < MAX_RUN && alike(prev, r)) {
      spec.writeUInt16LE(++run, at - RECORD_BYTES + 6);
      runs[runs.length - 1] = run;
      continue;
    }
    const flood = r.flood ?? NO_FLOOD;
    spec.writeUInt16LE(indexOf(r.minuteKey), at);
    spec.writeUInt16LE(indexOf(r.dayKey), at + 2);
    spec.writeUInt16LE(flood.limit > 0 ? indexOf(flood.key) : 0, at + 4);
    spec.writeUInt16LE((run = 1), at + 6);
    runs.push(1);
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
    reply = await send(redis, new ScriptCall('evalsha', scriptCall(null, keyCount, keys, records)));
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    reply = await send(redis, new ScriptCall('eval', scriptCall(CONSUME_MANY_LUA, keyCount, keys, records)));
  }
  return verdicts(readNumbers(reply), runs, requests.length);
}

/** Numbers per record in the script's reply (see CONSUME_MANY_LUA). */
const PER_RECORD = 7;

/**
 * Each request's verdict from the script's reply: per record, its first
 * request's five numbers, then how many after it were taken (k) and how the
 * rest were refused; the record's other requests follow from these as the
 * script worked them out (./quota-lua.ts). `runs`: the requests each record
 * stands for, in order.
 */
export function verdicts(flat: readonly number[], runs: readonly number[], count: number): BothWindows[] {
  if (flat.length !== PER_RECORD * runs.length) throw new Error(`quota script: ${flat.length} numbers for ${runs.length} records`);
  const out: BothWindows[] = new Array(count);
  let i = 0;
  for (let r = 0; r < runs.length; r++) {
    const at = PER_RECORD * r;
    const outcome = OUTCOMES[flat[at]!];
    if (!outcome) throw new Error(`quota script: unknown outcome ${flat[at]}`);
    const m = flat[at + 1]!;
    const minuteMsLeft = flat[at + 2]!;
    const d = flat[at + 3]!;
    const floodMsLeft = flat[at + 4]!;
    out[i++] = { outcome, minuteCount: m, minuteMsLeft, dayCount: d, floodMsLeft };
    const end = i - 1 + runs[r]!;
    if (outcome !== 'taken') {
      // The first refused changed nothing: the others are refused alike.
      while (i < end) out[i++] = { outcome, minuteCount: m, minuteMsLeft, dayCount: d, floodMsLeft };
      continue;
    }
    const k = flat[at + 5]!;
    for (let j = 1; j <= k; j++) out[i++] = { outcome: 'taken', minuteCount: m + j, minuteMsLeft, dayCount: d + j, floodMsLeft: 0 };
    const byMinute = flat[at + 6] === 0;
    while (i < end) {
      out[i++] = byMinute
        ? { outcome: 'minute', minuteCount: m + k + 1, minuteMsLeft, dayCount: d + k, floodMsLeft: 0 }
        : { outcome: 'day', minuteCount: m + k, minuteMsLeft, dayCount: d + k + 1, floodMsLeft: 0 };
    }
  }
  if (i !== count) throw new Error(`quota script: ${i} verdicts for ${count} requests`);
  return out;
}
