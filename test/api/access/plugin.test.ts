/**
 * The access plugin through app.inject() on a minimal app whose routes use it
 * like weather.php and widget.php (fixtures/app.ts), with real Redis.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccessConfig, type AccessConfig } from '../../../api/access/config.js';
import type { KeyKind, Plan } from '../../../api/access/contract.js';
import { generateKey } from '../../../api/access/key-format.js';
import { createAccessServices, type AccessServices } from '../../../api/access/services.js';
import { buildTestApp } from './fixtures/app.js';
import { keyChangeMessage } from './fixtures/key-change-message.js';

const MILANO = 'lat=45.46&lon=9.19';
const SAN_MARINO = 'lat=43.936&lon=12.447';

async function issue(
  s: AccessServices, plan: Plan, kind: KeyKind = 'api', origins?: string[], generated = generateKey(),
): Promise<{ key: string; prefix: string }> {
  const { key, prefix, hash } = generated;
  await s.keys.insert({ prefix, hash, plan, kind, created: new Date().toISOString(), ...(origins ? { origins } : {}) });
  return { key, prefix };
}

function config(over: { free?: { day: number; minute: number }; refusedPerMinute?: number } = {}): AccessConfig {
  const c = loadAccessConfig({});
  return { ...c, quota: { ...c.quota, ...(over.free ? { free: over.free } : {}) }, flood: { refusedPerMinute: over.refusedPerMinute ?? 1000 } };
}

const today = () => new Date().toISOString().slice(0, 10);
const secondsToUtcMidnight = () => {
  const d = new Date();
  return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - d.getTime()) / 1000;
};
const code = (r: LightMyRequestResponse) => (r.json() as { error: { code: string } }).error.code;
const message = (r: LightMyRequestResponse) => (r.json() as { error: { message: string } }).error.message;

async function withApp(cfg: AccessConfig, redisUrl: string | undefined, cacheKeys = false) {
  const services = await createAccessServices({
    env: { METEOPUNTO_DATA: mkdtempSync(join(tmpdir(), 'mp-access-')), ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
    config: cfg,
    cacheKeys,
  });
  const app = await buildTestApp({ services });
  return { services, app };
}

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

describe('flood guard (Redis, two API processes)', () => {
  const opened: Array<{ services: AccessServices; app: FastifyInstance }> = [];
  let redis: Redis;
  beforeAll(async () => {
    // Key records cached per process, as the server runs (api/access/key-changes.ts).
    for (let i = 0; i < 2; i++) opened.push(await withApp(config({ refusedPerMinute: 3 }), process.env.REDIS_URL, true));
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.app.close();
      await o.services.close();
    }
    await redis.quit();
  });

  it('a key blocked on one process is refused on the other, served or not, and its quota is not touched', async () => {
    const [a, b] = opened.map((o) => o.app) as [FastifyInstance, FastifyInstance];
    const { key, prefix } = await issue(opened[0]!.services, 'business');
    for (let i = 0; i < 3; i++) expect((await a.inject({ url: `/api/v1/weather.php?lat=99&lon=9.19&api_key=${key}` })).statusCode).toBe(400);
    // A request that would be served: refused in the quota's round trip, nothing taken.
    const served = await b.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}` });
    expect(served.statusCode).toBe(429);
    expect(code(served)).toBe('TOO_MANY_REQUESTS');
    expect(message(served)).toContain('with this key');
    const retry = Number(served.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(await redis.get(`mp:quota:day:${today()}:${prefix}`)).toBeNull();
    expect(await redis.get(`mp:quota:min:${prefix}`)).toBeNull();
    // A request that would be refused (400, 403) leaves as 429 too, and is not counted again.
    const refused = await b.inject({ url: `/api/v1/weather.php?lat=99&lon=9.19&api_key=${key}` });
    expect([refused.statusCode, code(refused)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const forbidden = await a.inject({ url: `/api/v1/weather.php?${SAN_MARINO}&time=2024-01-01T00:00&api_key=${key}` });
    expect([forbidden.statusCode, code(forbidden)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(await redis.get(`mp:flood:key:${prefix}`)).toBe('3');
    // Another key is not affected.
    const other = await issue(opened[0]!.services, 'business');
    expect((await b.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${other.key}` })).statusCode).toBe(200);
  });

  it('a served request asks Redis once: the flood counter is read by the quota script', async () => {
    const app = opened[1]!.app;
    // The insert publishes a key change: wait for it, or it would drop the record cached by the first request.
    const prepared = generateKey();
    const inserted = await keyChangeMessage(redis, prepared.prefix);
    const { key, prefix } = await issue(opened[0]!.services, 'business', 'api', undefined, prepared);
    await inserted.arrived;
    expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}` })).statusCode).toBe(200); // the key record is now cached
    const monitor = await redis.monitor();
    const seen: string[][] = [];
    // Other test files share this Redis: keep the commands that name this key, sent by a client (not run inside a script).
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.some((a) => a.includes(prefix))) seen.push(args);
    });
    try {
      await new Promise((ok) => setTimeout(ok, 100));
      expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}` })).statusCode).toBe(200);
      await new Promise((ok) => setTimeout(ok, 200));
    } finally {
      monitor.disconnect();
    }
    expect(seen.map((args) => args[0]!.toLowerCase())).toEqual(['evalsha']);
    expect(seen[0]).toContain(`mp:flood:key:${prefix}`);
  });
});

describe('flood guard (embedded mode, in memory)', () => {
  let services: AccessServices;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ services, app } = await withApp(config({ refusedPerMinute: 5 }), undefined));
  });
  afterAll(async () => {
    await app.close();
  });

  it('says it is embedded and single-process', () => {
    expect(services.mode).toBe('embedded');
    expect(services.startupMessage).toContain('keys.json');
    expect(services.startupMessage).toContain('single API process');
  });

  it('blocks a key after 5 refused requests a minute, without consuming its quota', async () => {
    const { key } = await issue(services, 'free');
    for (let i = 0; i < 5; i++) {
      expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&fields=coastal&api_key=${key}` })).statusCode).toBe(403);
    }
    const r = await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}` });
    expect(r.statusCode).toBe(429);
    expect(code(r)).toBe('TOO_MANY_REQUESTS');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.headers['x-ratelimit-remaining']).toBe('2');
    // Another key from the same address is not affected.
    const other = await issue(services, 'free');
    expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${other.key}` })).statusCode).toBe(200);
  });

  it('blocks an address after 5 requests without a valid key; valid keys from it still work', async () => {
    const from = { remoteAddress: '192.0.2.7' };
    for (let i = 0; i < 5; i++) {
      const bad = i % 2 ? '' : `&api_key=${generateKey().key}`;
      expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}${bad}`, ...from })).statusCode).toBe(401);
    }
    const r = await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${generateKey().key}`, ...from });
    expect(r.statusCode).toBe(429);
    expect(code(r)).toBe('TOO_MANY_REQUESTS');
    expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}`, remoteAddress: '192.0.2.8' })).statusCode).toBe(401);
    const { key } = await issue(services, 'free');
    expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}`, ...from })).statusCode).toBe(200);
  });

  it('counts quotas in memory and reads keys from the file', async () => {
    const { key } = await issue(services, 'free');
    const s = [];
    for (let i = 0; i < 3; i++) s.push((await app.inject({ url: `/api/v1/widget.php?${MILANO}&key=${key}` })).statusCode);
    expect(s).toEqual([200, 200, 429]);
  });
});
