/**
 * Product `marine` on the real files: Copernicus Marine MED SST L4
 * (../shared/data/med-sst-l4-rep: int16 packed kelvin, fill over land,
 * steps of 0.050046° × 0.050158°, seconds since 1981) and the ARPAE/ECMWF
 * WAM Adriatic GRIB1 (../shared/data/adriatic-waves: swh with a land bitmap,
 * plus two messages that are not marine). Ingested and read back with the
 * CLI (`meteopunto ingest marine`, `meteopunto tiles point marine --json`)
 * and the tile reader; expected values from netCDF4-python and ecCodes'
 * grib_get_data on the files' own coordinates
 * (fixtures/marine_reference.py), never from the code under test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MARINE_SEARCH_RADIUS_KM } from '../../../ingest/products/marine/product.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { describeShared } from '../../support/shared-data.js';
import { marineReference, SST_FILE, SST_TIME, WAVES_FILE, WAVES_TIME, type MarineRef } from './marine-reference.js';

const ROOT = resolve(import.meta.dirname, '../../..');

function cli(args: string[], data: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDIS_URL: '', METEOPUNTO_DATA: data }, timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

interface PointJson {
  time: string;
  values: Record<string, number | null>;
  distance_km?: { sea?: number | null };
}
const tilesPoint = (data: string, lat: number, lon: number, time: string, v: string): PointJson =>
  JSON.parse(cli(['tiles', 'point', 'marine', '--lat', String(lat), '--lon', String(lon), '--time', time, '--var', v, '--json'], data)) as PointJson;

/** Checks every kind of point against the reference: open sea, mixed neighbours, land near and far from the sea. */
async function checkPoints(store: TileStore, variable: string, timeMs: number, refs: MarineRef[], tolerance: number) {
  let mixed = 0;
  let copies = 0;
  let none = 0;
  for (const r of refs) {
    const s = await store.sample('marine', r.lat, r.lon, timeMs, [variable]);
    const got = s.values[variable]!;
    const where = `${variable} at ${r.lat}, ${r.lon}`;
    const seaCount = r.sea.filter(Boolean).length;
    if (seaCount > 0) {
      // Bilinear over the sea neighbours only: a land value (fill, 9999, 0) would miss by far more.
      expect(got, where).not.toBeNull();
      expect(Math.abs(got - r.bilinear_sea!), `${where}: ${got} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(tolerance);
      expect(s.distanceKm?.sea, where).not.toBeNull();
      if (seaCount < 4) mixed++;
    } else if (r.sea_within_radius.length > 0 && s.values[variable] !== null) {
      // No sea neighbour: the value of a sea cell within the radius, at the distance reported.
      const d = s.distanceKm!.sea!;
      expect(d, where).toBeLessThanOrEqual(MARINE_SEARCH_RADIUS_KM);
      const cell = r.sea_within_radius.find((c) => Math.abs(c.distance_km - d) < 0.05);
      expect(cell, `${where}: no sea cell at ${d} km`).toBeDefined();
      expect(Math.abs(got - cell!.value), where).toBeLessThanOrEqual(tolerance);
      copies++;
    } else if (r.sea_within_radius.length === 0) {
      expect(got, where).toBeNull();
      expect(s.distanceKm?.sea, where).toBeNull();
      none++;
    }
  }
  return { mixed, copies, none };
}

describeShared('product marine on the real Copernicus SST L4 and WAM GRIB1 files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-marine-'));
  const sstData = join(dir, 'sst');
  const wavesData = join(dir, 'waves');
  let sstReport = '';
  let wavesReport = '';
  beforeAll(() => {
    sstReport = cli(['ingest', 'marine', SST_FILE, '--quiet'], sstData);
    wavesReport = cli(['ingest', 'marine', WAVES_FILE, '--quiet'], wavesData);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests the SST file: analysed_sst in °C on the coordinates of the file, the rest reported as skipped', () => {
    expect(sstReport).toMatch(/variables\s+land_sea_mask, nearest_sea_cell, sea_surface_temperature/);
    expect(sstReport).toMatch(/2025-07-09T00:00:00\.000Z/);
    expect(sstReport).toMatch(/analysis_error, sea_ice_fraction, mask: not a variable of this product/);
    const m = new TileStore(sstData).manifest('marine')!;
    expect(m.variables.sea_surface_temperature!.units).toBe('°C');
    expect(m.variables.sea_surface_temperature!.mask).toBe('sea');
    expect(m.variables.sea_surface_temperature!.search_radius_km).toBe(MARINE_SEARCH_RADIUS_KM);
    // The steps of the coordinate arrays, not 0.05.
    expect(m.grid.dx).toBeCloseTo((36.325 + 18.125) / 1088, 5);
    expect(m.grid.dy).toBeCloseTo((46.025 - 30.125) / 317, 5);
  });

  it('ingests the GRIB1 swh message with its land bitmap; pmsl and z are not marine', () => {
    expect(wavesReport).toMatch(/variables\s+land_sea_mask, nearest_sea_cell, wave_height/);
    expect(wavesReport).toMatch(/pmsl@meanSea:0, z@isobaricInhPa:1000: not a variable of this product/);
  });

  it('tiles point: SST at open-sea points within 0.02 °C of netCDF4-python', async () => {
    const points = [{ lat: 44.12, lon: 12.7 }, { lat: 40.013, lon: 12.021 }, { lat: 38.03, lon: 18.47 }, { lat: 42.51, lon: 16.04 }];
    const refs = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points });
    for (const [n, r] of refs.entries()) {
      expect(r.sea, 'open sea: four sea neighbours').toEqual([true, true, true, true]);
      const p = n < 2 ? tilesPoint(sstData, r.lat, r.lon, SST_TIME, 'sea_surface_temperature') : null;
      const got = p ? p.values.sea_surface_temperature! : (await new TileStore(sstData).sample('marine', r.lat, r.lon, Date.parse(SST_TIME), ['sea_surface_temperature'])).values.sea_surface_temperature!;
      expect(Math.abs(got - r.bilinear_sea!), `${r.lat}, ${r.lon}: ${got} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(0.02);
      if (p) expect(p.distance_km).toEqual({ sea: 0 });
    }
    // Off Rimini the file's published value is 299.35 K (netCDF4-python reads the same).
    expect(refs[0]!.bilinear_sea!).toBeCloseTo(299.35 - 273.15, 1);
  });

  it('tiles point: wave height at open-sea points within 0.02 m of grib_get_data', async () => {
    const points = [{ lat: 43.03, lon: 15.04 }, { lat: 42.01, lon: 17.06 }, { lat: 44.47, lon: 13.02 }, { lat: 40.52, lon: 19.03 }];
    const refs = marineReference({ kind: 'grib', file: WAVES_FILE, var: 'swh', points });
    for (const [n, r] of refs.entries()) {
      expect(r.sea).toEqual([true, true, true, true]);
      const p = n < 2 ? tilesPoint(wavesData, r.lat, r.lon, WAVES_TIME, 'wave_height') : null;
      const got = p ? p.values.wave_height! : (await new TileStore(wavesData).sample('marine', r.lat, r.lon, Date.parse(WAVES_TIME), ['wave_height'])).values.wave_height!;
      expect(Math.abs(got - r.bilinear_sea!), `${r.lat}, ${r.lon}: ${got} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(0.02);
    }
  });

  it('coastal points read sea cells only: renormalised bilinear over mixed neighbours, the nearest sea cell within the radius, nothing beyond', async () => {
    const sst = marineReference({
      kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', radius_km: 12,
      points: [{ lat: 44.06, lon: 12.57 }, { lat: 43.77, lon: 11.25 }, { lat: 45.44, lon: 12.2 }, { lat: 41.9, lon: 12.5 }],
      mixed: { box: [40.5, 45.5, 8.5, 18.5], count: 25 },
    });
    const a = await checkPoints(new TileStore(sstData), 'sea_surface_temperature', Date.parse(SST_TIME), sst, 0.02);
    expect(a.mixed).toBeGreaterThanOrEqual(20);
    expect(a.copies).toBeGreaterThanOrEqual(1);
    expect(a.none).toBeGreaterThanOrEqual(1);

    const waves = marineReference({
      kind: 'grib', file: WAVES_FILE, var: 'swh', radius_km: 12,
      points: [{ lat: 43.62, lon: 13.45 }, { lat: 43.4, lon: 12.3 }],
      mixed: { box: [40, 46, 12, 20], count: 25 },
    });
    const b = await checkPoints(new TileStore(wavesData), 'wave_height', Date.parse(WAVES_TIME), waves, 0.02);
    expect(b.mixed).toBeGreaterThanOrEqual(20);
    expect(b.none).toBeGreaterThanOrEqual(1);
  });
});

describeShared('product marine: the real SST L4 and a MEDSEA wave file on another grid, in one ingest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-marine-mix-'));
  const root = join(dir, 'data');
  const waves = join(dir, 'medsea.nc');
  let notes: string[] = [];
  beforeAll(async () => {
    // The wave file (netCDF4-python, MEDSEA layout, 1/24° over 43.5–44.5 N 12.2–13.6 E) at the SST file's day, 00–02 UTC.
    execFileSync('/usr/bin/python3', [join(ROOT, 'test/api/fields/coastal/fixtures/make_medsea_waves.py'), waves, String(Date.parse(SST_TIME) / 1000)]);
    const report = await runIngest({ root, product: 'marine', files: [SST_FILE, waves], domain: { latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 } });
    notes = report.notes;
    expect(report.dropped).toEqual([]);
    expect(report.grid.dx).toBeCloseTo(1 / 24, 6);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the wave grid and resamples the SST onto it over sea cells; the daily SST holds over the hourly axis', async () => {
    // The whole Mediterranean file is 1089×318 cells; only the domain plus the crop margin is read (ingest/netcdf/window.ts).
    expect(notes.join('\n')).toMatch(/sea_surface_temperature resampled from regular lat\/lon 315×223/);
    expect(notes.join('\n')).toMatch(/sea_surface_temperature: \d+ cell-steps after its last step held/);
    const store = new TileStore(root);
    const points = [{ lat: 44.12, lon: 12.7 }, { lat: 43.9, lon: 13.3 }, { lat: 44.3, lon: 13.1 }];
    const refs = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points });
    for (const r of refs) {
      expect(r.sea).toEqual([true, true, true, true]);
      const at = async (h: number) => (await store.sample('marine', r.lat, r.lon, Date.parse(SST_TIME) + h * 3600_000)).values;
      const v0 = await at(0);
      // Bilinear twice (onto the wave grid, then to the point) on a smooth field: still within 0.02 °C.
      expect(Math.abs(v0.sea_surface_temperature! - r.bilinear_sea!), `${r.lat}, ${r.lon}`).toBeLessThanOrEqual(0.02);
      expect(v0.wave_height).not.toBeNull();
      for (const h of [1, 2]) expect((await at(h)).sea_surface_temperature).toBeCloseTo(v0.sea_surface_temperature!, 6);
    }
  });

  it('at wave-grid cells whose SST neighbours mix land and sea, the SST is the sea-only renormalised bilinear of netCDF4-python', async () => {
    const centres: { lat: number; lon: number }[] = [];
    for (let j = 0; j < 25; j++) for (let i = 0; i < 34; i++) centres.push({ lat: 43.5 + j / 24, lon: 12.2 + i / 24 });
    const refs = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points: centres });
    const mixed = refs.filter((r) => r.sea.some(Boolean) && !r.sea.every(Boolean));
    expect(mixed.length).toBeGreaterThanOrEqual(10);
    const store = new TileStore(root);
    for (const r of mixed) {
      const got = (await store.sample('marine', r.lat, r.lon, Date.parse(SST_TIME), ['sea_surface_temperature'])).values.sea_surface_temperature!;
      expect(Math.abs(got - r.bilinear_sea!), `${r.lat}, ${r.lon}: ${got} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(0.02);
    }
  });
});
