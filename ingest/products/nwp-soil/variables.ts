/**
 * Product `nwp-soil`: the soil layers of the NWP model (ICON-2I, ICON-EU,
 * COSMO: the TERRA soil scheme), on the model's own layers, land cells only.
 *
 * - `W_SO` (ecCodes `w_so`, GRIB2 2.3.20, kg/m² of water per layer, on two
 *   depthBelowLandLayer surfaces: the layer's top and bottom) → the
 *   auxiliary `soil_water_<top>_<bottom>cm`, turned into volumetric
 *   `soil_moisture_<top>_<bottom>cm` by nwp-soil/index.ts
 *   (science/soil-water.ts);
 * - `T_SO` (`t_so`; under centre 80 ecCodes names it `sot`, GRIB2 2.3.18,
 *   K) at one depth per layer, its middle: 0.5 (DWD: "1"), 2, 6, 18, 54,
 *   162 cm → `soil_temperature_<top>_<bottom>cm`, °C. T_SO at 0 cm is the
 *   surface, not a layer, and is not used.
 *
 * Layers: ICON's, 1, 2, 6, 18, 54 and 162 cm thick (DWD Database Reference
 * for ICON, soil variables), down to 243 cm; below lie a 486 cm layer and
 * the climate layer, which no user of a point forecast needs.
 */
import { MASK_VARIABLES } from '../mask-variables.js';
import type { StoredVariableSpec, VariableSpec } from '../spec.js';

/** ICON's soil layers, cm [top, bottom]. */
export const NWP_SOIL_LAYERS = [[0, 1], [1, 3], [3, 9], [9, 27], [27, 81], [81, 243]] as const;

const land = { aggregation: 'instant', mask: 'land', block: 'soil', interpolation: 'linear' } as const;

function tables(): { stored: Record<string, StoredVariableSpec>; water: Record<string, VariableSpec> } {
  const stored: Record<string, StoredVariableSpec> = {};
  const water: Record<string, VariableSpec> = {};
  for (const [top, bottom] of NWP_SOIL_LAYERS) {
    const layerCm = [top, bottom] as const;
    stored[`soil_moisture_${top}_${bottom}cm`] = {
      ...land, units: 'm³/m³', precision: 0.0005, layerCm,
      longName: `volumetric soil water, ${top}–${bottom} cm`, standardName: 'volume_fraction_of_condensed_water_in_soil',
      // Derived from soil_water_* (index.ts); a file already volumetric would carry another name.
      names: [],
      validRange: [0, 1],
    };
    stored[`soil_temperature_${top}_${bottom}cm`] = {
      ...land, units: '°C', precision: 0.01, layerCm, atDepth: true,
      longName: `soil temperature, ${top}–${bottom} cm`, standardName: 'soil_temperature',
      names: ['t_so', 'sot'],
      paramIds: [500166, 260360],
      gribParameters: { '2.3.18': 'K' },
      validRange: [-80, 80],
    };
    water[`soil_water_${top}_${bottom}cm`] = {
      units: 'kg/m²', aggregation: 'instant', precision: 0.01, interpolation: 'linear', layerCm,
      longName: `soil water (liquid and frozen), ${top}–${bottom} cm`,
      names: ['w_so'],
      paramIds: [500167],
      gribParameters: { '2.3.20': 'kg m-2' },
    };
  }
  return { stored: { ...stored, ...MASK_VARIABLES }, water };
}

const t = tables();
export const NWP_SOIL_VARIABLES = t.stored;
export const NWP_SOIL_WATER = t.water;
