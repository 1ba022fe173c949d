/**
 * Grid-relative wind on COSMO-2I's rotated grid turned to true north.
 * References come from test/geo/fixtures/grid_north_reference.py (numpy,
 * no proj4) and the u/v files are written by ecCodes' grib_set (an
 * independent writer) from the real cosmo_test.grib2, keeping its grid and
 * its resolutionAndComponentFlags (bit 5 set: u/v relative to the grid).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { gridNorthAngleRad, gridNorthAngles } from '../../../geo/grid-north.js';

const gridNorthAngleDeg = (g: RotatedLatLonGrid, x: number, y: number) => (gridNorthAngleRad(g, x, y) * 180) / Math.PI;
import { gridIndexOf, type RotatedLatLonGrid } from '../../../geo/grid.js';
import { gribReader } from '../../../ingest/grib/grib-reader.js';
import { mapFields, type TaggedField } from '../../../ingest/mapping/map-fields.js';
import { getProduct } from '../../../ingest/products/registry.js';
import { rotateVectorsToTrueNorth as rotateWindToTrueNorth } from '../../../ingest/mapping/wind-rotation.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const PY = '/usr/bin/python3';
const REF = join(import.meta.dirname, '../../geo/fixtures/grid_north_reference.py');
const COSMO = () => dataFile('cosmo2i-rotated/cosmo_test.grib2');
const U_G = 3; // m/s along the grid's x axis
const V_G = 4; // m/s along the grid's y axis

interface RefPoint { lat: number; lon: number; fd: number; closed: number }

function reference(req: object): { points: RefPoint[]; grid?: { min: number; max: number } } {
  return JSON.parse(execFileSync(PY, [REF, JSON.stringify(req)], { encoding: 'utf8' }));
}

/** One 10u or 10v message on the COSMO-2I grid, all values `value`, written by grib_set. */
function writeComponent(dir: string, name: 'u' | 'v', parameterNumber: number, value: number): string {
  const a = join(dir, `${name}.instant.grib2`);
  const out = join(dir, `${name}.grib2`);
  execFileSync('grib_set', ['-s', 'stepType=instant,productDefinitionTemplateNumber=0', COSMO(), a]);
  execFileSync('grib_set', ['-s', `discipline=0,parameterCategory=2,parameterNumber=${parameterNumber},typeOfFirstFixedSurface=103,scaleFactorOfFirstFixedSurface=0,scaledValueOfFirstFixedSurface=10`, '-d', String(value), a, out]);
  return out;
}

/** Meteorological direction (from), degrees 0..360, of an (east, north) wind. */
const fromDirection = (u: number, v: number) => ((Math.atan2(-u, -v) * 180) / Math.PI + 360) % 360;

