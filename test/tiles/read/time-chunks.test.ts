/**
 * A store with a long time axis (1,100 hourly steps, more than the 1,024 a
 * chunk spans whole) is chunked along time: 128 steps × 16 × 16 cells. Checked
 * independently: xarray (zarr-python, numcodecs) opens it and decodes the
 * input at steps on both sides of every chunk boundary; the point reader
 * answers the analytic field (linear in x, y and hours, so bilinear and
 * linear-in-time interpolation reproduce it exactly, up to the packing
 * precision) at times inside a chunk, across a boundary (the bracketing
 * steps in two chunks), on a boundary and in the short last chunk; an
 * hourly amount across a boundary comes from the step that closes its hour;
 * whole-field reads match; a cold lookup decodes one time chunk of the
 * variables asked, not the axis; its planar blocks hold zarr-python's raw
 * int16 values bit for bit.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it, beforeAll } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { openLiveVersion, readFieldSteps } from '../../../tiles/read/field-reader.js';
import { readBlock } from '../../../tiles/read/block-read.js';
import { blockRequest } from '../../../tiles/read/neighbour-blocks.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { HOUR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 12, x0: 7, y0: 40, dx: 0.25, dy: 0.25 };
const STEPS = 1100;
const temp = (x: number, y: number, h: number) => 15 + 0.8 * (y - 40) - 0.3 * (x - 7) + 0.01 * h;
const rain = (x: number, y: number, h: number) => 0.5 + 0.1 * (x - 7) + 0.05 * (y - 40) + 0.001 * h;
// Too fine a precision for int16 over its range: stored as float32 (planar float32 blocks, static ones too).
const pres = (x: number, y: number, h: number) => 1000 + 2.5 * (y - 40) + 1.25 * (x - 7) - 0.0075 * h;
const rough = (x: number, y: number) => 0.5 * (y - 40) + 0.25 * (x - 7);

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

// The packed int16 values as stored, without unpacking: zarr-python reads the array itself.
const RAW_SCRIPT = `
import json, sys
import zarr
a = zarr.open_group(sys.argv[1], mode='r')['temperature_2m']
steps = json.loads(sys.argv[2])
print(json.dumps([[int(a[t, j, i]) for t in steps] for j, i in json.loads(sys.argv[3])]))
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
      pressure_msl: { units: 'hPa', precision: 1e-4, values: analytic(GRID, times, pres) },
      roughness: { units: 'm', precision: 1e-6, static: true, values: analytic(GRID, [], rough) },
    }));
    path = r.path;
    expect(r.manifest.chunk).toEqual({ y: 16, x: 16, t: 128 });
  });

  it('is standard Zarr: xarray decodes it at steps on both sides of each chunk boundary', () => {
    const pts = [0, 127, 128, 255, 256, 511, 512, 767, 768, 1023, 1024, 1099].map((t, n) => [t, n % GRID.ny, (3 * n) % GRID.nx] as const);
    const d = JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT, path, JSON.stringify(pts)], { encoding: 'utf8', timeout: 60_000 })) as {
      chunks: number[]; static_chunks: number[]; ntime: number; values: number[];
    };
    expect(d.chunks).toEqual([128, 16, 16]);
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
    for (const h of [10.5, 127.5, 255.25, 255.75, 256, 383.9, 511.5, 767.9, 1000.5, 1098.5, 1099]) {
      const s = await store.sample('reanalysis', lat, lon, t0 + h * HOUR);
      expect(s.values.temperature_2m, `temperature at ${h} h`).toBeCloseTo(temp(x, y, h), 2);
      // The hourly amount of the hour that holds the time: the step closing it (⌈h⌉).
      expect(s.values.precipitation, `precipitation at ${h} h`).toBeCloseTo(rain(x, y, Math.ceil(h)), 2);
      expect(s.values.elevation).toBeCloseTo(100 * (x - 7) + 50 * (y - 40), 1);
      expect(s.values.pressure_msl, `pressure at ${h} h`).toBeCloseTo(pres(x, y, h), 3);
      expect(s.values.roughness).toBeCloseTo(rough(x, y), 5);
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

  it('decodes one time chunk of the variables asked on a cold lookup, not the whole axis nor the others', async () => {
    const store = new TileStore(root);
    await store.sample('reanalysis', 41.13, 8.61, t0 + 600.5 * HOUR, ['temperature_2m']);
    // One block: one tile (the point's four neighbours share it), 128 steps × 16 × 16 cells of temperature alone
    // (int16, 2 bytes): precipitation, in the same manifest group, is not decoded; the whole axis would be 1,100 steps.
    expect(store.cacheStats()).toMatchObject({ chunks: 1, bytes: 128 * 16 * 16 * 2 });
    await store.sample('reanalysis', 41.13, 8.61, t0 + 600.5 * HOUR, ['temperature_2m', 'precipitation']);
    expect(store.cacheStats()).toMatchObject({ chunks: 2, bytes: 2 * 128 * 16 * 16 * 2 });
  });

  it('holds the stored int16 values bit for bit in its blocks: zarr-python\'s raw values, in a chunk and a bridge', async () => {
    const v = (await openLiveVersion(root, 'reanalysis'))!;
    const vs = v.state;
    const kind = vs.vars.get('temperature_2m')!.kind;
    const plane = 16 * 16;
    // Tile 1 (x 16…19: the grid's last 4 columns, rows 0…11): window 4 is time chunk 2 (steps 256…383), window 3
    // the bridge of steps 255 and 256.
    const c = 1;
    const block = (win: number) => readBlock(blockRequest(vs, kind * vs.nWin + win, c, 0)) as Promise<Int16Array>;
    const chunk2 = await block(4);
    const bridge = await block(3);
    expect([chunk2.length, bridge.length]).toEqual([128 * plane, 2 * plane]);
    // A warm's copy (in a SharedArrayBuffer, tiles/read/decode-worker.ts) holds the same values.
    for (const [win, own] of [[4, chunk2], [3, bridge]] as const) {
      const shared = await readBlock(blockRequest(vs, kind * vs.nWin + win, c, 0), true);
      expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(shared instanceof Int16Array && Buffer.from(shared.buffer).equals(Buffer.from(own.buffer, own.byteOffset, own.byteLength))).toBe(true);
    }
    const cells = [[0, 16], [5, 17], [11, 19]] as const;
    const steps = [255, 256, 300, 383];
    const raw = JSON.parse(execFileSync('/usr/bin/python3', ['-c', RAW_SCRIPT, path, JSON.stringify(steps), JSON.stringify(cells)], { encoding: 'utf8', timeout: 60_000 })) as number[][];
    cells.forEach(([j, i], n) => {
      const cell = j * 16 + (i - 16);
      // Planar: element (step t, cell) of a one-member block at t × plane + cell.
      expect([255, 256].map((t) => bridge[(t - 255) * plane + cell]), `bridge at ${j}, ${i}`).toEqual(raw[n]!.slice(0, 2));
      expect([256, 300, 383].map((t) => chunk2[(t - 256) * plane + cell]), `chunk 2 at ${j}, ${i}`).toEqual(raw[n]!.slice(1));
    });
  });
});
