/**
 * Grid geometry with hard-coded indices. Rotated-grid reference coordinates
 * come from ecCodes (`grib_get_data -L "%.6f %.6f"` on
 * ../shared/data/cosmo2i-rotated/COS2I_orog_20180825.grb), an implementation
 * independent of proj4.
 */
import { describe, expect, it } from 'vitest';
import {
  wrapLon, gridIndexOf, cellLatLon, toGridCoords, fromGridCoords, sameGrid, describeResolution,
  type RegularLatLonGrid, type RotatedLatLonGrid,
} from '../../geo/grid.js';

const COSMO2I: RotatedLatLonGrid = {
  kind: 'rotated_ll', nx: 576, ny: 701, x0: -3.8, y0: -8.5, dx: 0.02, dy: 0.02, southPoleLat: -47, southPoleLon: 10, angle: 0,
};

/** [i, j, lat, lon] from ecCodes. */
const COSMO_CELLS: [number, number, number, number][] = [
  [0, 0, 34.396968, 5.443863],
  [1, 0, 34.398048, 5.4678],
  [2, 0, 34.39912, 5.491737],
  [0, 1, 34.416936, 5.442535],
  [1, 1, 34.418016, 5.466478],
  [287, 350, 41.470112, 12.588578],
  [575, 700, 47.973444, 21.491048],
];

describe('wrapLon', () => {
  it.each([
    [0, 0], [180, 180], [-180, -180], [190, -170], [360, 0], [356.2, -3.8], [-190, 170], [540, 180], [725, 5],
  ])('wrapLon(%d) = %d', (lon, want) => {
    expect(wrapLon(lon)).toBeCloseTo(want, 9);
  });
});

describe('regular lat/lon grid', () => {
  // ERA5-Land-like Italy grid: 0.2°, rows from 36.2 N, columns from 7.2 E.
  const g: RegularLatLonGrid = { kind: 'regular_ll', nx: 60, ny: 60, x0: 7.2, y0: 36.2, dx: 0.2, dy: 0.2 };

  it('maps cell centres to integer indices', () => {
    expect(gridIndexOf(g, 36.2, 7.2)).toEqual({ x: 0, y: 0 });
    const p = gridIndexOf(g, 41.9, 12.5)!; // Rome
    expect(p.x).toBeCloseTo(26.5, 9);
    expect(p.y).toBeCloseTo(28.5, 9);
    const last = gridIndexOf(g, 36.2 + 59 * 0.2, 7.2 + 59 * 0.2)!;
    expect(last.x).toBeCloseTo(59, 9);
    expect(last.y).toBeCloseTo(59, 9);
  });

  it('accepts half a cell beyond the edge cells, rejects more', () => {
    expect(gridIndexOf(g, 36.2 - 0.099, 7.2)).not.toBeNull();
    expect(gridIndexOf(g, 36.2 - 0.101, 7.2)).toBeNull();
    expect(gridIndexOf(g, 36.2, 7.2 - 0.101)).toBeNull();
    expect(gridIndexOf(g, 36.2 + 59.6 * 0.2, 10)).toBeNull();
    expect(gridIndexOf(g, 40, 7.2 + 59.49 * 0.2)).not.toBeNull();
    expect(gridIndexOf(g, 0, 0)).toBeNull();
  });

  it('wraps 0..360 longitudes of the point', () => {
    const a = gridIndexOf(g, 40, 12.5)!;
    const b = gridIndexOf(g, 40, 12.5 + 360)!;
    expect(b.x).toBeCloseTo(a.x, 9);
  });

  it('wraps a global grid across the dateline', () => {
    const global: RegularLatLonGrid = { kind: 'regular_ll', nx: 1440, ny: 721, x0: 0, y0: -90, dx: 0.25, dy: 0.25 };
    expect(gridIndexOf(global, 45, -10)!.x).toBeCloseTo(1400, 9); // 350° E
    expect(gridIndexOf(global, 45, 12.25)!.x).toBeCloseTo(49, 9);
    expect(gridIndexOf(global, -90, 0)!.y).toBeCloseTo(0, 9);
  });

  it('cellLatLon is the inverse of gridIndexOf', () => {
    const c = cellLatLon(g, 26, 28);
    expect(c.lat).toBeCloseTo(41.8, 12);
    expect(c.lon).toBeCloseTo(12.4, 12);
    const p = gridIndexOf(g, c.lat, c.lon)!;
    expect(p.x).toBeCloseTo(26, 9);
    expect(p.y).toBeCloseTo(28, 9);
  });
});

describe('rotated lat/lon grid (COSMO-2I, south pole −47/10)', () => {
  it.each(COSMO_CELLS)('cell (%i, %i) is at ecCodes lat %f lon %f', (i, j, lat, lon) => {
    const p = cellLatLon(COSMO2I, i, j);
    expect(p.lat).toBeCloseTo(lat, 5);
    expect(p.lon).toBeCloseTo(lon, 5);
  });

  it.each(COSMO_CELLS)('gridIndexOf maps ecCodes cell (%i, %i) back to its index', (i, j, lat, lon) => {
    const p = gridIndexOf(COSMO2I, lat, lon)!;
    // ecCodes prints 6 decimals: 1e-6° is 5e-5 of a 0.02° cell.
    expect(Math.abs(p.x - i)).toBeLessThan(2e-4);
    expect(Math.abs(p.y - j)).toBeLessThan(2e-4);
  });

  it('the rotated coordinates of cell (0, 0) are (x0, y0)', () => {
    const c = toGridCoords(COSMO2I, 34.396968, 5.443863);
    expect(c.x).toBeCloseTo(-3.8, 5);
    expect(c.y).toBeCloseTo(-8.5, 5);
    const back = fromGridCoords(COSMO2I, -3.8, -8.5);
    expect(back.lat).toBeCloseTo(34.396968, 5);
  });

  it('the rotated equator/meridian origin is the point (47 N, 10 E) opposite the south pole', () => {
    // With south pole (−47, 10), the rotated origin (0, 0) is (90 − 47, 10) = (43 N, 10 E).
    const c = toGridCoords(COSMO2I, 43, 10);
    expect(c.x).toBeCloseTo(0, 9);
    expect(c.y).toBeCloseTo(0, 9);
  });

  it('rejects points outside the domain', () => {
    expect(gridIndexOf(COSMO2I, 30, 5)).toBeNull(); // south-west of the first cell
    expect(gridIndexOf(COSMO2I, 52, 12)).toBeNull(); // north of the domain
    expect(gridIndexOf(COSMO2I, 41.9, 12.5)).not.toBeNull(); // Rome
  });
});

describe('sameGrid and describeResolution', () => {
  it('compares grids within a tolerance', () => {
    expect(sameGrid(COSMO2I, { ...COSMO2I, x0: -3.8 + 1e-9 })).toBe(true);
    expect(sameGrid(COSMO2I, { ...COSMO2I, southPoleLat: -40 })).toBe(false);
    expect(sameGrid(COSMO2I, { kind: 'regular_ll', nx: 576, ny: 701, x0: -3.8, y0: -8.5, dx: 0.02, dy: 0.02 })).toBe(false);
  });
  it('names the resolution', () => {
    expect(describeResolution(COSMO2I)).toBe('2.2 km');
    expect(describeResolution({ kind: 'regular_ll', nx: 1, ny: 1, x0: 0, y0: 0, dx: 0.001, dy: 0.0009 })).toBe('100 m');
  });
});
