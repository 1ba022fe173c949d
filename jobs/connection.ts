/**
 * Redis for the job system: `REDIS_URL` is required (there is no embedded
 * fallback for queues), and an unreachable server is a clear error at start,
 * not a silent hang in a command's offline queue.
 */
import { Redis } from 'ioredis';
import { processEnv } from '../config/process-env.js';
import { redactSecrets } from '../config/redaction.js';

export class RedisConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisConfigError';
  }
}

export function requireRedisUrl(env: NodeJS.ProcessEnv = processEnv()): string {
  const url = env.REDIS_URL;
  if (!url || url.length === 0) {
    throw new RedisConfigError(
      'REDIS_URL is not set: queues and workers need Redis (e.g. REDIS_URL=redis://127.0.0.1:6379; Debian: apt-get install redis-server). ' +
        'Without Redis, ingest inline with `meteopunto ingest <product> <file>...`.',
    );
  }
  return url;
}

/** BullMQ connection options: workers block on Redis, so commands must not time out (maxRetriesPerRequest null). */
export function bullConnection(redisUrl: string): { url: string; maxRetriesPerRequest: null } {
  return { url: redisUrl, maxRetriesPerRequest: null };
}

/** One PING with a short timeout; throws a message naming the URL (without its password). */
export async function checkRedis(redisUrl: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    const shown = redactSecrets(redisUrl);
    throw new RedisConfigError(`cannot reach Redis at ${shown}: ${(err as Error).message}`);
  } finally {
    client.disconnect();
  }
}
