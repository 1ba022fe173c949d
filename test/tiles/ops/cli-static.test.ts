/**
 * Regression: `meteopunto tiles point dem --lat … --lon … --json`
 * failed with "time … is outside the dem data (no times)" for every DEM,
 * because the CLI passes "now" and the reader refused any time on a store
 * without times. Each real DEM of ../shared/data, ingested as `dem`, now
 * answers through the real CLI at any time, with GDAL's bilinear value.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import { dataFile, describeShared } from '../../support/shared-data.js';
import { gdalBilinear } from '../../ingest/pipeline-reference.js';

const REPO = resolve(import.meta.dirname, '../../..');

function tilesPoint(root: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'tiles', 'point', 'dem', ...args, '--json'], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** [file, lat, lon, GDAL options]: a point inside each DEM (42.46, 14.22 in Abruzzo, where every DEM once failed). */
const CASES: Array<[string, number, number, Parameters<typeof gdalBilinear>[4]]> = [
  ['icon2i-orography/I2ITA2KM_orog_20241009.grib2', 42.46, 14.22, {}],
  ['icon2i-orography/I2NITA2KM_orog_20241009.grib2', 45.9, 10.9, {}],
  ['dem-north-italy-1km/nita1k_orog.grb', 43.9356, 12.4473, {}],
  ['cosmo2i-rotated/COS2I_orog_20180825.grb', 42.46, 14.22, { rotatedSouthPole: [-47, 10], grid: [-3.8, 5.5, 0.02, 0.02] }],
];

describeShared('tiles point on a static product (every DEM of ../shared/data)', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mp-cli-dem-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each(CASES)('%s answers at (%f, %f) now and in 1950', async (file, lat, lon, gdal) => {
    const root = join(base, file.replace(/\W/g, '_'));
    await runIngest({ root, product: 'dem', files: [dataFile(file)] });
    const ref = gdalBilinear(dataFile(file), 1, lat, lon, gdal).value!;
    for (const extra of [[], ['--time', '1950-06-01T12:00Z']]) {
      const r = tilesPoint(root, ['--lat', String(lat), '--lon', String(lon), ...extra]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const got = (JSON.parse(r.out) as { values: { elevation: number } }).values.elevation;
      expect(Math.abs(got - ref)).toBeLessThan(0.06); // 0.1 m packing
    }
  });
});
