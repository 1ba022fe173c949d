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

type Values = Readonly<Record<string, number | null | undefined>>;

/**
 * `soil`'s object from the values, compiled once from the layer list into
 * one object literal that reads each stored variable by its own name (as the
 * tile reader's result objects, tiles/read/variable-list.ts): filling `{}` by
 * computed names went through V8's megamorphic keyed loads and stores, 20 of
 * each per answer. The names are this file's own (no `__proto__`).
 */
const assemble = (() => {
  const q = JSON.stringify;
  const layers = LAYERS.map((l) => `${q(l.moisture)}: roundOrNull(values[${q(l.storedMoisture)}], ${SOIL_DECIMALS.moisture}), ` +
    `${q(l.temperature)}: roundOrNull(values[${q(l.storedTemperature)}], ${SOIL_DECIMALS.temperature})`);
  const body = `return (values, distanceKm, source) => ({ ${layers.join(', ')}, distance_km: roundTo(distanceKm, ${SOIL_DECIMALS.distance_km}), source })`;
  // roundOrNull takes a missing (undefined) value as null, like NaN.
  return new Function('roundOrNull', 'roundTo', body)(roundOrNull, roundTo) as (values: Values, distanceKm: number, source: string) => SoilBody;
})();

/** `soil` from values at the point and the distance (km) to the land cells they come from; null when none is within the radius. */
export function soil(values: Values, landDistanceKm: number | null | undefined, source: string): SoilBody | null {
  if (landDistanceKm === null || landDistanceKm === undefined) return null;
  return assemble(values, landDistanceKm, source);
}
