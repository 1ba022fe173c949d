/**
 * Window-only NetCDF reads (ingest/netcdf/window.ts): global files in the
 * NOAA PSL 20CRv3 layout (written by netCDF4-python: lat 90 → −90, lon
 * 0..359, zlib, `hours since 1800-01-01`) read with the ingest's box. Checked
 * against netCDF4-python's own slice of the same file at every cell of the
 * window, and against the crop of a whole read (the pipeline's crop,
 * ingest/mapping/crop.ts); the NetCDF4 variable is read as hyperslabs only
 * (its whole read is never called), a NetCDF3 copy gathers the same window.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNetcdf, readNetcdf } from '../../../ingest/netcdf/netcdf-reader.js';
import { readFields } from '../../../ingest/netcdf/fields.js';
import { cropValues, cropWindow } from '../../../ingest/mapping/crop.js';
import type { SourceField } from '../../../ingest/field.js';
import type { NcVariable } from '../../../ingest/netcdf/model.js';

const PYTHON = '/usr/bin/python3';
const WRITER = join(import.meta.dirname, '../../api/history/fixtures/write_20crv3.py');
/** The default service domain (config/domain.ts) as the pipeline passes it: west, south, east, north. */
const BOX = [5, 35, 20.5, 48] as const;

/** netCDF4-python's values of `var` at time index t over the rows and columns of the given latitudes and longitudes. */
const SLICE = `
import json, sys
import numpy as np
from netCDF4 import Dataset
path, var, lats, lons, times = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), json.loads(sys.argv[5])
with Dataset(path) as ds:
    lat = ds['lat'][:].tolist(); lon = ds['lon'][:].tolist()
    rows = [lat.index(a) for a in lats]; cols = [lon.index(o % 360) for o in lons]
    v = ds[var]
    out = []
    for t in (times if v.ndim == 3 else [None]):
        a = v[t] if t is not None else v[:]
        out.append([[float(a[r, c]) for c in cols] for r in rows])
print(json.dumps(out))
`;

/** Copy a NetCDF4 file to NetCDF3 (64-bit offset) with netCDF4-python, the same variables and attributes. */
const TO_NC3 = `
import sys
from netCDF4 import Dataset
src, dst = sys.argv[1], sys.argv[2]
with Dataset(src) as a, Dataset(dst, 'w', format='NETCDF3_64BIT_OFFSET') as b:
    for n, d in a.dimensions.items(): b.createDimension(n, None if d.isunlimited() else len(d))
    for n, v in a.variables.items():
        w = b.createVariable(n, v.dtype, v.dimensions, fill_value=getattr(v, '_FillValue', None))
        w.setncatts({k: v.getncattr(k) for k in v.ncattrs() if k != '_FillValue'})
        w[:] = v[:]
`;

function pySlice(path: string, v: string, f: SourceField, times: number[]): number[][][] {
  const lats = Array.from({ length: f.grid.ny }, (_, j) => f.grid.y0 + j * f.grid.dy);
  const lons = Array.from({ length: f.grid.nx }, (_, i) => f.grid.x0 + i * f.grid.dx);
  return JSON.parse(execFileSync(PYTHON, ['-c', SLICE, path, v, JSON.stringify(lats), JSON.stringify(lons), JSON.stringify(times)], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })) as number[][][];
}

describe('NetCDF window-only reads of a global 20CRv3 file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-nc-window-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const air = join(dir, 'air.2m.1925.nc');
  const hgt = join(dir, 'hgt.sfc.nc');
  const air3 = join(dir, 'air.2m.1925.nc3');
  beforeAll(() => {
    execFileSync(PYTHON, [WRITER, JSON.stringify({ dir, year: 1925, first_day: '07-01', days: 2 })], { stdio: 'pipe' });
    execFileSync(PYTHON, ['-c', TO_NC3, air, air3], { stdio: 'pipe' });
  });

  it('reads only the box plus the crop margin, each value as netCDF4-python slices it', async () => {
    const fields = await readNetcdf(air, { box: BOX });
    expect(fields).toHaveLength(16);
    // 1° cells from 3 °E to 23 °E and 33 °N to 50 °N: the box widened by the two-cell margin.
    expect(fields[0]!.grid).toMatchObject({ kind: 'regular_ll', nx: 21, ny: 18, x0: 3, y0: 33, dx: 1, dy: 1 });
    const py = pySlice(air, 'air', fields[0]!, [0, 7, 15]);
    [0, 7, 15].forEach((t, n) => {
      const f = fields[t]!;
      for (let j = 0; j < f.grid.ny; j++) for (let i = 0; i < f.grid.nx; i++) expect(f.values[j * f.grid.nx + i]).toBe(Math.fround(py[n]![j]![i]!));
    });
    const [oro] = await readNetcdf(hgt, { box: BOX });
    const pyOro = pySlice(hgt, 'hgt', oro!, []);
    for (let j = 0; j < oro!.grid.ny; j++) for (let i = 0; i < oro!.grid.nx; i++) expect(oro!.values[j * oro!.grid.nx + i]).toBe(Math.fround(pyOro[0]![j]![i]!));
  });

  it('equals the crop of a whole read, for NetCDF4 (hyperslab) and NetCDF3 (gathered window)', async () => {
    const whole = await readNetcdf(air);
    expect(whole[0]!.grid).toMatchObject({ nx: 360, ny: 181 });
    const w = cropWindow(whole[0]!.grid, { lonMin: BOX[0], latMin: BOX[1], lonMax: BOX[2], latMax: BOX[3] })!;
    for (const file of [air, air3]) {
      const part = await readNetcdf(file, { box: BOX });
      expect(part).toHaveLength(whole.length);
      part.forEach((f, t) => {
        expect(f.validTime).toEqual(whole[t]!.validTime);
        expect(Array.from(f.values)).toEqual(Array.from(cropValues(whole[t]!.values, whole[t]!.grid, w)));
      });
    }
  });

  it('never reads the NetCDF4 variable whole: hyperslabs of the window only', async () => {
    const ds = await openNetcdf(air);
    try {
      const v = ds.variables.find((x) => x.name === 'air') as NcVariable & { read: NcVariable['read']; readWindow: NonNullable<NcVariable['readWindow']> };
      const slabs: (readonly (readonly [number, number])[])[] = [];
      const readWindow = v.readWindow.bind(v);
      v.read = () => {
        throw new Error('whole read');
      };
      v.readWindow = (ranges) => {
        slabs.push(ranges);
        return readWindow(ranges);
      };
      const { fields } = readFields(ds, undefined, BOX);
      expect(fields.filter((f) => f.name === 'air')).toHaveLength(16);
      // Rows of latitudes 50 → 33 (source rows 40..57, north first), columns of 3..23 °E (source 3..23).
      expect(slabs).toEqual([[[0, 16], [40, 58], [3, 24]]]);
    } finally {
      ds.close();
    }
  });
});
