/**
 * Which canonical variables (docs/architecture.md, "Canonical variables") the Free fields read from the
 * nwp product, decided once per published version from its manifest.
 *
 * Every variable read costs a chunk lookup on the hot path, so a lookup asks
 * only for what the assembly will use: the dew point when the product has one
 * (RH is then derived), else RH; the WMO weather code when the product has
 * one, with cloud cover, precipitation and snow fraction read only when the
 * code is unusable at the point (missing, or a mix of neighbours: see
 * ./condition.ts); without a code, those three directly.
 */
import type { Manifest } from '../../../tiles/manifest.js';

/** What the trend reads three hours back. */
export const TREND_VARIABLES = ['temperature_2m'] as const;

/** The fitted temperature gradient and its fit (sm100), read where the product has them. */
export const GRADIENT_VARIABLES = ['temperature_gradient', 'temperature_gradient_r2'] as const;

/** The variables the condition is derived from when there is no usable code. */
export const CONDITION_STATE_VARIABLES = ['cloud_cover', 'precipitation', 'snowfall_fraction'] as const;

export interface VariablePlan {
  /** Read on every request. */
  primary: readonly string[];
  /** Read in a second lookup when the product's weather code is unusable at the point (empty: nothing to add). */
  conditionFallback: readonly string[];
}

export function freeVariablePlan(manifest: Pick<Manifest, 'variables'>): VariablePlan {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(manifest.variables, name);
  const primary = ['temperature_2m', 'elevation', 'pressure_msl', 'wind_u_10m', 'wind_v_10m', 'wind_gust_10m'];
  if (has('dew_point_2m')) primary.push('dew_point_2m');
  else primary.push('relative_humidity_2m');
  // A locally fitted gradient (sm100) corrects `alt` and is named in temperature_source.
  for (const g of GRADIENT_VARIABLES) if (has(g)) primary.push(g);
  const state = CONDITION_STATE_VARIABLES.filter(has);
  if (has('weather_code')) {
    primary.push('weather_code');
    return { primary, conditionFallback: state };
  }
  primary.push(...state);
  return { primary, conditionFallback: [] };
}
