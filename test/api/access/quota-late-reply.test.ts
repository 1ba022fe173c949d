/**
 * A quota script call whose reply comes after the command timeout (a slow
 * or overloaded Redis, not a down one): Redis ran the call, so its verdict is
 * the request's and the request is counted once (api/access/quota-script.ts,
 * LATE_REPLY_MS). Sent on to the outage path instead, the request was
 * counted a second time: refused while quota remained, and that quota lost
 * for the day. A private redis-server, held back with CLIENT PAUSE (it
 * answers once the pause ends).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccessConfig } from '../../../api/access/config.js';
import { Quota } from '../../../api/access/quota.js';
import { LATE_REPLY_MS } from '../../../api/access/quota-script.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { startRedisServer, type RedisServerHandle } from '../../support/redis-server.js';

const TIMEOUT_MS = 100;
/** Long enough that the test's call surely arrives during it, under load too; well within the command timeout plus LATE_REPLY_MS. */
const PAUSE_MS = 1000;

let server: RedisServerHandle;
/** Commands time out after TIMEOUT_MS: the pause below outlasts it. */
let slow: Redis;
/** Everything else, with timeouts no load reaches: only the call under test may time out. */
let steady: Redis;
let other: Redis;
beforeAll(async () => {
  server = await startRedisServer();
  slow = await connectAccessRedis(server.url, { connectTimeoutMs: 10_000, commandTimeoutMs: TIMEOUT_MS });
  steady = await connectAccessRedis(server.url, { connectTimeoutMs: 10_000, commandTimeoutMs: 10_000 });
  other = new Redis(server.url);
});
afterAll(async () => {
  slow?.disconnect();
  steady?.disconnect();
  other?.disconnect();
  await server?.stop();
});

/** Counts the commands of `c` that fail with ioredis's command timeout. */
function countTimeouts(c: Redis): { count: number } {
  const seen = { count: 0 };
  const send = c.sendCommand.bind(c);
  c.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    const result = send(...args);
    void Promise.resolve(result).catch((err: unknown) => {
      if (err instanceof Error && /timed out/i.test(err.message)) seen.count++;
    });
    return result;
  }) as Redis['sendCommand'];
  return seen;
}

describe('a quota reply after the command timeout', () => {
  it('is the decision, and the request is counted once', async () => {
    expect(PAUSE_MS).toBeLessThan(TIMEOUT_MS + LATE_REPLY_MS);
    const config = { ...loadAccessConfig({}).quota, free: { day: 50, minute: 2 } };
    // Two replicas on the same counters: one whose call is held past its timeout, one to look.
    const q = new Quota(config, slow);
    const look = new Quota(config, steady);
    const id = randomUUID();
    expect((await look.consume(id, 'free')).allowed).toBe(true); // also loads the script
    const timeouts = countTimeouts(slow);
    // Redis holds every client's commands from here until the pause ends.
    await other.call('client', 'pause', String(PAUSE_MS), 'ALL');
    const second = await q.consume(id, 'free');
    // The second of Free's 2 a minute: served, none left; Redis counted it once.
    expect(second.allowed).toBe(true);
    expect([second.snapshot!.minute.used, second.snapshot!.day.used]).toEqual([2, 2]);
    const usage = await look.peek(id, 'free');
    expect([usage.minute.used, usage.day.used]).toEqual([2, 2]);
    const third = await look.consume(id, 'free');
    expect(third.allowed ? 'taken' : third.refusedBy).toBe('minute');
    expect(timeouts.count, 'the second request\'s call timed out').toBe(1);
    expect(await steady.mget(`mp:quota:min:${id}`, `mp:quota:day:${new Date().toISOString().slice(0, 10)}:${id}`)).toEqual(['2', '2']);
  });
});
