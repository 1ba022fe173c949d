/**
 * Synthetic CF edge cases written by python3-netCDF4 (fixtures/make_synthetic.py)
 * and decoded both by the reader and by netCDF4-python/cftime/GDAL.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netcdfReader, openNetcdf } from '../../../ingest/netcdf/netcdf-reader.js';
import { readFields } from '../../../ingest/netcdf/fields.js';
import { ReadError, type SourceField } from '../../../ingest/field.js';
import { cellLatLon } from '../../../geo/grid.js';
import { cellValue, makeSynthetic, reference } from './python.js';

let dir: string;
const file = (name: string) => join(dir, name);
const read = (name: string) => netcdfReader.read(file(name));
const iso = (fields: SourceField[], key: 'validTime' | 'referenceTime' | 'intervalStart' = 'validTime') =>
  fields.map((f) => f[key]?.toISOString());

async function readError(name: string): Promise<ReadError> {
  const p = name.startsWith('/') ? name : file(name);
  const e = await netcdfReader.read(p).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ReadError);
  expect((e as ReadError).file).toBe(p);
  return e as ReadError;
}

beforeAll(() => {
  dir = makeSynthetic();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CF time units and calendars, against cftime', () => {
  for (const name of ['cal_360', 'cal_noleap', 'cal_all_leap', 'cal_julian', 'cal_standard_old', 'cal_gregorian_tz', 'cal_seconds_z']) {
    it(`${name}: every time step equals cftime's`, async () => {
      const fields = await read(`${name}.nc`);
      const ref = reference<{ ms: number[] }>({ op: 'times', file: file(`${name}.nc`), var: 'time' });
      expect(fields.map((f) => f.validTime.getTime())).toEqual(ref.ms);
    });
  }

  it('360_day labels map to the same date labels (hand-checked)', async () => {
    // 29.5 days after 2000-01-01 = 2000-01-30 12:00; day 30 = 02-01; 360 = 2001-01-01; 725.25 = 2002-01-06 06:00.
    expect(iso(await read('cal_360.nc'))).toEqual([
      '2000-01-01T00:00:00.000Z', '2000-01-30T12:00:00.000Z', '2000-02-01T00:00:00.000Z', '2000-02-16T00:00:00.000Z',
      '2000-12-30T00:00:00.000Z', '2001-01-01T00:00:00.000Z', '2002-01-06T06:00:00.000Z',
    ]);
  });

  it('noleap skips 29 February (1422 h after 1999-12-31 18:00 is 1 March)', async () => {
    expect(iso(await read('cal_noleap.nc'))[2]).toBe('2000-03-01T00:00:00.000Z');
  });

  it('"standard" before 1582 counts Julian days (days since 0001-01-01 = 730119 is 1999-12-30)', async () => {
    expect(iso(await read('cal_standard_old.nc'))[0]).toBe('1999-12-30T00:00:00.000Z');
  });

  it('a reference time zone shifts to UTC (06:00 +01:00 is 05:00Z)', async () => {
    expect(iso(await read('cal_gregorian_tz.nc'))[0]).toBe('2020-01-01T05:00:00.000Z');
  });

  it('a model-calendar date that does not exist, an unknown calendar and month units are ReadErrors', async () => {
    expect((await readError('cal_360_feb30.nc')).reason).toMatch(/360_day date 2000-02-30/);
    expect((await readError('cal_unsupported.nc')).reason).toMatch(/calendar "lunar" is not supported/);
    expect((await readError('cal_months.nc')).reason).toMatch(/months/);
  });
});

describe('CF packing and missing values', () => {
  for (const name of ['packed_nc3.nc', 'packed_nc4.nc']) {
    it(`${name}: masks _FillValue, missing_value and valid_range in packed units, then unpacks`, async () => {
      const fields = (await read(name)).filter((f) => f.name === 't2m');
      expect(fields.length).toBe(2);
      const cells: { lat: number; lon: number; t: number }[] = [];
      for (const t of [0, 1]) for (const lat of [45, 45.5, 46]) for (const lon of [9, 9.5, 10, 10.5]) cells.push({ lat, lon, t });
      const expected = reference<(number | null)[]>({
        op: 'points', file: file(name), var: 't2m', lat: 'lat', lon: 'lon',
        points: cells.map((c) => ({ at: { time: c.t }, latDeg: c.lat, lonDeg: c.lon })),
      });
      cells.forEach((c, k) => {
        const v = cellValue(fields[c.t]!, c.lat, c.lon);
        if (expected[k] === null) expect(v, `${c.t} ${c.lat} ${c.lon}`).toBeNull();
        else expect(v).toBeCloseTo(expected[k]!, 3);
      });
      // By hand: raw -32767 (fill) and -9999 (missing) at 46N 9/9.5E, 25000 > valid max at 45.5N 9E;
      // raw 12345 at 45.5N 10E is 12345 × 0.01 + 273.15; raw 20000 (the valid maximum) stays.
      expect(cellValue(fields[0]!, 46, 9)).toBeNull();
      expect(cellValue(fields[0]!, 46, 9.5)).toBeNull();
      expect(cellValue(fields[0]!, 45.5, 9)).toBeNull();
      expect(cellValue(fields[0]!, 45.5, 10)).toBeCloseTo(396.6, 3);
      expect(cellValue(fields[0]!, 45, 9)).toBeCloseTo(473.15, 3);
    });
  }

  it('unpacks _Unsigned bytes with their fill value', async () => {
    const [f] = await read('unsigned.nc');
    expect(Array.from(f!.values)).toEqual([0, 0.5, 50, 100, 127, NaN]);
    const expected = reference<(number | null)[]>({
      op: 'points', file: file('unsigned.nc'), var: 'cover', lat: 'lat', lon: 'lon',
      points: [{ latDeg: 41, lonDeg: 2 }, { latDeg: 41, lonDeg: 3 }],
    });
    expect(expected).toEqual([127, null]);
  });

  it('reads interleaved and lone NetCDF3 record variables byte-exact', async () => {
    for (const [name, v] of [['packed_nc3.nc', 'flag'], ['packed_nc3.nc', 't2m'], ['lone_record.nc', 's']] as const) {
      const ds = await openNetcdf(file(name));
      const mine = Array.from(ds.variables.find((x) => x.name === v)!.read());
      expect(mine).toEqual(reference<number[]>({ op: 'raw', file: file(name), var: v }));
      ds.close();
    }
  });
});

describe('grids', () => {
  it('rotated_latitude_longitude: pole, axes, and cell positions agree with GDAL', async () => {
    const fields = await read('rotated.nc');
    expect(fields.map((f) => f.name)).toEqual(['tp', 'tp']); // 2-D lat/lon, bounds and the mapping are not fields
    const g = fields[0]!.grid;
    expect(g).toEqual({ kind: 'rotated_ll', nx: 25, ny: 21, x0: -8, y0: -5, dx: 0.5, dy: 0.5, southPoleLat: -47, southPoleLon: 10, angle: 0 });
    const lat = reference<number[]>({ op: 'raw', file: file('rotated.nc'), var: 'lat' });
    const lon = reference<number[]>({ op: 'raw', file: file('rotated.nc'), var: 'lon' });
    for (const [i, j] of [[0, 0], [24, 20], [12, 10], [3, 17], [20, 2]] as const) {
      const p = cellLatLon(g, i, j);
      expect(p.lat).toBeCloseTo(lat[j * 25 + i]!, 6);
      expect(p.lon).toBeCloseTo(lon[j * 25 + i]!, 6);
    }
  });

  it('time: sum with time bounds: interval from the bounds', async () => {
    const fields = await read('rotated.nc');
    expect(fields.map((f) => f.stepType)).toEqual(['accum', 'accum']);
    expect(iso(fields)).toEqual(['2019-11-15T00:00:00.000Z', '2019-11-16T00:00:00.000Z']);
    expect(iso(fields, 'intervalStart')).toEqual(['2019-11-14T18:00:00.000Z', '2019-11-15T00:00:00.000Z']);
  });

  it('regional longitudes across 0/360 and descending latitude; daily sums without bounds', async () => {
    const fields = await read('seam.nc');
    expect(fields[0]!.grid).toEqual({ kind: 'regular_ll', nx: 9, ny: 3, x0: -10, y0: 46, dx: 2, dy: 2 });
    const pts: [number, number, number][] = [[0, 46, -4], [0, 50, 6], [2, 48, 0], [1, 50, -10], [2, 46, -10]];
    const expected = reference<(number | null)[]>({
      op: 'points', file: file('seam.nc'), var: 'tp', lat: 'lat', lon: 'lon',
      points: pts.map(([t, latDeg, lonDeg]) => ({ at: { time: t }, latDeg, lonDeg })),
    });
    expect(expected[3]).toBeNull(); // the _FillValue cell
    pts.forEach(([t, lat, lon], k) => {
      const v = cellValue(fields[t]!, lat, lon);
      if (expected[k] === null) expect(v).toBeNull();
      else expect(v).toBeCloseTo(expected[k]!, 4);
    });
    expect(fields.map((f) => f.stepType)).toEqual(['accum', 'accum', 'accum']);
    // A daily axis (days since, 00 UTC, one day apart) labels the day each sum is over: [label, label + 1 day].
    expect(iso(fields, 'intervalStart')).toEqual(['2023-06-02T00:00:00.000Z', '2023-06-03T00:00:00.000Z', '2023-06-04T00:00:00.000Z']);
    expect(iso(fields)).toEqual(['2023-06-03T00:00:00.000Z', '2023-06-04T00:00:00.000Z', '2023-06-05T00:00:00.000Z']);
  });

  it('coordinates named x/y recognised by units and axis; data stored (x, y, t)', async () => {
    const fields = await read('transposed.nc');
    expect(fields[0]!.grid).toEqual({ kind: 'regular_ll', nx: 4, ny: 3, x0: 6, y0: 44, dx: 0.5, dy: 0.5 });
    expect(iso(fields)).toEqual(['2022-02-02T02:00:00.000Z', '2022-02-02T03:30:00.000Z']);
    const cells: [number, number, number][] = [];
    for (const t of [0, 1]) for (const lat of [44, 44.5, 45]) for (const lon of [6, 6.5, 7, 7.5]) cells.push([t, lat, lon]);
    const expected = reference<number[]>({
      op: 'points', file: file('transposed.nc'), var: 'sst', lat: 'y', lon: 'x',
      points: cells.map(([t, latDeg, lonDeg]) => ({ at: { t }, latDeg, lonDeg })),
    });
    cells.forEach(([t, lat, lon], k) => expect(cellValue(fields[t]!, lat, lon)).toBeCloseTo(expected[k]!, 5));
  });

  it('irregular latitude spacing is a ReadError', async () => {
    expect((await readError('irregular.nc')).reason).toMatch(/not regularly spaced/);
  });
});

describe('extra dimensions and reference times', () => {
  it('squeezes singleton level/number, splits a 3-level variable, takes forecast_reference_time', async () => {
    const fields = await read('levels.nc');
    const t = fields.filter((f) => f.name === 't');
    expect(t.map((f) => f.level)).toEqual([{ type: 'level', value: 850 }, { type: 'level', value: 850 }]);
    const z = fields.filter((f) => f.name === 'z');
    expect(z.map((f) => f.level?.value)).toEqual([100000, 85000, 50000, 100000, 85000, 50000]);
    expect(z[0]!.level!.type).toBe('air_pressure');
    expect(iso(z)).toEqual(['2024-05-01T06:00:00.000Z', ...Array(2).fill('2024-05-01T06:00:00.000Z'), ...Array(3).fill('2024-05-01T12:00:00.000Z')]);
    const expected = reference<number[]>({
      op: 'points', file: file('levels.nc'), var: 'z', lat: 'lat', lon: 'lon',
      points: [{ at: { time: 1, plev: 2 }, latDeg: 46, lonDeg: 11 }],
    });
    expect(cellValue(z[5]!, 46, 11)).toBeCloseTo(expected[0]!, 5);
    expect(new Set(iso(fields, 'referenceTime'))).toEqual(new Set(['2024-05-01T00:00:00.000Z']));
    const fg = fields.filter((f) => f.name === 'fg');
    expect(fg.map((f) => f.stepType)).toEqual(['max', 'max']);
    expect(iso(fg, 'intervalStart')).toEqual(['2024-05-01T00:00:00.000Z', '2024-05-01T06:00:00.000Z']);
  });

  it('forecast_reference_time × forecast_period dimensions', async () => {
    const fields = await read('ref_period.nc');
    expect(iso(fields)).toEqual(['01', '02', '03', '13', '14', '15'].map((h) => `2024-01-01T${h}:00:00.000Z`));
    expect(iso(fields, 'referenceTime')).toEqual([...Array(3).fill('2024-01-01T00:00:00.000Z'), ...Array(3).fill('2024-01-01T12:00:00.000Z')]);
    expect(fields.every((f) => f.stepType === 'accum')).toBe(true);
    expect(iso(fields, 'intervalStart')[4]).toBe('2024-01-01T13:00:00.000Z');
  });
});

describe('broken and unsupported files', () => {
  it('CDF5 is refused with a clear reason', async () => {
    expect((await readError('cdf5.nc')).reason).toMatch(/CDF5.*not supported/);
  });

  it('truncated NetCDF3 and NetCDF4 files are ReadErrors that say so', async () => {
    expect((await readError('trunc_nc3.nc')).reason).toMatch(/truncated/);
    expect((await readError('trunc_nc4.nc')).reason).toMatch(/truncated: the HDF5 superblock says \d+ bytes, the file has \d+/);
    // Header intact, data cut short.
    const whole = readFileSync(file('packed_nc3.nc'));
    writeFileSync(file('cut_data.nc'), whole.subarray(0, whole.length - 10));
    expect((await readError('cut_data.nc')).reason).toMatch(/truncated: variable \w+ needs \d+ bytes, the file has \d+/);
  });

  it('garbage after a CDF signature, a text file, a missing file, a file without fields', async () => {
    expect((await readError('garbage_cdf.nc')).reason).toMatch(/header unreadable/);
    writeFileSync(file('text.nc'), 'hello, not netcdf\n');
    expect((await readError('text.nc')).reason).toMatch(/not a NetCDF file/);
    expect((await readError('does-not-exist.nc')).reason).toMatch(/cannot open: ENOENT/);
    expect((await readError('no_fields.nc')).reason).toMatch(/no gridded latitude\/longitude field/);
  });

  it('sniffs by magic bytes only', () => {
    const b = (s: number[]) => Uint8Array.from(s);
    expect(netcdfReader.sniff(b([0x43, 0x44, 0x46, 1, 0]))).toBe(true);
    expect(netcdfReader.sniff(b([0x43, 0x44, 0x46, 2, 0]))).toBe(true);
    expect(netcdfReader.sniff(b([0x43, 0x44, 0x46, 5, 0]))).toBe(true); // claimed, then refused clearly
    expect(netcdfReader.sniff(b([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(netcdfReader.sniff(b([0x47, 0x52, 0x49, 0x42, 0, 0, 0, 2]))).toBe(false); // GRIB
    expect(netcdfReader.sniff(b([0x43, 0x44, 0x46, 3]))).toBe(false);
  });
});

describe('block reading', () => {
  it('gives the same fields whatever the read block size (levels inside blocks, partial last block)', async () => {
    for (const name of ['levels.nc', 'packed_nc3.nc', 'transposed.nc', 'seam.nc']) {
      const whole = await read(name);
      const ds = await openNetcdf(file(name));
      const small = readFields(ds, 6).fields;
      ds.close();
      expect(small.length).toBe(whole.length);
      small.forEach((f, k) => {
        expect(f.validTime).toEqual(whole[k]!.validTime);
        expect(f.level).toEqual(whole[k]!.level);
        expect(Array.from(f.values)).toEqual(Array.from(whole[k]!.values));
      });
    }
  });
});
