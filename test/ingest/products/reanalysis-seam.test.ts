/**
 * The backfill's seam between its two sources (docs/history.md): 20CRv3 for
 * 1939, ERA5 from 1940. An ERA5 1940 starting at 1940-01-01T00 UTC carries
 * steps of 1939 (the first hourly amount's 23 UTC start, and its 00 UTC end
 * closes 1939), which must not fail either year's ingest, in either order:
 * each year keeps its own source, the steps across the boundary are dropped
 * for that year with one note naming them. Input: 1939-12-30/31 in the PSL
 * 20CRv3 layout (netCDF4-python, test/api/history/fixtures/write_20crv3.py),
 * the first two days of 1940 in the CDS ERA5 NetCDF layout (the sample
 * writer), each ingested through the built CLI as a child process.
 */
import { execFile } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CfNetcdfWriter } from '../../../ingest/sample/netcdf-writer.js';
import { VARS } from '../../../bench/era5-year.js';
import { isYearPublished } from '../../../jobs/backfill/plan.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(REPO, 'test', 'api', 'history', 'fixtures');
const HOUR = 3_600_000;
const hours1900 = (ms: number) => (ms - Date.UTC(1900, 0, 1)) / HOUR;
const NX = 9;
const NY = 7;

/** ERA5 as the CDS delivers it in NetCDF: hourly [from, to), z in the first file. */
async function writeEra5(path: string, from: number, to: number, z: boolean): Promise<void> {
  const lat = Float64Array.from({ length: NY }, (_, j) => 41 + j * 0.25);
  const lon = Float64Array.from({ length: NX }, (_, i) => 11.5 + i * 0.25);
  const w = await CfNetcdfWriter.create(path, lat, lon, { Conventions: 'CF-1.6' });
  w.defineTime('hours since 1900-01-01 00:00:00.0', hours1900(from));
  if (z) w.addStatic('z', Float32Array.from({ length: NX * NY }, (_, c) => 9.80665 * (100 + 37 * c)), { units: 'm**2 s**-2', long_name: 'Geopotential', standard_name: 'geopotential' });
  for (const v of VARS) w.defineTimed({ name: v.name, attrs: { units: v.units, long_name: v.long }, packing: v.packing });
  for (let t = from; t < to; t += HOUR) {
    const values: Record<string, Float32Array> = {};
    for (const v of VARS) values[v.name] = Float32Array.from({ length: NX * NY }, (_, c) => v.f(41 + Math.floor(c / NX) * 0.25, 11.5 + (c % NX) * 0.25, hours1900(t)));
    w.appendStep(hours1900(t), values);
  }
  w.close();
}

function cli(root: string, files: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, 'dist/cli/main.js'), 'ingest', 'reanalysis', ...files], { env: { PATH: process.env.PATH!, METEOPUNTO_DATA: root }, timeout: 120_000 }, (error, out, err) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err }));
  });
}

const manifest = (root: string, year: number) => JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', String(year), 'current.json'), 'utf8'));

