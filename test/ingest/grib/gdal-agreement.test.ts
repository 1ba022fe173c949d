/**
 * Every message of every GRIB file in ../shared/data, decoded by the reader
 * (ecCodes + our scanning normalisation), against GDAL's GRIB driver
 * (degrib/g2clib, an independent decoder): values at every grid point, the
 * bitmap, geolocation of sample points (GDAL/PROJ lat/lon → our grid index →
 * value), reference and valid times.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gridIndexOf, type GridDef } from '../../../geo/grid.js';
import type { SourceField } from '../../../ingest/field.js';
import { gribReader } from '../../../ingest/grib/grib-reader.js';
import { describeShared, SHARED_DATA } from '../../support/shared-data.js';
import { gdalGeolocationUsable, gdalMessages, type GdalMessage } from './gdal-reference.js';

/** Files whose first bytes are the GRIB magic, found by walking the folder (not by the reader's sniff). */
function gribFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...gribFiles(p));
    else if (readFileSync(p).subarray(0, 4).toString('latin1') === 'GRIB') out.push(p);
  }
  return out.sort();
}

/** Value at GDAL raster (col, row) — row 0 north — from our normalised grid. */
function ourAt(f: SourceField, col: number, row: number): number {
  const { nx, ny } = f.grid;
  return f.values[(ny - 1 - row) * nx + col]!;
}

/** Pixel-centre coordinate of GDAL column/row in the grid's own coordinates. */
function gdalCentre(g: GdalMessage, col: number, row: number): { x: number; y: number } {
  const gt = g.geotransform;
  return { x: gt[0]! + (col + 0.5) * gt[1]!, y: gt[3]! + (row + 0.5) * gt[5]! };
}

function ownCoords(grid: GridDef, col: number, row: number): { x: number; y: number } {
  return { x: grid.x0 + col * grid.dx, y: grid.y0 + (grid.ny - 1 - row) * grid.dy };
}

const files = gribFiles(SHARED_DATA);
const maxDiffByFile = new Map<string, number>();

