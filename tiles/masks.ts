/**
 * Sea/land-masked variables in a store (marine values only from sea cells,
 * soil values only from land cells). The store carries, as static variables:
 *
 * - `land_sea_mask`: 1 on land cells, 0 on sea cells;
 * - `nearest_sea_cell` / `nearest_land_cell`: for every cell, the flat index
 *   (j × nx + i) of the nearest cell of that kind within the product's search
 *   radius (the cell itself when it is of that kind), NaN when there is none;
 *
 * and every masked variable holds, on cells of the other kind within the
 * radius, a copy of the value of that nearest cell (NaN beyond it). So the
 * reader (tiles/read/point-lookup.ts) answers from the four neighbours it reads anyway:
 * bilinear over the neighbours of the right kind, weights renormalised; when
 * none is of the right kind, the nearest neighbour's copy, and the distance
 * from the point to the cell it came from. The copies are written at ingest
 * (ingest/masks.ts), where the whole grid is at hand.
 */
import type { NeighbourMask } from './manifest.js';

export const LAND_SEA_MASK = 'land_sea_mask';

export type MaskKind = Exclude<NeighbourMask, 'any'>;

/** The static variable naming, per cell, the nearest cell of `kind`. */
export function nearestCellVariable(kind: MaskKind): string {
  return kind === 'sea' ? 'nearest_sea_cell' : 'nearest_land_cell';
}

/** Whether a land_sea_mask value (1 land, 0 sea; interpolation never touches it) is of `kind`. */
export function isKind(maskValue: number, kind: MaskKind): boolean {
  return kind === 'land' ? maskValue >= 0.5 : maskValue < 0.5;
}
