/**
 * weather.php's `coastal` from the interpolated marine values (sea cells
 * only: tiles/masks.ts). The state of the sea is the WMO 3700 code of the
 * unrounded significant wave height (science/sea-state.ts).
 */
import { seaState } from '../../../science/index.js';
import { roundOrNull, roundTo } from '../../weather/precision.js';
import type { CoastalBody } from './schema.js';

/** Stored variables the group reads (a source carries a subset: the rest is null). */
export const COASTAL_VARIABLES: readonly string[] = ['sea_surface_temperature', 'wave_height', 'wave_direction', 'wave_period', 'wave_peak_period'];

/** Decimals per field (docs/coastal.md). */
export const COASTAL_DECIMALS = { sea_surface_temperature: 1, wave_height: 2, wave_direction: 0, wave_period: 1, wave_peak_period: 1, distance_km: 1 } as const;

/** A value, or null when missing or NaN. */
const valueOf = (v: number | null | undefined): number | null => (v === undefined || v === null || Number.isNaN(v) ? null : v);

/**
 * `coastal` from values at the point and the distance (km) to the sea cells
 * they come from; null when no sea cell is within the search radius. Each
 * variable read by its own name at its own site: through one helper taking
 * the name, every read was a megamorphic keyed load (as api/fields/soil/fields.ts).
 */
export function coastal(values: Readonly<Record<string, number | null>>, seaDistanceKm: number | null | undefined, source: string): CoastalBody | null {
  if (seaDistanceKm === null || seaDistanceKm === undefined) return null;
  const hs = valueOf(values.wave_height);
  const dir = valueOf(values.wave_direction);
  const state = hs === null ? null : seaState(Math.max(0, hs));
  return {
    sea_surface_temperature: roundOrNull(valueOf(values.sea_surface_temperature), COASTAL_DECIMALS.sea_surface_temperature),
    wave_height: roundOrNull(hs === null ? null : Math.max(0, hs), COASTAL_DECIMALS.wave_height),
    // 359.6° rounds to 360: report it as 0 (from north), as wind_direction does.
    wave_direction: dir === null ? null : roundTo(dir, 0) % 360,
    wave_period: roundOrNull(valueOf(values.wave_period), COASTAL_DECIMALS.wave_period),
    wave_peak_period: roundOrNull(valueOf(values.wave_peak_period), COASTAL_DECIMALS.wave_peak_period),
    sea_state: state ? { code: state.code, label: state.label } : null,
    distance_km: roundTo(seaDistanceKm, COASTAL_DECIMALS.distance_km),
    source,
  };
}
