/**
 * What the catalogue tells the tile writer beside the values: per variable
 * its unit, packing precision and read rules, per product its manifest
 * entries (tiles/manifest.ts). Used by every writer of a product's store
 * (ingest/assemble.ts, sm100's own ingest, stores written for tests).
 */
import type { ProductMeta, VariableInput } from '../../tiles/types.js';
import type { Product } from './product.js';
import type { StoredVariableSpec } from './spec.js';

/**
 * What a variables-table entry tells the tile writer about one variable (all
 * but its values); a masked one also carries its product's search radius.
 */
export function variableMeta(spec: StoredVariableSpec, searchRadiusKm?: number): Omit<VariableInput, 'values'> {
  return {
    units: spec.units, precision: spec.precision, longName: spec.longName, ...(spec.standardName ? { standardName: spec.standardName } : {}),
    interpolation: spec.interpolation, mask: spec.mask, ...maskRadius(spec, searchRadiusKm), block: spec.block,
  };
}

/** The search radius a masked variable carries into the manifest (none for unmasked ones). */
export function maskRadius(spec: Pick<StoredVariableSpec, 'mask'>, searchRadiusKm: number | undefined): { searchRadiusKm?: number } {
  return spec.mask !== 'any' && searchRadiusKm !== undefined ? { searchRadiusKm } : {};
}

/**
 * What the catalogue's run order adds to a version's `source`: the switch
 * reads it from the manifest (tiles/write/publish.ts), the only way the
 * catalogue reaches the tile store.
 */
export function runOrderSource(product: Pick<Product, 'runOrder'>): { run_order?: 'forecast' } {
  return product.runOrder === 'forecast' ? { run_order: 'forecast' } : {};
}

/** What the catalogue entry tells the manifest (tiles/manifest.ts): layout, feeds, priority, region. */
export function productMeta(product: Product): ProductMeta {
  return {
    layout: product.layout,
    feeds: product.feeds,
    priority: product.priority,
    ...(product.region ? { region: product.region } : {}),
  };
}
