/**
 * The flood guard: refused requests (4xx other than 429) cost no quota, so a
 * client could send them without limit. Each one is counted per key (or per
 * IP when no valid key was given) in a 60 s window; once `refusedPerMinute`
 * are counted, every request from that key (or keyless/invalid-key request
 * from that IP) is answered 429 TOO_MANY_REQUESTS until the window ends.
 * Shared through Redis when there is one, with the same in-memory fallback
 * as the quotas.
 *
 * A served request learns whether its key is blocked in the quota round trip
 * (./quota-script.ts reads the counter beside the quota windows); a refused
 * one on its way out (the access plugin's refusal gate). So the guard costs a
 * request no Redis round trip of its own.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

const WINDOW_S = 60;

/** What the quota round trip needs to refuse a blocked id (./quota.ts). */
export interface FloodCheck {
  /** Refusals counted per window before an id is blocked. */
  readonly limit: number;
  /** The Redis key of `id`'s counter; null when the guard counts in memory. */
  counterKey(id: string): string | null;
  blockedForMs(id: string): Promise<number>;
}

export class FloodGuard implements FloodCheck {
  private readonly limiter: RateLimiterAbstract;
  private readonly inRedis: boolean;

  constructor(
    private readonly refusedPerMinute: number,
    redis?: Redis,
  ) {
    const memory = new RateLimiterMemory({ keyPrefix: 'mp:flood', points: refusedPerMinute, duration: WINDOW_S });
    this.limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: 'mp:flood',
          points: refusedPerMinute,
          duration: WINDOW_S,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    this.inRedis = redis !== undefined;
  }

  get limit(): number {
    return this.refusedPerMinute;
  }

  counterKey(id: string): string | null {
    return this.inRedis ? this.limiter.getKey(id) : null;
  }

  /** Milliseconds `id` must wait before it is served again; 0 when not blocked. */
  async blockedForMs(id: string): Promise<number> {
    const res = await this.limiter.get(id);
    return res && res.consumedPoints >= this.refusedPerMinute ? Math.max(1, res.msBeforeNext) : 0;
  }

  /** Counts one refused request against `id`. */
  async countRefusal(id: string): Promise<void> {
    await this.limiter.penalty(id, 1);
  }
}
