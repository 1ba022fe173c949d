/**
 * The value checks' counts (finite-fraction, physical-range) taken part by
 * part, for an ingest that never holds its whole series at once
 * (ingest/products/reanalysis/streamed.ts): each part of the time axis is
 * counted as it passes, and the checks judge the sums, which are the counts
 * of the whole series (the same loops, continued). Every value is seen.
 */
import type { ProductVersionInput } from '../../tiles/types.js';
import type { Product } from '../products/product.js';
import type { ValueTallies } from './check.js';
import { tallyFinite } from './finite-fraction.js';
import { dataVariables, ownCells } from './own-cells.js';
import { tallyRange } from './physical-range.js';
import { physicalBounds } from './physical-ranges.js';

export function emptyTallies(): ValueTallies {
  return { finite: new Map(), range: new Map() };
}

/** Count one part of the time axis (its variables' steps) into `into`; static variables only with `statics` (count them once). */
export function tallyPart(product: Product, part: ProductVersionInput, into: ValueTallies, statics: boolean): void {
  for (const name of dataVariables(part)) {
    const v = part.variables[name]!;
    if (v.static === true && !statics) continue;
    into.finite.set(name, tallyFinite(v.values, ownCells(product, part, name), into.finite.get(name)));
    const bounds = physicalBounds(name, v.units);
    if (bounds) into.range.set(name, tallyRange(v.values, bounds, into.range.get(name)));
  }
}
