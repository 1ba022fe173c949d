/**
 * `npm start`'s sample dataset answers `coastal` for a Business key (now, no
 * time=), labelled as sample data: at sea the interpolated marine tiles and
 * their WMO 3700 state; inland (Florence) null. Expected values are the
 * tiles read directly (independent of the builder).
 */
import type { FastifyInstance } from 'fastify';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { TileStore } from '../../../../tiles/read/reader.js';
import { withSampleTiles } from '../../access/fixtures/api-process.js';

describe('weather.php coastal group over the sample dataset', () => {
  let root: string;
  let app: FastifyInstance;
  let key: string;
  beforeAll(async () => {
    root = await withSampleTiles('mp-coastal-sample-');
    const store = new FileKeyStore(keysFilePath(root));
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'business', kind: 'api', name: 'biz', created: new Date().toISOString() });
    await store.close();
    key = k.key;
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root } } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('Business, default fields: coastal off Naples with every field, labelled sample; null in Florence', async () => {
    const res = await app.inject({ url: '/api/v1/weather.php?lat=40.7&lon=14.1', headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const c = body.coastal;
    const v = (await new TileStore(root).sample('marine', 40.7, 14.1, Date.parse(body.valid_time))).values;
    expect(c.sea_surface_temperature).toBeCloseTo(v.sea_surface_temperature!, 1);
    expect(c.wave_height).toBeCloseTo(v.wave_height!, 2);
    expect(c.wave_period).toBeCloseTo(v.wave_period!, 1);
    expect(c.wave_peak_period).toBeCloseTo(v.wave_peak_period!, 1);
    // Mean direction, degrees from north: the tile's at the point to the degree, 360 read as 0.
    expect(Math.abs(((c.wave_direction - v.wave_direction! + 540) % 360) - 180)).toBeLessThanOrEqual(0.5 + 1e-9);
    expect(c.sea_state.code).toBeGreaterThanOrEqual(1);
    expect(['quasi calmo', 'poco mosso', 'mosso', 'molto mosso', 'agitato']).toContain(c.sea_state.label);
    expect(c.distance_km).toBe(0);
    expect(c.source).toMatch(/sample data/);

    const inland = await app.inject({ url: '/api/v1/weather.php?lat=43.77&lon=11.25', headers: { 'x-api-key': key } });
    expect(inland.statusCode).toBe(200);
    expect(inland.json().coastal).toBeNull();
  });
});
