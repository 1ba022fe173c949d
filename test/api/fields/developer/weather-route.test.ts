/**
 * weather.php's Developer fields end to end: a sample nwp store built through
 * the real ingest (indices precomputed), real keys per plan. The expected
 * values come from the science library applied by hand to the interpolated
 * tile values (TileStore.sample), not from the route's own assembly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../api/app.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { generateKey } from '../../../../api/access/key-format.js';
import type { Plan } from '../../../../api/access/contract.js';
import { TileStore } from '../../../../tiles/read/reader.js';
import { utci, utciCategory, relativeHumidity } from '../../../../science/index.js';
import { withSampleTiles } from '../../access/fixtures/api-process.js';

describe('weather.php Developer fields', () => {
  let root: string;
  let app: FastifyInstance;
  const keys: Partial<Record<Plan, string>> = {};
  const P = { lat: 44.5, lon: 11.3 };

  beforeAll(async () => {
    root = await withSampleTiles('mp-dev-');
    const store = new FileKeyStore(keysFilePath(root));
    for (const plan of ['free', 'developer', 'business'] as const) {
      const k = generateKey();
      await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: plan, created: new Date().toISOString() });
      keys[plan] = k.key;
    }
    await store.close();
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_QUOTA_FREE_MINUTE: '1000', METEOPUNTO_QUOTA_FREE_DAY: '1000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } } });
  });
  afterAll(async () => app?.close());

  const get = (plan: Plan, extra = '') =>
    app.inject({ url: `/api/v1/weather.php?lat=${P.lat}&lon=${P.lon}${extra}`, headers: { 'x-api-key': keys[plan]! } });

  it('Free keys get no Developer field, and asking for a Developer group is 403 naming the plan', async () => {
    const body = (await get('free')).json();
    const v = (await new TileStore(root).sample('nwp', P.lat, P.lon, Date.parse(body.valid_time))).values;
    // At the model orography there is no altitude correction: the grid's own 2 m temperature, to 0.1 °C.
    expect((await get('free', `&alt=${v.elevation}`)).json().temperature).toBeCloseTo(v.temperature_2m!, 1);
    for (const f of ['comfort', 'uv_index', 'wbgt', 'frost', 'et0']) expect(body).not.toHaveProperty(f);
    const refused = await get('free', '&fields=wbgt');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/Developer plan/);
  });

  it('comfort equals UTCI of the interpolated tile values at the grid altitude', async () => {
    const tiles = new TileStore(root);
    const res = await get('developer');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const t = Date.parse(body.valid_time);
    const v = (await tiles.sample('nwp', P.lat, P.lon, t)).values;
    // at alt = model orography there is no altitude correction: T and RH are the grid's own
    const atGrid = (await app.inject({ url: `/api/v1/weather.php?lat=${P.lat}&lon=${P.lon}&alt=${v.elevation}`, headers: { 'x-api-key': keys.developer! } })).json();
    const rh = relativeHumidity(v.temperature_2m!, v.dew_point_2m!);
    const expected = utci({ temperature: v.temperature_2m!, meanRadiantTemperature: v.mean_radiant_temperature!, windSpeed10m: Math.hypot(v.wind_u_10m!, v.wind_v_10m!), relativeHumidity: rh });
    expect(atGrid.comfort.value).toBeCloseTo(expected, 1);
    expect(atGrid.comfort.category).toBe(utciCategory(expected));
    expect(atGrid.uv_index.source).toMatch(/Madronich/);
    for (const f of ['wbgt', 'frost', 'et0']) expect(atGrid).toHaveProperty(f);
  });

  it('follows the altitude correction: 1000 m higher is 6.5 °C colder, with lower UTCI and WBGT', async () => {
    const tiles = new TileStore(root);
    const first = (await get('developer')).json();
    const v = (await tiles.sample('nwp', P.lat, P.lon, Date.parse(first.valid_time))).values;
    const low = (await get('developer', `&alt=${v.elevation}`)).json();
    const high = (await get('developer', `&alt=${v.elevation! + 1000}`)).json();
    expect(low.temperature - high.temperature).toBeCloseTo(6.5, 0);
    expect(high.comfort.value).toBeLessThan(low.comfort.value);
    expect(high.wbgt.sun).toBeLessThan(low.wbgt.sun);
  });

  it('fields= selects groups: wbgt only keeps comfort and uv_index, drops frost and et0', async () => {
    const body = (await get('developer', '&fields=wbgt')).json();
    expect(body).toHaveProperty('wbgt');
    expect(body).toHaveProperty('comfort');
    expect(body).toHaveProperty('uv_index');
    expect(body).not.toHaveProperty('frost');
    expect(body).not.toHaveProperty('et0');
    expect((await get('developer', '&fields=soil')).statusCode).toBe(403);
    expect((await get('developer', '&fields=rain')).statusCode).toBe(400);
  });
});
