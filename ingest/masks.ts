/**
 * Sea/land masks at ingest (the store convention is in tiles/masks.ts): for
 * a product whose variables are sea- or land-masked, add `land_sea_mask`,
 * the nearest cell of each kind within the product's search radius, and on
 * cells of the other kind a copy of that nearest cell's values, so that the
 * point reader answers a coastal point from the four neighbours it reads
 * anyway.
 *
 * The mask comes from the source when the product maps one (`land_sea_mask`
 * among its static variables, 1 = land), else from the masked variables
 * themselves: a cell is sea when a sea-masked variable has a value there at
 * some time (SST and waves are missing over land), land when a land-masked
 * one has.
 */
import { distance } from '@turf/distance';
import { cellLatLon, type GridDef } from '../geo/grid.js';
import { LAND_SEA_MASK, nearestCellVariable, type MaskKind } from '../tiles/masks.js';
import type { Product, VariableStack } from './products/product.js';

/** km per degree of latitude on the WGS84 mean sphere (6371.0088 km × π/180). */
const KM_PER_DEG = 111.195;

/**
 * Per cell, the flat index of the nearest cell with `ofKind` set whose centre
 * lies within `radiusKm` (the cell itself when it is of the kind), NaN when
 * none does. Great-circle distances between cell centres; the search looks
 * at the window of cells the radius can reach.
 */
export function nearestCellIndex(grid: GridDef, ofKind: Uint8Array, radiusKm: number): Float32Array {
  const { nx, ny } = grid;
  const lat = new Float64Array(nx * ny);
  const lon = new Float64Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const p = cellLatLon(grid, i, j);
      lat[j * nx + i] = p.lat;
      lon[j * nx + i] = p.lon;
    }
  }
  // Cells the radius can reach: the grid's steps in km (x shrinks with latitude: take the largest |lat|).
  const maxAbsLat = Math.min(89, lat.reduce((m, v) => Math.max(m, Math.abs(v)), 0));
  const wy = Math.ceil(radiusKm / (grid.dy * KM_PER_DEG)) + 1;
  const wx = Math.ceil(radiusKm / (grid.dx * KM_PER_DEG * Math.cos((maxAbsLat * Math.PI) / 180))) + 1;
  const out = new Float32Array(nx * ny).fill(NaN);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const c = j * nx + i;
      if (ofKind[c]) {
        out[c] = c;
        continue;
      }
      let best = Infinity;
      for (let jj = Math.max(0, j - wy); jj <= Math.min(ny - 1, j + wy); jj++) {
        for (let ii = Math.max(0, i - wx); ii <= Math.min(nx - 1, i + wx); ii++) {
          const o = jj * nx + ii;
          if (!ofKind[o]) continue;
          const d = distance([lon[c]!, lat[c]!], [lon[o]!, lat[o]!], { units: 'kilometers' });
          if (d <= radiusKm && d < best) {
            best = d;
            out[c] = o;
          }
        }
      }
    }
  }
  return out;
}

/** On cells not of the kind, the value of their nearest cell of the kind (NaN without one). In place. */
export function copyFromNearest(values: Float32Array, nearest: Float32Array, ofKind: Uint8Array): void {
  for (let c = 0; c < values.length; c++) {
    if (ofKind[c]) continue;
    const src = nearest[c]!;
    values[c] = src >= 0 ? values[src]! : NaN;
  }
}

/** Cells where any of the series has a value at some time. */
function valuedCells(series: readonly Float32Array[][], cells: number): Uint8Array {
  const has = new Uint8Array(cells);
  for (const steps of series) for (const a of steps) for (let c = 0; c < cells; c++) if (a[c] === a[c]) has[c] = 1;
  return has;
}

/**
 * Add the mask, the nearest-cell indices and the copies to a product's
 * stack (no-op for products without masked variables). Returns notes for
 * the ingest report.
 */
export function applyMasks(product: Product, stack: VariableStack): string[] {
  const kinds = new Set<MaskKind>();
  for (const spec of Object.values(product.variables)) if (spec.mask !== 'any') kinds.add(spec.mask);
  if (kinds.size === 0) return [];
  const radius = product.searchRadiusKm;
  if (radius === undefined) throw new Error(`product ${product.name}: masked variables need a searchRadiusKm in its catalogue entry`);
  const cells = stack.grid.nx * stack.grid.ny;
  const masked = (kind: MaskKind) =>
    Object.entries(product.variables).filter(([n, s]) => s.mask === kind && (stack.series.has(n) || stack.statics.has(n))).map(([n]) => n);
  const notes: string[] = [];

  let land = stack.statics.get(LAND_SEA_MASK);
  if (land) {
    notes.push(`${LAND_SEA_MASK} from the source`);
  } else {
    // Sea where sea variables have values; land elsewhere, or where land variables have values.
    const seaVars = masked('sea');
    const landVars = masked('land');
    const seaHas = seaVars.length ? valuedCells(seaVars.map((n) => stack.series.get(n) ?? [stack.statics.get(n)!]), cells) : null;
    const landHas = landVars.length ? valuedCells(landVars.map((n) => stack.series.get(n) ?? [stack.statics.get(n)!]), cells) : null;
    land = new Float32Array(cells);
    for (let c = 0; c < cells; c++) land[c] = seaHas ? (seaHas[c] ? 0 : 1) : landHas![c] ? 1 : 0;
    notes.push(`${LAND_SEA_MASK} derived from where the ${seaHas ? 'sea' : 'land'} variables have values`);
    stack.statics.set(LAND_SEA_MASK, land);
  }

  for (const kind of kinds) {
    const ofKind = new Uint8Array(cells);
    for (let c = 0; c < cells; c++) ofKind[c] = (land[c]! >= 0.5) === (kind === 'land') ? 1 : 0;
    const nearest = nearestCellIndex(stack.grid, ofKind, radius);
    stack.statics.set(nearestCellVariable(kind), nearest);
    for (const name of masked(kind)) {
      for (const a of stack.series.get(name) ?? [stack.statics.get(name)!]) copyFromNearest(a, nearest, ofKind);
    }
    notes.push(`${kind} variables (${masked(kind).join(', ')}) copied onto ${kind === 'sea' ? 'land' : 'sea'} cells within ${radius} km of a ${kind} cell`);
  }
  return notes;
}
