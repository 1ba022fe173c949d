/**
 * The ioredis connection the access layer uses, set up so that a Redis outage
 * never hangs a request: no offline queue (commands fail at once while
 * disconnected), short connect and command timeouts, one retry per command,
 * reconnection in the background. Errors are reported through `onState`, once
 * per transition, never thrown at the process.
 */
import { Redis } from 'ioredis';

export interface RedisHealthLog {
  warn(msg: string): void;
  info(msg: string): void;
}

export interface AccessRedisOptions {
  /** Log for "unreachable" / "back" transitions; default: silent. */
  log?: RedisHealthLog;
  /** How long to wait for the first connection, ms. */
  connectTimeoutMs?: number;
  /** Longest a single command may take before it fails, ms. */
  commandTimeoutMs?: number;
}

/** The URL without its password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis://(unparsable URL)';
  }
}

/** Connects and waits until Redis answers; throws a clear error after `connectTimeoutMs`. */
export async function connectAccessRedis(url: string, opts: AccessRedisOptions = {}): Promise<Redis> {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 2000;
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: connectTimeoutMs,
    commandTimeout: opts.commandTimeoutMs ?? 500,
    maxRetriesPerRequest: 1,
    // Keep trying in the background, at most every 2 s.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    connectionName: 'meteopunto-access',
  });
  watchHealth(client, url, opts.log);
  let lastError: Error | undefined;
  const remember = (err: Error) => (lastError = err);
  client.on('error', remember);
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), connectTimeoutMs).unref()),
    ]);
    await client.ping();
  } catch (err) {
    client.disconnect();
    const why = lastError?.message ?? (err as Error).message;
    throw new Error(`REDIS_URL ${redactRedisUrl(url)}: cannot connect (${why})`, { cause: err });
  }
  client.off('error', remember);
  return client;
}

function watchHealth(client: Redis, url: string, log: RedisHealthLog | undefined): void {
  let up = false;
  let everUp = false;
  client.on('ready', () => {
    if (everUp && !up) log?.info(`access: Redis ${redactRedisUrl(url)} is back; quotas shared again`);
    up = true;
    everUp = true;
  });
  const down = (why: string) => {
    if (up) log?.warn(`access: Redis ${redactRedisUrl(url)} unreachable (${why}); quotas per process in memory, keys from the local cache, until it returns`);
    up = false;
  };
  // Without an 'error' listener ioredis would emit unhandled errors and crash the process.
  client.on('error', (err: Error) => down(err.message));
  client.on('close', () => down('connection closed'));
}
