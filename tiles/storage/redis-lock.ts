/**
 * A Redis lock around a bucket's conditional replace of a manifest: the
 * compare (HEAD) and the write (PUT) run while this process holds
 * `<prefix>:tiles-lock:<bucket>/<key>`, so two writers cannot both pass the
 * compare. It matters on stores that ignore If-Match / If-None-Match; on
 * those that enforce them it is a second guard. SET NX PX with a random
 * token; renewed and released only by its holder (scripts compare the
 * token).
 *
 * TTL, renewal and wait fit together: the holder renews the TTL every third
 * of it, so a switch may take as long as it needs (HEAD + PUT, each bounded
 * by the storage's request timeout); a holder that dies stops renewing and
 * its lock expires within one TTL; a waiter waits longer than that plus the
 * longest switch of a live holder ({@link lockWaitMs}), so it is never
 * turned away by a dead holder. A holder that cannot renew in time (Redis
 * away, the process stalled) has lost the lock: its `lost` signal aborts and
 * the storage writes nothing (./s3.ts).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { HeldLock, LockFn } from './s3.js';

/** A dead holder's lock is gone after this long; a live holder renews it every third of it. */
export const LOCK_TTL_MS = 15_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * How long a writer waits for the lock: a dead holder's TTL, then a live
 * holder's switch (a HEAD and a PUT, each at most `requestTimeoutMs`), then
 * another TTL of margin.
 */
export function lockWaitMs(requestTimeoutMs: number, ttlMs = LOCK_TTL_MS): number {
  return 2 * ttlMs + 2 * requestTimeoutMs;
}

export interface RedisLockOptions {
  ttlMs?: number;
  /** Default: {@link lockWaitMs} of a 5 s request timeout. */
  waitMs?: number;
}

export function redisLock(url: string, keyPrefix: string, opts: RedisLockOptions = {}): LockFn {
  const ttlMs = opts.ttlMs ?? LOCK_TTL_MS;
  const waitMs = opts.waitMs ?? lockWaitMs(5000, ttlMs);
  return async (name) => {
    // One connection per lock: publishing is rare, and a CLI ingest must be able to exit afterwards.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    redis.on('error', () => undefined); // failures surface from the commands below
    const key = `${keyPrefix}:tiles-lock:${name}`;
    const token = randomBytes(16).toString('hex');
    const until = Date.now() + waitMs;
    try {
      while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
        if (Date.now() > until) throw new Error(`tiles: could not take the publish lock ${key} within ${waitMs} ms (another writer holds it)`);
        await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
      }
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    return held(redis, key, token, ttlMs);
  };
}

/** The taken lock: renewed every third of its TTL until released; `lost` aborts when a renewal finds it gone or comes too late. */
function held(redis: Redis, key: string, token: string, ttlMs: number): HeldLock {
  const lost = new AbortController();
  let validUntil = Date.now() + ttlMs;
  const renew = async () => {
    const asked = Date.now();
    try {
      if ((await redis.eval(RENEW, 1, key, token, String(ttlMs))) === 1) validUntil = asked + ttlMs;
      else lost.abort(new Error(`tiles: the publish lock ${key} expired while held (another writer may hold it now)`));
    } catch {
      // Redis away: the lock lasts until its last renewal's TTL runs out.
    }
    if (!lost.signal.aborted && Date.now() >= validUntil) lost.abort(new Error(`tiles: the publish lock ${key} could not be renewed within its ${ttlMs} ms TTL`));
  };
  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    lost: lost.signal,
    release: async () => {
      clearInterval(timer);
      try {
        await redis.eval(RELEASE, 1, key, token);
      } finally {
        redis.disconnect();
      }
    },
  };
}
