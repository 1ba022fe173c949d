/**
 * Quota windows against real Redis and in memory: order of the day and minute
 * windows (a refused request eats neither), the UTC day, refunds, plan
 * changes, atomicity under concurrency, and the configuration from env.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAccessConfig, type AccessConfig } from '../../../api/access/config.js';
import { Quota, bindingWindow } from '../../../api/access/quota.js';
import { FloodGuard } from '../../../api/access/flood-guard.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { recordCommands } from '../../support/redis-commands.js';

// Connected before any test: a limiter with a not-ready client would silently use its in-memory insurance.
const redis: Redis = await connectAccessRedis(process.env.REDIS_URL!);
afterAll(async () => {
  await redis.quit();
});

function quotaConfig(free: { day: number; minute: number }): AccessConfig['quota'] {
  return { ...loadAccessConfig({}).quota, free };
}

describe.each([
  ['Redis', (c: AccessConfig['quota']) => new Quota(c, redis)],
  ['memory', (c: AccessConfig['quota']) => new Quota(c)],
])('Quota (%s)', (_name, make) => {
  it('refuses the third request of a minute with the Free defaults, without touching the day', async () => {
    const q = make(loadAccessConfig({}).quota);
    const id = randomUUID();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await q.consume(id, 'free'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false, false, false]);
    const refused = results[2]!;
    expect(refused.allowed === false && refused.refusedBy).toBe('minute');
    expect(refused.allowed === false && refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.allowed === false && refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    const usage = await q.peek(id, 'free');
    expect(usage.day).toMatchObject({ limit: 50, used: 2, remaining: 48 });
    expect(usage.minute).toMatchObject({ limit: 2, remaining: 0 });
  });

  it('refuses past the daily limit and gives the minute request back', async () => {
    const q = make(quotaConfig({ day: 3, minute: 100 }));
    const id = randomUUID();
    const now = Date.now();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await q.consume(id, 'free', now));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    const r = results[3]!;
    if (r.allowed) throw new Error('expected a refusal');
    expect(r.refusedBy).toBe('day');
    // Retry-After: until 00:00 UTC, computed here from the calendar.
    const d = new Date(now);
    const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    expect(r.retryAfterMs).toBe(midnight - now);
    const usage = await q.peek(id, 'free', now);
    expect(usage.minute.used).toBe(3);
    expect(usage.day.used).toBe(3);
  });

  it('waits for the day when both windows are spent', async () => {
    const q = make(quotaConfig({ day: 2, minute: 2 }));
    const id = randomUUID();
    // Midday, so the day's reset lies hours away whatever time the suite runs.
    const now = Date.UTC(2031, 5, 1, 12, 0, 0);
    await q.consume(id, 'free', now);
    await q.consume(id, 'free', now);
    const r = await q.consume(id, 'free', now);
    if (r.allowed || r.refusedBy !== 'minute') throw new Error('expected a refusal by the minute');
    expect(r.retryAfterMs).toBe(Math.max(r.snapshot.day.resetMs, r.snapshot.minute.resetMs));
    expect(r.retryAfterMs).toBe(12 * 3_600_000);
  });

  it('counts the UTC day: 23:59:59.5 and 00:00:00.5 are different days', async () => {
    const q = make(quotaConfig({ day: 1, minute: 1000 }));
    const id = randomUUID();
    const late = Date.UTC(2031, 0, 1, 23, 59, 59, 500);
    const a = await q.consume(id, 'free', late);
    if (!a.allowed) throw new Error('expected success');
    expect(a.snapshot.day.resetMs).toBe(500);
    const b = await q.consume(id, 'free', late + 100);
    expect(b.allowed).toBe(false);
    const c = await q.consume(id, 'free', late + 1000);
    if (!c.allowed) throw new Error('expected success');
    expect(c.snapshot.day.resetMs).toBe(86_400_000 - 500);
  });

  it('gives a refunded request back to both windows', async () => {
    const q = make(loadAccessConfig({}).quota);
    const id = randomUUID();
    const r = await q.consume(id, 'free');
    if (!r.allowed) throw new Error('expected success');
    await q.refund(r.ticket);
    const usage = await q.peek(id, 'free');
    expect(usage.day.used).toBe(0);
    expect(usage.minute.used).toBe(0);
  });

  it('keeps counting per key across a plan change', async () => {
    const q = make(loadAccessConfig({}).quota);
    const id = randomUUID();
    await q.consume(id, 'free');
    await q.consume(id, 'free');
    expect((await q.consume(id, 'free')).allowed).toBe(false);
    const up = await q.consume(id, 'developer');
    if (!up.allowed) throw new Error('expected success');
    // The refused third request was not counted: 2 + this one.
    expect(up.snapshot.day).toMatchObject({ limit: 10_000, used: 3 });
    expect(up.snapshot.minute).toMatchObject({ limit: 60, used: 3 });
  });

  it('lets exactly the limit through under concurrency', async () => {
    const q = make(loadAccessConfig({}).quota);
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 60 }, () => q.consume(id, 'free')));
    expect(results.filter((r) => r.allowed)).toHaveLength(2);
    const usage = await q.peek(id, 'free');
    expect(usage.day.used).toBe(2);
    expect(usage.minute.used).toBe(2);
  });
});

describe('Quota in Redis', () => {
  it('takes a request from both windows in one round trip (one script call)', async () => {
    const client = await connectAccessRedis(process.env.REDIS_URL!);
    const { sent } = recordCommands(client);
    try {
      const q = new Quota(loadAccessConfig({}).quota, client);
      const id = randomUUID();
      await q.consume(id, 'business'); // the first call may load the script (EVALSHA, then EVAL)
      sent.length = 0;
      for (let i = 0; i < 5; i++) expect((await q.consume(id, 'business')).allowed).toBe(true);
      expect(sent).toEqual(Array(5).fill('evalsha'));
      expect((await q.peek(id, 'business')).minute.used).toBe(6);
    } finally {
      await client.quit();
    }
  });

  it('shares the counters between instances (replicas), in keys holding the UTC date', async () => {
    const a = new Quota(loadAccessConfig({}).quota, redis);
    const b = new Quota(loadAccessConfig({}).quota, redis);
    const id = randomUUID();
    expect((await a.consume(id, 'free')).allowed).toBe(true);
    expect((await b.consume(id, 'free')).allowed).toBe(true);
    expect((await a.consume(id, 'free')).allowed).toBe(false);
    expect((await b.consume(id, 'free')).allowed).toBe(false);
    const date = new Date().toISOString().slice(0, 10);
    expect(await redis.get(`mp:quota:day:${date}:${id}`)).toBe('2');
    // Refused requests are given back: the counters hold served requests only.
    expect(await redis.get(`mp:quota:min:${id}`)).toBe('2');
    const ttl = await redis.ttl(`mp:quota:day:${date}:${id}`);
    const toMidnightS = (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
    // Expires an hour after 00:00 UTC (the margin for clock skew between replicas).
    expect(Math.abs(ttl - (toMidnightS + 3600))).toBeLessThan(5);
  });
});

describe.each([
  ['Redis', () => redis],
  ['memory', () => undefined],
])('Quota with the flood guard (%s)', (_name, client) => {
  it('refuses a blocked id before taking anything, and serves it below the limit', async () => {
    const q = new Quota(loadAccessConfig({}).quota, client());
    const guard = new FloodGuard(3, client());
    const keyId = randomUUID();
    const flood = { guard, id: `key:${keyId}` };
    for (let i = 0; i < 2; i++) await guard.countRefusal(flood.id);
    expect((await q.consume(keyId, 'free', Date.now(), flood)).allowed).toBe(true);
    await guard.countRefusal(flood.id);
    const r = await q.consume(keyId, 'free', Date.now(), flood);
    if (r.allowed || r.refusedBy !== 'flood') throw new Error(`expected a flood refusal, got ${JSON.stringify(r)}`);
    expect(r.retryAfterMs).toBeGreaterThan(55_000); // the 60 s window started a moment ago
    expect(r.retryAfterMs).toBeLessThanOrEqual(60_000);
    // Nothing taken by the refusal: the one served request only.
    const usage = await q.peek(keyId, 'free');
    expect([usage.minute.used, usage.day.used]).toEqual([1, 1]);
    if (r.snapshot) expect([r.snapshot.minute.used, r.snapshot.day.used]).toEqual([1, 1]);
  });
});

describe('bindingWindow', () => {
  const w = (limit: number, remaining: number, resetMs: number) => ({ limit, used: limit - remaining, remaining, resetMs });
  it('reports the window with fewer requests left, the later reset on a tie', () => {
    expect(bindingWindow({ day: w(50, 49, 1e7), minute: w(2, 1, 6e4) }).limit).toBe(2);
    expect(bindingWindow({ day: w(50, 1, 1e7), minute: w(60, 59, 6e4) }).limit).toBe(50);
    expect(bindingWindow({ day: w(50, 0, 1e7), minute: w(2, 0, 6e4) }).limit).toBe(50);
  });
});

describe('loadAccessConfig', () => {
  it('reads MP_* variables with defaults, and names a bad one', () => {
    const c = loadAccessConfig({ MP_QUOTA_DEVELOPER_DAY: '5000', MP_QUOTA_FREE_MINUTE: ' 10 ' });
    expect(c.quota).toEqual({ free: { day: 50, minute: 10 }, developer: { day: 5000, minute: 60 }, business: { day: 200_000, minute: 600 } });
    expect(c.flood.refusedPerMinute).toBe(30);
    expect(() => loadAccessConfig({ MP_QUOTA_BUSINESS_MINUTE: '1.5' })).toThrow('MP_QUOTA_BUSINESS_MINUTE=1.5');
    expect(() => loadAccessConfig({ MP_QUOTA_FREE_DAY: '0' })).toThrow('MP_QUOTA_FREE_DAY=0');
    expect(() => loadAccessConfig({ MP_FLOOD_REFUSED_PER_MINUTE: 'lots' })).toThrow('MP_FLOOD_REFUSED_PER_MINUTE=lots');
  });
});
