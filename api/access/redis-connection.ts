/**
 * The ioredis connection the access layer uses, set up so that a Redis outage
 * never hangs a request: no offline queue (commands fail at once while
 * disconnected), short connect and command timeouts, no command sent twice,
 * reconnection in the background. Outages are logged through `opts.log`, once
 * per transition, never thrown at the process.
 *
 * A *hung* Redis (the process stopped, the socket still open) is not "down":
 * each command would wait its timeout. A circuit breaker counts consecutive
 * command timeouts; at {@link HANG_TIMEOUTS} it drops the connection, so that
 * commands fail at once and the access layer takes its documented outage path
 * (in-memory limits, recently verified keys), while ioredis reconnects in the
 * background — the probe — and 'ready' closes the breaker again. The hang is
 * logged once, the recovery once.
 */
import { Redis } from 'ioredis';
import { redactSecrets } from '../../config/redaction.js';

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

/** The URL without its password, for messages (the one redaction rule, config/redaction.ts). */
export function redactRedisUrl(url: string): string {
  try {
    return redactSecrets(new URL(url).toString());
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
    // A command whose connection closes before its reply is never sent again on the next one
    // (ioredis's default): Redis may have run it already, and a quota call resent counts its
    // requests twice (test/api/access/quota-reconnect.test.ts). Its request takes the outage path.
    autoResendUnfulfilledCommands: false,
    // ...at the close: no retries, so ioredis fails it then. Otherwise it would wait for its
    // timeout and the late-reply wait (./quota-script.ts) and reach the outage path when Redis
    // may be back, which counts it twice as well.
    maxRetriesPerRequest: 0,
    // Keep trying in the background, at most every 2 s.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    connectionName: 'meteopunto-access',
    // Commands issued in one turn of the event loop leave in one write: under load many
    // requests' quota scripts share a socket write and a Redis wake-up (docs/benchmarks.md).
    // (The quota script call, which already carries every decision of a turn, is sent with
    // sendCommand, which auto-pipelining leaves alone: ./quota-script.ts.)
    enableAutoPipelining: true,
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

/** Consecutive command timeouts after which Redis counts as hung. */
export const HANG_TIMEOUTS = 3;

/**
 * Logs "unreachable" once when the connection goes down and "back" once when
 * it returns, and opens the hang breaker (see the file comment).
 */
function watchHealth(client: Redis, url: string, log: RedisHealthLog | undefined): void {
  let up = false;
  let everUp = false;
  let timeouts = 0;
  const where = redactRedisUrl(url);
  client.on('ready', () => {
    if (everUp && !up) log?.info(`access: Redis ${where} is back; quotas shared again`);
    up = true;
    everUp = true;
    timeouts = 0;
  });
  const down = (why: string) => {
    if (up) log?.warn(`access: Redis ${where} unreachable (${why}); quotas per process in memory, keys from the local cache, until it returns`);
    up = false;
  };
  // Without an 'error' listener ioredis would emit unhandled errors and crash the process.
  client.on('error', (err: Error) => down(err.message));
  // A lost connection is followed by 'reconnecting'; our own quit() at shutdown by 'end'
  // instead, so 'close' alone would log a false outage on every graceful stop.
  client.on('reconnecting', () => down('connection closed'));

  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    const result = send(...args);
    void Promise.resolve(result).then(
      () => (timeouts = 0),
      (err: unknown) => {
        if (!(err instanceof Error) || !/timed out/i.test(err.message)) return;
        if (++timeouts < HANG_TIMEOUTS || !up) return;
        down(`not answering: ${timeouts} commands in a row timed out`);
        // Commands now fail at once; ioredis reconnects in the background and its
        // ready check is the probe: 'ready' means Redis answers again.
        client.disconnect(true);
      },
    );
    return result;
  }) as Redis['sendCommand'];
}
