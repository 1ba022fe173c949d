/**
 * Angle between grid north and true north on a rotated-pole grid, per cell.
 *
 * On a rotated lat/lon grid the grid's y axis (towards the rotated pole) is
 * not the local meridian, so u/v given along the grid's axes must be turned
 * before a direction is read from them. The angle is computed numerically
 * from the same proj4 `ob_tran` transform that places the grid
 * (geo/grid.ts, fromGridCoords): the bearing of a short step along the
 * grid's y axis. We take it from proj4 rather than from the closed form
 * (Doms & Baldauf, "A Description of the Nonhydrostatic Regional COSMO
 * Model, Part I", 2021, §3.3 eq. 3.84–3.85) so that the wind is turned by
 * exactly the rotation that positions the cells; the tests check it against
 * that closed form, written independently in Python.
 */
import { fromGridCoords, type GridDef, type RotatedLatLonGrid } from './grid.js';

/** Half-step along the grid's y axis, rotated degrees: error O(h²) ≈ 1e-7°, far from proj4's float noise. */
const HALF_STEP_DEG = 1e-3;

/**
 * Angle of grid north from true north at rotated coordinates (x, y), degrees,
 * positive clockwise (grid north lies east of true north).
 */
export function gridNorthAngleDeg(grid: RotatedLatLonGrid, xDeg: number, yDeg: number): number {
  const a = fromGridCoords(grid, xDeg, yDeg - HALF_STEP_DEG);
  const b = fromGridCoords(grid, xDeg, yDeg + HALF_STEP_DEG);
  let dLon = b.lon - a.lon;
  if (dLon > 180) dLon -= 360;
  else if (dLon < -180) dLon += 360;
  const cosLat = Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.atan2(dLon * cosLat, b.lat - a.lat) * (180 / Math.PI);
}

/**
 * Grid-north angle of every cell, row-major [y][x] like the grid's values,
 * degrees clockwise from true north; null for a regular lat/lon grid (grid
 * north is true north there).
 */
export function gridNorthAngles(grid: GridDef): Float64Array | null {
  if (grid.kind !== 'rotated_ll') return null;
  const out = new Float64Array(grid.nx * grid.ny);
  for (let j = 0; j < grid.ny; j++) {
    const y = grid.y0 + j * grid.dy;
    for (let i = 0; i < grid.nx; i++) out[j * grid.nx + i] = gridNorthAngleDeg(grid, grid.x0 + i * grid.dx, y);
  }
  return out;
}
