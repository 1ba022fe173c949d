/**
 * The start warm-up's key (api/access/plugin.ts `warmUpKey`, used by
 * api/weather/start-warm.ts): admitted with its plan and counted in its
 * quota while it is out, in no store, refused once ended or replaced, and
 * never for a key that only shares its prefix. Embedded store, in-memory
 * quotas (the same code path as Redis up to the quota call).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessServices } from '../../../api/access/services.js';
import { MILANO, code, config, withApp } from './fixtures/access-requests.js';

describe('access plugin: the warm-up key', () => {
  let services: AccessServices;
  let app: FastifyInstance;
  const weather = (key: string) => app.inject({ url: `/api/v1/weather.php?${MILANO}`, headers: { 'x-api-key': key } });

  beforeAll(async () => {
    ({ services, app } = await withApp(config(), undefined));
  });
  afterAll(async () => {
    await app.close();
    await services.close();
  });

  it('is admitted with its plan while out, counted against its own minute quota, and kept in no store', async () => {
    const k = app.warmUpKey('business');
    // The default config's Business minute quota (api/access/config.ts).
    expect(k.perMinute).toBe(600);
    const a = await weather(k.key);
    const b = await weather(k.key);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    // Business answers carry the coastal group, which a Free or Developer key does not get.
    expect((a.json() as { groups: string[] }).groups).toContain('coastal');
    expect([a.headers['x-ratelimit-limit'], a.headers['x-ratelimit-remaining'], b.headers['x-ratelimit-remaining']]).toEqual(['600', '599', '598']);
    expect(await services.keys.list()).toEqual([]);
    k.end();
  });

  it('is refused once ended, and when replaced by the next', async () => {
    const first = app.warmUpKey('developer');
    expect((await weather(first.key)).statusCode).toBe(200);
    const second = app.warmUpKey('developer');
    expect(code(await weather(first.key))).toBe('INVALID_KEY');
    expect((await weather(second.key)).statusCode).toBe(200);
    second.end();
    expect(code(await weather(second.key))).toBe('INVALID_KEY');
    // Ending a replaced key leaves the one out admitted.
    const third = app.warmUpKey('developer');
    second.end();
    expect((await weather(third.key)).statusCode).toBe(200);
    third.end();
  });

  it('refuses a key with its prefix and another secret', async () => {
    const k = app.warmUpKey('business');
    // Same tag and prefix, the secret's last character changed.
    const forged = k.key.slice(0, -1) + (k.key.endsWith('a') ? 'b' : 'a');
    expect(code(await weather(forged))).toBe('INVALID_KEY');
    expect((await weather(k.key)).statusCode).toBe(200);
    k.end();
  });
});
