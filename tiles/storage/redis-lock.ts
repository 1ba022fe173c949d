/**
 * A Redis lock around a bucket's conditional replace of a manifest: the
 * compare (HEAD) and the write (PUT) run while this process holds
 * `<prefix>:tiles-lock:<bucket>/<key>`, so two writers cannot both pass the
 * compare. It matters on stores that ignore If-Match / If-None-Match; on
 * those that enforce them it is a second guard. SET NX PX with a random
 * token; released only by its holder (a script compares the token), and it
 * expires by itself if the holder dies.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LockFn } from './s3.js';

/** Longer than a manifest's HEAD + PUT on a slow bucket (each bounded by the request timeout). */
const LOCK_TTL_MS = 60_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function redisLock(url: string, keyPrefix: string, waitMs = 30_000): LockFn {
  return async (name) => {
    // One connection per lock: publishing is rare, and a CLI ingest must be able to exit afterwards.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    redis.on('error', () => undefined); // failures surface from the commands below
    const key = `${keyPrefix}:tiles-lock:${name}`;
    const token = randomBytes(16).toString('hex');
    const until = Date.now() + waitMs;
    try {
      while ((await redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') {
        if (Date.now() > until) throw new Error(`tiles: could not take the publish lock ${key} within ${waitMs} ms (another writer holds it)`);
        await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
      }
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    return async () => {
      try {
        await redis.eval(RELEASE, 1, key, token);
      } finally {
        redis.disconnect();
      }
    };
  };
}
