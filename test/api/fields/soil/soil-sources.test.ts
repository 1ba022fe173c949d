/**
 * The `soil` group from its two sources, through ingest, the tile reader and
 * weather.php over HTTP:
 * - the past from an ERA5-Land file as the CDS ships it: no lsm/slt, the
 *   sea marked missing (written by netCDF4-python, fixtures/
 *   make_era5land_soil.py, on the real ERA5-Land file's grid and sea
 *   mask); it ingests, a sea point answers null and a land node the value
 *   netCDF4-python reads there;
 * - now from the NWP model's layers (product nwp-soil): ICON W_SO and T_SO
 *   and FR_LAND written by grib_filter from the real ICON-2I orography
 *   (test/support/icon-grib.ts); W_SO kg/m² becomes m³/m³ by dividing by
 *   the layer's thickness × 1000 kg/m³, computed here by hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { withCatalogue } from '../../../../ingest/products/catalogue-input.js';
import { runIngest } from '../../../../ingest/pipeline.js';
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import { ICON, orographyCells, orographyHeights, soilTemperatureAt, soilWaterLayer, writeIconFile } from '../../../support/icon-grib.js';
import { dataFile, describeShared } from '../../../support/shared-data.js';

const PY = '/usr/bin/python3';
const FIXTURES = join(import.meta.dirname, 'fixtures');
const ERA5LAND = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
const PAST = Date.UTC(2023, 10, 2, 1); // second hour of the ERA5-Land file
const RUN = Date.UTC(2023, 10, 7, 0); // the ICON run
const HOUR = 3_600_000;

/** netCDF4-python's value of `name` at a grid node; NaN where masked. */
function ncValue(file: string, name: string, t: number, lat: number, lon: number): number {
  return Number(execFileSync(PY, [join(FIXTURES, 'read_nc_point.py'), file, name, String(t), String(lat), String(lon)], { encoding: 'utf8' }).trim());
}

