/**
 * Hand-derived expectations for the shared GRIB files: exact grid
 * definitions (from the data's provenance notes and the WMO header fields), metadata, and
 * physical sanity values at known places; the rotated COSMO grid against
 * ecCodes' own geographic coordinates; alternative row scanning against the
 * smoothness of a real temperature field.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { cellLatLon, gridIndexOf, sameGrid } from '../../../geo/grid.js';
import type { SourceField } from '../../../ingest/field.js';
import { decodeGribFile } from '../../../ingest/grib/eccodes-bridge.js';
import { gribReader } from '../../../ingest/grib/grib-reader.js';
import { normaliseScanning, type ScanningFlags } from '../../../ingest/grib/scanning.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const run = promisify(execFile);

const FILES = {
  cosmoTp: 'cosmo2i-rotated/cosmo_test.grib2',
  cosmoOrog: 'cosmo2i-rotated/COS2I_orog_20180825.grb',
  era5: 'era5-t2m-europe/era5-single-level-scalar-time.grib',
  soil: 'era5-soil-nw-italy/soil-surface-level-mix.grib',
  ifs: 'ifs-hres-t2m-italy/alternate-scanning.grib',
  waves: 'adriatic-waves/test.grib1',
  dem: 'dem-north-italy-1km/nita1k_orog.grb',
  icon: 'icon2i-orography/I2ITA2KM_orog_20241009.grib2',
  iconNorth: 'icon2i-orography/I2NITA2KM_orog_20241009.grib2',
} as const;

/** Nearest grid value at a geographic point. */
function at(f: SourceField, lat: number, lon: number): number {
  const idx = gridIndexOf(f.grid, lat, lon);
  if (!idx) throw new Error(`${lat},${lon} outside the grid`);
  return f.values[Math.round(idx.y) * f.grid.nx + Math.round(idx.x)]!;
}

function nanCount(v: Float32Array): number {
  let n = 0;
  for (const x of v) if (Number.isNaN(x)) n++;
  return n;
}

