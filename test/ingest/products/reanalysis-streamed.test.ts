/**
 * A reanalysis given as files of consecutive times (the CDS's months) is
 * staged file by file (ingest/products/reanalysis/streamed.ts). Its stores
 * must be those of the whole-year path, byte for byte: three hourly files in
 * the ERA5 CDS NetCDF layout (int16 packed, written by the sample NetCDF4
 * writer) across New Year 1994/1995, ingested both ways, every chunk and
 * array's metadata compared; the same for GRIB months as the CDS delivers
 * them (the job's emulator writes them with ecCodes' tools): geopotential
 * alone in the first file, an 18 UTC run's hourly amounts in two months. Also: the gate still sees the last file's
 * values (a refusal publishes nothing and leaves no staging behind), and a
 * year already published is merged by the whole-year path.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import { GateError } from '../../../ingest/gate/gate.js';
import { CfNetcdfWriter, int16Range } from '../../../ingest/sample/netcdf-writer.js';
import { VARS } from '../../../bench/era5-year.js';
import { execFileSync } from 'node:child_process';
import { era5Grib } from '../../support/emulators/ads-content.js';

const NX = 9;
const NY = 7;
const LON0 = 11.5;
const LAT0 = 41;
const HOUR = 3_600_000;
const hours1900 = (ms: number) => (ms - Date.UTC(1900, 0, 1)) / HOUR;

/** Hourly steps [from, to) in one file; `z` in the first; t2m at `hotK` in every cell at the last step when given. */
async function writeFile(path: string, from: number, to: number, opts: { z?: boolean; hotK?: number } = {}): Promise<void> {
  const lat = Float64Array.from({ length: NY }, (_, j) => LAT0 + j * 0.25);
  const lon = Float64Array.from({ length: NX }, (_, i) => LON0 + i * 0.25);
  const w = await CfNetcdfWriter.create(path, lat, lon, { Conventions: 'CF-1.6' });
  w.defineTime('hours since 1900-01-01 00:00:00.0', hours1900(from));
  if (opts.z) w.addStatic('z', Float32Array.from({ length: NX * NY }, (_, c) => 9.80665 * (100 + 37 * c)), { units: 'm**2 s**-2', long_name: 'Geopotential', standard_name: 'geopotential' });
  // A hot step needs a packing that holds it (the CDS packs each file to its own range).
  for (const v of VARS) w.defineTimed({ name: v.name, attrs: { units: v.units, long_name: v.long }, packing: opts.hotK !== undefined && v.name === 't2m' ? int16Range(200, 400) : v.packing });
  for (let t = from; t < to; t += HOUR) {
    const values: Record<string, Float32Array> = {};
    for (const v of VARS) {
      values[v.name] = Float32Array.from({ length: NX * NY }, (_, c) => v.f(LAT0 + Math.floor(c / NX) * 0.25, LON0 + (c % NX) * 0.25, hours1900(t)));
    }
    if (opts.hotK !== undefined && t + HOUR >= to) values.t2m!.fill(opts.hotK);
    w.appendStep(hours1900(t), values);
  }
  w.close();
}

/** Every file of a store but the global attributes, the consolidated metadata and the checksums (they name the version and its time). */
function storeFiles(dir: string, sub = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(join(dir, sub))) {
    const rel = join(sub, e);
    if (statSync(join(dir, rel)).isDirectory()) for (const [k, v] of storeFiles(dir, rel)) out.set(k, v);
    else if (!['.zattrs', '.zmetadata', 'SHA256SUMS'].includes(rel)) out.set(rel, readFileSync(join(dir, rel)));
  }
  return out;
}

const manifest = (root: string, year: string) => JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', year, 'current.json'), 'utf8'));

