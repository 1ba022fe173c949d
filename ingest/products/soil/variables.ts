/**
 * Product `soil`: volumetric soil moisture and soil temperature per layer
 * (docs/architecture.md: `soil_moisture_<top>_<bottom>cm` m³/m³,
 * `soil_temperature_<top>_<bottom>cm` °C), land cells only (`mask: 'land'`).
 *
 * Layers are ERA5's and ERA5-Land's four (ECMWF IFS documentation CY41R2
 * part IV §8.3, the HTESSEL soil: 0–7, 7–28, 28–100, 100–289 cm). Source
 * names (ecCodes parameter database):
 * - `swvl1`..`swvl4` volumetric soil water layer 1–4, paramId 39, 40, 41, 42
 *   (m³ m⁻³); CF standard_name of the ERA5 NetCDF from the CDS:
 *   volume_fraction_of_condensed_water_in_soil.
 * - `stl1`..`stl4` soil temperature level 1–4, paramId 139, 170, 183, 236
 *   (K, converted to °C).
 * In GRIB they come on `depthBelowLandLayer` levels whose value is the
 * layer's top in cm (0, 7, 28, 100): the matcher checks it (`layerCm`).
 *
 * ICON/COSMO (`W_SO` kg/m² per layer, `T_SO` at depths 0, 1, 2, 6, 18, 54,
 * 162, 486, 1458 cm) use other layers; they are not mapped here, see
 * docs/soil.md for the conversion a mapping would need.
 */
import type { StoredVariableSpec } from '../spec.js';

const land = { aggregation: 'instant', mask: 'land', block: 'soil', interpolation: 'linear' } as const;

/** The ERA5 layers, cm: [top, bottom]. */
export const SOIL_LAYERS = [[0, 7], [7, 28], [28, 100], [100, 289]] as const;

const moistureIds = [39, 40, 41, 42];
const temperatureIds = [139, 170, 183, 236];

function layerVariables(): Record<string, StoredVariableSpec> {
  const out: Record<string, StoredVariableSpec> = {};
  SOIL_LAYERS.forEach(([top, bottom], k) => {
    out[`soil_moisture_${top}_${bottom}cm`] = {
      ...land,
      units: 'm³/m³', precision: 0.0005, layerCm: [top, bottom],
      longName: `volumetric soil water, ${top}–${bottom} cm`, standardName: 'volume_fraction_of_condensed_water_in_soil',
      names: [`swvl${k + 1}`],
      paramIds: [moistureIds[k]!],
      // Volumetric water content is 0..1; ERA5 writes 0 over the sea (masked out by the land mask).
      validRange: [0, 1],
    };
    out[`soil_temperature_${top}_${bottom}cm`] = {
      ...land,
      units: '°C', precision: 0.01, layerCm: [top, bottom],
      longName: `soil temperature, ${top}–${bottom} cm`, standardName: 'soil_temperature',
      names: [`stl${k + 1}`],
      paramIds: [temperatureIds[k]!],
      validRange: [-80, 80],
    };
  });
  return out;
}

export const SOIL_VARIABLES = layerVariables();

/** The soil type (ERA5 `slt`, paramId 43: 0 over water, 1–7 land soil textures): a land mask where the source has no `lsm`. */
export const SOIL_TYPE = {
  units: '1', aggregation: 'instant', precision: 1, interpolation: 'nearest',
  longName: 'soil type (0 water, 1-7 land textures)', names: ['slt'], paramIds: [43],
} as const;
