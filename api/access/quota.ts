/**
 * Per-key quotas: a UTC-day window and a one-minute window per plan
 * (config.ts), counted by rate-limiter-flexible. With Redis the counters are
 * RateLimiterRedis's (atomic, shared by all replicas, so N processes never
 * let a key past its quota), and a request takes from both windows through
 * ./quota-script.ts, in the one round trip of every request that asks in the
 * same pass of the event loop (./quota-batch.ts); without, RateLimiterMemory
 * (one process).
 *
 * - Day: the counter's key holds the UTC date (`<date>:<keyId>`), so the day
 *   really is the UTC day and resets at 00:00 UTC.
 * - Minute: a fixed 60 s window starting with the key's first request.
 * - Order: minute first, then day. A request the minute window refuses never
 *   touches the day counter; one the day refuses gives its minute point back;
 *   and the refusing window's own increment is given back too, so the
 *   counters hold served requests only (`keys show` is exact, and a key
 *   upgraded after a burst of 429s has lost nothing). Under concurrency a
 *   refused increment is visible for an instant before it is given back,
 *   which can only refuse, never admit, a concurrent request.
 * - Counters are per key, whatever its plan (one counter per window; the
 *   plan's limit is compared with the count): `keys set-plan` applies the
 *   new limits to today's usage at once.
 * - Redis unreachable: each Redis limiter falls back to an in-memory
 *   insurance limiter with the same limits (rate-limiter-flexible's
 *   insuranceLimiter), so requests neither hang nor fail; limits then hold
 *   per process until Redis returns.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { PLANS, type Plan } from './contract.js';
import type { AccessConfig } from './config.js';
import { msUntilUtcMidnight, utcDate } from './utc-day.js';
import type { BothWindows } from './quota-script.js';
import { QuotaBatcher } from './quota-batch.js';
import type { FloodCheck } from './flood-guard.js';

const MINUTE_S = 60;
/** The day counter outlives its day by an hour so replicas with slightly skewed clocks agree. */
const DAY_TTL_MARGIN_S = 3600;

export interface QuotaWindow {
  limit: number;
  used: number;
  remaining: number;
  /** Milliseconds until this window resets. */
  resetMs: number;
}

export interface QuotaSnapshot {
  day: QuotaWindow;
  minute: QuotaWindow;
}

/** Identifies one consumed request, so that it can be given back. */
export interface QuotaTicket {
  keyId: string;
  plan: Plan;
  dayKey: string;
  dayEndsAtMs: number;
  minuteEndsAtMs: number;
}

export type QuotaDecision =
  | { allowed: true; ticket: QuotaTicket; snapshot: QuotaSnapshot }
  | { allowed: false; refusedBy: 'day' | 'minute'; retryAfterMs: number; snapshot: QuotaSnapshot }
  /** The flood guard blocks the caller: nothing taken; the windows as they stand when the same round trip read them. */
  | { allowed: false; refusedBy: 'flood'; retryAfterMs: number; snapshot: QuotaSnapshot | null };

/** A request's counter keys (Quota.counterKeys). */
interface CounterKeys {
  /** The UTC date they are for. */
  date: string;
  /** `<date>:<keyId>`: the day counter's id (the limiter's key, and the ticket's). */
  dayId: string;
  day: string;
  minute: string;
}

/** Keys whose counter keys are kept (all are dropped past it: the active keys come back at once). */
const COUNTER_KEYS_KEPT = 10_000;

export class Quota {
  private readonly keysById = new Map<string, CounterKeys>();
  private readonly day: RateLimiterAbstract;
  private readonly minute: RateLimiterAbstract;
  /** With Redis: the decisions of one pass of the event loop, sent together. */
  readonly batcher?: QuotaBatcher;

  /** `redis` absent: in-memory counters for this process only. */
  constructor(
    private readonly config: AccessConfig['quota'],
    private readonly redis?: Redis,
  ) {
    if (redis) this.batcher = new QuotaBatcher(redis);
    // One counter per window and key, whatever the plan: the library counts
    // (atomically), this class compares the count with the key's plan limit.
    const make = (prefix: string, which: 'day' | 'minute', duration: number): RateLimiterAbstract => {
      const points = Math.max(...PLANS.map((p) => config[p][which]));
      const memory = new RateLimiterMemory({ keyPrefix: prefix, points, duration });
      if (!redis) return memory;
      return new RateLimiterRedis({ storeClient: redis, keyPrefix: prefix, points, duration, rejectIfRedisNotReady: true, insuranceLimiter: memory });
    };
    this.day = make('mp:quota:day', 'day', 86_400 + DAY_TTL_MARGIN_S);
    this.minute = make('mp:quota:min', 'minute', MINUTE_S);
  }

  limits(plan: Plan): AccessConfig['quota'][Plan] {
    return this.config[plan];
  }

