/**
 * `meteopunto ingest dem <file.tif>`: the usual public DEMs are GeoTIFF.
 * The test files are written by GDAL from the real 1 km DEM of
 * ../shared/data (gdal_translate to EPSG:4326 keeping its no-data 9999;
 * gdalwarp to UTM 32N and to LAEA Europe, no-data −32768), ingested as
 * `dem` through the CLI; every stored cell, read back by xarray, is compared
 * with GDAL's own reading of the TIFF at the cell's centre (taken into the
 * file's CRS by GDAL/PROJ, bilinear between pixel centres:
 * fixtures/geotiff_reference.py).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { PYTHON } from '../pipeline-reference.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../../..');
const REFERENCE = join(import.meta.dirname, 'fixtures/geotiff_reference.py');
const DEM = dataFile('dem-north-italy-1km/nita1k_orog.grb');

/** [lat, lon, stored (read by xarray from our Zarr store), GDAL's value there] for every k-th cell both ways. */
function compare(tif: string, store: string, k: number): [number, number, number | null, number | null][] {
  const out = execFileSync(PYTHON, [REFERENCE, tif, store, String(k)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  return (JSON.parse(out) as { cells: [number, number, number | null, number | null][] }).cells;
}

interface Report {
  version: string;
  grid: RegularLatLonGrid;
  variables: string[];
  notes: string[];
}

describeShared('ingest dem from a GeoTIFF (files written by GDAL from the real 1 km DEM)', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-dem-tif-'));
  const gdal = (tool: string, args: string[]) => execFileSync(tool, ['-q', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const ingest = (tif: string) => {
    const data = join(work, `data-${tif}`);
    const r = spawnSync(process.execPath, ['dist/cli/main.js', 'ingest', 'dem', join(work, tif), '--json', '--quiet'], {
      cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: data }, timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return { data, report: JSON.parse(r.stdout) as Report };
  };
  const cells = (tif: string, data: string, report: Report, k: number) => compare(join(work, tif), join(data, 'tiles', 'dem', report.version), k);
  const expectAgreement = (rows: ReturnType<typeof compare>, tolM: number) => {
    for (const [lat, lon, ours, ref] of rows) {
      if (ref === null) expect(ours, `${lat}, ${lon}`).toBeNull();
      else expect(Math.abs((ours ?? NaN) - ref), `${lat}, ${lon}: ${ours} vs GDAL ${ref}`).toBeLessThanOrEqual(tolM);
    }
  };

  beforeAll(() => {
    gdal('gdal_translate', ['-of', 'GTiff', '-ot', 'Float32', '-a_srs', 'EPSG:4326', DEM, join(work, 'dem4326.tif')]);
    // Two projected DEMs over Lombardy and Piedmont, 1 km pixels: TINITALY's UTM 32N and EU-DEM's LAEA Europe.
    gdal('gdalwarp', ['-t_srs', 'EPSG:32632', '-tr', '1000', '1000', '-r', 'bilinear', '-srcnodata', '9999', '-dstnodata', '-32768', '-ot', 'Int16', '-te', '400000', '4920000', '640000', '5120000', DEM, join(work, 'dem32632.tif')]);
    gdal('gdalwarp', ['-t_srs', 'EPSG:3035', '-tr', '1000', '1000', '-r', 'bilinear', '-srcnodata', '9999', '-dstnodata', '-32768', '-ot', 'Int16', '-te', '4100000', '2400000', '4350000', '2600000', DEM, join(work, 'dem3035.tif')]);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('EPSG:4326: the store is the raster’s own grid, every pixel as GDAL reads it, its no-data (9999) null', async () => {
    const { data, report } = ingest('dem4326.tif');
    expect(report.variables).toEqual(['elevation']);
    // 0.014° × 0.01°, as the GRIB it was made from; cropped to nothing (the DEM lies inside the domain).
    expect(report.grid).toMatchObject({ kind: 'regular_ll', nx: 551, ny: 381 });
    expect(report.grid.dx).toBeCloseTo(0.014, 9);
    expect(report.grid.dy).toBeCloseTo(0.01, 9);
    const rows = cells('dem4326.tif', data, report, 1);
    expect(rows).toHaveLength(551 * 381);
    // GDAL's no-data pixels (9999 in the GRIB, carried into the TIFF's no-data tag) are null, all 189 of them.
    expect(rows.filter((r) => r[3] === null)).toHaveLength(189);
    expectAgreement(rows, 0.05 + 1e-4); // 0.1 m packing, float32 rounding
    // And through the point reader: the one no-data pixel whose eight neighbours are no-data too (46.14 N, 10.894 E).
    const store = new TileStore(data, { manifestCheckMs: 0 });
    expect((await store.sample('dem', 46.14, 10.894, null, ['elevation'])).values.elevation ?? null).toBeNull();
  });

  it.each([['dem32632.tif', 32632], ['dem3035.tif', 3035]])('%s (projected): resampled onto lat/lon at its pixel size, each cell GDAL’s bilinear value there', async (tif) => {
    const { data, report } = ingest(tif);
    expect(report.variables).toEqual(['elevation']);
    // 1 km pixels → 1000 / 111,195 m per degree of latitude.
    expect(report.grid.dy).toBeCloseTo(1000 / 111_195, 9);
    expect(report.grid.dx).toBeGreaterThan(report.grid.dy);
    const rows = cells(tif, data, report, 2);
    // The lat/lon box around a projected rectangle has corners outside it: null there, values inside.
    expect(rows.filter((r) => r[3] === null).length).toBeGreaterThan(100);
    expect(rows.filter((r) => r[3] !== null).length).toBeGreaterThan(10_000);
    expectAgreement(rows, 0.06);
  });
});