describe('reanalysis: the 1939/1940 seam between 20CRv3 and ERA5', () => {
  const files = mkdtempSync(join(tmpdir(), 'mp-seam-files-'));
  const roots: string[] = [];
  const psl = ['air.2m.1939.nc', 'rhum.2m.1939.nc', 'prmsl.1939.nc', 'uwnd.10m.1939.nc', 'vwnd.10m.1939.nc', 'hgt.sfc.nc'].map((n) => join(files, n));
  // Two files, so the 1940 ingest takes the staged (file by file) path as the backfill's CDS months do.
  const era5 = [join(files, 'era5-1940-01a.nc'), join(files, 'era5-1940-01b.nc')];
  // The same two days as one file: the whole-year path.
  const era5One = join(files, 'era5-1940-01.nc');
  /** The staged path ran to the end (it never fell back to reading the files again whole). */
  const staged = (err: string) => expect(err).not.toMatch(/reading era5-1940-01a\.nc \(1\/2\)\n/);
  beforeAll(async () => {
    execFileSync('/usr/bin/python3', [join(FIXTURES, 'write_20crv3.py'), JSON.stringify({ dir: files, year: 1939, first_day: '12-30', days: 2 })]);
    await writeEra5(era5[0]!, Date.UTC(1940, 0, 1, 0), Date.UTC(1940, 0, 1, 24), true);
    await writeEra5(era5[1]!, Date.UTC(1940, 0, 2, 0), Date.UTC(1940, 0, 2, 24), false);
    await writeEra5(era5One, Date.UTC(1940, 0, 1, 0), Date.UTC(1940, 0, 2, 24), true);
  }, 60_000);
  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const newRoot = () => {
    const r = mkdtempSync(join(tmpdir(), 'mp-seam-'));
    roots.push(r);
    return r;
  };

  /** 1939: 20CRv3 only, its 16 steps (1939-12-30T00 … 12-31T21, 3-hourly); 1940: ERA5 only, its 48 hours. */
  function expectBothYears(root: string): void {
    const y39 = manifest(root, 1939);
    expect(y39.source.model).toBe('20CRv3');
    expect(y39.times.length).toBe(16);
    expect(y39.coverage).toMatchObject({ from: '1939-12-30T00:00:00.000Z', to: '1939-12-31T21:00:00.000Z' });
    const y40 = manifest(root, 1940);
    expect(y40.source.model).toBe('ERA5');
    expect(y40.coverage).toMatchObject({ from: '1940-01-01T00:00:00.000Z', to: '1940-01-02T23:00:00.000Z' });
  }

  it('1939 (20CRv3) first, then 1940 (ERA5): both published, the ERA5 steps of 1939 dropped with a note', async () => {
    const root = newRoot();
    const a = await cli(root, psl);
    expect(a.code, a.err).toBe(0);
    const b = await cli(root, era5);
    expect(b.code, b.err).toBe(0);
    staged(b.err);
    const seam = b.out.split('\n').filter((l) => /across the year boundary/.test(l));
    expect(seam).toHaveLength(1);
    expect(seam[0]).toMatch(/reanalysis\/1939 holds 20CRv3: 2 step\(s\) of ERA5 .*1939-12-31T23:00:00\.000Z, 1940-01-01T00:00:00\.000Z/);
    expectBothYears(root);
  }, 180_000);

  it('1940 (ERA5) first, then 1939 (20CRv3): both published, the ERA5 steps of 1939 dropped with a note', async () => {
    const root = newRoot();
    const b = await cli(root, era5);
    expect(b.code, b.err).toBe(0);
    staged(b.err);
    // 1939 holds ERA5's two steps alone: the backfill does not count it as published (its 20CRv3 job is not skipped).
    expect(manifest(root, 1939).times).toEqual(['1939-12-31T23:00:00.000Z', '1940-01-01T00:00:00.000Z']);
    expect([await isYearPublished(root, 1939), await isYearPublished(root, 1940)]).toEqual([false, true]);
    const a = await cli(root, psl);
    expect(a.code, a.err).toBe(0);
    expect(await isYearPublished(root, 1939)).toBe(true);
    const seam = [...b.out.split('\n'), ...a.out.split('\n')].filter((l) => /across the year boundary/.test(l));
    expect(seam).toHaveLength(1);
    expect(seam[0]).toMatch(/1939-12-31T23:00:00\.000Z, 1940-01-01T00:00:00\.000Z/);
    expectBothYears(root);
  }, 180_000);

  it('the same through the whole-year path (1940 as one file)', async () => {
    const root = newRoot();
    expect((await cli(root, psl)).code).toBe(0);
    const b = await cli(root, [era5One]);
    expect(b.code, b.err).toBe(0);
    expect(b.out.split('\n').filter((l) => /across the year boundary/.test(l))).toEqual([
      '  note       warning: reanalysis/1939 holds 20CRv3: 2 step(s) of ERA5 across the year boundary (1939-12-31T23:00:00.000Z, 1940-01-01T00:00:00.000Z) not published there',
    ]);
    expectBothYears(root);
  }, 180_000);
});
