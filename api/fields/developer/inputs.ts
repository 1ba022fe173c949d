/**
 * What the Developer fields are computed from at a point, and the small
 * derivations they share: the station pressure at the point's altitude and
 * the Sun's position for the radiation step.
 */
import type { SolarPosition, SunAtPoint } from '../../../geo/solar.js';
import { pressureAtElevation, STANDARD_LAPSE_RATE_K_PER_M } from '../../../science/index.js';

export interface DeveloperInput {
  /** Valid time of the values (the response's valid_time), ms since the epoch. */
  timeMs: number;
  /** Degrees north / east. */
  lat: number;
  lon: number;
  /** The Sun at the point (api/weather/service.ts: one per answer). */
  sun: SunAtPoint;
  /**
   * Length of the nwp step ending at `timeMs`, hours: radiation is stored as
   * its mean over that step (see {@link radiationStepHours}). Default 1.
   */
  stepHours?: number;
  /** Altitude-corrected 2 m temperature, °C: the response's temperature, unrounded. */
  temperatureC: number | null;
  /** Relative humidity, %, consistent with temperatureC (the response's humidity, unrounded). */
  relativeHumidityPct: number | null;
  /** Dew point, °C, consistent with temperatureC (the response's dew point, unrounded). */
  dewPointC: number | null;
  /** 10 m wind speed, m/s. */
  windSpeed10mMs: number | null;
  /** Satellite effective cloud albedo at the point and time (product `uv`); null or absent where none covers them. */
  satelliteCloudAlbedo?: number | null;
  /** Satellite clear-sky index GHI / GHI_clear (LSA SAF, product uv-nrt) at the point and time, when that answers the uv feed. */
  satelliteClearSkyIndex?: number | null;
  /** Total column ozone, DU, from CAMS global forecasts (product `ozone`), used where the base feed has none; null or absent where none answers. */
  camsTotalOzoneDu?: number | null;
  /** Model orography at the point, m (the altitude correction's z_grid); null when unknown. */
  gridElevationM: number | null;
  /** Elevation of the point, m (`alt`, else the DEM); null when unknown. */
  pointElevationM: number | null;
  /**
   * Station pressure at the point, hPa. When absent it is derived from the
   * values ({@link pointPressureHpa}).
   */
  pressureHpa?: number | null;
  /** Interpolated nwp values at the point and time (canonical names), including the precomputed indices. */
  values: Readonly<Record<string, number | null | undefined>>;
}

/**
 * A finite value or null. The fields read `finite(inp.values.name)`, each name
 * at its own site: through one helper taking the name, every read was a
 * megamorphic keyed load.
 */
export function finite(v: number | null | undefined): number | null {
  return v === null || v === undefined || !Number.isFinite(v) ? null : v;
}

/**
 * Station pressure at the point, hPa: the grid's surface pressure moved from
 * the model orography to the point's elevation, else the mean-sea-level
 * pressure brought down to the point (hypsometric, science/
 * pressureAtElevation, mean temperature of the layer from the standard
 * lapse rate); the grid's surface pressure unchanged when the elevations are
 * unknown; null without any pressure.
 */
export function pointPressureHpa(inp: DeveloperInput): number | null {
  if (inp.pressureHpa !== undefined) return finite(inp.pressureHpa);
  const sp = finite(inp.values.surface_pressure);
  const gridT = finite(inp.values.temperature_2m);
  const zGrid = finite(inp.gridElevationM);
  const zPoint = finite(inp.pointElevationM);
  if (sp !== null) {
    if (zGrid === null || zPoint === null || gridT === null) return sp;
    return pressureAtElevation(sp, zGrid, zPoint, gridT);
  }
  const msl = finite(inp.values.pressure_msl);
  const t = finite(inp.temperatureC);
  if (msl === null || zPoint === null || t === null) return null;
  // Layer from sea level up to the point: its sea-level temperature from the point's by the standard lapse.
  return pressureAtElevation(msl, 0, zPoint, t + STANDARD_LAPSE_RATE_K_PER_M * zPoint);
}

/** Hours of the radiation step ending at `time` (default 1 h). */
export function stepHoursOf(inp: DeveloperInput): number {
  const h = inp.stepHours;
  return h !== undefined && h > 0 && Number.isFinite(h) ? h : 1;
}

/** The middle of the radiation step, ms: the instant the radiation-based indices take the Sun at (as the grid). */
export function radiationMidpointMs(inp: DeveloperInput): number {
  return inp.timeMs - (stepHoursOf(inp) * 3_600_000) / 2;
}

/** Cosine of the solar zenith angle of `sun` (unclamped). */
export function cosZenith(sun: SolarPosition): number {
  return Math.cos((sun.zenith * Math.PI) / 180);
}

/**
 * Length of the step of a store's time axis ending at (or containing) a
 * valid time, hours: the gap to the previous time; before the second time,
 * the first gap; one hour with a single time. For DeveloperInput.stepHours
 * from the nwp manifest's `times`.
 *
 * @param timesIso the manifest's valid times, ISO 8601, ascending
 * @param timeMs the valid time asked for, ms
 */
export function radiationStepHours(timesIso: readonly string[], timeMs: number): number {
  if (timesIso.length < 2) return 1;
  const ms = (i: number) => Date.parse(timesIso[i]!);
  // First time ≥ timeMs: the step ending there is the window the interpolated radiation mostly comes from.
  let k = 1;
  while (k < timesIso.length - 1 && ms(k) < timeMs) k++;
  return (ms(k) - ms(k - 1)) / 3_600_000;
}
