/**
 * The store is standard Zarr v2 + CF: Debian's xarray (with zarr-python and
 * numcodecs) opens it unchanged, decodes packing, fill values and times, and
 * its values agree with the input and with the point reader.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it, beforeAll } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { cellLatLon, type GridDef } from '../../../geo/grid.js';
import { REGULAR, ROTATED, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const PYTHON = '/usr/bin/python3';

/** Python side: open with xarray (CF decoding on), dump what the test compares. */
const SCRIPT = `
import json, sys, math
import xarray as xr, zarr
path, points = sys.argv[1], json.loads(sys.argv[2])
ds = xr.open_zarr(path)
def num(v):
    v = float(v)
    return None if math.isnan(v) else v
out = {
  'dims': {k: int(v) for k, v in ds.sizes.items()},
  'vars': {k: list(ds[k].dims) for k in ds.data_vars},
  'scalars': [k for k in ds.data_vars if ds[k].ndim == 0],
  'coords': sorted(ds.coords),
  'time': [str(t)[:19] for t in ds['time'].values] if 'time' in ds else [],
  'encoding': {k: {'dtype': str(ds[k].encoding.get('dtype')), 'scale_factor': ds[k].encoding.get('scale_factor'),
                   'compressor': ds[k].encoding['compressor'].codec_id, 'chunks': list(ds[k].encoding['chunks']),
                   'filters': [f.get_config() for f in ds[k].encoding.get('filters') or []]} for k in ds.data_vars if ds[k].ndim > 0},
  'values': [], 'latlon': [], 'mapping': None,
}
for t, j, i in points:
    row = {}
    for k in ds.data_vars:
        da = ds[k]
        if da.ndim == 0: continue
        row[k] = num(da.values[j, i]) if da.ndim == 2 else num(da.values[t, j, i])
    out['values'].append(row)
    out['latlon'].append([num(ds['lat'].values[j, i]), num(ds['lon'].values[j, i])] if ds['lat'].ndim == 2
                         else [num(ds['lat'].values[j]), num(ds['lon'].values[i])])
if 'rotated_latitude_longitude' in ds.variables:
    out['mapping'] = {k: v for k, v in ds['rotated_latitude_longitude'].attrs.items()}
    out['grid_mapping'] = ds['temperature_2m'].encoding.get('grid_mapping') or ds['temperature_2m'].attrs.get('grid_mapping')
print(json.dumps(out))
`;

function xarrayDump(path: string, points: [number, number, number][]) {
  const out = execFileSync(PYTHON, ['-c', SCRIPT, path, JSON.stringify(points)], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out) as {
    dims: Record<string, number>; vars: Record<string, string[]>; scalars: string[]; coords: string[]; time: string[];
    encoding: Record<string, { dtype: string; scale_factor: number | null; compressor: string; chunks: number[]; filters: unknown[] }>;
    values: Record<string, number | null>[]; latlon: [number, number][];
    mapping: Record<string, number | string> | null; grid_mapping?: string;
  };
}

const temp = (x: number, y: number, h: number) => 15 + 0.8 * y - 0.3 * x + 0.25 * h;
const elev = (x: number, y: number) => 10 * (y - x) + 500;

