/**
 * The access plugin's flood guard through app.inject() (fixtures/app.ts): a
 * key or an address that sends too many refused requests a minute is blocked
 * with 429, across two API processes sharing real Redis and in the embedded
 * single-process mode, without touching the key's quota.
 */
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../api/access/key-format.js';
import type { AccessServices } from '../../../api/access/services.js';
import { MILANO, SAN_MARINO, code, config, issue, message, today, withApp } from './fixtures/access-requests.js';
import { keyChangeMessage } from './fixtures/key-change-message.js';

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
    // The insert publishes a key change; the test's own subscriber seeing it does not mean app 1's has, and
    // under load it may arrive after the first request cached the record and drop it. So requests are sent
    // until one is served from the cache (a script call alone), at most 5, and the claim is on the next one.
    const prepared = generateKey();
    const inserted = await keyChangeMessage(redis, prepared.prefix);
    const { key, prefix } = await issue(opened[0]!.services, 'business', 'api', undefined, prepared);
    await inserted.arrived;
    const monitor = await redis.monitor();
    let seen: string[][] = [];
    // Other test files share this Redis: keep the commands that name this key, sent by a client (not run inside a script).
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.some((a) => a.includes(prefix))) seen.push(args);
    });
    const served = async () => {
      seen = [];
      expect((await app.inject({ url: `/api/v1/weather.php?${MILANO}&api_key=${key}` })).statusCode).toBe(200);
      await new Promise((ok) => setTimeout(ok, 200));
      return seen.map((args) => args[0]!.toLowerCase());
    };
    try {
      await new Promise((ok) => setTimeout(ok, 100));
      const warm: string[][] = [];
      do warm.push(await served());
      while (warm.length < 5 && warm.at(-1)!.join() !== 'evalsha');
      expect(warm[0]).toContain('hgetall'); // the first request read the new key's record
      expect(await served()).toEqual(['evalsha']);
    } finally {
      monitor.disconnect();
    }
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
