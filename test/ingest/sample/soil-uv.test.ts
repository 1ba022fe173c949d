/**
 * The soil and uv samples: an ERA5-Land-layout soil file and a SARAH-layout
 * cloud albedo file, read back by netCDF4-python (names, units, time
 * conventions, plausible ranges), and the same values in the tiles after
 * the real ingest at land grid nodes, labelled as sample.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset } from '../../../ingest/sample/build.js';
import { TileStore } from '../../../tiles/read/reader.js';

const GRID = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
const NOW = new Date('2026-08-10T13:20:00Z');

let dir: string;
let root: string;
let soilFile: string;
let calFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-sample-soil-uv-'));
  root = join(dir, 'data');
  await buildSampleDataset({ root, now: NOW, hoursAhead: 3, nwpGrid: GRID, demGrid: GRID, keepDir: join(dir, 'src'), products: ['soil', 'uv'] });
  const files = await readdir(join(dir, 'src'));
  soilFile = join(dir, 'src', files.find((f) => f.includes('soil'))!);
  calFile = join(dir, 'src', files.find((f) => f.includes('SARAH'))!);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const py = (code: string, ...args: string[]) => JSON.parse(execFileSync('/usr/bin/python3', ['-c', code, ...args], { encoding: 'utf8' }));

describe('the soil and uv samples', () => {
  it('carry the ERA5-Land and SARAH names, units and time conventions, labelled SAMPLE, with plausible values', () => {
    const r = py(`
import json, sys
import numpy as np
from netCDF4 import Dataset
s = Dataset(sys.argv[1]); c = Dataset(sys.argv[2])
land = s["lsm"][:] > 0.5
sw = s["swvl1"][0][land]; st = s["stl1"][0][land] - 273.15
print(json.dumps({"names": sorted(n for n in s.variables if n.startswith(("swvl", "stl"))), "units": [s["swvl1"].units, s["stl4"].units],
  "cal": [c["CAL"].units, c["time"].units], "sw": [float(sw.min()), float(sw.max())], "st": [float(st.min()), float(st.max())],
  "calRange": [float(np.nanmin(c["CAL"][:])), float(np.nanmax(c["CAL"][:]))], "comment": [s.comment, c.comment]}))`, soilFile, calFile);
    expect(r.names).toEqual(['stl1', 'stl2', 'stl3', 'stl4', 'swvl1', 'swvl2', 'swvl3', 'swvl4']);
    expect(r.units).toEqual(['m**3 m**-3', 'K']);
    expect(r.cal).toEqual(['1', 'seconds since 1983-01-01 00:00:00']);
    expect(r.sw[0]).toBeGreaterThan(0.05);
    expect(r.sw[1]).toBeLessThan(0.6);
    // August: from frozen ground on the 4,000 m Alpine summits to a hot lowland afternoon.
    expect(r.st[0]).toBeGreaterThan(-15);
    expect(r.st[1]).toBeLessThan(45);
    expect(r.calRange[0]).toBeGreaterThanOrEqual(0);
    expect(r.calRange[1]).toBeLessThanOrEqual(0.95);
    for (const c of r.comment) expect(c).toMatch(/SAMPLE DATA/);
  });

  it('ingest to tiles holding the files\' values at land nodes, labelled sample', async () => {
    const nodes = py(`
import json, sys
import numpy as np
from netCDF4 import Dataset, num2date
s = Dataset(sys.argv[1]); c = Dataset(sys.argv[2])
lat = s["latitude"][:]; lon = s["longitude"][:]; land = s["lsm"][:] > 0.5
t = num2date(s["time"][0], s["time"].units, only_use_cftime_datetimes=False).isoformat()
clat = c["latitude"][:]; clon = c["longitude"][:]
out = []
for (la, lo) in [(43.8, 11.2), (45.5, 9.2), (40.9, 14.3)]:
    j = int(np.abs(lat - la).argmin()); i = int(np.abs(lon - lo).argmin())
    if not land[j, i]: continue
    cj = int(np.abs(clat - lat[j]).argmin()); ci = int(np.abs(clon - lon[i]).argmin())
    out.append({"lat": float(lat[j]), "lon": float(lon[i]), "swvl2": float(s["swvl2"][0, j, i]), "stl3": float(s["stl3"][0, j, i]) - 273.15,
      "cal": float(c["CAL"][0, cj, ci]), "time": t})
print(json.dumps(out))`, soilFile, calFile) as { lat: number; lon: number; swvl2: number; stl3: number; cal: number; time: string }[];
    expect(nodes.length).toBeGreaterThan(0);
    const tiles = new TileStore(root);
    expect(tiles.manifest('soil')?.source.sample).toBe(true);
    expect(tiles.manifest('uv')?.source.sample).toBe(true);
    for (const n of nodes) {
      const t = Date.parse(`${n.time}Z`.replace(/\+00:00Z$/, 'Z'));
      const soil = await tiles.sample('soil', n.lat, n.lon, t);
      expect(Math.abs(soil.values.soil_moisture_7_28cm! - n.swvl2)).toBeLessThan(0.001);
      expect(Math.abs(soil.values.soil_temperature_28_100cm! - n.stl3)).toBeLessThan(0.01);
      const uv = await tiles.sample('uv', n.lat, n.lon, t);
      expect(Math.abs(uv.values.effective_cloud_albedo! - n.cal)).toBeLessThan(0.001);
    }
  });
});
