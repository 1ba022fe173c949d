/**
 * Where a soil product's land cells come from (the mask itself is built by
 * ingest/masks.ts): the source's land-sea mask (ERA5 `lsm`, ICON `FR_LAND`)
 * or soil type when it gives one; else the soil values themselves, but only
 * when the source marks the sea missing (ERA5-Land writes no value over the
 * sea and ships no mask). ERA5 and ICON write soil values over the sea too
 * (~0 m³/m³, sea temperatures): a file whose soil layers have a value on
 * every cell cannot tell land from sea, and is refused rather than guessed.
 */
import { IngestError } from '../../ingest-types.js';
import { LAND_SEA_MASK } from '../../../tiles/masks.js';
import type { VariableStack } from '../product.js';

/** Throws IngestError when neither a mask nor missing sea values tell land from sea (ingest/masks.ts then notes which it used). */
export function checkLandCells(stack: VariableStack, soilVariables: readonly string[], files: readonly string[], product: string): void {
  if (stack.statics.has(LAND_SEA_MASK)) return;
  const cells = stack.grid.nx * stack.grid.ny;
  const valued = new Uint8Array(cells);
  for (const name of soilVariables) {
    for (const a of stack.series.get(name) ?? []) for (let c = 0; c < cells; c++) if (a[c] === a[c]) valued[c] = 1;
  }
  if (valued.every((v) => v === 1)) {
    throw new IngestError(
      `${files.join(', ')}: product ${product} needs a land-sea mask (ERA5 lsm, ICON FR_LAND) or the soil type (slt) in the same ingest: ` +
        'its soil layers have a value on every cell, so the sea cannot be told from the land',
    );
  }
}