  /**
   * Takes one request from both windows, or refuses without taking any. With
   * `flood`, refuses first, taking nothing, while the flood guard blocks
   * `flood.id`: a guard in Redis is read in the same round trip.
   */
  consume(keyId: string, plan: Plan, nowMs = Date.now(), flood?: { guard: FloodCheck; id: string }): Promise<QuotaDecision> {
    const counterKey = flood ? flood.guard.counterKey(flood.id) : null;
    // The usual request (Redis up, the guard in Redis too) has no async function of its own: one
    // promise for the batch's verdict, one for the decision or, when Redis did not answer, the
    // outage path (the hot path of every served request).
    if (this.batcher && this.redis?.status === 'ready' && (!flood || counterKey !== null)) {
      return this.viaBatch(keyId, plan, nowMs, flood, counterKey, () => this.consumeSlow(keyId, plan, nowMs, flood, counterKey, false));
    }
    return this.consumeSlow(keyId, plan, nowMs, flood, counterKey, true);
  }

  /**
   * The decision of the script (./quota-script.ts) in the batch of this pass of the event loop; when Redis
   * does not answer, `otherwise`'s, or (none given) a rejection.
   */
  private viaBatch(
    keyId: string, plan: Plan, nowMs: number, flood: { guard: FloodCheck; id: string } | undefined, counterKey: string | null,
    otherwise?: () => Promise<QuotaDecision>,
  ): Promise<QuotaDecision> {
    const keys = this.counterKeys(keyId, nowMs);
    // One object shape for every request (no spread): the batch reads them in a loop.
    return this.batcher!.decide({
      minuteKey: keys.minute,
      dayKey: keys.day,
      limits: this.config[plan],
      minuteS: MINUTE_S,
      dayS: dayTtlS(nowMs),
      flood: counterKey !== null ? { key: counterKey, limit: flood!.guard.limit } : undefined,
    }).then((both) => this.decision(keyId, plan, keys.dayId, both, nowMs), otherwise);
  }

  /**
   * The counters' Redis keys of `keyId` on the UTC day of `nowMs`, kept per key
   * (a request asks for the same three strings as the one before it).
   */
  private counterKeys(keyId: string, nowMs: number): CounterKeys {
    const date = utcDate(nowMs);
    let keys = this.keysById.get(keyId);
    if (keys === undefined || keys.date !== date) {
      const dayId = `${date}:${keyId}`;
      keys = { date, dayId, day: this.day.getKey(dayId), minute: this.minute.getKey(keyId) };
      if (this.keysById.size >= COUNTER_KEYS_KEPT) this.keysById.clear();
      this.keysById.set(keyId, keys);
    }
    return keys;
  }

  /**
   * consume off the hot path: a guard in memory asked first; then, with
   * `tryBatch`, the script; when Redis did not answer it (had the script run
   * after all, the request is counted twice: that can refuse, never admit),
   * the guard in Redis asked on its own and the limiters one window at a time,
   * which fall back to memory.
   */
  private async consumeSlow(
    keyId: string, plan: Plan, nowMs: number, flood: { guard: FloodCheck; id: string } | undefined, counterKey: string | null, tryBatch: boolean,
  ): Promise<QuotaDecision> {
    const limits = this.config[plan];
    const dayKey = `${utcDate(nowMs)}:${keyId}`;
    if (flood && counterKey === null) {
      const refused = await floodRefusal(flood);
      if (refused) return refused;
    }
    if (tryBatch && this.batcher && this.redis?.status === 'ready') {
      try {
        return await this.viaBatch(keyId, plan, nowMs, flood, counterKey);
      } catch {
        // Redis did not answer: on below.
      }
    }
    if (flood && counterKey !== null) {
      const refused = await floodRefusal(flood);
      if (refused) return refused;
    }
    const minuteRes = await count(this.minute.consume(keyId, 1));
    if (minuteRes.consumedPoints > limits.minute) {
      // Retry-After must cover the day too when both are spent.
      const dayWin = this.window(plan, 'day', await this.day.get(dayKey), nowMs);
      const minuteWin = this.window(plan, 'minute', minuteRes, nowMs);
      const retryAfterMs = dayWin.remaining === 0 ? Math.max(dayWin.resetMs, minuteWin.resetMs) : minuteWin.resetMs;
      await count(this.minute.reward(keyId, 1));
      return { allowed: false, refusedBy: 'minute', retryAfterMs, snapshot: { day: dayWin, minute: minuteWin } };
    }
    const dayRes = await count(this.day.consume(dayKey, 1, { customDuration: dayTtlS(nowMs) }));
    if (dayRes.consumedPoints > limits.day) {
      const [back] = await Promise.all([
        count(this.minute.reward(keyId, 1)),
        count(this.day.reward(dayKey, 1, { customDuration: dayTtlS(nowMs) })),
      ]);
      const minuteWin = this.window(plan, 'minute', back, nowMs);
      const dayWin = this.window(plan, 'day', dayRes, nowMs);
      return { allowed: false, refusedBy: 'day', retryAfterMs: dayWin.resetMs, snapshot: { day: dayWin, minute: minuteWin } };
    }
    const snapshot = { day: this.window(plan, 'day', dayRes, nowMs), minute: this.window(plan, 'minute', minuteRes, nowMs) };
    const ticket: QuotaTicket = {
      keyId,
      plan,
      dayKey,
      dayEndsAtMs: nowMs + snapshot.day.resetMs,
      minuteEndsAtMs: nowMs + snapshot.minute.resetMs,
    };
    return { allowed: true, ticket, snapshot };
  }

