/**
 * A store with a long time axis is packed and compressed on threads
 * (tiles/write/encode-threads.ts): zarr-python with numcodecs reads every
 * chunk of it back, and each value is the input's at the variable's
 * precision (NaN where the input had NaN), last partial time chunk included.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { useEncodeThreads } from '../../../tiles/write/encode-threads.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

// 20 × 18 cells: two 16-cell tiles each way, both partly padding; 9 time chunks of 128 steps, the last of 5.
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 18, x0: 7, y0: 36, dx: 0.25, dy: 0.25 };
const STEPS = 8 * 128 + 5;

const SCRIPT = `
import json, sys, zarr, numpy as np
g = zarr.open_group(sys.argv[1], mode='r')
a = g['temperature_2m']
v = a[:].astype('float64')
nan = v == -32768
v = v * a.attrs['scale_factor'] + a.attrs['add_offset']
print(json.dumps({'shape': list(a.shape), 'chunks': list(a.chunks), 'values': [None if n else x for x, n in zip(v.ravel().tolist(), nan.ravel().tolist())]}))
`;

describe('encode threads', () => {
  it('writes a long axis that zarr-python reads back at the precision', async () => {
    expect(useEncodeThreads(Math.ceil(STEPS / 128))).toBe(true);
    const times = hourlyTimes(STEPS);
    const values = analytic(GRID, times, (x, y, h) => 15 + 0.5 * (y - 40) + 0.1 * x + 8 * Math.sin((2 * Math.PI * h) / 24));
    values[1000]![37] = NaN;
    const root = tempRoot('encode-threads');
    const res = await writeProductVersion(root, input('reanalysis-test', GRID, times, { temperature_2m: { units: '°C', precision: 0.01, values } }));
    const base = join(root, 'tiles', 'reanalysis-test');
    const store = join(base, readdirSync(base).find((d) => d.endsWith('.zarr')) ?? res.version);
    const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT, store], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 })) as {
      shape: number[]; chunks: number[]; values: (number | null)[];
    };
    expect(out.shape).toEqual([STEPS, 18, 20]);
    expect(out.chunks).toEqual([128, 16, 16]);
    let worst = 0;
    for (let t = 0; t < STEPS; t++) {
      for (let c = 0; c < GRID.nx * GRID.ny; c++) {
        const want = values[t]![c]!;
        const got = out.values[t * GRID.nx * GRID.ny + c];
        if (Number.isNaN(want)) expect(got).toBeNull();
        else worst = Math.max(worst, Math.abs(got! - want));
      }
    }
    expect(worst).toBeLessThanOrEqual(0.005 + 1e-6);
  }, 120_000);
});
