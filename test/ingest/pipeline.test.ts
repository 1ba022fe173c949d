/**
 * runIngest as a run: reader choice and read errors, unknown products,
 * progress, abort between stages (nothing published, the previous version
 * stays live), the newest run winning a shared valid time across files
 * (two small CF NetCDF4 runs written with the sample's writer, read back by
 * the real NetCDF reader).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile as readFs, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadError } from '../../ingest/field.js';
import { IngestError, type IngestProgress } from '../../ingest/ingest-types.js';
import { runIngest } from '../../ingest/pipeline.js';
import { readerFor, readFile } from '../../ingest/readers.js';
import { CfNetcdfWriter } from '../../ingest/sample/netcdf-writer.js';
import { TileStore } from '../../tiles/read/reader.js';
import { dataFile, describeShared } from '../support/shared-data.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-pipeline-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readFile', () => {
  it('refuses an empty file, a directory, a missing file and unknown content with ReadError naming the file', async () => {
    const empty = join(dir, 'empty.grib');
    await writeFile(empty, '');
    const text = join(dir, 'notes.nc');
    await writeFile(text, 'hello, this is not NetCDF');
    const gz = join(dir, 'forecast.grib2.gz');
    await writeFile(gz, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    const bz = join(dir, 'icon.grib2.bz2');
    await writeFile(bz, 'BZh91AY&SY');
    const cases: [string, RegExp][] = [
      [empty, /empty\.grib: empty file/],
      [dir, /is a directory/],
      [join(dir, 'nope.grib'), /nope\.grib: no such file/],
      [text, /notes\.nc: unknown format \(starts with "hello, t"\)/],
      [gz, /gzip-compressed: decompress it first/],
      [bz, /bzip2-compressed: decompress it first/],
    ];
    for (const [path, msg] of cases) {
      const err = await readFile(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReadError);
      expect((err as ReadError).file).toBe(path);
      expect((err as Error).message).toMatch(msg);
    }
  });
});

describe('runIngest input checks', () => {
  it('unknown product and no files are IngestErrors', async () => {
    await expect(runIngest({ root: dir, product: 'satellite', files: ['x'] })).rejects.toThrow(/unknown product 'satellite': known products are nwp, dem/);
    await expect(runIngest({ root: dir, product: 'nwp', files: [] })).rejects.toThrowError(IngestError);
  });
});

describeShared('runIngest with real files', () => {
  it('picks the reader by content, not by extension', async () => {
    const disguised = join(dir, 'really-grib.nc');
    await copyFile(dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib'), disguised);
    expect((await readerFor(disguised)).format).toBe('grib');
    const nc3 = join(dir, 'really-netcdf.grib');
    await copyFile(dataFile('era5-gust-global-nc3/wgust_era5.nc'), nc3);
    expect((await readerFor(nc3)).format).toBe('netcdf');
  });

  it('reports progress read → derive → write → publish, fractions rising to 1', async () => {
    const seen: IngestProgress[] = [];
    const root = join(dir, 'progress');
    await runIngest({ root, product: 'nwp', files: [dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib')], onProgress: (p) => seen.push(p) });
    expect([...new Set(seen.map((p) => p.stage))]).toEqual(['read', 'derive', 'write', 'publish']);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.fraction).toBeGreaterThanOrEqual(seen[i - 1]!.fraction);
    expect(seen.at(-1)!.fraction).toBe(1);
  });

  it('an aborted run publishes nothing and leaves the live version in place', async () => {
    const root = join(dir, 'abort');
    const first = await runIngest({ root, product: 'nwp', files: [dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib')] });
    const manifest = join(root, 'tiles', 'nwp', 'current.json');
    const before = await readFs(manifest, 'utf8');

    const ctrl = new AbortController();
    const run = runIngest({
      root, product: 'nwp', files: [dataFile('ifs-hres-t2m-italy/alternate-scanning.grib')], signal: ctrl.signal,
      onProgress: (p) => {
        if (p.stage === 'derive') ctrl.abort(new Error('operator cancelled'));
      },
    });
    await expect(run).rejects.toThrow(/operator cancelled/);
    expect(await readFs(manifest, 'utf8')).toBe(before);
    expect(new TileStore(root).manifest('nwp')!.version).toBe(first.version);
  });

  it('a failing file fails the whole run with its name; an earlier version stays live', async () => {
    const root = join(dir, 'bad');
    await runIngest({ root, product: 'nwp', files: [dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib')] });
    const truncated = join(dir, 'truncated.grib');
    const bytes = await readFs(dataFile('ifs-hres-t2m-italy/alternate-scanning.grib'));
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const err = await runIngest({ root, product: 'nwp', files: [dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib'), truncated] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReadError);
    expect((err as ReadError).file).toBe(truncated);
    expect(new TileStore(root).manifest('nwp')!.times).toEqual(['2017-01-01T12:00:00.000Z']);
  });

  it('merges files into one time axis; the same file twice is deduplicated', async () => {
    const root = join(dir, 'merge');
    const a = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
    const r = await runIngest({ root, product: 'nwp', files: [a, a] });
    // 61 days, each stored at its end (a forecast store starts at its first step).
    expect(r.times).toBe(61);
    expect(r.from).toBe('2023-11-02T00:00:00.000Z');
    expect(r.to).toBe('2024-01-01T00:00:00.000Z');
    expect(existsSync(join(root, 'tiles', 'nwp', 'current.json'))).toBe(true);
  });
});

describe('runIngest across runs', () => {
  /** A CF NetCDF4 file of one run: hourly t2m (constant K) and hourly tp amounts (constant mm). */
  async function runFile(name: string, run: string, hours: number[], t2mK: number, tpMm: number): Promise<string> {
    const path = join(dir, name);
    const lat = Float64Array.of(41, 41.5, 42);
    const lon = Float64Array.of(12, 12.5, 13, 13.5);
    const w = await CfNetcdfWriter.create(path, lat, lon, { Conventions: 'CF-1.8' });
    w.defineTime(`hours since ${run.replace('T', ' ').replace('Z', '')}`, 0);
    w.defineTimed({ name: 't2m', attrs: { units: 'K' }, packing: { kind: 'float32' } });
    w.defineTimed({ name: 'tp', attrs: { units: 'kg m-2', cell_methods: 'time: sum' }, packing: { kind: 'float32' } });
    for (const h of hours) w.appendStep(h, { t2m: new Float32Array(12).fill(t2mK), tp: new Float32Array(12).fill(tpMm) });
    w.close();
    return path;
  }

  it('a valid time present in two runs takes the newer run, whatever the file order', async () => {
    const older = await runFile('run00.nc', '2026-01-10T00:00:00Z', [1, 2, 3, 4, 5, 6], 280.15, 1);
    const newer = await runFile('run03.nc', '2026-01-10T03:00:00Z', [1, 2, 3, 4, 5, 6], 290.15, 2);
    for (const files of [[older, newer], [newer, older]]) {
      const root = join(dir, `runs-${files[0] === older ? 'a' : 'b'}`);
      const r = await runIngest({ root, product: 'nwp', files });
      expect(r.from).toBe('2026-01-10T01:00:00.000Z');
      expect(r.to).toBe('2026-01-10T09:00:00.000Z');
      expect(r.times).toBe(9);
      const store = new TileStore(root);
      const at = async (iso: string) => (await store.sample('nwp', 41.7, 12.7, Date.parse(iso))).values;
      expect(await at('2026-01-10T02:00:00Z')).toEqual({ temperature_2m: 7, precipitation: 1 });
      expect(await at('2026-01-10T04:00:00Z')).toEqual({ temperature_2m: 17, precipitation: 2 });
      expect(await at('2026-01-10T06:00:00Z')).toEqual({ temperature_2m: 17, precipitation: 2 });
      expect(await at('2026-01-10T09:00:00Z')).toEqual({ temperature_2m: 17, precipitation: 2 });
    }
  });
});