  /** The decision of one script run (./quota-script.ts), in consume's terms. */
  private decision(keyId: string, plan: Plan, dayKey: string, both: BothWindows, nowMs: number): QuotaDecision {
    const minuteWin = windowOf(this.config[plan].minute, both.minuteCount, both.minuteMsLeft > 0 ? both.minuteMsLeft : MINUTE_S * 1000);
    const dayWin = windowOf(this.config[plan].day, both.dayCount, msUntilUtcMidnight(nowMs));
    const snapshot = { day: dayWin, minute: minuteWin };
    if (both.outcome === 'flood') return { allowed: false, refusedBy: 'flood', retryAfterMs: Math.max(1, both.floodMsLeft), snapshot };
    if (both.outcome === 'minute') {
      // Retry-After must cover the day too when both are spent.
      const retryAfterMs = dayWin.remaining === 0 ? Math.max(dayWin.resetMs, minuteWin.resetMs) : minuteWin.resetMs;
      return { allowed: false, refusedBy: 'minute', retryAfterMs, snapshot };
    }
    if (both.outcome === 'day') return { allowed: false, refusedBy: 'day', retryAfterMs: dayWin.resetMs, snapshot };
    const ticket: QuotaTicket = { keyId, plan, dayKey, dayEndsAtMs: nowMs + dayWin.resetMs, minuteEndsAtMs: nowMs + minuteWin.resetMs };
    return { allowed: true, ticket, snapshot };
  }

  /** Gives back a consumed request (the response failed after all); windows that have since reset are left alone. */
  async refund(ticket: QuotaTicket, nowMs = Date.now()): Promise<void> {
    if (nowMs < ticket.minuteEndsAtMs) await count(this.minute.reward(ticket.keyId, 1));
    if (nowMs < ticket.dayEndsAtMs) await count(this.day.reward(ticket.dayKey, 1, { customDuration: dayTtlS(nowMs) }));
  }

  /** Current usage without consuming. */
  async peek(keyId: string, plan: Plan, nowMs = Date.now()): Promise<QuotaSnapshot> {
    const [d, m] = await Promise.all([this.day.get(`${utcDate(nowMs)}:${keyId}`), this.minute.get(keyId)]);
    return { day: this.window(plan, 'day', d, nowMs), minute: this.window(plan, 'minute', m, nowMs) };
  }

  private window(plan: Plan, which: 'day' | 'minute', res: RateLimiterRes | null, nowMs: number): QuotaWindow {
    const resetMs = which === 'day' ? msUntilUtcMidnight(nowMs) : res && res.msBeforeNext > 0 ? res.msBeforeNext : MINUTE_S * 1000;
    return windowOf(this.config[plan][which], res?.consumedPoints ?? 0, resetMs);
  }
}

/** A window of `limit` requests with `consumed` counted (negative: none), resetting in `resetMs`. */
function windowOf(limit: number, consumed: number, resetMs: number): QuotaWindow {
  const used = Math.max(0, consumed);
  return { limit, used, remaining: Math.max(0, limit - used), resetMs };
}

/**
 * The window rate-limit headers report: the one closest to exhaustion (fewest
 * requests left; on a tie, the one that resets later).
 */
export function bindingWindow(s: QuotaSnapshot): QuotaWindow {
  if (s.minute.remaining !== s.day.remaining) return s.minute.remaining < s.day.remaining ? s.minute : s.day;
  return s.minute.resetMs > s.day.resetMs ? s.minute : s.day;
}

/** The refusal while the flood guard blocks `flood.id` (asked on its own, not in the quota round trip). */
async function floodRefusal(flood: { guard: FloodCheck; id: string }): Promise<QuotaDecision | null> {
  const waitMs = await flood.guard.blockedForMs(flood.id);
  return waitMs > 0 ? { allowed: false, refusedBy: 'flood', retryAfterMs: waitMs, snapshot: null } : null;
}

function dayTtlS(nowMs: number): number {
  return Math.ceil(msUntilUtcMidnight(nowMs) / 1000) + DAY_TTL_MARGIN_S;
}

/**
 * The counter after the operation. rate-limiter-flexible rejects with a
 * RateLimiterRes past its own `points` and with an Error on failure; only
 * the former is a count.
 */
async function count(p: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof RateLimiterRes) return err;
    throw err;
  }
}
