/**
 * A tile-writer input completed with what the product catalogue says, as an
 * ingest run writes it: each variable's read rule, mask and cache group from
 * the product's tables (or the precomputed indices' catalogue), a masked
 * variable's search radius from the product's entry, and the
 * product's layout, feeds, priority and region. For stores written without
 * the ingest pipeline (benchmark data, test fixtures, sample data), so they
 * carry the same manifest contract as ingested ones.
 */
import type { ProductVersionInput, VariableInput } from '../../tiles/types.js';
import { maskRadius, productMeta, runOrderSource } from './store-meta.js';
import { INDEX_BLOCK, INDEX_VARIABLES } from '../indices/catalogue.js';
import { getProduct } from './registry.js';

export function withCatalogue(input: ProductVersionInput): ProductVersionInput {
  const product = getProduct(input.product);
  const variables: Record<string, VariableInput> = {};
  for (const [name, v] of Object.entries(input.variables)) {
    const spec = product.variables[name];
    const index = (INDEX_VARIABLES as Record<string, { interpolation: 'linear' | 'nearest' } | undefined>)[name];
    variables[name] = spec
      ? { interpolation: spec.interpolation, mask: spec.mask, ...maskRadius(spec, product.searchRadiusKm), block: spec.block, ...v }
      : index ? { interpolation: index.interpolation, mask: 'any', block: INDEX_BLOCK, ...v } : v;
  }
  return { ...input, variables, source: { ...runOrderSource(product), ...input.source }, meta: { ...productMeta(product), ...input.meta } };
}
