/**
 * The `soil` product and weather.php's `soil` group on the real ERA5 file
 * (../shared/data/era5-soil-nw-italy: GRIB1, 2°, stl1..4 and swvl1..4 on
 * depthBelowLandLayer levels, slt). Expected values come from ecCodes'
 * grib_get_data on the file, not from the code under test:
 * - at land grid nodes the stored layers equal the file's (moisture within
 *   0.002 m³/m³, temperature within 0.02 °C after K → °C);
 * - a point whose neighbours mix land and sea gets the land value only
 *   (ERA5 writes ~0 m³/m³ over the sea: a sea value would show) when that
 *   land cell lies within the 25 km search radius, and null when it does not
 *   (distances by the haversine written here, land cells by slt > 0);
 * - over open sea, beyond the search radius of any land cell, soil is null;
 * - over real HTTP, Business keys get `soil`, a Developer key asking for it
 *   gets 403 naming the plan.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import type { Plan } from '../../../../api/access/contract.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { withCatalogue } from '../../../../ingest/products/catalogue-input.js';
import { runIngest } from '../../../../ingest/pipeline.js';
import { TileStore } from '../../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import { dataFile, describeShared } from '../../../support/shared-data.js';

const FILE = dataFile('era5-soil-nw-italy/soil-surface-level-mix.grib');
/** The radius docs/soil.md promises. */
const RADIUS_KM = 25;
const T = Date.UTC(2022, 0, 1);
const LAYERS = ['0_7', '7_28', '28_100', '100_289'];

/** grib_get_data of one shortName: value at (lat, lon) grid nodes. */
function gribValues(shortName: string): Map<string, number> {
  const out = execFileSync('grib_get_data', ['-w', `shortName=${shortName}`, FILE], { encoding: 'utf8' });
  const m = new Map<string, number>();
  for (const line of out.trim().split('\n').slice(1)) {
    const [lat, lon, v] = line.trim().split(/\s+/).map(Number);
    m.set(`${lat},${lon}`, v!);
  }
  return m;
}

/** Great-circle distance, km, on the sphere of radius 6371.0088 km (the mean Earth radius). */
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

/** The land grid nodes of the file (soil type slt > 0) and the distance from (lat, lon) to the nearest one. */
function nearestLandKm(lat: number, lon: number): { km: number; node: string } {
  let best = { km: Infinity, node: '' };
  for (const [node, slt] of gribValues('slt')) {
    if (!(slt > 0)) continue;
    const [la, lo] = node.split(',').map(Number);
    const km = haversineKm(lat, lon, la!, lo!);
    if (km < best.km) best = { km, node };
  }
  return best;
}

