/**
 * Where a grid's "north" points: the angle, at each cell, between the grid's
 * y axis and true (geographic) north. Vector components a model gives
 * relative to its grid (GRIB `resolutionAndComponentFlags` bit 5, CF
 * `x_wind`/`y_wind`) must be turned by it before a direction means anything.
 *
 * The angle is measured, not taken from a closed formula: the cell and a point
 * a small step further along the grid's y axis are both mapped to geographic
 * coordinates with proj4 (the same `ob_tran` transform the reader locates
 * points with, geo/grid.ts), and the initial bearing between the two is the
 * angle. One transform for both jobs means the rotation cannot disagree with
 * where the point reader puts a cell. The tests check it against COSMO's
 * closed form (`uvrot2uv`, Doms & Baldauf, COSMO Model Documentation Part I,
 * §3.3 / utilities.f90), computed independently in Python.
 */
import { fromGridCoords, type GridDef } from './grid.js';

const RAD = Math.PI / 180;
/** Step along the grid's y axis, degrees: small against the curvature, large against float noise. */
const STEP_DEG = 1e-3;

/** Initial great-circle bearing (azimuth) from point 1 to point 2 on the sphere, radians clockwise from north: Snyder 1987, Map Projections — A Working Manual, USGS Prof. Paper 1395, eq. (5-4b). */
function bearingRad(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * RAD;
  const p2 = lat2 * RAD;
  const dl = (lon2 - lon1) * RAD;
  return Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl));
}

/**
 * Angle of grid north from true north at grid coordinates (x, y), radians,
 * positive clockwise (grid north points east of true north). Zero on a
 * regular lat/lon grid.
 */
export function gridNorthAngleRad(grid: GridDef, x: number, y: number): number {
  if (grid.kind === 'regular_ll') return 0;
  const a = fromGridCoords(grid, x, y - STEP_DEG / 2);
  const b = fromGridCoords(grid, x, y + STEP_DEG / 2);
  return bearingRad(a.lat, a.lon, b.lat, b.lon);
}

/** gridNorthAngleRad at every cell centre, row-major [y][x]. */
export function gridNorthAngles(grid: GridDef): Float64Array {
  const out = new Float64Array(grid.nx * grid.ny);
  if (grid.kind === 'regular_ll') return out;
  for (let j = 0, n = 0; j < grid.ny; j++) {
    const y = grid.y0 + j * grid.dy;
    for (let i = 0; i < grid.nx; i++, n++) out[n] = gridNorthAngleRad(grid, grid.x0 + i * grid.dx, y);
  }
  return out;
}
