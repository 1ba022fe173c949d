/**
 * Product `soil`: soil moisture and temperature per layer from ERA5 or
 * ERA5-Land (soil/variables.ts), land cells only: a point reads land cells
 * within SOIL_SEARCH_RADIUS_KM (ingest/masks.ts, tiles/masks.ts). Feeds the
 * `soil` field group (Business).
 *
 * The land mask comes from the source: ERA5 `lsm` (land fraction, land at
 * ≥ 0.5) when the file has it, else the soil type `slt` (0 over water), else
 * where the values are (ERA5-Land marks the sea missing): soil/land-cells.ts.
 */
import { IngestError } from '../../ingest-types.js';
import { LAND_SEA_MASK } from '../../../tiles/masks.js';
import { checkLandCells } from './land-cells.js';
import { MASK_VARIABLES } from '../mask-variables.js';
import type { Product, VariableStack } from '../product.js';
import { SOIL_TYPE, SOIL_VARIABLES } from './variables.js';

/**
 * How far (km) a point may be from the nearest land cell's centre and still
 * get soil values: half the diagonal of a 0.25° ERA5 cell at 45° N (~16 km)
 * plus a margin, so a coastal town whose own cell is sea gets the land
 * beside it, while a point out at sea gets `soil: null`.
 */
export const SOIL_SEARCH_RADIUS_KM = 25;

/** land_sea_mask from the soil type when the source gave no land-sea mask. */
function completeSoil(stack: VariableStack): string[] {
  const slt = stack.statics.get('soil_type') ?? stack.series.get('soil_type')?.find((a) => a.some((v) => v === v));
  stack.series.delete('soil_type');
  stack.statics.delete('soil_type');
  if (stack.statics.has(LAND_SEA_MASK) || !slt) return [];
  stack.statics.set(LAND_SEA_MASK, Float32Array.from(slt, (v) => (v === v ? (v >= 0.5 ? 1 : 0) : NaN)));
  return [`${LAND_SEA_MASK} from the soil type (slt > 0: land)`];
}

export const soilProduct: Product = {
  name: 'soil',
  summary: 'soil moisture (m³/m³) and soil temperature (°C) per layer (0–7, 7–28, 28–100, 100–289 cm), ERA5 / ERA5-Land; land cells only',
  static: false,
  layout: 'forecast',
  runOrder: 'none',
  feeds: ['soil'],
  priority: 10,
  searchRadiusKm: SOIL_SEARCH_RADIUS_KM,
  variables: { ...SOIL_VARIABLES, ...MASK_VARIABLES },
  auxiliary: { soil_type: SOIL_TYPE },
  complete: completeSoil,
  validate(stack: VariableStack, files: readonly string[]): void {
    const found = Object.keys(SOIL_VARIABLES).filter((n) => stack.series.has(n));
    if (found.length === 0 || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product soil found no soil moisture or soil temperature layer with a time axis`);
    }
    checkLandCells(stack, found, files, 'soil');
  },
};