describeShared('soil: the real ERA5 file through ingest, the tile reader and weather.php', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-soil-'));
  let tiles: TileStore;
  let app: FastifyInstance;
  let base: string;
  const keys: Partial<Record<Plan, string>> = {};

  beforeAll(async () => {
    await runIngest({ root, product: 'soil', files: [FILE], domain: { latMin: 35, latMax: 51, lonMin: -1, lonMax: 20.5 } });
    tiles = new TileStore(root);
    // A flat nwp store for the base fields weather.php always answers.
    const grid = { kind: 'regular_ll' as const, nx: 20, ny: 20, x0: 2, y0: 40, dx: 0.5, dy: 0.5 };
    const hours = [0, 1, 2, 3].map((h) => new Date(T + h * 3_600_000));
    const constant = (x: number) => hours.map(() => new Float32Array(grid.nx * grid.ny).fill(x));
    await writeProductVersion(root, withCatalogue({
      product: 'nwp', grid, times: hours, source: { files: ['fixture'] },
      variables: { temperature_2m: { units: '°C', precision: 0.01, values: constant(5) }, relative_humidity_2m: { units: '%', precision: 0.1, values: constant(80) } },
    }));
    const store = new FileKeyStore(keysFilePath(root));
    for (const plan of ['developer', 'business'] as const) {
      const k = generateKey();
      await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: `soil ${plan}`, created: new Date().toISOString() });
      keys[plan] = k.key;
    }
    await store.close();
    app = await buildApp({ dataDir: root, clock: () => T, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' } } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('stores every layer as the file has it at land nodes', async () => {
    const moisture = [1, 2, 3, 4].map((k) => gribValues(`swvl${k}`));
    const temperature = [1, 2, 3, 4].map((k) => gribValues(`stl${k}`));
    for (const [lat, lon] of [[46, 8], [48, 4], [44, 2], [46, 10]] as const) {
      const s = await tiles.sample('soil', lat, lon, T);
      expect(s.distanceKm?.land).toBe(0);
      LAYERS.forEach((layer, k) => {
        expect(Math.abs(s.values[`soil_moisture_${layer}cm`]! - moisture[k]!.get(`${lat},${lon}`)!), `${layer} at ${lat},${lon}`).toBeLessThan(0.002);
        expect(Math.abs(s.values[`soil_temperature_${layer}cm`]! - (temperature[k]!.get(`${lat},${lon}`)! - 273.15))).toBeLessThan(0.02);
      });
    }
  });

  it('meteopunto tiles point soil prints the same layers', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'tiles', 'point', 'soil', '--lat', '46', '--lon', '8', '--time', '2022-01-01T00:00Z', '--json'], {
      cwd: resolve(import.meta.dirname, '../../../..'), encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root },
    });
    expect(r.status, r.stderr).toBe(0);
    const values = (JSON.parse(r.stdout) as { values: Record<string, number> }).values;
    expect(Math.abs(values.soil_moisture_28_100cm! - gribValues('swvl3').get('46,8')!)).toBeLessThan(0.002);
    expect(Math.abs(values.soil_temperature_100_289cm! - (gribValues('stl4').get('46,8')! - 273.15))).toBeLessThan(0.02);
  });

  it('never gives a sea value to a point between land and sea, and nothing far out at sea', async () => {
    const moisture = gribValues('swvl1');
    // Neighbours (42,8) (42,10) (44,10) are sea (slt 0), (44,8) land and ~20 km away: the land cell's value alone.
    const near = nearestLandKm(43.85, 8.15);
    expect(near.node).toBe('44,8');
    expect(near.km).toBeLessThan(RADIUS_KM);
    const mixed = await tiles.sample('soil', 43.85, 8.15, T);
    expect(moisture.get('42,8')!).toBeLessThan(0.001);
    expect(Math.abs(mixed.values.soil_moisture_0_7cm! - moisture.get('44,8')!)).toBeLessThan(0.002);
    // (44,8) is also the point's own (nearest) cell: distance 0 by the documented convention.
    expect(mixed.distanceKm?.land).toBe(0);
    // All four neighbours sea and every land cell ~200 km away.
    const sea = await tiles.sample('soil', 40.5, 7, T);
    expect(sea.distanceKm?.land).toBeNull();
  });

  it('a sea point farther than 25 km from every land cell gets nothing, even with a land neighbour (regression: 137 km)', async () => {
    // The same four neighbours, but (44,8) is ~137 km from (43, 9): it does not count.
    const far = nearestLandKm(43, 9);
    expect(far.node).toBe('44,8');
    expect(far.km).toBeGreaterThan(130);
    const s = await tiles.sample('soil', 43, 9, T);
    expect(s.distanceKm?.land).toBeNull();
    for (const layer of LAYERS) expect(s.values[`soil_moisture_${layer}cm`]).toBeNull();
    // Just outside the radius along the same meridian: nothing; just inside: the land value.
    const lon = 8;
    const outside = 44 - (RADIUS_KM + 1) / 111.195;
    const inside = 44 - (RADIUS_KM - 1) / 111.195;
    expect(nearestLandKm(outside, lon).km).toBeGreaterThan(RADIUS_KM);
    expect(nearestLandKm(inside, lon).km).toBeLessThan(RADIUS_KM);
    expect((await tiles.sample('soil', outside, lon, T)).distanceKm?.land).toBeNull();
    const within = await tiles.sample('soil', inside, lon, T);
    expect(Math.abs(within.values.soil_moisture_0_7cm! - gribValues('swvl1').get('44,8')!)).toBeLessThan(0.002);
  });

  it('weather.php: soil for Business keys (land value, null at sea), 403 for a Developer key asking for it', async () => {
    const get = async (q: string, key: string) => {
      const r = await fetch(`${base}/api/v1/weather.php?${q}&api_key=${key}`);
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const moisture = gribValues('swvl1');
    const temperature = gribValues('stl2');
    const land = await get('lat=46&lon=8', keys.business!);
    expect(land.status).toBe(200);
    const soil = land.body.soil as Record<string, number | string>;
    expect(Math.abs((soil.moisture_0_7cm as number) - moisture.get('46,8')!)).toBeLessThanOrEqual(0.0015);
    expect(Math.abs((soil.temperature_7_28cm as number) - (temperature.get('46,8')! - 273.15))).toBeLessThanOrEqual(0.06);
    expect(soil.distance_km).toBe(0);
    expect(soil.source).toMatch(/^soil/);
    const sea = await get('lat=40.5&lon=7', keys.business!);
    expect(sea.status).toBe(200);
    expect(sea.body.soil).toBeNull();
    const beyond = await get('lat=43&lon=9', keys.business!);
    expect(beyond.status).toBe(200);
    expect(beyond.body.soil).toBeNull();
    const dev = await get('lat=46&lon=8', keys.developer!);
    expect(dev.body).not.toHaveProperty('soil');
    const asked = await get('lat=46&lon=8&fields=soil', keys.developer!);
    expect(asked.status).toBe(403);
    expect(JSON.stringify(asked.body)).toMatch(/Business/);
  });
});
