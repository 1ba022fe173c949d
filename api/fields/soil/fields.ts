/**
 * weather.php's `soil` from the interpolated soil values (land cells only:
 * tiles/masks.ts): each stored `soil_moisture_<top>_<bottom>cm` and
 * `soil_temperature_<top>_<bottom>cm` as `moisture_<top>_<bottom>cm` and
 * `temperature_<top>_<bottom>cm`.
 */
import { roundOrNull, roundTo } from '../../weather/precision.js';
import { SOIL_LAYERS_CM, type SoilBody } from './schema.js';

/** Per layer, its response names and stored variables, made once (not two template strings per name per request). */
const LAYERS = SOIL_LAYERS_CM.map(([t, b]) => ({
  moisture: `moisture_${t}_${b}cm`,
  temperature: `temperature_${t}_${b}cm`,
  storedMoisture: `soil_moisture_${t}_${b}cm`,
  storedTemperature: `soil_temperature_${t}_${b}cm`,
}));

/** Stored variables the group reads. */
export const SOIL_VARIABLES: readonly string[] = LAYERS.flatMap((l) => [l.storedMoisture, l.storedTemperature]);

/** Decimals: moisture to 0.001 m³/m³ (the store keeps 0.0005), temperature to 0.1 °C. */
export const SOIL_DECIMALS = { moisture: 3, temperature: 1, distance_km: 1 } as const;

const get = (values: Readonly<Record<string, number | null>>, name: string): number | null => {
  const v = values[name];
  return v === undefined || v === null || Number.isNaN(v) ? null : v;
};

/** `soil` from values at the point and the distance (km) to the land cells they come from; null when none is within the radius. */
export function soil(values: Readonly<Record<string, number | null>>, landDistanceKm: number | null | undefined, source: string): SoilBody | null {
  if (landDistanceKm === null || landDistanceKm === undefined) return null;
  // Filled in place: `{ ...out, more }` cost microseconds per answer in Node 20 (a spread followed by new properties).
  const out: Record<string, number | string | null> = {};
  for (const l of LAYERS) {
    out[l.moisture] = roundOrNull(get(values, l.storedMoisture), SOIL_DECIMALS.moisture);
    out[l.temperature] = roundOrNull(get(values, l.storedTemperature), SOIL_DECIMALS.temperature);
  }
  out.distance_km = roundTo(landDistanceKm, SOIL_DECIMALS.distance_km);
  out.source = source;
  return out as SoilBody;
}
