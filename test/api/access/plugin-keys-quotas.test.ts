/**
 * The access plugin through app.inject() on a minimal app whose routes use it
 * like weather.php and widget.php (fixtures/app.ts), with real Redis: keys
 * (where they are read, which are refused, widget keys and their origins),
 * the per-minute and per-day quotas with their headers, refunds, and the
 * plan's fields. The flood guard is in plugin-flood-guard.test.ts.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../api/access/key-format.js';
import type { AccessServices } from '../../../api/access/services.js';
import { MILANO, SAN_MARINO, code, config, issue, message, secondsToUtcMidnight, today, withApp } from './fixtures/access-requests.js';

describe('access plugin (Redis)', () => {
  let services: AccessServices;
  let app: FastifyInstance;
  let redis: Redis;
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    ({ services, app } = await withApp(config(), process.env.REDIS_URL));
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    await app.close();
    await services.close();
    await redis.quit();
  });

  it('says where keys and quotas live', () => {
    expect(services.mode).toBe('redis');
    expect(services.startupMessage).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/?, shared by every API process/);
  });

  it('401 MISSING_KEY without a key, without rate-limit headers', async () => {
    const r = await get(`/api/v1/weather.php?${MILANO}`);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ error: { code: 'MISSING_KEY', message: expect.stringContaining('api_key') } });
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    // widget.php's parameter is `key`; weather.php does not take it.
    const { key } = await issue(services, 'free');
    expect(code(await get(`/api/v1/weather.php?${MILANO}&key=${key}`))).toBe('MISSING_KEY');
    expect(message(await get(`/api/v1/widget.php?${MILANO}`))).toContain('key=');
  });

  it('checks keys on every route declaring an endpoint, the HEAD route Fastify adds beside a GET too, and on no other', async () => {
    // The key check is attached to the keyed routes when they are registered (api/access/plugin.ts, onRoute).
    const head = await app.inject({ method: 'HEAD', url: `/api/v1/weather.php?${MILANO}` });
    expect(head.statusCode).toBe(401);
    const { key } = await issue(services, 'free');
    const served = await app.inject({ method: 'HEAD', url: `/api/v1/weather.php?${MILANO}&api_key=${key}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-ratelimit-limit']).toBe('2');
    const health = await get('/health');
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('401 INVALID_KEY for malformed, unknown, forged and revoked keys', async () => {
    const { key, prefix } = await issue(services, 'business');
    const forged = `${key.slice(0, 11)}${'x'.repeat(32)}`;
    const unknown = generateKey().key;
    for (const bad of ['nonsense', unknown, forged, key.toLowerCase()]) {
      const r = await get(`/api/v1/weather.php?${MILANO}&api_key=${bad}`);
      expect(r.statusCode, bad).toBe(401);
      expect(code(r)).toBe('INVALID_KEY');
    }
    expect((await get(`/api/v1/weather.php?${MILANO}&api_key=${key}`)).statusCode).toBe(200);
    await services.keys.update(prefix, { revoked: new Date().toISOString() });
    const r = await get(`/api/v1/weather.php?${MILANO}&api_key=${key}`);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ error: { code: 'INVALID_KEY', message: 'API key revoked' } });
  });

  it('takes the key from api_key, key (widget) or X-API-Key', async () => {
    const { key } = await issue(services, 'developer');
    expect((await get(`/api/v1/weather.php?${MILANO}&api_key=${key}`)).statusCode).toBe(200);
    expect((await get(`/api/v1/weather.php?${MILANO}`, { 'x-api-key': key })).statusCode).toBe(200);
    expect((await get(`/api/v1/widget.php?${MILANO}&key=${key}`)).statusCode).toBe(200);
    expect((await get(`/api/v1/widget.php?${MILANO}`, { 'x-api-key': key })).statusCode).toBe(200);
    expect((await get('/health')).statusCode).toBe(200);
    expect((await get('/health')).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('refuses a widget key on weather.php with 403 and leaves its quota untouched', async () => {
    const { key, prefix } = await issue(services, 'free', 'widget');
    for (const h of [{}, { 'x-api-key': key }] as Array<Record<string, string>>) {
      const url = Object.keys(h).length ? `/api/v1/weather.php?${MILANO}` : `/api/v1/weather.php?${MILANO}&api_key=${key}`;
      const r = await get(url, h);
      expect(r.statusCode).toBe(403);
      expect(code(r)).toBe('KEY_NOT_ALLOWED');
      expect(message(r)).toContain('widget.php');
      expect(r.headers['x-ratelimit-remaining']).toBe('2');
    }
    // Nothing was counted in Redis for this key.
    expect(await redis.exists(`mp:quota:day:${today()}:${prefix}`, `mp:quota:min:${prefix}`)).toBe(0);
    // Its full quota is there on widget.php: 2 this minute.
    const loads = [];
    for (let i = 0; i < 3; i++) loads.push((await get(`/api/v1/widget.php?${MILANO}&key=${key}`)).statusCode);
    expect(loads).toEqual([200, 200, 429]);
    expect(await redis.get(`mp:quota:day:${today()}:${prefix}`)).toBe('2');
  });

  it('restricts a widget key with origins to those pages', async () => {
    const { key } = await issue(services, 'developer', 'widget', ['https://example.com']);
    const url = `/api/v1/widget.php?${MILANO}&key=${key}`;
    expect((await get(url, { referer: 'https://example.com/meteo/page.html' })).statusCode).toBe(200);
    expect((await get(url, { origin: 'https://example.com' })).statusCode).toBe(200);
    for (const h of [{ referer: 'https://evil.example/x' }, { origin: 'http://example.com' }, {}] as Array<Record<string, string>>) {
      const r = await get(url, h);
      expect(r.statusCode).toBe(403);
      expect(code(r)).toBe('KEY_NOT_ALLOWED');
    }
  });

  it('Free: 2 per minute, then 429 QUOTA_EXCEEDED with Retry-After; headers on every response', async () => {
    const { key } = await issue(services, 'free');
    const url = `/api/v1/weather.php?${MILANO}&api_key=${key}`;
    const [a, b, c] = [await get(url), await get(url), await get(url)];
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 429]);
    expect([a, b, c].map((r) => r.headers['x-ratelimit-limit'])).toEqual(['2', '2', '2']);
    expect([a, b, c].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['1', '0', '0']);
    for (const r of [a, b, c]) {
      const reset = Number(r.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(code(c)).toBe('QUOTA_EXCEEDED');
    expect(message(c)).toContain('2 requests per minute');
    const retry = Number(c.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
  });

  it('refused requests (400, 403) consume nothing and still carry the headers', async () => {
    const { key, prefix } = await issue(services, 'free');
    const bad = [
      [`lat=60&lon=9&api_key=${key}`, 400, 'INVALID_PARAMETER'],
      [`lat=45&api_key=${key}`, 400, 'INVALID_PARAMETER'],
      [`${MILANO}&fields=bogus&api_key=${key}`, 400, 'INVALID_PARAMETER'],
      [`${MILANO}&fields=coastal&api_key=${key}`, 403, 'PLAN_REQUIRED'],
      [`${MILANO}&fields=cams&api_key=${key}`, 403, 'PLAN_REQUIRED'],
      [`${MILANO}&time=2020-01-01T12:00&api_key=${key}`, 403, 'PLAN_REQUIRED'],
      [`${SAN_MARINO}&api_key=${key}`, 403, 'PLAN_REQUIRED'],
    ] as const;
    for (const [q, status, c] of bad) {
      const r = await get(`/api/v1/weather.php?${q}`);
      expect(r.statusCode, q).toBe(status);
      expect(code(r), q).toBe(c);
      expect(r.headers['x-ratelimit-remaining'], q).toBe('2');
    }
    expect(message(await get(`/api/v1/weather.php?${SAN_MARINO}&api_key=${key}`))).toContain('Developer');
    expect(message(await get(`/api/v1/weather.php?${MILANO}&fields=soil&api_key=${key}`))).toContain('Business');
    expect(await redis.exists(`mp:quota:day:${today()}:${prefix}`, `mp:quota:min:${prefix}`)).toBe(0);
    expect((await get(`/api/v1/weather.php?${MILANO}&api_key=${key}`)).statusCode).toBe(200);
  });

  it('gives back the request of a response that fails after consuming', async () => {
    const { key, prefix } = await issue(services, 'free');
    const r = await get(`/api/v1/weather.php?${MILANO}&fail=404&api_key=${key}`);
    expect(r.statusCode).toBe(404);
    expect(r.headers['x-ratelimit-remaining']).toBe('2');
    expect(await redis.get(`mp:quota:day:${today()}:${prefix}`)).toBe('0');
  });

  it('returns the fields of the plan (gating through the route)', async () => {
    const dev = await issue(services, 'developer');
    const biz = await issue(services, 'business');
    const body = (await get(`/api/v1/weather.php?${SAN_MARINO}&api_key=${dev.key}`)).json();
    expect(body.groups).toEqual(['cams', 'et0', 'frost', 'wbgt']);
    expect(body.fields).toContain('comfort');
    expect(body.fields).not.toContain('coastal');
    expect((await get(`/api/v1/weather.php?${MILANO}&time=2020-01-01T12:00&api_key=${dev.key}`)).statusCode).toBe(403);
    const b = await get(`/api/v1/weather.php?${MILANO}&time=2020-01-01T12:00&fields=coastal,soil&api_key=${biz.key}`);
    expect(b.statusCode).toBe(200);
    expect(b.json().groups).toEqual(['coastal', 'soil']);
  });

  it('applies a plan change at once', async () => {
    const { key, prefix } = await issue(services, 'free');
    expect((await get(`/api/v1/weather.php?${SAN_MARINO}&api_key=${key}`)).statusCode).toBe(403);
    await services.keys.update(prefix, { plan: 'developer' });
    expect((await get(`/api/v1/weather.php?${SAN_MARINO}&api_key=${key}`)).statusCode).toBe(200);
  });
});

describe('the 51st request of a UTC day (Redis, minute limit raised)', () => {
  it('is 429 with Retry-After until 00:00 UTC', async () => {
    const { services, app } = await withApp(config({ free: { day: 50, minute: 1000 } }), process.env.REDIS_URL);
    try {
      const { key } = await issue(services, 'free');
      const url = `/api/v1/weather.php?${MILANO}&api_key=${key}`;
      const statuses: number[] = [];
      let last!: LightMyRequestResponse;
      for (let i = 1; i <= 51; i++) {
        last = await app.inject({ url });
        statuses.push(last.statusCode);
        if (i === 50) expect(last.headers['x-ratelimit-remaining']).toBe('0');
      }
      expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
      expect(statuses[50]).toBe(429);
      expect(code(last)).toBe('QUOTA_EXCEEDED');
      expect(message(last)).toContain('50 requests per day');
      const expected = secondsToUtcMidnight();
      expect(Math.abs(Number(last.headers['retry-after']) - expected)).toBeLessThan(5);
      expect(last.headers['x-ratelimit-limit']).toBe('50');
      expect(Math.abs(Number(last.headers['x-ratelimit-reset']) - expected)).toBeLessThan(5);
    } finally {
      await app.close();
      await services.close();
    }
  });
});
