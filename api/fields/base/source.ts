/**
 * `temperature_source`: one line naming where the temperature came from and
 * what was done to it. Stable structure (tools may parse it):
 *
 *   "<product> [<model>] <resolution> bilinear, altitude-corrected <zg> m → <zp> m (<alt|dem>), lapse 6.5 K/km"
 *   "<product> <resolution> bilinear, not altitude-corrected (no grid elevation)"
 *   "<product> <resolution> bilinear, not altitude-corrected (no point elevation)"
 *
 * A derived grid names how it was made after its resolution
 * ("sm100 100 m bilinear, downscaled from nwp 2.2 km with dT/dz −5.9 K/km
 * fitted (R² 0.93), …"); a correction with a gradient other than the
 * standard one says "dT/dz −5.9 K/km" instead of "lapse 6.5 K/km"; without
 * `alt` on a grid that is its own DEM: "at the grid's elevation 512 m".
 * A temperature that is a mean over an interval says so after the
 * derivation ("reanalysis ERA5-Land 0.2° bilinear, daily mean, not
 * altitude-corrected (no grid elevation)").
 * Then "; <note>" when a finer product was not used here and why, and last
 * ", sample data" when the product is the labelled demo dataset.
 * <resolution> is the grid's north–south spacing ("2.2 km", "100 m"); <zg> the
 * model orography and <zp> the point's elevation, whole metres; (alt) means
 * the caller's `alt`, (dem) the DEM product.
 */
import type { TimeInterval } from '../../../tiles/manifest.js';
import { STANDARD_GRADIENT_K_PER_KM, type AltitudeCorrection } from './altitude.js';

export interface SourceInfo {
  product: string;
  /** Human-readable grid spacing (geo/grid describeResolution). */
  resolution: string;
  /** How the grid's temperature was made, when it is not a model's own output. */
  derivation?: string;
  /** What the temperature is in time when not the value at the instant ("daily mean": {@link describeTimeBasis}). */
  timeBasis?: string;
  correction: AltitudeCorrection;
  /** True for the demo dataset (manifest source.sample). */
  sample: boolean;
  /** Why a finer product did not answer here. */
  note?: string;
}

/** "lapse 6.5 K/km" for the standard atmosphere (the established wording), "dT/dz −5.9 K/km" for any other gradient. */
export function describeGradient(gradientKPerKm: number): string {
  return gradientKPerKm === STANDARD_GRADIENT_K_PER_KM ? STANDARD_LAPSE : `dT/dz ${signed(gradientKPerKm)} K/km`;
}

/** Nearly every answer's wording, made once. */
const STANDARD_LAPSE = `lapse ${(-STANDARD_GRADIENT_K_PER_KM).toFixed(1)} K/km`;

/** One decimal with its sign: a real minus (U+2212) or '+' (an inversion reads "+8.0"). */
export function signed(x: number): string {
  const s = Math.abs(x).toFixed(1);
  return s === '0.0' ? s : x < 0 ? `\u2212${s}` : `+${s}`;
}

/**
 * A temperature stored as a mean over an interval (manifest `interval`), in
 * words: "daily mean" (24 h), "hourly mean" (1 h), "6-hour mean", or "mean
 * over each model step"; undefined for instantaneous values.
 */
export function describeTimeBasis(interval: TimeInterval | undefined): string | undefined {
  if (!interval) return undefined;
  const what = interval.statistic === 'sum' ? 'total' : 'mean';
  const s = interval.seconds;
  if (s === undefined) return `${what} over each model step`;
  if (s === 86_400) return `daily ${what}`;
  if (s === 3_600) return `hourly ${what}`;
  return `${+(s / 3600).toFixed(2)}-hour ${what}`;
}

export function temperatureSource(info: SourceInfo): string {
  const c = info.correction;
  const how = c.applied
    ? `altitude-corrected ${Math.round(c.gridElevationM)} m → ${Math.round(c.pointElevationM)} m (${c.source}), ${describeGradient(c.gradientKPerKm)}`
    : c.reason === 'at_grid_elevation'
      ? `at the grid's elevation ${Math.round(c.gridElevationM)} m`
      : `not altitude-corrected (${c.reason === 'no_grid_elevation' ? 'no grid elevation' : 'no point elevation'})`;
  const derivation = (info.derivation ? `, ${info.derivation}` : '') + (info.timeBasis ? `, ${info.timeBasis}` : '');
  return `${info.product} ${info.resolution} bilinear${derivation}, ${how}${info.note ? `; ${info.note}` : ''}${info.sample ? ', sample data' : ''}`;
}