describeShared('soil: ERA5-Land without a mask for the past, the NWP model layers for now', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-soil-src-'));
  const root = join(dir, 'data');
  const era5land = join(dir, 'era5land-soil.nc');
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let heights: Float64Array;
  let cells: { lat: Float64Array; lon: Float64Array };

  beforeAll(async () => {
    execFileSync(PY, [join(FIXTURES, 'make_era5land_soil.py'), ERA5LAND, era5land]);
    await runIngest({ root, product: 'soil', files: [era5land], source: { model: 'ERA5-Land' } });

    heights = orographyHeights();
    cells = orographyCells();
    const land = (z: number) => z > 0.1;
    const run = new Date(RUN);
    const steps = [0, 1, 2];
    const files = [
      // 6 kg/m² of water in the 1–3 cm layer on land (0.3 m³/m³), 20 kg/m² in 9–27 cm (0.111…); the sea missing as ICON-2I may mark it.
      writeIconFile(join(dir, 'wso13.grib'), soilWaterLayer(1, 3), run, steps, (z, h) => (land(z) ? 6 + 0.2 * h : NaN), heights),
      writeIconFile(join(dir, 'wso927.grib'), soilWaterLayer(9, 27), run, steps, (z) => (land(z) ? 20 : NaN), heights),
      // T_SO at 2 cm (the 1–3 cm layer's middle): 283.15 K − 0.005 K/m · z.
      writeIconFile(join(dir, 'tso2.grib'), soilTemperatureAt(20), run, steps, (z) => 283.15 - 0.005 * z, heights),
      writeIconFile(join(dir, 'frland.grib'), ICON.FR_LAND!, run, [0], (z) => (land(z) ? 1 : 0), heights),
    ];
    await runIngest({ root, product: 'nwp-soil', files, source: { model: 'ICON-2I' }, domain: { latMin: 43, latMax: 48, lonMin: 6, lonMax: 14.5 } });

    // A flat nwp over both times for the base fields weather.php always answers.
    const grid = { kind: 'regular_ll' as const, nx: 30, ny: 30, x0: 5, y0: 35, dx: 0.5, dy: 0.5 };
    const hours = Array.from({ length: 6 * 24 }, (_, h) => new Date(Date.UTC(2023, 10, 2) + h * HOUR));
    const constant = (x: number) => hours.map(() => new Float32Array(grid.nx * grid.ny).fill(x));
    await writeProductVersion(root, withCatalogue({
      product: 'nwp', grid, times: hours, source: { files: ['fixture'] },
      variables: { temperature_2m: { units: '°C', precision: 0.01, values: constant(12) }, relative_humidity_2m: { units: '%', precision: 0.1, values: constant(70) } },
    }));
    const store = new FileKeyStore(keysFilePath(root));
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'business', kind: 'api', name: 'soil business', created: new Date().toISOString() });
    await store.close();
    key = k.key;
    app = await buildApp({ dataDir: root, clock: () => RUN + HOUR, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' } } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const soilAt = async (q: string) => {
    const r = await fetch(`${base}/api/v1/weather.php?${q}&fields=soil&api_key=${key}`);
    const body = (await r.json()) as { soil: Record<string, number | string | null> | null };
    expect(r.status, JSON.stringify(body)).toBe(200);
    return body.soil;
  };

  it('ERA5-Land without lsm/slt ingests; a land node answers the file value, the sea null', async () => {
    const time = new Date(PAST).toISOString();
    const soil = (await soilAt(`lat=44.0&lon=11.0&time=${time}`))!;
    expect(soil.source).toBe('soil, ERA5-Land');
    expect(soil.distance_km).toBe(0);
    expect(Math.abs((soil.moisture_7_28cm as number) - ncValue(era5land, 'swvl2', 1, 44.0, 11.0))).toBeLessThanOrEqual(0.0006);
    expect(Math.abs((soil.temperature_28_100cm as number) - (ncValue(era5land, 'stl3', 1, 44.0, 11.0) - 273.15))).toBeLessThanOrEqual(0.051);
    expect(soil.moisture_1_3cm).toBeNull(); // a layer ERA5-Land does not carry
    // Open Tyrrhenian sea, the file's own cell missing and every land cell beyond 25 km.
    expect(Number.isNaN(ncValue(era5land, 'swvl1', 1, 40.0, 11.0))).toBe(true);
    expect(await soilAt(`lat=40.0&lon=11.0&time=${time}`)).toBeNull();
  });

  it('now: the model layers, W_SO as m³/m³ and T_SO as °C, at a land node', async () => {
    // Bologna's hills: a land node of the ICON grid.
    const [lat, lon] = [44.4, 11.3];
    let k = -1;
    for (let i = 0; i < cells.lat.length; i++) if (Math.abs(cells.lat[i]! - lat) < 1e-6 && Math.abs(cells.lon[i]! - lon) < 1e-6) k = i;
    const z = heights[k]!;
    expect(z).toBeGreaterThan(0.1);
    const soil = (await soilAt(`lat=${lat}&lon=${lon}`))!; // now = RUN + 1 h
    expect(soil.source).toBe('nwp-soil, ICON-2I');
    expect(soil.distance_km).toBe(0);
    expect(soil.moisture_1_3cm as number).toBeCloseTo((6 + 0.2) / (1000 * 0.02), 3);
    expect(soil.moisture_9_27cm as number).toBeCloseTo(20 / (1000 * 0.18), 3);
    expect(soil.temperature_1_3cm as number).toBeCloseTo(10 - 0.005 * z, 1);
    expect(soil.moisture_0_7cm).toBeNull(); // ERA5's layers: not this source's
    expect(soil.moisture_0_1cm).toBeNull(); // a model layer the files did not carry
  });

  it('now: a point out at sea (Adriatic off Rimini, every land cell beyond 10 km) is null', async () => {
    expect(await soilAt('lat=44.3&lon=13.0')).toBeNull();
  });
});
