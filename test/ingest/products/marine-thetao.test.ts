/**
 * The Mediterranean physics model's sea surface temperature: `thetao` of
 * cmems_mod_med_phy-tem_anfc_4.2km-2D_PT1H-m (dims time, depth, latitude,
 * longitude; depth of size 1, the top level 1.0182 m; degrees_C; hourly
 * means at HH:30). No real file of the dataset is available offline: the
 * files are written by netCDF4-python in that layout
 * (fixtures/make_med_thetao.py) and the expected values are what
 * netCDF4-python reads back from them (fixtures/marine_reference.py).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from '../../../ingest/ingest-types.js';
import type { IngestReport } from '../../../ingest/ingest-report.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { marineReference } from './marine-reference.js';

const MAKE = join(import.meta.dirname, 'fixtures', 'make_med_thetao.py');
const START_S = Date.UTC(2026, 6, 9) / 1000;
const DOMAIN = { latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 };
/** Open sea in the test file (land lies west of 13.9 E + 0.5 × (lat − 40)). */
const POINTS = [{ lat: 40.31, lon: 14.52 }, { lat: 40.77, lon: 14.66 }, { lat: 40.12, lon: 14.2 }];

describe('marine: thetao of the MED physics model as the sea surface temperature', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-thetao-'));
  const file = join(dir, '20260709_2dh-CMCC--TEMP-MFSeas10-MEDATL-b20260709_fc-sv11.00.nc');
  const file3d = join(dir, '3d.nc');
  const deep = join(dir, 'deep.nc');
  let report: IngestReport;
  let report3d: IngestReport;
  beforeAll(async () => {
    execFileSync('/usr/bin/python3', [MAKE, file, String(START_S)]);
    execFileSync('/usr/bin/python3', [MAKE, file3d, String(START_S), '--depths=1.0182366,3.1657474,5.4649634']);
    execFileSync('/usr/bin/python3', [MAKE, deep, String(START_S), '--depths=10.536604']);
    report = await runIngest({ root: join(dir, 'a'), product: 'marine', files: [file], domain: DOMAIN });
    report3d = await runIngest({ root: join(dir, 'b'), product: 'marine', files: [file3d], domain: DOMAIN });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores thetao (degrees_C, depth 1.0182 m) as sea_surface_temperature in °C on its hourly-mean times', () => {
    expect(report.variables).toContain('sea_surface_temperature');
    expect(report.from).toBe('2026-07-09T00:30:00.000Z');
    expect(report.to).toBe('2026-07-09T03:30:00.000Z');
    expect(report.skipped).toEqual([]);
    expect(new TileStore(join(dir, 'a')).manifest('marine')!.variables.sea_surface_temperature!.units).toBe('°C');
  });

  it('answers netCDF4-python’s values at open-sea points, at each step and linearly between two', async () => {
    const store = new TileStore(join(dir, 'a'));
    for (const k of [0, 2]) {
      const refs = marineReference({ kind: 'netcdf', file, var: 'thetao', time_index: k, points: POINTS });
      for (const r of refs) {
        expect(r.sea).toEqual([true, true, true, true]);
        const t = (START_S + 1800 + 3600 * k) * 1000;
        const got = (await store.sample('marine', r.lat, r.lon, t, ['sea_surface_temperature'])).values.sea_surface_temperature!;
        expect(Math.abs(got - r.bilinear_sea!), `${r.lat}, ${r.lon} step ${k}: ${got} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(0.01);
      }
    }
    const [a] = marineReference({ kind: 'netcdf', file, var: 'thetao', time_index: 0, points: POINTS.slice(0, 1) });
    const [b] = marineReference({ kind: 'netcdf', file, var: 'thetao', time_index: 1, points: POINTS.slice(0, 1) });
    const mid = (await store.sample('marine', a!.lat, a!.lon, (START_S + 3600) * 1000, ['sea_surface_temperature'])).values.sea_surface_temperature!;
    expect(Math.abs(mid - (a!.bilinear_sea! + b!.bilinear_sea!) / 2)).toBeLessThanOrEqual(0.01);
  });

  it('a 3D-layout file gives its top level; the deeper levels are reported as skipped', async () => {
    const refs = marineReference({ kind: 'netcdf', file: file3d, var: 'thetao', points: POINTS });
    const store = new TileStore(join(dir, 'b'));
    for (const r of refs) {
      const got = (await store.sample('marine', r.lat, r.lon, (START_S + 1800) * 1000, ['sea_surface_temperature'])).values.sea_surface_temperature!;
      expect(Math.abs(got - r.bilinear_sea!)).toBeLessThanOrEqual(0.01);
    }
    const reasons = report3d.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n');
    expect(reasons).toMatch(/thetao.*depth 3\.16\d* m, deeper than the top level/);
    expect(reasons).toMatch(/thetao.*depth 5\.46\d* m, deeper than the top level/);
  });

  it('refuses a file whose only level is 10 m deep, naming the depth', async () => {
    const err = await runIngest({ root: join(dir, 'c'), product: 'marine', files: [deep], domain: DOMAIN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as Error).message).toMatch(/sea_surface_temperature\? at depth 10\.53\d* m, deeper than the top level/);
  });
});
