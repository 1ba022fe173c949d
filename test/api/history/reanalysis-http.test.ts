/**
 * History: real ERA5 files ingested as `reanalysis` (one store per year,
 * files of one year merged) answer weather.php?time=… over real HTTP with a
 * Business key. Expected values are computed independently in Python
 * (fixtures/era5_reference.py: ecCodes grib_get_data for GRIB, netCDF4-python
 * for NetCDF, bilinear on the files' own coordinates, linear in time, the
 * 6.5 K/km altitude correction done here from the orography in the file).
 *
 * No ERA5 orography at 0.25° is available offline: the test writes one
 * (with a dew point) in the CDS NetCDF layout with netCDF4-python on the
 * grid of the real ERA5 GRIB, ingested as a second file of 2017.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../api/app.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { dataFile, describeShared } from '../../support/shared-data.js';
import { HOUR_MS, T0_MS, TEST_KEY, installTestKey, tempDataDir, testAccess, writeMainNwp } from '../tile-fixture.js';

const PY = join(import.meta.dirname, 'fixtures', 'era5_reference.py');
const py = (req: unknown): unknown => JSON.parse(execFileSync('/usr/bin/python3', [PY, JSON.stringify(req)], { encoding: 'utf8', maxBuffer: 1 << 26 }));

const T2M_GRIB = dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib');
const GUST_NC3 = dataFile('era5-gust-global-nc3/wgust_era5.nc');
const LAND_NC4 = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
const MILAN = { lat: 45.464, lon: 9.19, alt: 120 };
const ROME = { lat: 41.9, lon: 12.5 };
const FLORENCE = { lat: 43.77, lon: 11.25, alt: 50 };
const LAPSE_K_PER_M = 0.0065;

describeShared('weather.php time= from reanalysis years (real ERA5 files, real HTTP)', () => {
  const data = tempDataDir();
  const work = mkdtempSync(join(tmpdir(), 'mp-era5-'));
  const zFile = join(work, 'era5-z-d2m-2017.nc');
  let app: FastifyInstance;
  let base: string;
  let ref: number[];

  beforeAll(async () => {
    py({ cmd: 'write_era5_z_d2m', out: zFile, grib: T2M_GRIB });
    ref = py({
      cmd: 'points',
      queries: [
        { kind: 'grib', file: T2M_GRIB, ...MILAN },
        { kind: 'nc', file: zFile, var: 'z', ...MILAN, times: ['2017-01-01T12:00'], weights: [1] },
        { kind: 'nc', file: GUST_NC3, var: 'i10fg', ...ROME, times: ['2011-08-01T00:00'], weights: [1] },
        // The record labelled 15 Nov is the mean over 15 Nov: at 15 Nov 12:00 it alone answers.
        { kind: 'nc', file: LAND_NC4, var: 't2m', ...FLORENCE, times: ['2023-11-15T00:00'], weights: [1] },
        // 2 Nov 2023 (storm Ciarán): the day's total, m.
        { kind: 'nc', file: LAND_NC4, var: 'tp', ...FLORENCE, times: ['2023-11-02T00:00'], weights: [1] },
        // The dew point written beside z (K) at Milan; ERA5-Land's daily relative humidity (%) at Florence.
        { kind: 'nc', file: zFile, var: 'd2m', ...MILAN, times: ['2017-01-01T12:00'], weights: [1] },
        { kind: 'nc', file: LAND_NC4, var: 'rh', ...FLORENCE, times: ['2023-11-15T00:00'], weights: [1] },
      ],
    }) as number[];
    await installTestKey(data.dir, 'business');
    await writeMainNwp(data.dir);
    // Two files of 2017 with different variables, ingested one after the other: they merge.
    for (const files of [[T2M_GRIB], [zFile], [GUST_NC3], [LAND_NC4]]) await runIngest({ root: data.dir, product: 'reanalysis', files });
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10.5 * HOUR_MS });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    data.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const get = async (q: Record<string, string | number>, key = TEST_KEY) => {
    const res = await fetch(`${base}/api/v1/weather.php?${new URLSearchParams({ api_key: key, ...Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) })}`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('ERA5 GRIB1 t2m + orography (two files of 2017, merged): bilinear, altitude-corrected to alt, source named', async () => {
    const [t2mK, z] = ref as [number, number];
    const gridElevation = z / 9.80665;
    const expected = t2mK - 273.15 + LAPSE_K_PER_M * (gridElevation - MILAN.alt);
    const { status, body } = await get({ ...MILAN, time: '2017-01-01T12:00' });
    expect(status).toBe(200);
    expect(body.valid_time).toBe('2017-01-01T12:00:00.000Z');
    expect(Math.abs(body.temperature - expected)).toBeLessThanOrEqual(0.06);
    expect(body.temperature_source).toBe(`reanalysis ERA5 0.25° bilinear, altitude-corrected ${Math.round(gridElevation)} m → 120 m (alt), lapse 6.5 K/km`);
    // The grid's relative humidity is kept at the point (api/fields/base/humidity.ts): RH from the grid's T and Td,
    // then Td at the corrected T, both by Magnus over water (Alduchov & Eskridge 1996, a = 17.625, b = 243.04 °C):
    // γ = ln(RH/100) + aT/(b + T), Td = bγ/(a − γ). Rounded to 0.1 by the API.
    const [a, b] = [17.625, 243.04];
    const [tGrid, tdGrid] = [t2mK - 273.15, ref[5]! - 273.15];
    const gamma = a * tdGrid / (b + tdGrid) - a * tGrid / (b + tGrid) + a * expected / (b + expected);
    expect(Math.abs(body.dew_point - (b * gamma) / (a - gamma))).toBeLessThanOrEqual(0.06);
    // What ERA5 here does not carry is null, never invented; one step: no trend.
    expect(body.pressure_msl).toBeNull();
    expect(body.wind_speed).toBeNull();
    expect(body.wind_gust).toBeNull();
    expect(body.temperature_trend_3h).toBeNull();
  });

  it('ERA5 gust, global NetCDF3 (0..360, packed short) → 2011: km/h at Rome', async () => {
    const { status, body } = await get({ ...ROME, alt: 20, time: '2011-08-01T00:00' });
    expect(status).toBe(200);
    expect(Math.abs(body.wind_gust - ref[2]! * 3.6)).toBeLessThanOrEqual(0.06);
    expect(body.temperature).toBeNull();
  });

  it('ERA5-Land daily NetCDF4 → 2023: the day\'s mean all day, said daily in temperature_source, no 3-hour trend, 0.2° named', async () => {
    for (const time of ['2023-11-15T00:30', '2023-11-15T12:00', '2023-11-15T23:00']) {
      const { status, body } = await get({ ...FLORENCE, time });
      expect(status).toBe(200);
      expect(Math.abs(body.temperature - ref[3]!)).toBeLessThanOrEqual(0.06);
      expect(body.temperature_source).toBe('reanalysis ERA5-Land 0.2° bilinear, daily mean, not altitude-corrected (no grid elevation)');
      // The file's own relative humidity, bilinear; an integer in the answer.
      expect(Math.abs(body.humidity - ref[6]!)).toBeLessThanOrEqual(0.51);
      // Two daily means give no 3-hour change.
      expect(body.temperature_trend_3h).toBeNull();
    }
    // The 2 Nov total is served on 2 Nov (was 1 Nov): the value netCDF4-python gives for that day's record.
    const store = new TileStore(data.dir, { manifestCheckMs: 0 });
    for (const time of ['2023-11-02T00:30:00Z', '2023-11-02T12:00:00Z', '2023-11-02T23:30:00Z']) {
      const s = await store.sample('reanalysis/2023', FLORENCE.lat, FLORENCE.lon, Date.parse(time), ['precipitation']);
      expect(Math.abs(s.values.precipitation! - 1000 * ref[4]!)).toBeLessThanOrEqual(0.011);
    }
    expect(1000 * ref[4]!).toBeGreaterThan(30);
    const nov1 = await store.sample('reanalysis/2023', FLORENCE.lat, FLORENCE.lon, Date.parse('2023-11-01T12:00:00Z'), ['precipitation']);
    expect(Math.abs(nov1.values.precipitation! - 1000 * ref[4]!)).toBeGreaterThan(1);
  });

  it('a time inside the forecast still answers from nwp', async () => {
    const { status, body } = await get({ lat: 43.123, lon: 11.2345, alt: 380, time: new Date(T0_MS + 5 * HOUR_MS).toISOString().slice(0, 16) });
    expect(status).toBe(200);
    expect(body.temperature_source).toMatch(/^nwp /);
  });

  it('before 1920-01-01T00:00: 400 naming the limit; a year not backfilled: 404 naming the years present', async () => {
    const early = await get({ ...MILAN, time: '1919-12-31T23:00' });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('INVALID_PARAMETER');
    expect(early.body.error.message).toContain('1920-01-01T00:00');
    for (const time of ['1920-01-01T00:00', '1950-07-01T12:00']) {
      const missing = await get({ ...MILAN, time });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toContain('years present: 2011, 2017, 2023');
    }
  });

  it('the year stores and their index: one per year, each with its manifest', async () => {
    const { readFileSync } = await import('node:fs');
    const index = JSON.parse(readFileSync(join(data.dir, 'tiles', 'reanalysis', 'index.json'), 'utf8'));
    expect(Object.keys(index.periods)).toEqual(['2011', '2017', '2023']);
    const m2017 = JSON.parse(readFileSync(join(data.dir, 'tiles', 'reanalysis', '2017', 'current.json'), 'utf8'));
    expect(Object.keys(m2017.variables).sort()).toEqual(['dew_point_2m', 'elevation', 'relative_humidity_2m', 'temperature_2m']);
    expect(m2017.source.files).toEqual(['era5-single-level-scalar-time.grib', 'era5-z-d2m-2017.nc']);
    expect(m2017.variables.temperature_2m.dtype).toBe('int16');
  });
});
