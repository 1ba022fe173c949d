/**
 * Quota script calls in flight when the access connection closes: Redis may
 * already have run them (their requests counted), and their requests are
 * answered meanwhile (the outage path). Sent again on the next connection,
 * as ioredis does by default (autoResendUnfulfilledCommands), they counted
 * the same requests a second time: quota lost, a refusal while quota remains
 * (api/access/redis-connection.ts). Here each request must be counted once,
 * and (a blip) answered when the connection closes, not after its command
 * timeout. A private redis-server, reached through a proxy that can cut the
 * connection (a network blip) or frozen with SIGSTOP (the hang breaker drops
 * the connection).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccessConfig } from '../../../api/access/config.js';
import { Quota, type QuotaDecision } from '../../../api/access/quota.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { startCutProxy, type CutProxy } from '../../support/cut-proxy.js';
import { startRedisServer, type RedisServerHandle } from '../../support/redis-server.js';

/** Requests whose calls are in flight when the connection closes, each in a call of its own. */
const SENT = 3;
const config = { ...loadAccessConfig({}).quota, free: { day: 1000, minute: 1000 } };

let server: RedisServerHandle;
let proxy: CutProxy;
/** Reads the counters, never through the connection under test. */
let look: Redis;
const opened: Redis[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startCutProxy(server.port);
  look = new Redis(server.url);
});
afterAll(async () => {
  if (server && server.process.exitCode === null) server.process.kill('SIGCONT');
  for (const c of opened) c.disconnect();
  look?.disconnect();
  await proxy?.close();
  await server?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The key's minute and day counters as Redis holds them. */
async function counters(id: string): Promise<number[]> {
  const day = new Date().toISOString().slice(0, 10);
  return (await look.mget(`mp:quota:min:${id}`, `mp:quota:day:${day}:${id}`)).map(Number);
}

/** Waits (up to 10 s) until both counters reach `n`. */
async function reach(id: string, n: number): Promise<void> {
  for (let i = 0; i < 200 && !(await counters(id)).every((c) => c >= n); i++) await sleep(50);
}

/** SENT requests, each leaving in a call of its own (a batch leaves alone once the call before has been out 2 ms, HOLD_MS). */
async function sendApart(q: Quota, id: string, order: string[]): Promise<Promise<QuotaDecision>[]> {
  const decisions: Promise<QuotaDecision>[] = [];
  for (let i = 0; i < SENT; i++) {
    decisions.push(q.consume(id, 'free').finally(() => order.push('decided')));
    await sleep(10);
  }
  return decisions;
}

describe('quota calls in flight when the connection closes', () => {
  it('a network blip: the calls Redis ran are not sent again, and their requests are answered at the close', async () => {
    const access = await connectAccessRedis(proxy.url, { connectTimeoutMs: 10_000, commandTimeoutMs: 10_000 });
    opened.push(access);
    const q = new Quota(config, access);
    const id = randomUUID();
    expect((await q.consume(id, 'free')).allowed).toBe(true); // also loads the script
    proxy.holdReplies();
    const order: string[] = [];
    const decisions = await sendApart(q, id, order);
    // Redis ran every call: each request counted once, its reply held back.
    await reach(id, 1 + SENT);
    expect(await counters(id)).toEqual([1 + SENT, 1 + SENT]);

    const reconnected = once(access, 'ready').then(() => order.push('ready'));
    proxy.cut();
    const answered = await Promise.all(decisions);
    await reconnected;
    await access.ping(); // after anything the new connection sent on its own
    expect(await counters(id), 'each request counted once').toEqual([1 + SENT, 1 + SENT]);
    // Served (the outage path), and when the connection closed, not after the 10 s command timeout.
    expect(answered.map((d) => d.allowed)).toEqual(Array(SENT).fill(true));
    expect(order).toEqual([...Array(SENT).fill('decided'), 'ready']);
  }, 30_000);

  it('a hang: the calls the breaker dropped are not sent again when Redis resumes', async () => {
    const access = await connectAccessRedis(server.url, { connectTimeoutMs: 10_000, commandTimeoutMs: 100 });
    opened.push(access);
    const q = new Quota(config, access);
    const id = randomUUID();
    // Through a connection without timeouts: the breaker then counts only the calls below.
    expect((await new Quota(config, look).consume(id, 'free')).allowed).toBe(true);
    server.process.kill('SIGSTOP');
    // The calls reach Redis's socket and time out; the third timeout drops the connection (HANG_TIMEOUTS).
    const decisions = await sendApart(q, id, []);
    const answered = await Promise.all(decisions);
    expect(answered.map((d) => d.allowed)).toEqual(Array(SENT).fill(true));
    const reconnected = once(access, 'ready');
    server.process.kill('SIGCONT');
    // Redis runs what it had received, once; then the client reconnects.
    await reconnected;
    await access.ping();
    await reach(id, 1 + SENT);
    expect(await counters(id), 'each request counted once').toEqual([1 + SENT, 1 + SENT]);
  }, 30_000);
});
