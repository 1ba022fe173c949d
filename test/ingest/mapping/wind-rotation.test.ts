/**
 * Grid-relative wind on COSMO-2I's rotated grid is turned to true north at
 * ingest. The u/v files are made from the real COSMO-2I GRIB2 file with
 * ecCodes' own grib_set (an independent writer: same grid, the
 * resolutionAndComponentFlags the model writes, constant grid-relative wind
 * u = 3, v = 4 m/s); the expected east/north components come from COSMO's
 * closed forms computed in Python (fixtures/uvrot2uv.py), not from our code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RotatedLatLonGrid } from '../../../geo/grid.js';
import { gridNorthAngleRad } from '../../../geo/grid-north.js';
import type { CanonicalField } from '../../../ingest/mapping/map-fields.js';
import { PRODUCTS } from '../../../ingest/products/registry.js';
import { rotateVectorsToTrueNorth } from '../../../ingest/mapping/wind-rotation.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const REFERENCE = join(import.meta.dirname, 'fixtures', 'uvrot2uv.py');
// COSMO-2I's grid as grib_ls prints it for cosmo_test.grib2.
const COSMO: RotatedLatLonGrid = { kind: 'rotated_ll', nx: 576, ny: 701, x0: -3.8, y0: -8.5, dx: 0.02, dy: 0.02, southPoleLat: -47, southPoleLon: 10, angle: 0 };
const NORTH_POLE = [47, -170];
const NWP = PRODUCTS.nwp!;

interface Reference { lat: number; lon: number; alpha_deg: number; u: number; v: number }

function reference(cells: Array<[number, number]>): Reference[] {
  const input = JSON.stringify({ pole: NORTH_POLE, u: 3, v: 4, cells });
  return JSON.parse(execFileSync('/usr/bin/python3', [REFERENCE], { input, encoding: 'utf8' })) as Reference[];
}

const fromDirection = (u: number, v: number) => ((Math.atan2(-u, -v) * 180) / Math.PI + 360) % 360;

describeShared('wind on a rotated grid', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-windrot-'));
  const data = join(dir, 'data');
  beforeAll(() => {
    const src = dataFile('cosmo2i-rotated/cosmo_test.grib2');
    const t0 = join(dir, 't0.grib2');
    execFileSync('grib_set', ['-s', 'stepType=instant', src, t0]);
    const level = 'typeOfFirstFixedSurface=103,scaleFactorOfFirstFixedSurface=0,scaledValueOfFirstFixedSurface=10';
    execFileSync('grib_set', ['-s', `discipline=0,parameterCategory=2,parameterNumber=2,${level}`, '-d', '3', t0, join(dir, 'u.grib2')]);
    execFileSync('grib_set', ['-s', `discipline=0,parameterCategory=2,parameterNumber=3,${level}`, '-d', '4', t0, join(dir, 'v.grib2')]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the grid-north angle matches COSMO\'s closed form at cells across the grid', () => {
    const cells: Array<[number, number]> = [];
    for (let j = 0; j < COSMO.ny; j += 50) for (let i = 0; i < COSMO.nx; i += 45) cells.push([COSMO.x0 + i * COSMO.dx, COSMO.y0 + j * COSMO.dy]);
    const ref = reference(cells);
    let worst = 0;
    cells.forEach(([x, y], k) => {
      worst = Math.max(worst, Math.abs((gridNorthAngleRad(COSMO, x, y) * 180) / Math.PI - ref[k]!.alpha_deg));
    });
    expect(worst).toBeLessThan(0.001);
    // Over Italy (the interface's box) the correction spans about −2° to +5°: what ignoring it costs.
    const inBox = ref.filter((r) => r.lat >= 35 && r.lat <= 48 && r.lon >= 5 && r.lon <= 20.5).map((r) => r.alpha_deg);
    expect(Math.min(...inBox)).toBeLessThan(-1.5);
    expect(Math.max(...inBox)).toBeGreaterThan(4.5);
  });

  it('ingested u/v are east/north: components and direction as the reference at points across Italy', () => {
    const ingest = spawnSync(process.execPath, [CLI, 'ingest', 'nwp', join(dir, 'u.grib2'), join(dir, 'v.grib2')], { env: { ...process.env, METEOPUNTO_DATA: data }, encoding: 'utf8' });
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/wind_u_10m\/wind_v_10m: 1 step\(s\) turned from grid to true north/);
    // Cell centres (the reference gives their geographic position), from Aosta to Lecce and Sicily.
    const cells: Array<[number, number]> = [[-2.5, 2.4], [0.2, 0.1], [3.9, -2.9], [6.8, -2.2], [6.0, -4.4], [2.5, -6.4], [-1.0, 1.0]];
    const ref = reference(cells);
    for (const r of ref) {
      const out = spawnSync(process.execPath, [CLI, 'tiles', 'point', 'nwp', '--lat', String(r.lat), '--lon', String(r.lon), '--time', '2019-11-14T18:00Z', '--json'], { env: { ...process.env, METEOPUNTO_DATA: data }, encoding: 'utf8' });
      expect(out.status, out.stderr).toBe(0);
      const got = JSON.parse(out.stdout) as { values: { wind_u_10m: number; wind_v_10m: number } };
      expect(Math.abs(got.values.wind_u_10m - r.u), `u at ${r.lat}, ${r.lon}`).toBeLessThanOrEqual(0.011);
      expect(Math.abs(got.values.wind_v_10m - r.v), `v at ${r.lat}, ${r.lon}`).toBeLessThanOrEqual(0.011);
      const dirErr = Math.abs(fromDirection(got.values.wind_u_10m, got.values.wind_v_10m) - fromDirection(r.u, r.v));
      expect(dirErr, `direction at ${r.lat}, ${r.lon}`).toBeLessThan(0.2);
    }
    // Without the turn the direction would be the grid's: off by the local angle (several degrees at the ends).
    expect(Math.max(...ref.map((r) => Math.abs(r.alpha_deg)))).toBeGreaterThan(2);
  });
});

describe('rotateVectorsToTrueNorth', () => {
  const field = (variable: string, grid: CanonicalField['grid'], vectorAxes?: 'grid' | 'earth'): CanonicalField => ({
    variable, aggregation: 'instant', validTime: new Date(0), referenceTime: new Date(0), grid,
    values: Float32Array.of(3), file: 'f.grib2', source: variable, ...(vectorAxes ? { vectorAxes } : {}),
  });
  const rotated: RotatedLatLonGrid = { ...COSMO, nx: 1, ny: 1, x0: 8, y0: -3 };
  const regular = { kind: 'regular_ll' as const, nx: 1, ny: 1, x0: 10, y0: 40, dx: 0.1, dy: 0.1 };

  it('a grid-relative component without its partner is refused, not stored as east/north', () => {
    expect(() => rotateVectorsToTrueNorth(NWP, [field('wind_u_10m', rotated, 'grid')])).toThrow(/relative to the rotated grid but no wind_v_10m/);
  });

  it('leaves earth-relative components and regular lat/lon grids untouched', () => {
    const fields = [field('wind_u_10m', rotated, 'earth'), field('wind_v_10m', rotated, 'earth'), field('wind_u_10m', regular, 'grid')];
    expect(rotateVectorsToTrueNorth(NWP, fields)).toEqual([]);
    expect(fields.map((f) => f.values[0])).toEqual([3, 3, 3]);
  });
});
