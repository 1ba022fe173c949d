/**
 * Every GRIB and NetCDF file of ../shared/data that carries an NWP or
 * elevation variable ingests, and the published store answers point
 * lookups with the values an independent implementation gives: python GDAL
 * (GRIB) or python netCDF4 (NetCDF) reading the four neighbouring cells,
 * bilinear in python, units converted by hand in this test.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import type { IngestReport } from '../../ingest/ingest-report.js';
import { TileStore } from '../../tiles/read/reader.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { gdalBilinear, netcdfBilinear } from './pipeline-reference.js';

const ROTATED_COSMO: [number, number] = [-47, 10];
/** Centre of the top-left cell and spacing of the COSMO-2I grid (grib_ls: lon −3.8, lat 5.5 … −8.5, 0.02°), which GDAL cannot read from GRIB1. */
const COSMO_GRID: [number, number, number, number] = [-3.8, 5.5, 0.02, 0.02];

describeShared('runIngest on the real files of ../shared/data', () => {
  let base: string;
  let n = 0;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mp-ingest-real-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  /** Ingest into a fresh data directory; returns the report and a reader on it. */
  async function ingest(product: string, rels: string[]): Promise<{ report: IngestReport; store: TileStore }> {
    const root = join(base, `r${n++}`);
    const report = await runIngest({ root, product, files: rels.map(dataFile) });
    return { report, store: new TileStore(root) };
  }
  async function at(store: TileStore, product: string, lat: number, lon: number, time: string | null): Promise<Record<string, number | null>> {
    return (await store.sample(product, lat, lon, time === null ? null : Date.parse(time))).values;
  }
  const K = 273.15;

  it('IFS HRES 2 m temperature (GRIB2, alternative row scanning): Bologna and Rome, K → °C', async () => {
    const file = 'ifs-hres-t2m-italy/alternate-scanning.grib';
    const { report, store } = await ingest('nwp', [file]);
    expect(report.variables).toEqual(['temperature_2m']);
    expect(report.from).toBe('2021-08-01T15:00:00.000Z');
    expect(report.grid.nx).toBeLessThan(291); // cropped to the domain
    for (const [lat, lon] of [[44.4949, 11.3426], [41.9028, 12.4964]] as const) {
      const ref = gdalBilinear(dataFile(file), 1, lat, lon).value! - K;
      const got = (await at(store, 'nwp', lat, lon, report.from!)).temperature_2m!;
      expect(Math.abs(got - ref)).toBeLessThan(0.011);
    }
  });

  it('ERA5 2 m temperature (GRIB1): Milan', async () => {
    const file = 'era5-t2m-europe/era5-single-level-scalar-time.grib';
    const { report, store } = await ingest('nwp', [file]);
    const ref = gdalBilinear(dataFile(file), 1, 45.4642, 9.19).value! - K;
    const got = (await at(store, 'nwp', 45.4642, 9.19, '2017-01-01T12:00:00Z')).temperature_2m!;
    expect(report.times).toBe(1);
    expect(Math.abs(got - ref)).toBeLessThan(0.011);
  });

  it('ERA5 soil/surface mix (GRIB1): keeps 2t, reports the soil levels as skipped', async () => {
    const file = 'era5-soil-nw-italy/soil-surface-level-mix.grib';
    const { report, store } = await ingest('nwp', [file]);
    expect(report.variables).toEqual(['temperature_2m']);
    expect(report.skipped.map((s) => s.name)).toContain('stl1@depthBelowLandLayer:0');
    expect(report.skipped).toHaveLength(9);
    const ref = gdalBilinear(dataFile(file), 1, 44.5, 7.7).value! - K;
    const got = (await at(store, 'nwp', 44.5, 7.7, '2022-01-01T00:00:00Z')).temperature_2m!;
    expect(Math.abs(got - ref)).toBeLessThan(0.011);
  });

  it('COSMO-2I precipitation 18–24 h + orography (rotated grid): amount over the interval ending at +24 h, elevation', async () => {
    const tp = 'cosmo2i-rotated/cosmo_test.grib2';
    const orog = 'cosmo2i-rotated/COS2I_orog_20180825.grb';
    const { report, store } = await ingest('nwp', [tp, orog]);
    expect(report.variables).toEqual(['elevation', 'precipitation']);
    expect(report.grid.kind).toBe('rotated_ll');
    expect(report.from).toBe('2019-11-15T00:00:00.000Z'); // run 2019-11-14 00Z + 24 h
    expect(report.to).toBe(report.from);
    for (const [lat, lon] of [[44.41, 8.93], [45.07, 7.69], [46.0, 11.0]] as const) {
      const refTp = gdalBilinear(dataFile(tp), 1, lat, lon, { rotatedSouthPole: ROTATED_COSMO }).value!; // kg m-2 = mm
      const refZ = gdalBilinear(dataFile(orog), 1, lat, lon, { rotatedSouthPole: ROTATED_COSMO, grid: COSMO_GRID }).value!;
      const v = await at(store, 'nwp', lat, lon, report.from!);
      expect(Math.abs(v.precipitation! - refTp)).toBeLessThan(0.011);
      expect(Math.abs(v.elevation! - refZ)).toBeLessThan(0.06);
    }
    expect(refPositive((await at(store, 'nwp', 44.41, 8.93, report.from!)).precipitation)).toBe(true);
  });

  it('Adriatic test.grib1: MSL pressure (0.5°) Pa → hPa; wave height and z on 1000 hPa are left out', async () => {
    const file = 'adriatic-waves/test.grib1';
    const { report, store } = await ingest('nwp', [file]);
    expect(report.variables).toEqual(['pressure_msl']);
    expect(report.skipped.map((s) => s.name).sort()).toEqual(['swh@surface:0', 'z@isobaricInhPa:1000']);
    // GDAL reads one grid per dataset: hand it the second message alone (grib_copy copies bytes, decodes nothing).
    const single = join(base, 'pmsl.grib1');
    execFileSync('grib_copy', ['-w', 'count=2', dataFile(file), single]);
    const ref = gdalBilinear(single, 1, 43.62, 13.51).value! / 100;
    const got = (await at(store, 'nwp', 43.62, 13.51, '2007-07-07T00:00:00Z')).pressure_msl!;
    expect(Math.abs(got - ref)).toBeLessThan(0.011);
  });

  it('ERA5-Land daily NetCDF4 (°C already, rh %, tp m/day; descending latitude, NaN over sea): Florence', async () => {
    const file = 'era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc';
    const { report, store } = await ingest('nwp', [file]);
    expect(report.variables).toEqual(['dew_point_2m', 'precipitation', 'relative_humidity_2m', 'temperature_2m']);
    // 61 days, each stored at its end (the next 00 UTC).
    expect(report.times).toBe(61);
    expect([report.from, report.to]).toEqual(['2023-11-02T00:00:00.000Z', '2024-01-01T00:00:00.000Z']);
    expect(report.notes.join()).toMatch(/dew_point_2m derived/);
    const ref = (name: string, day: number) => netcdfBilinear(dataFile(file), name, day, 43.77, 11.25).value!;
    // Each record is the day it is labelled with: 2 Nov 2023 (storm Ciarán) answers on 2 Nov, at any hour of it, unblended.
    for (const [day, times] of [[1, ['2023-11-02T00:30:00Z', '2023-11-02T12:00:00Z', '2023-11-03T00:00:00Z']], [14, ['2023-11-15T18:00:00Z']]] as const) {
      for (const time of times) {
        const v = await at(store, 'nwp', 43.77, 11.25, time);
        // m/day over one day → mm
        expect(Math.abs(v.precipitation! - 1000 * ref('tp', day))).toBeLessThan(0.011);
        expect(Math.abs(v.temperature_2m! - ref('t2m', day))).toBeLessThan(0.011);
        expect(Math.abs(v.relative_humidity_2m! - ref('rh', day))).toBeLessThan(0.051);
      }
    }
    expect(1000 * ref('tp', 1)).toBeGreaterThan(30);
    // 2 Nov 00 UTC closes 1 Nov: that day's total, not 2 Nov's.
    expect(Math.abs((await at(store, 'nwp', 43.77, 11.25, '2023-11-02T00:00:00Z')).precipitation! - 1000 * ref('tp', 0))).toBeLessThan(0.011);
    const m = JSON.parse(readFileSync(join(store.root, 'tiles', 'nwp', 'current.json'), 'utf8')).variables;
    expect([m.temperature_2m.interval, m.relative_humidity_2m.interval, m.dew_point_2m.interval]).toEqual(Array(3).fill({ statistic: 'mean', seconds: 86400 }));
    expect(m.precipitation.interval).toEqual({ statistic: 'sum', seconds: 86400 });
  });

  it('ERA5 gust, global NetCDF3 (0..360 longitudes, packed short): cropped to Italy, value at Rome', async () => {
    const file = 'era5-gust-global-nc3/wgust_era5.nc';
    const { report, store } = await ingest('nwp', [file]);
    expect(report.variables).toEqual(['wind_gust_10m']);
    expect([report.grid.nx, report.grid.ny]).toEqual([67, 57]);
    const ref = netcdfBilinear(dataFile(file), 'i10fg', 0, 41.93, 12.47).value!;
    const got = (await at(store, 'nwp', 41.93, 12.47, '2011-08-01T00:00:00Z')).wind_gust_10m!;
    expect(Math.abs(got - ref)).toBeLessThan(0.011);
  });

  it('dem from ARPAE nita1k_orog.grb (unnamed parameter, 9999 = no data): San Marino; a 2×2 block of 9999 is missing', async () => {
    const file = 'dem-north-italy-1km/nita1k_orog.grb';
    const { report, store } = await ingest('dem', [file]);
    expect(report.variables).toEqual(['elevation']);
    expect(report.times).toBe(0);
    expect(report.notes.join()).toMatch(/taken as elevation/);
    const ref = gdalBilinear(dataFile(file), 1, 43.9356, 12.4473).value!;
    const got = (await at(store, 'dem', 43.9356, 12.4473, null)).elevation!;
    expect(Math.abs(got - ref)).toBeLessThan(0.06);
    // Rows 65–66, columns 109–110 of the file (46.55–46.54 N, 7.926–7.94 E) are all 9999 (GDAL: nodata).
    const hole = gdalBilinear(dataFile(file), 1, 46.545, 7.933);
    expect(hole.corners).toEqual([null, null, null, null]);
    expect((await at(store, 'dem', 46.545, 7.933, null)).elevation).toBeNull();
    // The sea is ~0 m in this file, not missing.
    expect(Math.abs((await at(store, 'dem', 44.2, 13.2, null)).elevation!)).toBeLessThan(0.06);
  });

  it('dem from the two ICON-2I orography files: keeps the all-Italy grid, reports the other as dropped; Etna', async () => {
    const ita = 'icon2i-orography/I2ITA2KM_orog_20241009.grib2';
    const { report, store } = await ingest('dem', [ita, 'icon2i-orography/I2NITA2KM_orog_20241009.grib2']);
    expect(report.grid.nx).toBe(485);
    expect(report.dropped).toHaveLength(1);
    expect(report.dropped[0]).toMatchObject({ source: 'hsurf', variable: 'elevation' });
    expect(report.dropped[0]!.file).toMatch(/I2NITA2KM/);
    const ref = gdalBilinear(dataFile(ita), 1, 37.751, 14.993).value!;
    const got = (await at(store, 'dem', 37.751, 14.993, null)).elevation!;
    expect(Math.abs(got - ref)).toBeLessThan(0.06);
  });

  it('nwp from an orography file alone is refused (IngestError) and names the file', async () => {
    await expect(ingest('nwp', ['icon2i-orography/I2NITA2KM_orog_20241009.grib2'])).rejects.toThrow(/I2NITA2KM_orog_20241009\.grib2: product nwp needs at least one time-varying variable/);
  });

  it('CAMS concentrations are not NWP: IngestError naming the file and what it holds', async () => {
    await expect(ingest('nwp', ['cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc'])).rejects.toThrow(
      /cams_global_reanalysis_concentrations_2020\.nc: no variable product nwp knows; found co \[ug m\*\*-3\], no2/,
    );
  });
});

function refPositive(v: number | null | undefined): boolean {
  return typeof v === 'number' && v > 1;
}
