import { describe, expect, it } from 'vitest';
import type { GridDef, RotatedLatLonGrid } from '../../../geo/grid.js';
import { cellLatLon } from '../../../geo/grid.js';
import { IngestError } from '../../../ingest/ingest-types.js';
import { cropGrid, cropValues, cropWindow } from '../../../ingest/mapping/crop.js';
import { selectGrid } from '../../../ingest/mapping/grid-choice.js';
import type { CanonicalField } from '../../../ingest/mapping/map-fields.js';
import { RUN } from '../products/fixtures.js';

function canon(variable: string, grid: GridDef, file: string, fill = (i: number) => i): CanonicalField {
  const values = new Float32Array(grid.nx * grid.ny).map((_, i) => fill(i));
  return { variable, aggregation: 'instant', validTime: RUN, referenceTime: RUN, grid, values, file, source: variable };
}

describe('cropWindow', () => {
  it('global 0..359.75 grid (ERA5 gust NetCDF3, normalised to x0 = 0, y ascending from -90): hard-coded indices', () => {
    const g: GridDef = { kind: 'regular_ll', nx: 1440, ny: 721, x0: 0, y0: -90, dx: 0.25, dy: 0.25 };
    // lon 5 → i 20, lon 20.5 → i 82; lat 35 → j 500, lat 48 → j 552; margin 2.
    expect(cropWindow(g)).toEqual({ i0: 18, j0: 498, nx: 67, ny: 57 });
  });
  it('global grid starting at -180: the same longitudes sit at i + 720', () => {
    const g: GridDef = { kind: 'regular_ll', nx: 1440, ny: 721, x0: -180, y0: -90, dx: 0.25, dy: 0.25 };
    expect(cropWindow(g)).toEqual({ i0: 738, j0: 498, nx: 67, ny: 57 });
  });
  it('global grid starting at 10°E wraps: the window begins west of column 0', () => {
    const g: GridDef = { kind: 'regular_ll', nx: 360, ny: 181, x0: 10, y0: -90, dx: 1, dy: 1 };
    const w = cropWindow(g)!;
    // offset (5 − 10) mod 360 = 355 → i 355 − 2 = 353 … 355 + 15.5 → ceil 371 + 2 = 373
    expect(w).toEqual({ i0: 353, j0: 123, nx: 21, ny: 18 }); // lat 35..48 → j 125..138, ±2
    const values = new Float32Array(360 * 181).map((_, k) => k % 360); // value = column index
    const row = [...cropValues(values, g, w).subarray(0, w.nx)];
    expect(row[0]).toBe(353);
    expect(row[7]).toBe(0); // wrapped past the last column
    expect(row[20]).toBe(13);
    expect(cropGrid(g, w).x0).toBe(3); // 10 + 353 → 363 → 3°E
  });
  it('a regional grid is clamped to its own extent (IFS 0.1°, -10..19E, 34..51N)', () => {
    const g: GridDef = { kind: 'regular_ll', nx: 291, ny: 171, x0: -10, y0: 34, dx: 0.1, dy: 0.1 };
    const w = cropWindow(g)!;
    expect(w.i0).toBe(148); // (5 + 10)/0.1 = 150 − 2
    expect(w.i0 + w.nx).toBe(291); // 20.5E beyond 19E: up to the last column
    expect(w.j0).toBe(8); // (35 − 34)/0.1 = 10 − 2
  });
  it('returns null for a grid outside the domain', () => {
    const g: GridDef = { kind: 'regular_ll', nx: 10, ny: 10, x0: -80, y0: 30, dx: 1, dy: 1 };
    expect(cropWindow(g)).toBeNull();
  });
  it('rotated COSMO-2I grid: the window covers the whole domain outline', () => {
    const g: RotatedLatLonGrid = { kind: 'rotated_ll', nx: 576, ny: 701, x0: -3.8, y0: -8.5, dx: 0.025, dy: 0.025, southPoleLat: -47, southPoleLon: 10, angle: 0 };
    const w = cropWindow(g, { latMin: 43, latMax: 45, lonMin: 10, lonMax: 13 })!;
    expect(w.nx).toBeLessThan(576);
    expect(w.ny).toBeLessThan(701);
    const c = cropGrid(g, w);
    // corners of the window lie outside the small domain, i.e. the domain is inside the window
    const sw = cellLatLon(c, 0, 0);
    const ne = cellLatLon(c, c.nx - 1, c.ny - 1);
    expect(sw.lat).toBeLessThan(43);
    expect(sw.lon).toBeLessThan(10);
    expect(ne.lat).toBeGreaterThan(45);
    expect(ne.lon).toBeGreaterThan(13);
  });
});

describe('selectGrid', () => {
  const fine: GridDef = { kind: 'regular_ll', nx: 20, ny: 20, x0: 8, y0: 40, dx: 0.5, dy: 0.5 };
  const coarse: GridDef = { kind: 'regular_ll', nx: 10, ny: 10, x0: 8, y0: 40, dx: 1, dy: 1 };

  it('keeps the grid with the most variables and reports the fields of the others', () => {
    const sel = selectGrid([
      canon('wave_height', fine, 'adriatic.grib'),
      canon('pressure_msl', coarse, 'adriatic.grib'),
      canon('temperature_2m', coarse, 'b.grib'),
    ]);
    expect(sel.grid.dx).toBe(1);
    expect(sel.fields.map((f) => f.variable).sort()).toEqual(['pressure_msl', 'temperature_2m']);
    expect(sel.dropped).toHaveLength(1);
    expect(sel.dropped[0]).toMatchObject({ file: 'adriatic.grib', variable: 'wave_height' });
    expect(sel.dropped[0]!.reason).toMatch(/another grid .*20×20/);
  });
  it('on a tie keeps the grid covering more of the domain', () => {
    const small: GridDef = { kind: 'regular_ll', nx: 5, ny: 5, x0: 12, y0: 43, dx: 0.5, dy: 0.5 };
    const sel = selectGrid([canon('elevation', small, 'north.grib2'), canon('elevation', fine, 'italy.grib2')]);
    expect(sel.fields[0]!.file).toBe('italy.grib2');
    expect(sel.dropped.map((d) => d.file)).toEqual(['north.grib2']);
  });
  it('crops the chosen grid and its values consistently', () => {
    const big: GridDef = { kind: 'regular_ll', nx: 100, ny: 60, x0: -10, y0: 30, dx: 0.5, dy: 0.5 };
    const f = canon('temperature_2m', big, 'x.grib', (k) => k); // value = flat index on the big grid
    const sel = selectGrid([f]);
    const g = sel.grid;
    expect(g.x0).toBe(4); // (5 − (−10))/0.5 = 30 − 2 = 28 → −10 + 14
    expect(g.y0).toBe(34); // (35 − 30)/0.5 = 10 − 2 = 8 → 30 + 4
    // cell (0,0) of the crop is cell (28, 8) of the big grid
    expect(sel.fields[0]!.values[0]).toBe(8 * 100 + 28);
    expect(sel.fields[0]!.values.length).toBe(g.nx * g.ny);
  });
  it('throws IngestError naming the files when no grid reaches the domain', () => {
    const far: GridDef = { kind: 'regular_ll', nx: 5, ny: 5, x0: -100, y0: 10, dx: 1, dy: 1 };
    expect(() => selectGrid([canon('temperature_2m', far, 'america.grib')])).toThrowError(IngestError);
    expect(() => selectGrid([canon('temperature_2m', far, 'america.grib')])).toThrow(/america\.grib: no grid covers the service domain/);
  });
});
