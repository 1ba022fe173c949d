/**
 * Assemble weather.php's Free fields from interpolated values: altitude
 * correction, humidity consistency, wind, trend, condition, rounding. Pure:
 * the samples are gathered by the weather service (api/weather/service.ts), so this runs the same on
 * the warm synchronous path and the cold asynchronous one, and tests can feed
 * it hand-made inputs.
 */
import type { SunAtPoint } from '../../../geo/solar.js';
import type { PointSample } from '../../../tiles/types.js';
import { altitudeCorrection, correctTemperature, type AltitudeCorrection } from './altitude.js';
import { currentCondition, isDaytime } from './condition.js';
import { moistureAtPoint } from './humidity.js';
import { DECIMALS, roundOrNull, roundTo } from '../../weather/precision.js';
import { temperatureSource } from './source.js';
import { temperatureTrend } from './trend.js';
import { KMH_PER_MS, windFromComponents } from './wind.js';

export interface FreeInputs {
  lat: number;
  lon: number;
  /** Caller's altitude, m (undefined: not given). */
  altM: number | undefined;
  /** Product name and grid description, for temperature_source. */
  product: string;
  resolution: string;
  sample: boolean;
  /** Free variables at the valid time (./variables.ts; absent ones count as null). */
  now: PointSample;
  /** Valid time, ms since the epoch (the instant `now` was sampled at). */
  validTimeMs: number;
  /** The Sun at the point (day or night at the valid time). */
  sun: SunAtPoint;
  /** Hours of the model step the precipitation amount covers (../step.ts). */
  stepHours: number;
  /** Grid 2 m temperature 3 h before the valid time, °C; null when outside the data. */
  pastTempC: number | null;
  /** DEM elevation at the point, m; null without a DEM there (or when `alt` was given). */
  demElevationM: number | null;
  /** The elevation feed is answered by the same grid (sm100's 100 m cells): without `alt` nothing is corrected. */
  demIsGrid?: boolean;
  /** For temperature_source: how a derived grid was made, and why a finer product did not answer (./source.ts). */
  derivation?: string;
  /** For temperature_source: the temperature is a mean over an interval ("daily mean", ./source.ts). */
  timeBasis?: string;
  note?: string;
}

/** A finite value or null (absent and NaN count as missing). */
function finite(v: number | null | undefined): number | null {
  return v === undefined || v === null || !Number.isFinite(v) ? null : v;
}

/**
 * Where {@link assembleFreeInto} records what the Free fields were computed from, for the fields that must agree
 * with them (Developer indices; the builders' ctx.shared).
 */
export interface FreeBasisOut {
  correction: AltitudeCorrection | null;
  /** Corrected temperature and the moisture kept consistent with it, unrounded. */
  temperatureC: number | null;
  dewPointC: number | null;
  humidityPct: number | null;
}

/**
 * The Free fields written into `out` by name, in the response's order, and their basis into `basis`: the base
 * builder writes them straight into the response and ctx.shared, without a fields object, a basis object and the
 * copy from them (~0.2 KB of an answer's garbage).
 */
export function assembleFreeInto(inp: FreeInputs, out: Record<string, unknown>, basis: FreeBasisOut): void {
  // Named reads (not values[name] through a helper): the tile store gives every
  // sample of one variable list the same shape, so these loads stay monomorphic.
  const s = inp.now;
  const vals = s.values;
  const gridTempC = finite(vals.temperature_2m);
  // A product with a locally fitted gradient (sm100) corrects `alt` with it; others with the standard one.
  const correction = altitudeCorrection(finite(vals.elevation), inp.altM, inp.demElevationM, { gradientKPerKm: vals.temperature_gradient, demIsGrid: inp.demIsGrid === true });
  const tempC = correctTemperature(gridTempC, correction);
  const pastC = correctTemperature(inp.pastTempC, correction);
  const moisture = moistureAtPoint(
    { gridTempC, gridDewPointC: finite(vals.dew_point_2m), gridRhPct: finite(vals.relative_humidity_2m) },
    tempC,
  );

  const u = finite(vals.wind_u_10m);
  const v = finite(vals.wind_v_10m);
  const wind = u !== null && v !== null ? windFromComponents(u, v) : null;
  const gustMs = finite(vals.wind_gust_10m);
  const direction = wind?.directionDeg ?? null;

  const cond = currentCondition(
    {
      weatherCode: finite(vals.weather_code),
      cloudCoverPct: finite(vals.cloud_cover),
      precipitationMm: finite(vals.precipitation),
      snowfallFraction: finite(vals.snowfall_fraction),
      temperatureC: tempC,
      stepHours: inp.stepHours,
    },
    isDaytime(inp.sun.at(inp.validTimeMs)),
  );

  out.icon = cond.icon;
  out.condition = cond.condition;
  out.temperature = roundOrNull(tempC, DECIMALS.temperature);
  out.temperature_source = temperatureSource({
    product: inp.product, resolution: inp.resolution, correction, sample: inp.sample,
    derivation: inp.derivation, timeBasis: inp.timeBasis, note: inp.note,
  });
  out.dew_point = roundOrNull(moisture.dewPointC, DECIMALS.dew_point);
  out.humidity = roundOrNull(moisture.humidityPct, DECIMALS.humidity);
  out.pressure_msl = roundOrNull(finite(vals.pressure_msl), DECIMALS.pressure_msl);
  out.wind_speed = wind ? roundOrNull(wind.speedKmh, DECIMALS.wind_speed) : null;
  // 359.6° rounds to 360, which is north: report it as 0.
  out.wind_direction = direction === null ? null : roundTo(direction, DECIMALS.wind_direction) % 360;
  out.wind_gust = gustMs === null ? null : roundTo(gustMs * KMH_PER_MS, DECIMALS.wind_gust);
  out.temperature_trend_3h = temperatureTrend(tempC, pastC);
  out.valid_time = s.time;
  basis.correction = correction;
  basis.temperatureC = tempC;
  basis.dewPointC = moisture.dewPointC;
  basis.humidityPct = moisture.humidityPct;
}
