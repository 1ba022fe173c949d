/**
 * The marine sample: an SST file in the GHRSST L4 layout and a wave file in
 * the MEDSEA layout (checked with netCDF4-python), plausible values, NaN over
 * land, and the same values in the tiles after the real ingest, labelled as
 * sample.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset, type SampleResult } from '../../../ingest/sample/build.js';
import { TileStore } from '../../../tiles/read/reader.js';

const GRID = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
const NOW = new Date('2026-08-10T13:20:00Z');

let dir: string;
let root: string;
let sstFile: string;
let wavesFile: string;
let result: SampleResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-sample-marine-'));
  root = join(dir, 'data');
  result = await buildSampleDataset({ root, now: NOW, hoursAhead: 6, nwpGrid: GRID, demGrid: GRID, keepDir: join(dir, 'src'), products: ['marine'] });
  const files = await readdir(join(dir, 'src'));
  sstFile = join(dir, 'src', files.find((f) => f.includes('GHRSST'))!);
  wavesFile = join(dir, 'src', files.find((f) => f.includes('MEDSEA'))!);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const py = (code: string, ...args: string[]) => JSON.parse(execFileSync('/usr/bin/python3', ['-c', code, ...args], { encoding: 'utf8' }));

/** Values of `var` in `file` at time index `k` at the grid node nearest each point (netCDF4-python), NaN as null. */
const atNodes = (file: string, variable: string, k: number, points: [number, number][]) => py(`
import json, sys
import numpy as np
from netCDF4 import Dataset
d = Dataset(sys.argv[1])
lat = d["latitude"][:]; lon = d["longitude"][:]
v = d[sys.argv[2]]
out = []
for la, lo in json.loads(sys.argv[4]):
    j = int(np.abs(lat - la).argmin()); i = int(np.abs(lon - lo).argmin())
    x = float(v[int(sys.argv[3]), j, i])
    out.append({"lat": float(lat[j]), "lon": float(lon[i]), "value": None if np.isnan(x) else x})
print(json.dumps(out))`, file, variable, String(k), JSON.stringify(points)) as { lat: number; lon: number; value: number | null }[];

describe('the marine sample files, read by netCDF4-python', () => {
  it('carry the Copernicus names, units and time conventions, labelled SAMPLE', () => {
    const info = py(`
import json, sys
from netCDF4 import Dataset
s = Dataset(sys.argv[1]); w = Dataset(sys.argv[2])
print(json.dumps({"sst": [s["analysed_sst"].units, s["time"].units], "waves": sorted(n for n in w.variables if n.startswith("V")),
  "units": [w[n].units for n in ("VHM0", "VMDR", "VTM10", "VTPK")], "comment": [s.comment, w.comment]}))`, sstFile, wavesFile);
    expect(info.sst).toEqual(['kelvin', 'seconds since 1981-01-01 00:00:00']);
    expect(info.waves).toEqual(['VHM0', 'VMDR', 'VTM10', 'VTPK']);
    expect(info.units).toEqual(['m', 'degree', 's', 's']);
    for (const c of info.comment) expect(c).toMatch(/SAMPLE DATA/);
  });

  it('have plausible August values over the sea and none over land', () => {
    const r = py(`
import json, sys
import numpy as np
from netCDF4 import Dataset
s = Dataset(sys.argv[1]); w = Dataset(sys.argv[2])
sst = s["analysed_sst"][:] - 273.15; hs = w["VHM0"][:]; d = w["VMDR"][:]; tm = w["VTM10"][:]; tp = w["VTPK"][:]
f = lambda a: [float(np.nanmin(a)), float(np.nanmax(a))]
print(json.dumps({"sst": f(sst), "hs": f(hs), "dir": f(d), "tm": f(tm), "tpOverTm": f(tp / tm), "landShare": float(np.isnan(hs[0]).mean())}))`, sstFile, wavesFile);
    expect(r.sst[0]).toBeGreaterThan(18);
    expect(r.sst[1]).toBeLessThan(31);
    expect(r.hs[0]).toBeGreaterThanOrEqual(0);
    expect(r.hs[1]).toBeLessThan(6);
    expect(r.dir[0]).toBeGreaterThanOrEqual(0);
    expect(r.dir[1]).toBeLessThan(360);
    expect(r.tm[0]).toBeGreaterThan(1);
    expect(r.tpOverTm[0]).toBeGreaterThan(1);
    expect(r.landShare).toBeGreaterThan(0.2);
    expect(r.landShare).toBeLessThan(0.7);
    // Florence and Milan are land.
    for (const p of atNodes(wavesFile, 'VHM0', 0, [[43.77, 11.25], [45.46, 9.19]])) expect(p.value).toBeNull();
  });
});

describe('the marine sample in the tiles', () => {
  it('is published as sample data with SST and every wave variable, sea-masked', () => {
    const rep = result.reports.marine!;
    expect(rep.variables).toEqual(expect.arrayContaining(['sea_surface_temperature', 'wave_height', 'wave_direction', 'wave_period', 'wave_peak_period']));
    expect(rep.dropped).toEqual([]);
    const m = new TileStore(root).manifest('marine')!;
    expect(m.source.sample).toBe(true);
    expect(m.variables.wave_height!.mask).toBe('sea');
  });

  it('reads back the file values at sea grid nodes (netCDF4-python)', async () => {
    const store = new TileStore(root);
    const t = result.run.getTime() + 2 * 3600_000;
    const sst = atNodes(sstFile, 'analysed_sst', 2, [[40.0, 12.0], [43.5, 14.5], [38.5, 18.0]]);
    const hs = atNodes(wavesFile, 'VHM0', 2, [[40.0, 12.0], [43.5, 14.5], [38.5, 18.0]]);
    for (const [n, p] of sst.entries()) {
      const v = (await store.sample('marine', p.lat, p.lon, t)).values;
      expect(p.value).not.toBeNull();
      expect(Math.abs(v.sea_surface_temperature! - (p.value! - 273.15))).toBeLessThanOrEqual(0.01);
      expect(Math.abs(v.wave_height! - hs[n]!.value!)).toBeLessThanOrEqual(0.01);
    }
  });
});