describeShared('GRIB reader: hand-derived grids, metadata and values', () => {
  const read = {} as Record<keyof typeof FILES, SourceField[]>;

  beforeAll(async () => {
    for (const [k, rel] of Object.entries(FILES)) read[k as keyof typeof FILES] = await gribReader.read(dataFile(rel));
  }, 60_000);

  it('exact grid definitions', () => {
    const rotated = { kind: 'rotated_ll', nx: 576, ny: 701, x0: -3.8, y0: -8.5, dx: 0.02, dy: 0.02, southPoleLat: -47, southPoleLon: 10, angle: 0 };
    expect(read.cosmoTp[0]!.grid).toEqual(rotated);
    expect(read.cosmoOrog[0]!.grid).toEqual(rotated);
    expect(sameGrid(read.cosmoTp[0]!.grid, read.cosmoOrog[0]!.grid, 0)).toBe(true);
    expect(read.era5[0]!.grid).toEqual({ kind: 'regular_ll', nx: 201, ny: 121, x0: -10, y0: 30, dx: 0.25, dy: 0.25 });
    expect(read.ifs[0]!.grid).toEqual({ kind: 'regular_ll', nx: 291, ny: 171, x0: -10, y0: 34, dx: 0.1, dy: 0.1 });
    expect(read.dem[0]!.grid).toEqual({ kind: 'regular_ll', nx: 551, ny: 381, x0: 6.4, y0: 43.4, dx: 0.014, dy: 0.01 });
    expect(read.icon[0]!.grid).toEqual({ kind: 'regular_ll', nx: 485, ny: 596, x0: 6.5, y0: 35.4, dx: 0.025, dy: 0.02 });
    expect(read.iconNorth[0]!.grid).toEqual({ kind: 'regular_ll', nx: 301, ny: 191, x0: 6.5, y0: 43.5, dx: 0.025, dy: 0.02 });
    for (const f of read.soil) expect(f.grid).toEqual({ kind: 'regular_ll', nx: 6, ny: 6, x0: 0, y0: 40, dx: 2, dy: 2 });
    const [swh, pmsl, z] = read.waves;
    expect(swh!.grid).toMatchObject({ nx: 97, ny: 73, x0: 12, y0: 40 });
    expect(swh!.grid.dx).toBeCloseTo(1 / 12, 9);
    expect(swh!.grid.dy).toBeCloseTo(1 / 12, 9);
    expect(pmsl!.grid).toEqual({ kind: 'regular_ll', nx: 205, ny: 85, x0: -60, y0: 30, dx: 0.5, dy: 0.5 });
    expect(z!.grid).toEqual({ kind: 'regular_ll', nx: 43, ny: 25, x0: -11.5, y0: 31.5, dx: 1, dy: 1 });
  });

  it('names, units, levels and times', () => {
    const tp = read.cosmoTp[0]!;
    expect(tp).toMatchObject({ name: 'tp', paramId: 228228, units: 'kg m**-2', stepType: 'accum' });
    expect(tp.referenceTime.toISOString()).toBe('2019-11-14T00:00:00.000Z');
    expect(tp.intervalStart?.toISOString()).toBe('2019-11-14T18:00:00.000Z');
    expect(tp.validTime.toISOString()).toBe('2019-11-15T00:00:00.000Z');
    expect(read.era5[0]).toMatchObject({ name: '2t', paramId: 167, units: 'K', stepType: 'instant' });
    expect(read.era5[0]!.validTime.toISOString()).toBe('2017-01-01T12:00:00.000Z');
    expect(read.ifs[0]).toMatchObject({ name: '2t', level: { type: 'heightAboveGround', value: 2 } });
    expect(read.ifs[0]!.validTime.toISOString()).toBe('2021-08-01T15:00:00.000Z');
    expect(read.cosmoOrog[0]).toMatchObject({ name: 'hsurf', units: 'm' });
    expect(read.soil.map((f) => `${f.name}@${f.level?.type}:${f.level?.value}`)).toEqual([
      '2t@surface:0', 'stl1@depthBelowLandLayer:0', 'stl2@depthBelowLandLayer:7', 'stl3@depthBelowLandLayer:28', 'stl4@depthBelowLandLayer:100',
      'slt@surface:0', 'swvl1@depthBelowLandLayer:0', 'swvl2@depthBelowLandLayer:7', 'swvl3@depthBelowLandLayer:28', 'swvl4@depthBelowLandLayer:100',
    ]);
    expect(read.waves.map((f) => [f.name, f.units])).toEqual([['swh', 'm'], ['pmsl', 'Pa'], ['z', 'm**2 s**-2']]);
  });

  it('bitmaps come out as NaN: DEM (189 missing, never 9999) and Adriatic waves over land', () => {
    const dem = read.dem[0]!.values;
    expect(nanCount(dem)).toBe(189);
    expect(dem.some((v) => v >= 9000)).toBe(false);
    expect(nanCount(read.waves[0]!.values)).toBe(5000);
    expect(at(read.waves[0]!, 43.94, 12.45)).toBeNaN(); // San Marino: land
    expect(nanCount(read.waves[1]!.values)).toBe(0);
  });

  it('orography: high on mountains, near zero at sea', () => {
    expect(at(read.cosmoOrog[0]!, 45.8326, 6.8652)).toBeGreaterThan(3000); // Mont Blanc (4808 m)
    expect(at(read.cosmoOrog[0]!, 37.751, 14.994)).toBeGreaterThan(2000); // Etna (3357 m)
    expect(Math.abs(at(read.cosmoOrog[0]!, 43.0, 15.0))).toBeLessThan(5); // Adriatic
    expect(at(read.icon[0]!, 37.751, 14.994)).toBeGreaterThan(2000);
    expect(Math.abs(at(read.icon[0]!, 40.0, 12.0))).toBeLessThan(5); // Tyrrhenian
    expect(at(read.dem[0]!, 45.8326, 6.8652)).toBeGreaterThan(4000);
    const titano = at(read.dem[0]!, 43.9365, 12.446); // Monte Titano, San Marino (739 m)
    expect(titano).toBeGreaterThan(400);
    expect(titano).toBeLessThan(800);
    expect(Math.abs(at(read.dem[0]!, 44.0, 13.5))).toBeLessThan(1);
  });

  it('temperatures and waves in plausible ranges', () => {
    const rome = at(read.era5[0]!, 41.9, 12.5); // 1 January, midday
    expect(rome).toBeGreaterThan(270);
    expect(rome).toBeLessThan(295);
    const bologna = at(read.ifs[0]!, 44.5, 11.3); // 1 August, 15 UTC
    expect(bologna).toBeGreaterThan(295);
    expect(bologna).toBeLessThan(315);
    const swh = at(read.waves[0]!, 43.0, 15.0);
    expect(swh).toBeGreaterThan(0);
    expect(swh).toBeLessThan(3);
    const tp = read.cosmoTp[0]!.values; // 6-hour precipitation, kg m-2
    expect(tp.every((v) => v >= 0 && v < 500)).toBe(true);
  });

  it('rotated COSMO grid: cellLatLon matches ecCodes geographic coordinates', async () => {
    const { stdout } = await run('grib_get_data', ['-L', '%.7f %.7f ', '-F', '%.6g', dataFile(FILES.cosmoOrog)], { maxBuffer: 1 << 26 });
    const lines = stdout.split('\n'); // header, then one line per point in storage order (S→N rows, W→E)
    const grid = read.cosmoOrog[0]!.grid;
    for (const [i, j] of [[0, 0], [575, 0], [0, 700], [575, 700], [288, 350], [100, 500]] as const) {
      const [lat, lon, value] = lines[1 + j * grid.nx + i]!.trim().split(/\s+/).map(Number) as [number, number, number];
      const ours = cellLatLon(grid, i, j);
      expect(Math.abs(ours.lat - lat), `(${i},${j}) lat`).toBeLessThan(1e-5);
      expect(Math.abs(ours.lon - lon), `(${i},${j}) lon`).toBeLessThan(1e-5);
      expect(read.cosmoOrog[0]!.values[j * grid.nx + i]).toBeCloseTo(value, 2);
    }
  });

  it('alternative row scanning: honouring the flag gives a smooth field, ignoring it a zigzag', async () => {
    const [msg] = await decodeGribFile(dataFile(FILES.ifs));
    expect(msg!.meta.alternativeRowScanning).toBe(1);
    const { nx, ny } = read.ifs[0]!.grid;
    const flags: ScanningFlags = { iScansNegatively: false, jScansPositively: false, jPointsAreConsecutive: false, alternativeRowScanning: true };
    const rowJump = (v: Float32Array) => {
      let s = 0;
      for (let j = 0; j + 1 < ny; j++) for (let i = 0; i < nx; i++) s += Math.abs(v[(j + 1) * nx + i]! - v[j * nx + i]!);
      return s / ((ny - 1) * nx);
    };
    const honoured = rowJump(normaliseScanning(msg!.values, nx, ny, flags));
    const ignored = rowJump(normaliseScanning(msg!.values, nx, ny, { ...flags, alternativeRowScanning: false }));
    expect(honoured).toBeLessThan(1); // K between rows 0.1° apart
    expect(ignored).toBeGreaterThan(3 * honoured);
    expect(Array.from(read.ifs[0]!.values)).toEqual(Array.from(normaliseScanning(msg!.values, nx, ny, flags)));
  });
});
