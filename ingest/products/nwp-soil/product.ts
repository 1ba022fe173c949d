/**
 * Product `nwp-soil`: soil moisture and temperature on the NWP model's own
 * layers (nwp-soil/variables.ts), for "now" and the forecast. Feeds the
 * `soil` group above `soil` (ERA5-Land, days behind), so the group answers
 * from the model where it covers the time and from ERA5-Land for the past.
 * Each run keeps the earlier steps of the versions before it for a week
 * (carry-over), bridging the days until ERA5-Land covers them.
 *
 * Land cells from the model's land fraction FR_LAND (land at ≥ 0.5), else
 * where the layers have values (soil/land-cells.ts).
 */
import { IngestError } from '../../ingest-types.js';
import { volumetricSoilWaterM3M3 } from '../../../science/index.js';
import type { Product, VariableStack } from '../product.js';
import { checkLandCells } from '../soil/land-cells.js';
import { NWP_SOIL_LAYERS, NWP_SOIL_VARIABLES, NWP_SOIL_WATER } from './variables.js';

/** A point may take land cells this far away (km): a 2.2 km ICON-2I cell's half diagonal and a 7 km ICON-EU one's, with margin, for a coastal town whose own cell is sea. */
export const NWP_SOIL_SEARCH_RADIUS_KM = 10;

/** ERA5-Land arrives about five days behind real time: a week of earlier runs bridges the gap. */
const CARRY_HOURS = 7 * 24;

const SOIL_LAYER_VARIABLES = Object.keys(NWP_SOIL_VARIABLES).filter((n) => n.startsWith('soil_'));

function completeNwpSoil(stack: VariableStack): string[] {
  const notes: string[] = [];
  for (const [top, bottom] of NWP_SOIL_LAYERS) {
    const water = stack.series.get(`soil_water_${top}_${bottom}cm`);
    if (!water) continue;
    const thicknessM = (bottom - top) / 100;
    stack.series.set(`soil_moisture_${top}_${bottom}cm`, water.map((a) => Float32Array.from(a, (w) => volumetricSoilWaterM3M3(w, thicknessM))));
    notes.push(`soil_moisture_${top}_${bottom}cm = W_SO / (1000 kg/m³ × ${thicknessM} m)`);
  }
  return notes;
}

export const nwpSoilProduct: Product = {
  name: 'nwp-soil',
  summary: 'soil moisture (m³/m³) and soil temperature (°C) on the NWP model\'s layers (ICON W_SO, T_SO: 0–1 … 81–243 cm), now and forecast; land cells only',
  static: false,
  layout: 'forecast',
  runOrder: 'forecast',
  feeds: ['soil'],
  priority: 20,
  searchRadiusKm: NWP_SOIL_SEARCH_RADIUS_KM,
  carryHours: CARRY_HOURS,
  variables: NWP_SOIL_VARIABLES,
  auxiliary: NWP_SOIL_WATER,
  complete: completeNwpSoil,
  validate(stack: VariableStack, files: readonly string[]): void {
    const found = SOIL_LAYER_VARIABLES.filter((n) => stack.series.has(n));
    if (found.length === 0 || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product nwp-soil found no soil layer (ICON W_SO, T_SO) with a time axis`);
    }
    checkLandCells(stack, found, files, 'nwp-soil');
  },
};
