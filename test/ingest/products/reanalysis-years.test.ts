/**
 * Product `reanalysis`: files split by UTC year, each year merged
 * with what is published for it, one source per year. Input: the NOAA PSL
 * 20CRv3 layout written by netCDF4-python (test/api/history/fixtures/
 * write_20crv3.py) across New Year 1925/1926; expected values read back from
 * the same files with netCDF4-python (bilinear at a point on a grid node
 * row, so the reader's bilinear is checked too).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import { TileStore } from '../../../tiles/read/reader.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'api', 'history', 'fixtures');
const py = (script: string, req: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', [join(FIXTURES, script), JSON.stringify(req)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
const ROME = { lat: 41.9, lon: 12.5 };

describe('reanalysis ingest: one store per year, merged', () => {
  const files = mkdtempSync(join(tmpdir(), 'mp-20cr-years-'));
  const root = mkdtempSync(join(tmpdir(), 'mp-rean-'));
  const f = (n: string) => join(files, n);
  beforeAll(() => {
    // 1925-12-31 and 1926-01-01, 3-hourly: the year-1925 files hold both days here.
    py('write_20crv3.py', { dir: files, year: 1925, first_day: '12-31', days: 2 });
  });
  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('splits by UTC year; a second run with other variables merges into both years', async () => {
    const first = await runIngest({ root, product: 'reanalysis', files: [f('air.2m.1925.nc'), f('hgt.sfc.nc')] });
    expect(first.periods!.map((p) => [p.period, p.times, p.from, p.to])).toEqual([
      // 1926-01-01 00 UTC also closes 1925 (an amount or mean there covers the end of 1925).
      ['1925', 9, '1925-12-31T00:00:00.000Z', '1926-01-01T00:00:00.000Z'],
      ['1926', 8, '1926-01-01T00:00:00.000Z', '1926-01-01T21:00:00.000Z'],
    ]);
    const second = await runIngest({ root, product: 'reanalysis', files: [f('rhum.2m.1925.nc'), f('prmsl.1925.nc')] });
    expect(second.notes.some((n) => n.startsWith('reanalysis/1925: merged with'))).toBe(true);
    // Temperature and humidity met in the merge: dew point derived there.
    expect(second.notes).toContain('1926: dew_point_2m derived from temperature_2m and relative_humidity_2m (Magnus, Alduchov & Eskridge 1996)');
    const index = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', 'index.json'), 'utf8'));
    expect(Object.keys(index.periods)).toEqual(['1925', '1926']);
    for (const year of ['1925', '1926']) {
      const m = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', year, 'current.json'), 'utf8'));
      expect(Object.keys(m.variables).sort()).toEqual(['dew_point_2m', 'elevation', 'pressure_msl', 'relative_humidity_2m', 'temperature_2m']);
      expect(m.source.model).toBe('20CRv3');
      expect(m.source.files).toEqual(['air.2m.1925.nc', 'hgt.sfc.nc', 'rhum.2m.1925.nc', 'prmsl.1925.nc']);
    }
    // Values kept through the merge: the first run's temperature, the second's pressure.
    const [airK, prmslPa] = py('era5_reference.py', {
      cmd: 'points',
      queries: [
        { kind: 'nc', file: f('air.2m.1925.nc'), var: 'air', ...ROME, times: ['1926-01-01T06:00'], weights: [1] },
        { kind: 'nc', file: f('prmsl.1925.nc'), var: 'prmsl', ...ROME, times: ['1926-01-01T06:00'], weights: [1] },
      ],
    }) as number[];
    const store = new TileStore(root, { manifestCheckMs: 0 });
    const s = await store.sample('reanalysis/1926', ROME.lat, ROME.lon, Date.UTC(1926, 0, 1, 6));
    expect(s.values.temperature_2m! - (airK! - 273.15)).toBeCloseTo(0, 2);
    expect(s.values.pressure_msl! - prmslPa! / 100).toBeCloseTo(0, 2);
  }, 60_000);

  it('one source per year: the same year from another reanalysis is refused, nothing published', async () => {
    const before = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'), 'utf8')).version;
    await expect(runIngest({ root, product: 'reanalysis', files: [f('uwnd.10m.1925.nc'), f('vwnd.10m.1925.nc')], source: { model: 'ERA5' } }))
      .rejects.toThrow(/reanalysis\/1925 holds 20CRv3, these files ERA5: one year holds one source/);
    expect(JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'), 'utf8')).version).toBe(before);
  });

  it('20CRv3 with shum.2m instead of rhum.2m: RH from specific humidity at the surface pressure (MSL reduced to hgt.sfc)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-20cr-shum-'));
    const data = mkdtempSync(join(tmpdir(), 'mp-rean-shum-'));
    try {
      py('write_20crv3.py', { dir, year: 1930, first_day: '07-01', days: 1, humidity: 'shum' });
      const names = ['air.2m.1930.nc', 'shum.2m.1930.nc', 'prmsl.1930.nc', 'hgt.sfc.nc'];
      const r = await runIngest({ root: data, product: 'reanalysis', files: names.map((n) => join(dir, n)) });
      expect(r.notes.some((n) => n.startsWith('relative_humidity_2m derived from specific_humidity_2m, temperature_2m and the surface pressure'))).toBe(true);
      // On a grid node (42 N, 12 E): no interpolation, so the reference is the formula at the node's values.
      const node = { lat: 42, lon: 12 };
      const [q, airK, prmslPa, hgt] = py('era5_reference.py', {
        cmd: 'points',
        queries: [['shum.2m.1930.nc', 'shum'], ['air.2m.1930.nc', 'air'], ['prmsl.1930.nc', 'prmsl'], ['hgt.sfc.nc', 'hgt']]
          .map(([file, v]) => ({ kind: 'nc', file: join(dir, file!), var: v, ...node, times: ['1930-07-01T12:00'], weights: [1] })),
      }) as number[];
      const rh = py('era5_reference.py', { cmd: 'rh_from_shum', q, t_c: airK! - 273.15, msl_hpa: prmslPa! / 100, z: hgt }) as number;
      const store = new TileStore(data, { manifestCheckMs: 0 });
      const s = await store.sample('reanalysis/1930', node.lat, node.lon, Date.UTC(1930, 6, 1, 12));
      expect(s.values.relative_humidity_2m! - rh).toBeCloseTo(0, 1);
      expect(s.values.dew_point_2m).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
