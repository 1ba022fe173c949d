/**
 * Two real `meteopunto serve` processes sharing one Redis and a sample data
 * directory, keys issued and revoked with the real `meteopunto keys` CLI.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreated, runCli, startApiProcess, withSampleTiles, type ApiProcess } from './fixtures/api-process.js';

const WEATHER = '/api/v1/weather.php?lat=45.46&lon=9.19';

describe('two API processes sharing Redis', () => {
  const env: NodeJS.ProcessEnv = {
    REDIS_URL: process.env.REDIS_URL,
    METEOPUNTO_DATA: '',
    METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000',
  };
  let a: ApiProcess;
  let b: ApiProcess;
  let redis: Redis;

  beforeAll(async () => {
    env.METEOPUNTO_DATA = await withSampleTiles('mp-mp-');
    [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.quit();
  });

  async function create(plan: string): Promise<{ key: string; prefix: string }> {
    const r = await runCli(['keys', 'create', '--plan', plan], env);
    expect(r.code, r.stderr).toBe(0);
    return parseCreated(r.stdout);
  }

  it('let exactly 2 of 100 concurrent requests with one Free key through in that minute', async () => {
    const { key, prefix } = await create('free');
    const responses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const r = await fetch(`${(i % 2 ? a : b).url}${WEATHER}&api_key=${key}`, { signal: AbortSignal.timeout(30_000) });
        return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { error?: { code: string } } };
      }),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(2);
    expect(limited).toHaveLength(98);
    for (const r of limited) {
      expect(r.body.error?.code).toBe('QUOTA_EXCEEDED');
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // The 98 refused requests did not eat the daily quota.
    const date = new Date().toISOString().slice(0, 10);
    expect(await redis.get(`mp:quota:day:${date}:${prefix}`)).toBe('2');
    const show = await runCli(['keys', 'show', prefix], env);
    expect(show.stdout).toMatch(/today:\s+2 used, 48 remaining/);
  });

  it('answers each of a mix of keys, plans and a revoked key, sent at once to both processes, from its own verdict', async () => {
    const [free, business, revoked] = [await create('free'), await create('business'), await create('business')];
    expect((await runCli(['keys', 'revoke', revoked.prefix], env)).code).toBe(0);
    const sends = [...Array(10).fill(free), ...Array(10).fill(business), ...Array(5).fill(revoked)] as Array<{ key: string }>;
    const responses = await Promise.all(sends.map(async ({ key }, i) => {
      const r = await fetch(`${(i % 2 ? a : b).url}${WEATHER}&api_key=${key}`, { signal: AbortSignal.timeout(30_000) });
      await r.arrayBuffer();
      return { key, status: r.status, remaining: r.headers.get('x-ratelimit-remaining') };
    }));
    const of = (k: { key: string }) => responses.filter((r) => r.key === k.key);
    expect(of(free).map((r) => r.status).sort()).toEqual([200, 200, ...Array(8).fill(429)]);
    expect(of(business).map((r) => r.status)).toEqual(Array(10).fill(200));
    // Business: 600 a minute, the binding window; ten requests decided one by one leave 599 down to 590, each seen once.
    expect(of(business).map((r) => Number(r.remaining)).sort((x, y) => y - x)).toEqual(Array.from({ length: 10 }, (_, i) => 599 - i));
    expect(of(revoked).map((r) => r.status)).toEqual(Array(5).fill(401));
    const date = new Date().toISOString().slice(0, 10);
    expect(await redis.get(`mp:quota:day:${date}:${free.prefix}`)).toBe('2');
    expect(await redis.get(`mp:quota:day:${date}:${business.prefix}`)).toBe('10');
    expect(await redis.get(`mp:quota:day:${date}:${revoked.prefix}`)).toBeNull();
  });

  it('a key revoked with the CLI fails on both processes at once', async () => {
    const { key, prefix } = await create('business');
    for (const p of [a, b]) expect((await fetch(`${p.url}${WEATHER}&api_key=${key}`)).status).toBe(200);
    const revoke = await runCli(['keys', 'revoke', prefix], env);
    expect(revoke.code, revoke.stderr).toBe(0);
    for (const p of [b, a]) {
      const r = await fetch(`${p.url}${WEATHER}`, { headers: { 'x-api-key': key } });
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ error: { code: 'INVALID_KEY', message: 'API key revoked' } });
    }
  });

  it('a plan change made with the CLI applies on both processes', async () => {
    const { key, prefix } = await create('free');
    const sanMarino = '/api/v1/weather.php?lat=43.936&lon=12.447';
    expect((await fetch(`${a.url}${sanMarino}&api_key=${key}`)).status).toBe(403);
    expect((await runCli(['keys', 'set-plan', prefix, 'developer'], env)).code).toBe(0);
    for (const p of [a, b]) expect((await fetch(`${p.url}${sanMarino}&api_key=${key}`)).status).toBe(200);
  });
});