describeShared('wind rotation on the rotated COSMO-2I grid', () => {
  let grid: RotatedLatLonGrid;
  let dir: string;
  // Cells (i, j) of the 576×701 grid: corners, centre, and near Aosta, Milan, Rome, Palermo, Lecce.
  const cells: [number, number][] = [[0, 0], [575, 700], [287, 350], [75, 550], [180, 500], [310, 305], [300, 100], [480, 250]];

  beforeAll(async () => {
    const [f] = await gribReader.read(COSMO());
    expect(f!.grid.kind).toBe('rotated_ll');
    expect(f!.vectorAxes).toBe('grid'); // resolutionAndComponentFlags = 56: bit 5 set
    grid = f!.grid as RotatedLatLonGrid;
    dir = mkdtempSync(join(tmpdir(), 'mp-wind-'));
  });

  it('grid-north angle at cells matches the numpy finite difference and the COSMO closed form', () => {
    const pts = cells.map(([i, j]) => [grid.x0 + i * grid.dx, grid.y0 + j * grid.dy]);
    const ref = reference({ southPoleLat: grid.southPoleLat, southPoleLon: grid.southPoleLon, points: pts });
    pts.forEach(([x, y], k) => {
      const got = gridNorthAngleDeg(grid, x!, y!);
      expect(Math.abs(got - ref.points[k]!.closed)).toBeLessThan(1e-4);
      expect(Math.abs(got - ref.points[k]!.fd)).toBeLessThan(1e-4);
    });
    // Rotated origin (0, 0) is (43 N, 10 E) on the pole's meridian: grid north is true north there.
    expect(Math.abs(gridNorthAngleDeg(grid, 0, 0))).toBeLessThan(1e-6);
  });

  it('range of the correction over the whole grid matches the reference (−3.1° .. +7.8°)', () => {
    const all = gridNorthAngles(grid)!;
    let min = Infinity;
    let max = -Infinity;
    for (const r of all) { const a = (r * 180) / Math.PI; if (a < min) min = a; if (a > max) max = a; }
    const ref = reference({ southPoleLat: grid.southPoleLat, southPoleLon: grid.southPoleLon, points: [], grid: { x0: grid.x0, y0: grid.y0, dx: grid.dx, dy: grid.dy, nx: grid.nx, ny: grid.ny } });
    expect(Math.abs(min - ref.grid!.min)).toBeLessThan(1e-4);
    expect(Math.abs(max - ref.grid!.max)).toBeLessThan(1e-4);
    expect(min).toBeLessThan(-3);
    expect(max).toBeGreaterThan(7.5);
  });

  it('ingested wind direction equals the direction of the independently turned u/v', () => {
    const files = [writeComponent(dir, 'u', 2, U_G), writeComponent(dir, 'v', 3, V_G)];
    const tagged: TaggedField[] = [];
    return Promise.all(files.map((f) => gribReader.read(f))).then((read) => {
      read.forEach((fields, k) => fields.forEach((field) => tagged.push({ field, file: files[k]! })));
      expect(tagged.every((t) => t.field.vectorAxes === 'grid')).toBe(true);
      const product = getProduct('nwp');
      const mapped = mapFields(product, tagged);
      const notes = rotateWindToTrueNorth(product, mapped.fields);
      expect(notes.length).toBeGreaterThan(0);
      const u = mapped.fields.find((f) => f.variable === 'wind_u_10m')!;
      const v = mapped.fields.find((f) => f.variable === 'wind_v_10m')!;
      // Points: Rome, Palermo, Aosta, Lecce (at their nearest cell).
      const pts: [number, number][] = [[41.9, 12.5], [38.12, 13.36], [45.74, 7.32], [40.35, 18.17]];
      const idx = pts.map(([lat, lon]) => gridIndexOf(grid, lat, lon)!).map((g) => [Math.round(g.x), Math.round(g.y)] as const);
      const ref = reference({ southPoleLat: grid.southPoleLat, southPoleLon: grid.southPoleLon, points: idx.map(([i, j]) => [grid.x0 + i * grid.dx, grid.y0 + j * grid.dy]) });
      idx.forEach(([i, j], k) => {
        const d = (ref.points[k]!.fd * Math.PI) / 180;
        const ue = U_G * Math.cos(d) + V_G * Math.sin(d);
        const vn = -U_G * Math.sin(d) + V_G * Math.cos(d);
        const got = fromDirection(u.values[j * grid.nx + i]!, v.values[j * grid.nx + i]!);
        expect(Math.abs(got - fromDirection(ue, vn))).toBeLessThan(0.01);
        // Unturned, the direction would be off by the grid-north angle.
        expect(Math.abs(fromDirection(U_G, V_G) - fromDirection(ue, vn))).toBeCloseTo(Math.abs(ref.points[k]!.fd), 3);
      });
    });
  });

  it('refuses a grid-relative u without its v', async () => {
    const file = writeComponent(dir, 'u', 2, U_G);
    const tagged = (await gribReader.read(file)).map((field) => ({ field, file }));
    const product = getProduct('nwp');
    const mapped = mapFields(product, tagged);
    expect(() => rotateWindToTrueNorth(product, mapped.fields)).toThrow(/relative to the rotated grid but no wind_v_10m/);
  });

  it('ICON-2I (regular grid, flag bit 5 clear) is earth-relative and untouched', async () => {
    const [f] = await gribReader.read(dataFile('icon2i-orography/I2ITA2KM_orog_20241009.grib2'));
    expect(f!.grid.kind).toBe('regular_ll');
    expect(f!.vectorAxes).toBe('earth');
    expect(gridNorthAngles(f!.grid).every((a) => a === 0)).toBe(true);
  });
});