describe('reanalysis ingest staged file by file', () => {
  const files = mkdtempSync(join(tmpdir(), 'mp-rean-stream-in-'));
  const roots: string[] = [];
  const newRoot = () => {
    const r = mkdtempSync(join(tmpdir(), 'mp-rean-stream-'));
    roots.push(r);
    return r;
  };
  const f = (n: string) => join(files, n);
  // 30 Dec 1994 00 UTC … 2 Jan 1995 11 UTC in three files; the second starts on New Year's first hour.
  const A = Date.UTC(1994, 11, 30);
  const B = Date.UTC(1995, 0, 1);
  const C = Date.UTC(1995, 0, 2);
  const END = Date.UTC(1995, 0, 2, 12);
  beforeAll(async () => {
    await writeFile(f('a.nc'), A, B, { z: true });
    await writeFile(f('b.nc'), B, C);
    await writeFile(f('c.nc'), C, END);
    await writeFile(f('c-hot.nc'), C, END, { hotK: 350 });
  });
  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it('gives the stores of the whole-year path, byte for byte', async () => {
    const input = [f('a.nc'), f('b.nc'), f('c.nc')];
    const messages: string[] = [];
    const rs = newRoot();
    const streamed = await runIngest({ root: rs, product: 'reanalysis', files: input, source: { model: 'ERA5' }, onProgress: (p) => messages.push(p.message ?? '') });
    const rw = newRoot();
    const whole = await runIngest({ root: rw, product: 'reanalysis', files: input, source: { model: 'ERA5' }, stream: false });
    expect(messages.some((m) => m.includes('staging it'))).toBe(true);

    // 29 Dec 23 UTC (where the first hour's amounts start) to 2 Jan 11 UTC; 1 Jan 00 UTC also closes 1994.
    expect(whole.periods!.map((p) => [p.period, p.from, p.to, p.times])).toEqual([
      ['1994', '1994-12-29T23:00:00.000Z', '1995-01-01T00:00:00.000Z', 50],
      ['1995', '1995-01-01T00:00:00.000Z', '1995-01-02T11:00:00.000Z', 36],
    ]);
    expect(streamed.periods!.map((p) => [p.period, p.from, p.to, p.times])).toEqual(whole.periods!.map((p) => [p.period, p.from, p.to, p.times]));
    expect([streamed.times, streamed.from, streamed.to, streamed.variables]).toEqual([whole.times, whole.from, whole.to, whole.variables]);
    expect([...streamed.notes].sort()).toEqual([...whole.notes].sort());

    for (const year of ['1994', '1995']) {
      const ms = manifest(rs, year);
      const mw = manifest(rw, year);
      expect([ms.times, ms.variables, ms.chunk, ms.source.files, ms.source.run]).toEqual([mw.times, mw.variables, mw.chunk, mw.source.files, mw.source.run]);
      expect(Object.keys(mw.variables)).toContain('mean_radiant_temperature');
      const a = storeFiles(join(rs, 'tiles', 'reanalysis', year, ms.version));
      const b = storeFiles(join(rw, 'tiles', 'reanalysis', year, mw.version));
      expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
      expect([...a.keys()].filter((k) => k.startsWith('mean_radiant_temperature/')).length).toBeGreaterThan(1);
      for (const [k, bytes] of a) expect(bytes.equals(b.get(k)!), `${year}/${k}`).toBe(true);
    }
  }, 240_000);

  it('the CDS’s GRIB months, geopotential in a file of its own and a run across two months: the whole-year path’s stores; an amount reaching back into the previous file is not staged', async () => {
    const ask = (month: string, day: string[], time: string[]) => ({ variable: ['2m_temperature', 'total_precipitation'], year: ['2017'], month: [month], day, time });
    const input = [
      era5Grib({ variable: ['geopotential'], year: ['2017'], month: ['01'], day: ['28'], time: ['18:00'] }, files, 'z.grib'),
      era5Grib(ask('01', ['28', '31'], ['18:00', '23:00']), files, 'jan.grib'),
      era5Grib(ask('02', ['01'], ['00:00', '06:00']), files, 'feb.grib'),
    ];
    const messages: string[] = [];
    const rs = newRoot();
    await runIngest({ root: rs, product: 'reanalysis', files: input, source: { model: 'ERA5' }, onProgress: (p) => messages.push(p.message ?? '') });
    const rw = newRoot();
    await runIngest({ root: rw, product: 'reanalysis', files: input, source: { model: 'ERA5' }, stream: false });
    expect(messages.filter((m) => m.endsWith('staging it'))).toHaveLength(3);
    const ms = manifest(rs, '2017');
    const mw = manifest(rw, '2017');
    expect([ms.times, ms.variables, ms.source.files]).toEqual([mw.times, mw.variables, mw.source.files]);
    expect(Object.keys(ms.variables)).toEqual(expect.arrayContaining(['elevation', 'precipitation', 'temperature_2m']));
    const a = storeFiles(join(rs, 'tiles', 'reanalysis', '2017', ms.version));
    const b = storeFiles(join(rw, 'tiles', 'reanalysis', '2017', mw.version));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [k, bytes] of a) expect(bytes.equals(b.get(k)!), k).toBe(true);

    // February's 00 UTC amount made a total since the run's start (18 UTC, IFS's way): it would need January's steps.
    execFileSync('grib_set', ['-s', 'P1=0', '-w', 'shortName=tp,dataDate=20170131', input[2]!, f('feb-since-run.grib')]);
    const said: string[] = [];
    await runIngest({ root: newRoot(), product: 'reanalysis', files: [input[0]!, input[1]!, f('feb-since-run.grib')], source: { model: 'ERA5' }, onProgress: (p) => said.push(p.message ?? '') });
    expect(said.filter((m) => m.endsWith('staging it'))).toHaveLength(3);
    expect(said.some((m) => m.startsWith('reading feb-since-run.grib (3/3)') && !m.endsWith('staging it'))).toBe(true);
  }, 240_000);

  it('the gate sees the last file too: a refusal publishes nothing and leaves no staging', async () => {
    const root = newRoot();
    const messages: string[] = [];
    const err = await runIngest({ root, product: 'reanalysis', files: [f('a.nc'), f('b.nc'), f('c-hot.nc')], source: { model: 'ERA5' }, onProgress: (p) => messages.push(p.message ?? '') }).catch((e: unknown) => e);
    expect(messages.filter((m) => m.includes('staging it'))).toHaveLength(3);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toMatch(/physical-range: temperature_2m: 63 of \d+ values outside -90 … 60 °C/);
    for (const year of ['1994', '1995']) {
      const dir = join(root, 'tiles', 'reanalysis', year);
      expect(existsSync(join(dir, 'current.json'))).toBe(false);
      expect(existsSync(dir) ? readdirSync(dir).filter((e) => !e.endsWith('.lock')) : []).toEqual([]);
    }
  }, 240_000);

  it('a year already published is merged (the whole-year path), not replaced', async () => {
    const root = newRoot();
    await runIngest({ root, product: 'reanalysis', files: [f('a.nc')], source: { model: 'ERA5' } });
    const r = await runIngest({ root, product: 'reanalysis', files: [f('b.nc'), f('c.nc')], source: { model: 'ERA5' } });
    expect(r.notes.some((n) => n.startsWith('reanalysis/1994: merged with'))).toBe(true);
    const m = manifest(root, '1994');
    expect([m.times[0], m.times[m.times.length - 1], m.times.length]).toEqual(['1994-12-29T23:00:00.000Z', '1995-01-01T00:00:00.000Z', 50]);
    expect(m.source.files).toEqual(['a.nc', 'b.nc', 'c.nc']);
  }, 240_000);
});
