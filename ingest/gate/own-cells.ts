/**
 * The cells where a stored variable should have data: every cell for
 * unmasked variables, the sea cells for sea-masked ones (SST, waves), the
 * land cells for land-masked ones (soil), by the version's land_sea_mask
 * (ingest/masks.ts; 1 land, tested ≥ 0.5 as the point reader does).
 * Helper variables of the masks (the nearest-cell indices) are not data.
 */
import { LAND_SEA_MASK, nearestCellVariable } from '../../tiles/masks.js';
import type { ProductVersionInput } from '../../tiles/types.js';
import type { Product } from '../products/product.js';

/** Variables a value check looks at: all stored ones except the nearest-cell indices. */
export function dataVariables(input: ProductVersionInput): string[] {
  const helpers = new Set([nearestCellVariable('sea'), nearestCellVariable('land')]);
  return Object.keys(input.variables).filter((n) => !helpers.has(n)).sort();
}

/** 1 where `variable` should have a value, or null when that is every cell. */
export function ownCells(product: Product, input: ProductVersionInput, variable: string): Uint8Array | null {
  const mask = product.variables[variable]?.mask ?? 'any';
  if (mask === 'any') return null;
  const land = input.variables[LAND_SEA_MASK]?.values[0];
  const cells = input.grid.nx * input.grid.ny;
  const own = new Uint8Array(cells);
  if (!land) return own; // no mask: no cell is known to be of the kind
  for (let c = 0; c < cells; c++) own[c] = (land[c]! >= 0.5) === (mask === 'land') ? 1 : 0;
  return own;
}

/** Kind of cells `variable` is judged on, for messages. */
export function cellKind(product: Product, variable: string): string {
  const mask = product.variables[variable]?.mask ?? 'any';
  return mask === 'any' ? 'all cells' : `${mask} cells`;
}
