/**
 * The flood guard: refused requests (4xx other than 429) cost no quota, so a
 * client could send them without limit. Each one is counted per key (or per
 * IP when no valid key was given) in a 60 s window; once `refusedPerMinute`
 * are counted, every request from that key (or keyless/invalid-key request
 * from that IP) is answered 429 TOO_MANY_REQUESTS until the window ends.
 * Shared through Redis when there is one, with the same in-memory fallback
 * as the quotas.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

const WINDOW_S = 60;

export class FloodGuard {
  private readonly limiter: RateLimiterAbstract;

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