describeShared('GRIB reader agrees with GDAL on every message of every shared GRIB file', () => {
  const decoded = new Map<string, { ours: SourceField[]; gdal: GdalMessage[] }>();

  beforeAll(async () => {
    for (const f of files) decoded.set(f, { ours: await gribReader.read(f), gdal: await gdalMessages(f) });
  }, 120_000);

  afterAll(() => {
    const rows = [...maxDiffByFile].map(([f, d]) => `| ${f} | ${d.toExponential(2)} |`);
    if (rows.length > 0) console.info(['| file | max abs diff vs GDAL |', '|---|---|', ...rows].join('\n'));
  });

  it('finds the nine GRIB files of the shared data', () => {
    expect(files.map((f) => relative(SHARED_DATA, f))).toEqual([
      'adriatic-waves/test.grib1',
      'cosmo2i-rotated/COS2I_orog_20180825.grb',
      'cosmo2i-rotated/cosmo_test.grib2',
      'dem-north-italy-1km/nita1k_orog.grb',
      'era5-soil-nw-italy/soil-surface-level-mix.grib',
      'era5-t2m-europe/era5-single-level-scalar-time.grib',
      'icon2i-orography/I2ITA2KM_orog_20241009.grib2',
      'icon2i-orography/I2NITA2KM_orog_20241009.grib2',
      'ifs-hres-t2m-italy/alternate-scanning.grib',
    ]);
  });

  it.each(files.map((f) => [relative(SHARED_DATA, f), f]))('%s: values and bitmap at every grid point', (rel, f) => {
    const { ours, gdal } = decoded.get(f)!;
    expect(ours.length).toBe(gdal.length);
    let fileMax = 0;
    ours.forEach((o, k) => {
      const g = gdal[k]!;
      expect([o.grid.nx, o.grid.ny], `message ${k + 1} size`).toEqual([g.nx, g.ny]);
      let maxAbs = 0;
      let maxDiff = 0;
      let nanMismatch = 0;
      let nan = 0;
      for (let row = 0; row < g.ny; row++) {
        for (let col = 0; col < g.nx; col++) {
          const a = ourAt(o, col, row);
          const b = g.values[row * g.nx + col]!;
          if (Number.isNaN(a) || Number.isNaN(b)) {
            if (Number.isNaN(a) !== Number.isNaN(b)) nanMismatch++;
            else nan++;
            continue;
          }
          maxAbs = Math.max(maxAbs, Math.abs(b));
          maxDiff = Math.max(maxDiff, Math.abs(a - b));
        }
      }
      expect(nanMismatch, `message ${k + 1} bitmap`).toBe(0);
      expect(nan, `message ${k + 1} missing points`).toBe(countNaN(o.values));
      // Both decode to (at least) float32; one float32 ulp at the field's largest magnitude.
      expect(maxDiff, `message ${k + 1} ${o.name}`).toBeLessThanOrEqual(maxAbs * 2 ** -22);
      fileMax = Math.max(fileMax, maxDiff);
    });
    maxDiffByFile.set(rel, fileMax);
  });

  it.each(files.map((f) => [relative(SHARED_DATA, f), f]))('%s: geolocation of sample points', (_rel, f) => {
    const { ours, gdal } = decoded.get(f)!;
    let checked = 0;
    ours.forEach((o, k) => {
      const g = gdal[k]!;
      // GDAL 3.6's GRIB1 path gives 0° increments for the rotated COSMO grid and
      // 65.535° for the 1/12° Adriatic grid: those grids are checked by hand in
      // known-values.test.ts instead.
      if (!gdalGeolocationUsable(g)) return;
      expect(g.rotated).toBe(o.grid.kind === 'rotated_ll');
      // Axes: GDAL pixel centres in the grid's own (possibly rotated) coordinates.
      for (const [col, row] of [[0, 0], [g.nx - 1, g.ny - 1], [Math.floor(g.nx / 2), Math.floor(g.ny / 3)]] as const) {
        const a = ownCoords(o.grid, col, row);
        const b = gdalCentre(g, col, row);
        expect(Math.abs(a.x - b.x)).toBeLessThan(1e-6);
        expect(Math.abs(a.y - b.y)).toBeLessThan(1e-6);
      }
      // Points: GDAL/PROJ geographic lat/lon → our fractional index → same value.
      for (const [col, row, lat, lon] of g.samples) {
        const idx = gridIndexOf(o.grid, lat, lon);
        expect(idx, `lat ${lat} lon ${lon}`).not.toBeNull();
        expect(idx!.x).toBeCloseTo(col, 5);
        expect(idx!.y).toBeCloseTo(o.grid.ny - 1 - row, 5);
        const a = o.values[Math.round(idx!.y) * o.grid.nx + Math.round(idx!.x)]!;
        const b = g.values[row * g.nx + col]!;
        if (Number.isNaN(b)) expect(a).toBeNaN();
        else expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.abs(b) * 2 ** -22);
        checked++;
      }
    });
    if (!f.endsWith('COS2I_orog_20180825.grb')) expect(checked).toBeGreaterThan(0);
  });

  it.each(files.map((f) => [relative(SHARED_DATA, f), f]))('%s: reference and valid times', (_rel, f) => {
    const { ours, gdal } = decoded.get(f)!;
    ours.forEach((o, k) => {
      const md = gdal[k]!.metadata;
      const ref = Number(md.GRIB_REF_TIME) * 1000;
      // nita1k_orog.grb writes century 21 with year-of-century 0: ecCodes reads
      // 2000, degrib 2100 (the WMO convention for 2000 is century 20, year 100).
      if (f.endsWith('nita1k_orog.grb')) {
        expect(o.referenceTime.toISOString()).toBe('2000-01-01T00:00:00.000Z');
        expect(new Date(ref).toISOString()).toBe('2100-01-01T00:00:00.000Z');
        return;
      }
      expect(o.referenceTime.getTime(), `message ${k + 1}`).toBe(ref);
      expect(o.validTime.getTime(), `message ${k + 1}`).toBe(Number(md.GRIB_VALID_TIME) * 1000);
    });
  });
});

function countNaN(v: Float32Array): number {
  let n = 0;
  for (const x of v) if (Number.isNaN(x)) n++;
  return n;
}
