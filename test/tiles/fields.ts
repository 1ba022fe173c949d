/**
 * Test inputs for the tile store: analytic fields on small grids, and an
 * independent rotated-pole formula (COSMO's phi2phirot/rla2rlarot, see
 * Doms & Baldauf, "A Description of the Nonhydrostatic Regional COSMO-Model",
 * Part I, §3.3) so expected values never go through proj4. No vitest import:
 * child processes (test/tiles/write/children) use it too.
 */
import type { GridDef, RegularLatLonGrid, RotatedLatLonGrid } from '../../geo/grid.js';
import type { ProductVersionInput, VariableInput } from '../../tiles/types.js';

/** Italy-ish regular grid, 0.1°: 70 × 50 cells from 36 N, 7 E (crosses 32-cell chunk edges). */
export const REGULAR: RegularLatLonGrid = { kind: 'regular_ll', nx: 70, ny: 50, x0: 7, y0: 36, dx: 0.1, dy: 0.1 };

/** A COSMO-2I-like window: south pole (−47, 10), 0.02°, around the rotated origin (43 N, 10 E). */
export const ROTATED: RotatedLatLonGrid = {
  kind: 'rotated_ll', nx: 45, ny: 40, x0: -0.4, y0: -0.3, dx: 0.02, dy: 0.02, southPoleLat: -47, southPoleLon: 10, angle: 0,
};

export const T0 = Date.UTC(2026, 2, 10, 0);
export const HOUR = 3_600_000;
export function hourlyTimes(n: number, start = T0): Date[] {
  return Array.from({ length: n }, (_, k) => new Date(start + k * HOUR));
}

/** Geographic → rotated (lon, lat) degrees for a grid whose *south* pole is (spLat, spLon). */
export function rotate(latDeg: number, lonDeg: number, spLat: number, spLon: number): { rlon: number; rlat: number } {
  const r = Math.PI / 180;
  const polLat = -spLat * r; // north pole latitude
  const polLon = (spLon - 180) * r; // north pole longitude
  const phi = latDeg * r;
  const d = lonDeg * r - polLon;
  const rlat = Math.asin(Math.cos(polLat) * Math.cos(phi) * Math.cos(d) + Math.sin(polLat) * Math.sin(phi));
  const a1 = -Math.sin(d) * Math.cos(phi);
  const a2 = -Math.sin(polLat) * Math.cos(phi) * Math.cos(d) + Math.cos(polLat) * Math.sin(phi);
  return { rlon: Math.atan2(a1, a2) / r, rlat: rlat / r };
}

/** The grid's own coordinates of a geographic point, computed without geo/grid.ts. */
export function ownCoords(grid: GridDef, lat: number, lon: number): { x: number; y: number } {
  if (grid.kind === 'regular_ll') return { x: lon, y: lat };
  const p = rotate(lat, lon, grid.southPoleLat, grid.southPoleLon);
  return { x: p.rlon, y: p.rlat };
}

/** Values f(x, y, hours) sampled at every cell centre (x, y in the grid's own coordinates). */
export function analytic(grid: GridDef, times: Date[], f: (x: number, y: number, hours: number) => number): Float32Array[] {
  return (times.length ? times : [new Date(T0)]).map((t) => {
    const h = (t.getTime() - (times[0]?.getTime() ?? T0)) / HOUR;
    const a = new Float32Array(grid.nx * grid.ny);
    for (let j = 0; j < grid.ny; j++) for (let i = 0; i < grid.nx; i++) a[j * grid.nx + i] = f(grid.x0 + i * grid.dx, grid.y0 + j * grid.dy, h);
    return a;
  });
}

export function input(product: string, grid: GridDef, times: Date[], variables: Record<string, VariableInput>, note?: string): ProductVersionInput {
  return { product, grid, times, variables, source: { files: ['test'], model: 'analytic', ...(note ? { note } : {}) } };
}

/** Constant fields, for publish tests: every variable of version k holds k (elevation: −k). */
export function constantInput(product: string, k: number, grid: GridDef = REGULAR, nTimes = 3, extraVars = 0): ProductVersionInput {
  const times = hourlyTimes(nTimes);
  const cells = grid.nx * grid.ny;
  const variables: Record<string, VariableInput> = {
    temperature_2m: { units: '°C', precision: 0.01, values: times.map(() => new Float32Array(cells).fill(k)) },
    elevation: { units: 'm', precision: 0.1, static: true, values: [new Float32Array(cells).fill(-k)] },
  };
  for (let e = 0; e < extraVars; e++) variables[`extra_${e}`] = { units: '1', precision: 0.01, values: times.map(() => Float32Array.from({ length: cells }, (_, c) => k + (c % 7) * 0.01)) };
  return input(product, grid, times, variables, `constant ${k}`);
}
