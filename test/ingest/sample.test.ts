/**
 * The sample dataset: the generated file is a CF NetCDF4 that python
 * xarray/netCDF4 open as it is, its fields are physically plausible
 * (checked in python, independently of our reader), temperature falls with
 * altitude, and it reaches the tiles through the real ingest path with the
 * sample label. A coarse grid keeps the test quick; `meteopunto demo` uses
 * the same code at ~2.5 km.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { buildSampleDataset, sampleRunTime, type SampleResult } from '../../ingest/sample/build.js';
import { seedFromTime } from '../../ingest/sample/noise.js';
import { terrainOnGrid } from '../../ingest/sample/terrain.js';
import { weatherAt, weatherContext } from '../../ingest/sample/weather.js';
import { TileStore } from '../../tiles/read/reader.js';
import { python } from './pipeline-reference.js';

const NWP: RegularLatLonGrid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 };
const DEM: RegularLatLonGrid = { kind: 'regular_ll', nx: 261, ny: 241, x0: 6, y0: 35.5, dx: 0.05, dy: 0.05 };
const NOW = new Date('2026-07-15T13:20:00Z');

let dir: string;
let root: string;
let result: SampleResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-sample-'));
  root = join(dir, 'data');
  result = await buildSampleDataset({ root, now: NOW, hoursAhead: 12, nwpGrid: NWP, demGrid: DEM, keepDir: join(dir, 'src') });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sample run time', () => {
  it('starts on the last 3-hourly cycle at least 3 h old: 3 to 6 hours before now', () => {
    expect(sampleRunTime(new Date('2026-07-15T13:20:00Z')).toISOString()).toBe('2026-07-15T09:00:00.000Z');
    expect(sampleRunTime(new Date('2026-07-15T12:00:00Z')).toISOString()).toBe('2026-07-15T09:00:00.000Z');
    expect(sampleRunTime(new Date('2026-07-15T11:59:00Z')).toISOString()).toBe('2026-07-15T06:00:00.000Z');
  });
});

describe('the generated NetCDF4 file, read by python', () => {
  interface Summary {
    dims: Record<string, number>;
    conventions: string;
    times: string[];
    ref: string;
    attrs: Record<string, { units: string; standard_name?: string }>;
    range: Record<string, [number, number]>;
    dewAboveT: number;
    wwCodes: number[];
    slopeKPerKm: number[];
    nightSsrdMax: number;
    daySsrdMax: number;
  }
  let s: Summary;
  beforeAll(() => {
    s = python<Summary>(
      `
import json, sys, numpy as np, xarray as xr
ds = xr.open_dataset(sys.argv[1])
z = ds.z.values / 9.80665
land = z > 20
out = {
  "dims": {k: int(v) for k, v in ds.sizes.items()},
  "conventions": ds.attrs["Conventions"],
  "times": [str(t)[:19] for t in ds.time.values],
  "ref": str(ds.forecast_reference_time.values)[:19],
  "attrs": {v: {k: str(ds[v].attrs[k]) for k in ("units", "standard_name") if k in ds[v].attrs} for v in ds.data_vars if v != "forecast_reference_time"},
  "range": {v: [float(np.nanmin(ds[v].values)), float(np.nanmax(ds[v].values))] for v in ds.data_vars if v != "forecast_reference_time"},
  "dewAboveT": int((ds.d2m.values > ds.t2m.values + 0.01).sum()),
  "wwCodes": sorted(int(c) for c in np.unique(ds.ww.values)),
  "slopeKPerKm": [float(np.polyfit(z[land] / 1000, ds.t2m.isel(time=i).values[land], 1)[0]) for i in range(ds.sizes["time"])],
}
# sun below the horizon over all of Italy at 01 UTC in July; high at 12 UTC
out["nightSsrdMax"] = float(ds.ssrd.sel(time="2026-07-15T01:00").max()) if np.datetime64("2026-07-15T01:00") in ds.time.values else 0.0
out["daySsrdMax"] = float(ds.ssrd.sel(time="2026-07-15T12:00").max())
print(json.dumps(out))
`,
      [result.files.nwp![0]!],
    );
  });

  it('is CF with latitude/longitude/time dimensions, hourly from the run to now + 12 h', () => {
    expect(s.conventions).toBe('CF-1.8');
    expect(s.dims).toEqual({ time: 17, latitude: 121, longitude: 131 });
    expect(s.ref).toBe('2026-07-15T09:00:00');
    expect(s.times[0]).toBe('2026-07-15T09:00:00');
    expect(s.times.at(-1)).toBe('2026-07-16T01:00:00');
    expect(s.attrs.t2m).toEqual({ units: 'K', standard_name: 'air_temperature' });
    expect(s.attrs.tp!.units).toBe('m');
    expect(s.attrs.ssrd!.units).toBe('J m**-2');
  });

  it('has physically plausible ranges for mid-July', () => {
    const r = s.range;
    expect(r.t2m![0]).toBeGreaterThan(240);
    expect(r.t2m![1]).toBeLessThan(318);
    expect(r.msl![0]).toBeGreaterThan(97_000);
    expect(r.msl![1]).toBeLessThan(104_000);
    expect(r.sp![0]).toBeGreaterThan(50_000); // Mont Blanc ~4.6 km: ~57 kPa
    expect(r.sp![1]).toBeLessThanOrEqual(r.msl![1] + 1);
    expect(r.tcc![0]).toBeGreaterThanOrEqual(0);
    expect(r.tcc![1]).toBeLessThanOrEqual(1);
    expect(r.tp![0]).toBeGreaterThanOrEqual(0);
    expect(r.tp![1]).toBeLessThan(0.05); // < 50 mm in an hour
    expect(r.ssrd![1] / 3600).toBeLessThan(1250); // W/m², hourly mean
    expect(r.strd![0] / 3600).toBeGreaterThan(150);
    expect(r.strd![1] / 3600).toBeLessThan(500);
    expect(Math.hypot(r.u10![1], r.v10![1])).toBeLessThan(45);
    expect(r.i10fg![1]).toBeLessThan(60);
    expect(r.tco3![0] / 2.1415e-5).toBeGreaterThan(250); // DU
    expect(r.tco3![1] / 2.1415e-5).toBeLessThan(400);
    expect(s.dewAboveT).toBe(0);
    expect(s.wwCodes.every((c) => [0, 1, 2, 3, 51, 53, 55, 61, 63, 65, 71, 73, 75, 80, 81, 85, 86].includes(c))).toBe(true);
    expect(s.nightSsrdMax).toBe(0);
    expect(s.daySsrdMax / 3600).toBeGreaterThan(700);
  });

  it('temperature falls with altitude at every step, close to 6.5 K/km over land', () => {
    for (const slope of s.slopeKPerKm) {
      expect(slope).toBeLessThan(-4.5);
      expect(slope).toBeGreaterThan(-8.5);
    }
  });
});

describe('through the real ingest path', () => {
  it('publishes nwp and dem labelled as sample data', () => {
    const store = new TileStore(root);
    for (const p of ['nwp', 'dem']) {
      const m = store.manifest(p)!;
      expect(m.source.sample).toBe(true);
      expect(m.source.model).toBe('meteopunto-sample');
      expect(m.source.note).toMatch(/SAMPLE DATA/);
    }
    expect(result.reports.nwp!.variables).toEqual([
      'cloud_cover', 'dew_point_2m', 'direct_radiation', 'elevation', 'longwave_radiation', 'mean_radiant_temperature',
      'precipitation', 'pressure_msl', 'relative_humidity_2m', 'shortwave_radiation', 'snowfall_fraction', 'surface_pressure',
      'temperature_2m', 'total_ozone', 'weather_code',
      'wind_gust_10m', 'wind_u_10m', 'wind_v_10m',
    ]);
    expect(result.reports.nwp!.skipped).toEqual([]);
    expect(result.reports.dem!.variables).toEqual(['elevation']);
  });

  it('tiles hold the file values (python netCDF4 at a cell centre, converted by hand)', async () => {
    const [lat, lon, t] = [42.0, 12.5, 6]; // a cell centre near Rome; time index 6 = 15 UTC
    const ref = python<Record<string, number>>(
      `
import json, sys, netCDF4
ds = netCDF4.Dataset(sys.argv[1])
j = list(ds["latitude"][:]).index(${lat}); i = [round(x, 6) for x in ds["longitude"][:]].index(${lon})
v = lambda n, t=${t}: float(ds[n][t, j, i])
print(json.dumps({"t2m": v("t2m") - 273.15, "msl": v("msl") / 100, "tcc": v("tcc") * 100, "tp": v("tp") * 1000,
  "ssrd": v("ssrd") / 3600, "tco3": v("tco3") / 2.1415e-5, "z": float(ds["z"][j, i]) / 9.80665, "time": str(netCDF4.num2date(ds["time"][${t}], ds["time"].units))}))
`,
      [result.files.nwp![0]!],
    );
    const got = (await new TileStore(root).sample('nwp', lat, lon, Date.parse(`${ref.time}Z`.replace(' ', 'T')))).values;
    expect(Math.abs(got.temperature_2m! - ref.t2m!)).toBeLessThan(0.011);
    expect(Math.abs(got.pressure_msl! - ref.msl!)).toBeLessThan(0.011);
    expect(Math.abs(got.cloud_cover! - ref.tcc!)).toBeLessThan(0.06);
    expect(Math.abs(got.precipitation! - ref.tp!)).toBeLessThan(0.011);
    expect(Math.abs(got.shortwave_radiation! - ref.ssrd!)).toBeLessThan(0.06);
    expect(Math.abs(got.total_ozone! - ref.tco3!)).toBeLessThan(0.06);
    expect(Math.abs(got.elevation! - ref.z!)).toBeLessThan(0.06);
  });

  it('the model orography and the DEM are the same real terrain at their resolutions (ingest/sample/terrain.ts)', async () => {
    const store = new TileStore(root);
    const etnaModel = (await store.sample('nwp', 37.75, 15.0, null)).values.elevation!;
    const etnaDem = (await store.sample('dem', 37.75, 15.0, null)).values.elevation!;
    expect(etnaModel).toBeGreaterThan(1500);
    expect(Math.abs(etnaDem - etnaModel)).toBeLessThan(800);
    expect((await store.sample('dem', 40.0, 11.0, null)).values.elevation).toBe(0); // Tyrrhenian Sea
  });
});

describe('determinism', () => {
  it('the same run time gives the same fields; another run time gives other weather on the same terrain', async () => {
    const grid: RegularLatLonGrid = { kind: 'regular_ll', nx: 40, ny: 30, x0: 8, y0: 40, dx: 0.25, dy: 0.25 };
    const terrain = await terrainOnGrid(grid);
    const run = new Date('2026-03-01T06:00:00Z');
    const t = new Date('2026-03-01T12:00:00Z');
    const a = weatherAt(weatherContext(grid, terrain, run, seedFromTime(run.getTime())), t);
    const b = weatherAt(weatherContext(grid, await terrainOnGrid(grid), run, seedFromTime(run.getTime())), t);
    expect(b.t2m).toEqual(a.t2m);
    expect(b.tp).toEqual(a.tp);
    const other = new Date('2026-03-01T09:00:00Z');
    const c = weatherAt(weatherContext(grid, terrain, other, seedFromTime(other.getTime())), t);
    expect(c.msl).not.toEqual(a.msl);
  });
});
