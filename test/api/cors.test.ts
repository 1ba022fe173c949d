/**
 * CORS on weather.php (api/plugins/cors.ts) over real HTTP: an origin the
 * operator lists gets Access-Control-Allow-Origin on preflight and answer, a
 * preflight needs no key and uses no quota, other origins and widget.php get
 * no CORS headers, and without configuration nothing changes.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { parseCorsOrigins } from '../../api/plugins/cors.js';
import { generateKey } from '../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { HOUR_MS, T0_MS, TEST_KEY, installTestKey, tempDataDir, writeDem, writeMainNwp } from './tile-fixture.js';

const SITE = 'https://meteo.example.it';
const WEATHER = '/api/v1/weather.php?lat=43.123&lon=11.2345';

async function start(dir: string, corsOrigins?: '*' | string[]): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({
    dataDir: dir,
    // Free plan: 2 requests a minute, so a preflight that used quota would show.
    access: { env: { METEOPUNTO_DATA: dir, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' } },
    clock: () => T0_MS + 10.5 * HOUR_MS,
    ...(corsOrigins ? { corsOrigins } : {}),
  });
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe('CORS', () => {
  const data = tempDataDir();
  let on: { app: FastifyInstance; base: string };
  let off: { app: FastifyInstance; base: string };
  const widgetKey = generateKey();
  beforeAll(async () => {
    await installTestKey(data.dir, 'free');
    const store = new FileKeyStore(keysFilePath(data.dir));
    await store.insert({ prefix: widgetKey.prefix, hash: widgetKey.hash, plan: 'free', kind: 'widget', created: new Date().toISOString() });
    await store.close();
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    on = await start(data.dir, [SITE]);
    off = await start(data.dir, []);
  });
  afterAll(async () => {
    await on?.app.close();
    await off?.app.close();
    data.cleanup();
  });

  const preflight = (base: string, origin: string) =>
    fetch(base + WEATHER, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' } });

  it('answers a preflight from a listed origin without a key and without using quota', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await preflight(on.base, SITE);
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
      expect(r.headers.get('access-control-allow-methods')).toBe('GET');
    }
    // The Free key's 2 requests of this minute are still there.
    for (let i = 0; i < 2; i++) {
      const r = await fetch(on.base + WEATHER, { headers: { Origin: SITE, 'X-API-Key': TEST_KEY } });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(r.headers.get('vary')?.toLowerCase()).toContain('origin');
      expect(r.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
    }
  });

  it('lets a listed origin read the refusals too: 400, 401 without or with a wrong key, 403 for a widget key', async () => {
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['/api/v1/weather.php?lat=43.123', { 'X-API-Key': TEST_KEY }, 400, 'INVALID_PARAMETER'],
      [WEATHER, {}, 401, 'MISSING_KEY'],
      [WEATHER, { 'X-API-Key': 'mp_notakeyatall' }, 401, 'INVALID_KEY'],
      [WEATHER, { 'X-API-Key': widgetKey.key }, 403, 'KEY_NOT_ALLOWED'],
    ];
    for (const [path, headers, status, code] of cases) {
      const r = await fetch(on.base + path, { headers: { Origin: SITE, ...headers } });
      expect(r.status, code).toBe(status);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe(code);
      expect(r.headers.get('access-control-allow-origin'), code).toBe(SITE);
      expect(r.headers.get('access-control-expose-headers'), code).toMatch(/Retry-After/);
    }
  });

  it('gives no CORS headers to other origins, to widget.php, or without configuration', async () => {
    expect((await preflight(on.base, 'https://elsewhere.example.com')).headers.get('access-control-allow-origin')).toBeNull();
    const other = await fetch(on.base + WEATHER, { headers: { Origin: 'https://elsewhere.example.com' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const widget = await fetch(`${on.base}/api/v1/widget.php?lat=43.123&lon=11.2345`, { headers: { Origin: SITE } });
    expect(widget.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(off.base + WEATHER, { headers: { Origin: SITE } })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a malformed origin list, naming the entry', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('https://a.example.it, http://localhost:3000')).toEqual(['https://a.example.it', 'http://localhost:3000']);
    expect(() => parseCorsOrigins('https://a.example.it/')).toThrow(/'https:\/\/a\.example\.it\/' is not an origin/);
    expect(() => parseCorsOrigins('a.example.it')).toThrow(/'a\.example\.it'/);
  });
});
