/**
 * The derived grid variables the ingest precomputes: one entry per stored variable with
 * its unit, packing precision, CF metadata, the canonical inputs it needs and
 * the method (docs/science.md "Precomputed tile variables"). `deriveIndices`
 * computes one only when every input it needs is present.
 *
 * Only what the API reads is stored: the mean radiant temperature, which
 * UTCI at the point starts from (api/fields/developer/comfort.ts). UTCI,
 * WBGT, the UV index, frost and ET0 are computed at the point from the
 * stored inputs (api/fields/developer/), so storing them on the grid would
 * cost every ingest their computation for nothing (an ERA5 year: ~100 s of
 * CPU, docs/benchmarks-journal.md).
 *
 * Precision is the int16 packing step (tiles/codecs/packing.ts): 0.01 K as
 * temperature_2m.
 */

/** One precomputed index. */
export interface IndexSpec {
  units: string;
  precision: number;
  longName: string;
  /** Point-reader rule: classes are read 'nearest'. */
  interpolation: 'linear' | 'nearest';
  /** Inputs, canonical names, all needed. */
  inputs: readonly string[];
  /** One line on the method, with its reference (also in docs/science.md). */
  method: string;
}

export const INDEX_VARIABLES = {
  mean_radiant_temperature: {
    units: '°C',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'mean radiant temperature of a standing person outdoors (sun at mid-step)',
    inputs: ['temperature_2m', 'shortwave_radiation', 'longwave_radiation'],
    method:
      'Di Napoli et al. (2020) / ISO 7726 with the NWP fluxes; direct radiation from the product, else ' +
      'direct = fdir·GHI with Liljegren et al. (2008) eq. 13; sun at the middle of the radiation step',
  },
} as const satisfies Record<string, IndexSpec>;

export type IndexName = keyof typeof INDEX_VARIABLES;

/** Cache group of every index (tiles/read/block.ts): only Developer and Business requests read them. */
export const INDEX_BLOCK = 'developer';

/**
 * The indices whose inputs are all present, in catalogue order.
 *
 * @param has whether a canonical variable is present in the stack
 */
export function computableIndices(has: (name: string) => boolean): IndexName[] {
  return (Object.keys(INDEX_VARIABLES) as IndexName[]).filter((name) => INDEX_VARIABLES[name].inputs.every(has));
}
