/**
 * CF NetCDF4 files written by h5wasm itself (as the sample-data builder does):
 * with and without HDF5 dimension scales. Without scales the reader must find
 * the coordinates by length and CF attributes (hdf5-dims.ts), even on a square
 * grid where latitude and longitude have the same length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netcdfReader } from '../../../ingest/netcdf/netcdf-reader.js';
import { cellValue, reference } from './python.js';

const N = 5; // square grid: lat and lon both have 5 values
const LATS = Float32Array.from([47, 46.5, 46, 45.5, 45]); // descending
const LONS = Float32Array.from([10, 10.25, 10.5, 10.75, 11]);
const HOURS = Float64Array.from([0, 1, 2]);

/** t2m[t][j][i] = 270 + t + 0.1·j + 0.01·i in source order (j indexes LATS). */
function t2mAt(t: number, j: number, i: number): number {
  return 270 + t + 0.1 * j + 0.01 * i;
}

function write(path: string, scales: boolean): void {
  const f = new h5wasm.File(path, 'w');
  const time = f.create_dataset({ name: 'time', data: HOURS });
  time.create_attribute('units', 'hours since 2025-03-10 06:00:00');
  time.create_attribute('standard_name', 'time');
  const lat = f.create_dataset({ name: 'lat', data: LATS });
  lat.create_attribute('units', 'degrees_north');
  const lon = f.create_dataset({ name: 'lon', data: LONS });
  lon.create_attribute('units', 'degrees_east');
  const t2m = new Float32Array(HOURS.length * N * N);
  for (let t = 0; t < HOURS.length; t++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) t2m[(t * N + j) * N + i] = t2mAt(t, j, i);
  t2m[N * N + 2 * N + 3] = NaN; // t=1, lat 46, lon 10.75
  const d = f.create_dataset({ name: 't2m', data: t2m, shape: [HOURS.length, N, N], chunks: [1, N, N], compression: 'gzip' });
  d.create_attribute('units', 'K');
  d.create_attribute('long_name', '2 metre temperature');
  d.create_attribute('_FillValue', Float32Array.of(NaN));
  const hs = f.create_dataset({ name: 'hsurf', data: Float32Array.from({ length: N * N }, (_, k) => 100 * k), shape: [N, N] });
  hs.create_attribute('units', 'm');
  if (scales) {
    for (const name of ['time', 'lat', 'lon']) (f.get(name) as InstanceType<typeof h5wasm.Dataset>).make_scale(name);
    d.attach_scale(0, 'time');
    d.attach_scale(1, 'lat');
    d.attach_scale(2, 'lon');
    hs.attach_scale(0, 'lat');
    hs.attach_scale(1, 'lon');
  }
  f.close();
}

let dir: string;
beforeAll(async () => {
  await h5wasm.ready;
  dir = mkdtempSync(join(tmpdir(), 'mp-h5-'));
  write(join(dir, 'plain.nc'), false);
  write(join(dir, 'scales.nc'), true);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const variant of ['plain', 'scales'] as const) {
  describe(`h5wasm-written NetCDF4 (${variant === 'plain' ? 'no dimension scales' : 'dimension scales attached'})`, () => {
    it('finds the grid, flips latitude and decodes times', async () => {
      const fields = await netcdfReader.read(join(dir, `${variant}.nc`));
      const t2m = fields.filter((f) => f.name === 't2m');
      expect(t2m.length).toBe(3);
      expect(t2m[0]!.grid).toEqual({ kind: 'regular_ll', nx: 5, ny: 5, x0: 10, y0: 45, dx: 0.25, dy: 0.5 });
      expect(t2m.map((f) => f.validTime.toISOString())).toEqual(['06', '07', '08'].map((h) => `2025-03-10T${h}:00:00.000Z`));
      // Source row j = 0 is 47N; output row 0 is 45N (source row 4).
      expect(cellValue(t2m[2]!, 47, 10.25)).toBeCloseTo(t2mAt(2, 0, 1), 4);
      expect(cellValue(t2m[0]!, 45, 11)).toBeCloseTo(t2mAt(0, 4, 4), 4);
      expect(cellValue(t2m[1]!, 46, 10.75)).toBeNull();
      expect(t2m[0]!.longName).toBe('2 metre temperature');
    });

    it('a static field without time takes the file’s first time', async () => {
      const fields = await netcdfReader.read(join(dir, `${variant}.nc`));
      const hs = fields.filter((f) => f.name === 'hsurf');
      expect(hs.length).toBe(1);
      expect(hs[0]!.validTime.toISOString()).toBe('2025-03-10T06:00:00.000Z');
      // Source (j=4 → 45N, i=0) holds 100·(4·5+0).
      expect(cellValue(hs[0]!, 45, 10)).toBe(2000);
    });
  });
}

it('netCDF4-python reads the scale-attached file the same way', async () => {
  const file = join(dir, 'scales.nc');
  const f = (await netcdfReader.read(file)).find((x) => x.name === 't2m');
  const expected = reference<(number | null)[]>({
    op: 'points', file, var: 't2m', lat: 'lat', lon: 'lon',
    points: [{ latDeg: 46.5, lonDeg: 10.5 }, { latDeg: 45, lonDeg: 10 }],
  });
  expect(cellValue(f!, 46.5, 10.5)).toBeCloseTo(expected[0]!, 5);
  expect(cellValue(f!, 45, 10)).toBeCloseTo(expected[1]!, 5);
});
