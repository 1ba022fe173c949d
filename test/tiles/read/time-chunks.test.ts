/**
 * A store with a long time axis (1,100 hourly steps, more than the 1,024 a
 * chunk spans whole) is chunked along time: 256 steps × 16 × 16 cells. Checked
 * independently: xarray (zarr-python, numcodecs) opens it and decodes the
 * input at steps on both sides of every chunk boundary; the point reader
 * answers the analytic field (linear in x, y and hours, so bilinear and
 * linear-in-time interpolation reproduce it exactly, up to the packing
 * precision) at times inside a chunk, across a boundary (the bracketing
 * steps in two chunks), on a boundary and in the short last chunk; an
 * hourly amount across a boundary comes from the step that closes its hour;
 * whole-field reads match; a cold lookup decodes one time chunk, not the axis.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it, beforeAll } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { openLiveVersion, readFieldSteps } from '../../../tiles/read/field-reader.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { HOUR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 12, x0: 7, y0: 40, dx: 0.25, dy: 0.25 };
const STEPS = 1100;
const temp = (x: number, y: number, h: number) => 15 + 0.8 * (y - 40) - 0.3 * (x - 7) + 0.01 * h;
const rain = (x: number, y: number, h: number) => 0.5 + 0.1 * (x - 7) + 0.05 * (y - 40) + 0.001 * h;

const SCRIPT = `
import json, sys, math
import xarray as xr
ds = xr.open_zarr(sys.argv[1])
pts = json.loads(sys.argv[2])
print(json.dumps({
  'chunks': list(ds['temperature_2m'].encoding['chunks']),
  'static_chunks': list(ds['elevation'].encoding['chunks']),
  'ntime': int(ds.sizes['time']),
  'values': [float(ds['temperature_2m'].values[t, j, i]) for t, j, i in pts],
}))
`;

describe('a store chunked along time', () => {
  const root = tempRoot('time-chunks');
  const times = hourlyTimes(STEPS);
  const t0 = times[0]!.getTime();
  const tValues = analytic(GRID, times, temp);
  let path = '';
  beforeAll(async () => {
    const r = await writeProductVersion(root, input('reanalysis', GRID, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: tValues },
      precipitation: { units: 'mm', precision: 0.001, values: analytic(GRID, times, rain), interval: { statistic: 'sum', seconds: 3600 } },
      elevation: { units: 'm', precision: 0.1, static: true, values: analytic(GRID, [], (x, y) => 100 * (x - 7) + 50 * (y - 40)) },
    }));
    path = r.path;
    expect(r.manifest.chunk).toEqual({ y: 16, x: 16, t: 256 });
  });

  it('is standard Zarr: xarray decodes it at steps on both sides of each chunk boundary', () => {
    const pts = [0, 255, 256, 511, 512, 767, 768, 1023, 1024, 1099].map((t, n) => [t, n % GRID.ny, (3 * n) % GRID.nx] as const);
    const d = JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT, path, JSON.stringify(pts)], { encoding: 'utf8', timeout: 60_000 })) as {
      chunks: number[]; static_chunks: number[]; ntime: number; values: number[];
    };
    expect(d.chunks).toEqual([256, 16, 16]);
    expect(d.static_chunks).toEqual([16, 16]);
    expect(d.ntime).toBe(STEPS);
    // Half the precision, plus float32 rounding of values near 25.
    pts.forEach(([t, j, i], n) => expect(Math.abs(d.values[n]! - tValues[t]![j * GRID.nx + i]!)).toBeLessThanOrEqual(0.005 + 1e-5));
  });

  it('answers points inside a chunk, across and on a boundary, and in the last chunk', async () => {
    const store = new TileStore(root);
    // Between cells, so all four neighbours and their bilinear weights count.
    const lat = 41.13;
    const lon = 8.61;
    const x = lon;
    const y = lat;
    for (const h of [10.5, 255.25, 255.75, 256, 511.5, 767.9, 1000.5, 1098.5, 1099]) {
      const s = await store.sample('reanalysis', lat, lon, t0 + h * HOUR);
      expect(s.values.temperature_2m, `temperature at ${h} h`).toBeCloseTo(temp(x, y, h), 2);
      // The hourly amount of the hour that holds the time: the step closing it (⌈h⌉).
      expect(s.values.precipitation, `precipitation at ${h} h`).toBeCloseTo(rain(x, y, Math.ceil(h)), 2);
      expect(s.values.elevation).toBeCloseTo(100 * (x - 7) + 50 * (y - 40), 1);
    }
  });

  it('reads whole fields at steps in several chunks', async () => {
    const v = (await openLiveVersion(root, 'reanalysis'))!;
    const steps = [0, 255, 256, 700, 1099];
    const fields = await readFieldSteps(v, 'temperature_2m', steps);
    steps.forEach((t, n) => {
      let worst = 0;
      for (let c = 0; c < GRID.nx * GRID.ny; c++) worst = Math.max(worst, Math.abs(fields[n]![c]! - tValues[t]![c]!));
      expect(worst).toBeLessThanOrEqual(0.005 + 1e-6);
    });
  });

  it('decodes one time chunk per block on a cold lookup, not the whole axis', async () => {
    const store = new TileStore(root);
    await store.sample('reanalysis', 41.13, 8.61, t0 + 600.5 * HOUR, ['temperature_2m']);
    // One block: one tile (the point's four neighbours share it), 256 steps × 16 × 16 cells × the two int16
    // members of its cache group (temperature and precipitation), 2 bytes each; the whole axis would be 1,100 steps.
    expect(store.cacheStats()).toMatchObject({ chunks: 1, bytes: 256 * 16 * 16 * 2 * 2 });
  });
});
