/**
 * `condition` and `icon` of weather.php: from the product's WMO 4677
 * `weather_code` when it has one at the point, else a code derived from cloud
 * cover, precipitation, snow fraction and the temperature the response
 * reports (freezing precipitation at or below 0 °C; science/
 * weatherCodeFromState);
 * the icon's day/night variant from the Sun's elevation at the valid time.
 *
 * Day: apparent sunrise to sunset, i.e. geometric solar elevation above
 * −0.833° (34′ of standard refraction plus the 16′ solar semi-diameter: the
 * NOAA Solar Calculator / Meeus ch. 15 definition of sunrise).
 *
 * WMO 4677 is categorical and stores declare it `nearest`, so a code comes
 * back whole; one that comes back fractional (a store whose manifest
 * interpolates it linearly) means nothing. Then the code is derived from the model state instead, and only
 * when that is impossible is the fractional code rounded.
 */
import { weatherCodeFromState, weatherCondition, type SolarPosition } from '../../../science/index.js';

/** Distance from an integer beyond which a product code counts as a mix of codes. */
const MIXED_CODE = 1e-3;

/** Solar elevation above which it is day, degrees. */
export const SUNRISE_ELEVATION_DEG = -0.833;

export interface ConditionInputs {
  /** WMO 4677 code from the product, or null. */
  weatherCode: number | null;
  /** Total cloud cover, %. */
  cloudCoverPct: number | null;
  /** Precipitation over the model step, mm. */
  precipitationMm: number | null;
  /** Snow fraction of the precipitation, 0..1. */
  snowfallFraction: number | null;
  /** 2 m temperature at the point, °C (altitude-corrected, as the response reports it). */
  temperatureC: number | null;
  /** Hours of the step the precipitation amount covers (api/fields/step.ts); default 1. */
  stepHours?: number;
}

export interface Condition {
  condition: string | null;
  icon: string | null;
  /** The WMO code used and where it came from, for logs and tests. */
  code: number | null;
  codeSource: 'product' | 'derived' | null;
}

/** Whether the Sun is up where and when `sun` was taken (elevation > −0.833°). */
export function isDaytime(sun: SolarPosition): boolean {
  return 90 - sun.zenith > SUNRISE_ELEVATION_DEG;
}

/** Whether a product's interpolated code can be used as it is (present and not a mix of neighbours). */
export function isUsableProductCode(code: number | null | undefined): boolean {
  return code !== null && code !== undefined && Number.isFinite(code) && Math.abs(code - Math.round(code)) < MIXED_CODE;
}

/** Condition and icon; both null when neither a code nor cloud cover and precipitation are known. */
export function currentCondition(inputs: ConditionInputs, isDay: boolean): Condition {
  let code: number | null = null;
  let codeSource: Condition['codeSource'] = null;
  const product = inputs.weatherCode !== null && Number.isFinite(inputs.weatherCode) ? inputs.weatherCode : null;
  if (isUsableProductCode(product)) {
    code = Math.round(product!);
    codeSource = 'product';
  } else if (inputs.cloudCoverPct !== null && inputs.precipitationMm !== null) {
    // undefined for what is unknown, not spread-in parts: one object shape (api/fields/developer/et0.ts).
    const derived = weatherCodeFromState({
      cloudCoverPct: inputs.cloudCoverPct,
      precipitationMm: inputs.precipitationMm,
      snowfallFraction: inputs.snowfallFraction ?? undefined,
      temperature2mC: inputs.temperatureC ?? undefined,
      stepHours: inputs.stepHours,
    });
    if (Number.isFinite(derived)) {
      code = derived;
      codeSource = 'derived';
    }
  }
  if (code === null && product !== null) {
    code = Math.round(product);
    codeSource = 'product';
  }
  if (code === null) return { condition: null, icon: null, code: null, codeSource: null };
  const { condition, icon } = weatherCondition(code, isDay);
  return { condition, icon, code, codeSource };
}
