/**
 * The CAMS-shaped sample: a NetCDF3 classic file with the traps of a real
 * CAMS Europe file (checked by netCDF4-python), plausible values, and the
 * same values in the tiles after the real ingest, labelled as sample.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset, type SampleResult } from '../../../ingest/sample/build.js';
import { TileStore } from '../../../tiles/read/reader.js';

const GRID = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
const NOW = new Date('2026-05-10T13:20:00Z');

let dir: string;
let root: string;
let file: string;
let result: SampleResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-sample-cams-'));
  root = join(dir, 'data');
  result = await buildSampleDataset({ root, now: NOW, hoursAhead: 6, nwpGrid: GRID, demGrid: GRID, keepDir: join(dir, 'src'), products: ['cams'] });
  file = join(dir, 'src', (await readdir(join(dir, 'src'))).find((f) => f.includes('cams'))!);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const py = (code: string) => JSON.parse(execFileSync('/usr/bin/python3', ['-c', code, file], { encoding: 'utf8' }));

describe('the CAMS-shaped sample file, read by netCDF4-python', () => {
  it('is NetCDF3 classic with CAMS Europe names, units and traps', () => {
    const info = py(`
import json, sys
from netCDF4 import Dataset
d = Dataset(sys.argv[1])
print(json.dumps({"model": d.data_model, "vars": sorted(v for v in d.variables if v.endswith("_conc")),
  "dims": list(d["pm2p5_conc"].dimensions), "level": d.dimensions["level"].size, "unlimited": d.dimensions["time"].isunlimited(),
  "tunits": d["time"].units, "tlong": d["time"].long_name, "lat": [float(d["latitude"][0]), float(d["latitude"][-1])],
  "pmunits": d["pm2p5_conc"].units, "polunits": d["opg_conc"].units, "comment": d.comment}))`);
    expect(info.model).toBe('NETCDF3_CLASSIC');
    expect(info.vars).toEqual(['apg_conc', 'bpg_conc', 'gpg_conc', 'mpg_conc', 'no2_conc', 'o3_conc', 'opg_conc', 'pm10_conc', 'pm2p5_conc', 'rwpg_conc', 'so2_conc']);
    expect(info.dims).toEqual(['time', 'level', 'latitude', 'longitude']);
    expect(info.level).toBe(1);
    expect(info.unlimited).toBe(true);
    expect(info.tunits).toBe('hours');
    expect(info.tlong).toBe('FORECAST time from 20260510');
    expect(info.lat[0]).toBeGreaterThan(info.lat[1]);
    expect(info.pmunits).toBe('µg/m3');
    expect(info.polunits).toBe('grains/m3');
    expect(info.comment).toMatch(/SAMPLE DATA/);
  });

  it('has plausible values: PM2.5 ≤ PM10, positive ozone, olive pollen in season in May', () => {
    const r = py(`
import json, sys
import numpy as np
from netCDF4 import Dataset
d = Dataset(sys.argv[1])
g = lambda n: d[n][:].astype("f8")
print(json.dumps({"pm25": [g("pm2p5_conc").min(), g("pm2p5_conc").max()], "pm_ok": bool((g("pm2p5_conc") <= g("pm10_conc")).all()),
  "o3": [g("o3_conc").min(), g("o3_conc").max()], "olive_max": g("opg_conc").max(), "ragweed_max": g("rwpg_conc").max(), "nan": bool(np.isnan(g("no2_conc")).any())}))`);
    expect(r.pm25[0]).toBeGreaterThanOrEqual(0);
    expect(r.pm25[1]).toBeLessThan(150);
    expect(r.pm_ok).toBe(true);
    expect(r.o3[0]).toBeGreaterThan(0);
    expect(r.o3[1]).toBeLessThan(250);
    expect(r.olive_max).toBeGreaterThan(25);
    expect(r.ragweed_max).toBeLessThan(1);
    expect(r.nan).toBe(false);
  });
});

describe('through the real ingest path', () => {
  it('publishes cams with all eleven variables, labelled as sample data', () => {
    const m = new TileStore(root).manifest('cams')!;
    expect(m.source.sample).toBe(true);
    expect(m.source.model).toBe('meteopunto-sample');
    expect(m.feeds).toEqual(['cams']);
    expect(result.reports.cams!.variables.length).toBe(11);
    expect(result.reports.cams!.skipped).toEqual([]);
  });

  it('tiles hold the file values at a cell centre (netCDF4-python)', async () => {
    const store = new TileStore(root);
    const lat = 45.1;
    const lon = 10.5;
    const ref = py(`
import json, sys
import numpy as np
from netCDF4 import Dataset
d = Dataset(sys.argv[1])
j = int(np.argmin(np.abs(d["latitude"][:] - ${lat}))); i = int(np.argmin(np.abs(d["longitude"][:] - ${lon})))
print(json.dumps({"h": float(d["time"][2]), "pm": float(d["pm2p5_conc"][2, 0, j, i]), "o3": float(d["o3_conc"][2, 0, j, i]), "olive": float(d["opg_conc"][2, 0, j, i])}))`);
    const t = Date.UTC(2026, 4, 10) + ref.h * 3_600_000;
    const s = await store.sample('cams', lat, lon, t);
    expect(s.values.pm2_5).toBeCloseTo(ref.pm, 2);
    expect(s.values.ozone).toBeCloseTo(ref.o3, 2);
    expect(Math.abs(s.values.olive_pollen! - ref.olive)).toBeLessThanOrEqual(0.05);
  });
});