describe.each([
  ['regular', REGULAR, ['lat', 'lon']],
  ['rotated', ROTATED, ['rlat', 'rlon']],
] as const)('xarray opens a %s-grid store unchanged', (_name, grid: GridDef, dims) => {
  const root = tempRoot('xarray');
  const times = hourlyTimes(5);
  const tValues = analytic(grid, times, temp);
  tValues[2]![3 * grid.nx + 4] = NaN; // a missing cell at t=2, j=3, i=4
  const eValues = analytic(grid, [], elev);
  let path = '';
  beforeAll(async () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} not found: install python3-xarray python3-zarr python3-numcodecs (Debian)`);
    const r = await writeProductVersion(root, input('nwp', grid, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: tValues, standardName: 'air_temperature' },
      precipitation: { units: 'mm', precision: 1e-5, values: analytic(grid, times, (x, y) => 1000 * Math.abs(x + y)) },
      elevation: { units: 'm', precision: 0.1, static: true, values: eValues },
    }));
    path = r.path;
  });

  const points: [number, number, number][] = [[0, 0, 0], [1, 7, 33], [2, 3, 4], [4, grid.ny - 1, grid.nx - 1], [3, 35, 40]];

  it('decodes dims, coordinates, times and encodings', () => {
    const d = xarrayDump(path, points);
    expect(d.dims).toMatchObject({ time: 5, [dims[0]]: grid.ny, [dims[1]]: grid.nx });
    expect(d.vars.temperature_2m).toEqual(['time', ...dims]);
    expect(d.vars.elevation).toEqual([...dims]);
    expect(d.coords).toEqual(expect.arrayContaining(['time', 'lat', 'lon', ...dims]));
    expect(d.time).toEqual(times.map((t) => t.toISOString().slice(0, 19)));
    expect(d.encoding.temperature_2m).toEqual({
      dtype: 'int16', scale_factor: 0.01, compressor: 'zstd', chunks: [5, 32, 32], filters: [{ id: 'shuffle', elementsize: 2 }],
    });
    expect(d.encoding.precipitation!.dtype).toBe('float32');
    expect(d.encoding.precipitation!.filters).toEqual([{ id: 'shuffle', elementsize: 4 }]);
    expect(d.encoding.elevation!.chunks).toEqual([32, 32]);
    if (grid.kind === 'rotated_ll') {
      expect(d.mapping).toMatchObject({ grid_mapping_name: 'rotated_latitude_longitude', grid_north_pole_latitude: 47, grid_north_pole_longitude: -170 });
      expect(d.grid_mapping).toBe('rotated_latitude_longitude');
      expect(d.scalars).toEqual(['rotated_latitude_longitude']);
    }
  });

  it('decodes the same values as the input and the point reader', async () => {
    const d = xarrayDump(path, points);
    const store = new TileStore(root);
    for (const [n, [t, j, i]] of points.entries()) {
      const row = d.values[n]!;
      const want = tValues[t]![j * grid.nx + i]!;
      if (Number.isNaN(want)) expect(row.temperature_2m).toBeNull();
      else expect(Math.abs(row.temperature_2m! - want)).toBeLessThanOrEqual(0.005 + 1e-6);
      expect(Math.abs(row.elevation! - eValues[0]![j * grid.nx + i]!)).toBeLessThanOrEqual(0.05 + 1e-4);

      // xarray's lat/lon of the cell, and our reader at that point.
      const ll = cellLatLon(grid, i, j);
      expect(d.latlon[n]![0]).toBeCloseTo(ll.lat, 6);
      expect(d.latlon[n]![1]).toBeCloseTo(ll.lon, 6);
      const s = await store.sample('nwp', ll.lat, ll.lon, times[t]!.getTime());
      for (const k of ['temperature_2m', 'precipitation', 'elevation']) {
        if (row[k] !== null) expect(Math.abs(s.values[k]! - row[k]!), k).toBeLessThan(1e-3);
      }
      if (row.temperature_2m === null) {
        // Exactly on a missing cell the reader falls back to valid neighbours (which ones depends on the
        // side float rounding puts the point on): the value lies within the surrounding valid cells.
        const around = [-1, 0, 1].flatMap((dj) => [-1, 0, 1].map((di) => tValues[t]![(j + dj) * grid.nx + i + di]!)).filter((v) => !Number.isNaN(v));
        expect(s.values.temperature_2m).toBeGreaterThanOrEqual(Math.min(...around) - 0.005);
        expect(s.values.temperature_2m).toBeLessThanOrEqual(Math.max(...around) + 0.005);
      }
    }
  });
});
