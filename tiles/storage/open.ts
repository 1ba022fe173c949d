/**
 * The storage of a data root: what every `root` the tile functions take
 * resolves to. A root given as a directory path (`$METEOPUNTO_DATA`) stores
 * its tiles where `METEOPUNTO_TILES` says (config/tiles-location.ts):
 * unset, `<root>/tiles`; a directory; or a bucket, `s3://bucket/prefix`. A
 * storage given as such is used as it is.
 *
 * One S3Storage per bucket location and process, so its background poller
 * (./bucket-view.ts) is shared by every reader.
 */
import { processEnv } from '../../config/process-env.js';
import { setting, type Environment } from '../../config/environment.js';
import { queuePrefix } from '../../config/queues.js';
import { describeTiles, tilesLocation } from '../../config/tiles-location.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import { lockWaitMs, redisLock } from './redis-lock.js';
import { DiskCache } from './disk-cache.js';
import type { TileStorage } from './types.js';

/** A data directory, or the storage itself. */
export type TilesAt = string | TileStorage;

const buckets = new Map<string, S3Storage>();

export function tileStorage(at: TilesAt, env: Environment = processEnv()): TileStorage {
  if (typeof at !== 'string') return at;
  const loc = tilesLocation(env, at);
  if (loc.kind === 'local') return new LocalStorage(loc.dir);
  const where = describeTiles(loc);
  let s = buckets.get(where);
  if (!s) {
    const redisUrl = setting(env, 'REDIS_URL');
    s = new S3Storage({
      bucket: loc.bucket, prefix: loc.prefix, stagingDir: loc.stagingDir, region: loc.region, forcePathStyle: loc.forcePathStyle,
      timeoutMs: loc.timeoutMs, warmGets: loc.warmGets, ...(loc.endpoint ? { endpoint: loc.endpoint } : {}),
      ...(redisUrl ? { lock: redisLock(redisUrl, queuePrefix(env), { waitMs: lockWaitMs(loc.timeoutMs) }) } : {}),
      ...(loc.cache ? { diskCache: new DiskCache(loc.cache.dir, loc.cache.maxBytes) } : {}),
    });
    buckets.set(where, s);
  }
  return s;
}
