/**
 * The real NetCDF files in ../shared/data, decoded by the reader and compared
 * with netCDF4-python/cftime (fixtures/reference.py) at specific cells and
 * over whole fields.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeShared, dataFile } from '../../support/shared-data.js';
import { netcdfReader, openNetcdf } from '../../../ingest/netcdf/netcdf-reader.js';
import { readFields } from '../../../ingest/netcdf/fields.js';
import type { SourceField } from '../../../ingest/field.js';
import { cellValue, fieldStats, reference, type Stats } from './python.js';

const CAMS = dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc');
const ERA5LAND = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
const GUST = dataFile('era5-gust-global-nc3/wgust_era5.nc');

function pick(fields: SourceField[], name: string, index: number): SourceField {
  const list = fields.filter((f) => f.name === name);
  return list[index]!;
}

function expectStats(actual: Stats, expected: Stats, relTol: number) {
  expect(actual.count).toBe(expected.count);
  expect(actual.nan).toBe(expected.nan);
  expect(actual.min).toBeCloseTo(expected.min, 4);
  expect(actual.max).toBeCloseTo(expected.max, 4);
  expect(Math.abs(actual.mean - expected.mean)).toBeLessThanOrEqual(Math.abs(expected.mean) * relTol);
}

describeShared('NetCDF reader: CAMS EAC4 Milan (NetCDF4, 3-hourly, hours since 2020-01-01)', () => {
  let fields: SourceField[];
  beforeAll(async () => {
    fields = await netcdfReader.read(CAMS);
  });

  it('yields every variable at every time step', () => {
    const names = [...new Set(fields.map((f) => f.name))];
    expect(names).toEqual(['co', 'no2', 'no', 'go3', 'pan', 'so2', 'pm10', 'pm2p5']);
    expect(fields.length).toBe(8 * 2928);
  });

  it('normalises the descending 0.75° grid', () => {
    expect(fields[0]!.grid).toEqual({ kind: 'regular_ll', nx: 4, ny: 3, x0: 9, y0: 45, dx: 0.75, dy: 0.75 });
  });

  it('decodes every time like cftime', () => {
    const ref = reference<{ ms: number[] }>({ op: 'times', file: CAMS, var: 'time' });
    const pm = fields.filter((f) => f.name === 'pm2p5');
    expect(pm.map((f) => f.validTime.getTime())).toEqual(ref.ms);
    expect(pm[1]!.validTime.toISOString()).toBe('2020-01-01T03:00:00.000Z');
    expect(pm.every((f) => f.referenceTime.getTime() === f.validTime.getTime() && f.stepType === 'instant')).toBe(true);
  });

  it('matches netCDF4-python for pm2p5 at every cell of several steps', () => {
    const cells: [number, number][] = [];
    for (const lat of [45, 45.75, 46.5]) for (const lon of [9, 9.75, 10.5, 11.25]) cells.push([lat, lon]);
    for (const t of [0, 1000, 2927]) {
      const f = pick(fields, 'pm2p5', t);
      const expected = reference<(number | null)[]>({
        op: 'points', file: CAMS, var: 'pm2p5', lat: 'latitude', lon: 'longitude',
        points: cells.map(([latDeg, lonDeg]) => ({ at: { time: t }, latDeg, lonDeg })),
      });
      const actual = cells.map(([lat, lon]) => cellValue(f, lat, lon));
      actual.forEach((v, k) => expect(v).toBeCloseTo(expected[k]!, 4));
      expect(f.units).toBe('ug m**-3');
      expect(f.standardName).toBe('mass_concentration_of_pm2p5_ambient_aerosol_particles_in_air');
    }
  });

  it('matches whole-field statistics of no2', () => {
    for (const t of [5, 2000]) {
      expectStats(fieldStats(pick(fields, 'no2', t).values), reference<Stats>({ op: 'stats', file: CAMS, var: 'no2', at: { time: t } }), 1e-6);
    }
  });
});

describeShared('NetCDF reader: ERA5-Land Italy daily (NetCDF4, NaN over sea, descending latitude)', () => {
  let fields: SourceField[];
  beforeAll(async () => {
    fields = await netcdfReader.read(ERA5LAND);
  });

  it('flips the descending latitude into a south-up grid', () => {
    expect(fields.length).toBe(3 * 61);
    expect(fields[0]!.grid).toEqual({ kind: 'regular_ll', nx: 60, ny: 60, x0: 7.2, y0: 36.2, dx: 0.2, dy: 0.2 });
  });

  it('decodes "days since 1970-01-01": each record is the mean over the day it is labelled with', () => {
    const t2m = fields.filter((f) => f.name === 't2m');
    expect(t2m[0]!.intervalStart!.toISOString()).toBe('2023-11-01T00:00:00.000Z');
    expect(t2m[0]!.validTime.toISOString()).toBe('2023-11-02T00:00:00.000Z');
    expect(t2m[60]!.validTime.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(new Set(fields.map((f) => f.stepType))).toEqual(new Set(['avg']));
    expect(t2m.map((f) => f.intervalStart!.getTime())).toEqual(reference<{ ms: number[] }>({ op: 'times', file: ERA5LAND, var: 'time' }).ms);
  });

  it('matches netCDF4-python t2m at land and sea points', () => {
    const pts: [number, number][] = [[43.8, 12.4], [45.4, 9.2], [48, 7.2], [42, 7.2], [36.2, 7.2], [41, 15], [37.6, 14.2], [47, 19]];
    for (const t of [0, 30, 60]) {
      const expected = reference<(number | null)[]>({
        op: 'points', file: ERA5LAND, var: 't2m', lat: 'latitude', lon: 'longitude',
        points: pts.map(([latDeg, lonDeg]) => ({ at: { time: t }, latDeg, lonDeg })),
      });
      const f = pick(fields, 't2m', t);
      pts.forEach(([lat, lon], k) => {
        const v = cellValue(f, lat, lon);
        if (expected[k] === null) expect(v).toBeNull();
        else expect(v).toBeCloseTo(expected[k]!, 5);
      });
    }
    // 42N 7.2E is open sea west of Corsica: NaN in the source, NaN here.
    expect(cellValue(pick(fields, 't2m', 0), 42, 7.2)).toBeNull();
  });

  it('reads the same values in blocks of 7 days (9 blocks, the last partial)', async () => {
    const ds = await openNetcdf(ERA5LAND);
    const blocked = readFields(ds, 7 * 3600).fields;
    ds.close();
    expect(blocked.length).toBe(fields.length);
    blocked.forEach((f, k) => {
      expect(f.name).toBe(fields[k]!.name);
      expect(f.validTime).toEqual(fields[k]!.validTime);
      expect(f.values).toEqual(fields[k]!.values);
    });
  });

  it('matches whole-field statistics, NaN count included', () => {
    for (const [name, t] of [['t2m', 0], ['t2m', 60], ['tp', 10], ['rh', 5]] as const) {
      expectStats(fieldStats(pick(fields, name, t).values), reference<Stats>({ op: 'stats', file: ERA5LAND, var: name, at: { time: t } }), 1e-6);
    }
  });
});

describeShared('NetCDF reader: ERA5 gust global (NetCDF3 64-bit offset, 0..360, packed short)', () => {
  let field: SourceField;
  beforeAll(async () => {
    const fields = await netcdfReader.read(GUST);
    expect(fields.length).toBe(1);
    field = fields[0]!;
  });

  it('rolls the global 0..360 grid so that x0 = -180 and flips latitude', () => {
    expect(field.grid).toEqual({ kind: 'regular_ll', nx: 1440, ny: 721, x0: -180, y0: -90, dx: 0.25, dy: 0.25 });
    expect(field.validTime.toISOString()).toBe('2011-08-01T00:00:00.000Z');
    expect(field.name).toBe('i10fg');
    expect(field.units).toBe('m s**-1');
  });

  it('unpacks the same gusts as netCDF4-python on both sides of the seam', () => {
    const pts: [number, number][] = [[45.5, 9.25], [41.75, 12.5], [0, -180], [0, -179.75], [0, 179.75], [-33.75, -70.75], [90, 0], [-90, -0.25], [60, -0.25], [60, 0]];
    const expected = reference<(number | null)[]>({
      op: 'points', file: GUST, var: 'i10fg', lat: 'latitude', lon: 'longitude',
      points: pts.map(([latDeg, lonDeg]) => ({ latDeg, lonDeg })),
    });
    pts.forEach(([lat, lon], k) => expect(cellValue(field, lat, lon)).toBeCloseTo(expected[k]!, 4));
    // Column 0 is 180°W (source column 720), the last column 179.75°E (source 719).
    expect(field.values[360 * 1440]).toBeCloseTo(expected[2]!, 4);
    expect(field.values[360 * 1440 + 1439]).toBeCloseTo(expected[4]!, 4);
  });

  it('matches whole-field statistics', () => {
    expectStats(fieldStats(field.values), reference<Stats>({ op: 'stats', file: GUST, var: 'i10fg' }), 1e-6);
  });
});
