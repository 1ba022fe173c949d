/**
 * Local temperature gradient fitted from a model's own cells, for
 * downscaling to a finer terrain (San Marino on 100 m). The
 * gradient dT/dz is the least-squares slope of 2 m temperature against
 * model elevation over a neighbourhood of cells at one time step, as in
 * Sheridan et al. (2010, Meteorol. Appl. 17, 329–339: "A lapse rate
 * adjustment scheme for the downscaling of near-surface temperature") and
 * MET Norway's gridpp (its "gradient" correction from a neighbourhood
 * regression).
 *
 * - Bounded to physical limits: no steeper decrease than dry adiabatic
 *   (−9.8 K/km, rounded to −10) and no stronger increase than the surface
 *   inversions observed in Alpine and Apennine valleys on clear winter nights
 *   (+20 K/km over the lowest few hundred metres). A positive gradient (an
 *   inversion) is kept, not clamped to the standard atmosphere.
 * - A poor fit falls back to the standard −6.5 K/km: fewer than
 *   {@link MIN_CELLS} valid cells, an elevation spread (standard deviation)
 *   under {@link MIN_ELEVATION_SPREAD_M}, or R² under {@link MIN_R2}.
 */

/** Standard atmosphere gradient, K/km (ICAO 1993): the fallback. */
export const STANDARD_GRADIENT_K_PER_KM = -6.5;
export const GRADIENT_BOUNDS_K_PER_KM = [-10, 20] as const;
export const MIN_CELLS = 10;
export const MIN_ELEVATION_SPREAD_M = 50;
export const MIN_R2 = 0.25;

export interface FittedGradient {
  /** dT/dz, K/km (negative: colder higher up; positive: an inversion). */
  gradientKPerKm: number;
  /** True when fitted; false when the fallback was used (`reason` says why). */
  fitted: boolean;
  /** Coefficient of determination of the regression (NaN when not computed). */
  r2: number;
  /** Cells used. */
  cells: number;
  reason?: string;
}

/**
 * Fit dT/dz over paired cells (NaN pairs are skipped).
 *
 * @param temperatureC 2 m temperature of each cell, °C (or K: only differences matter)
 * @param elevationM model elevation of each cell, m
 */
export function fitTemperatureGradient(temperatureC: ArrayLike<number>, elevationM: ArrayLike<number>): FittedGradient {
  let n = 0;
  let sz = 0;
  let st = 0;
  for (let k = 0; k < temperatureC.length; k++) {
    const t = temperatureC[k]!;
    const z = elevationM[k]!;
    if (t !== t || z !== z) continue;
    n++;
    sz += z;
    st += t;
  }
  const fallback = (reason: string, r2 = NaN): FittedGradient => ({ gradientKPerKm: STANDARD_GRADIENT_K_PER_KM, fitted: false, r2, cells: n, reason });
  if (n < MIN_CELLS) return fallback(`${n} valid cells, fewer than ${MIN_CELLS}`);
  const mz = sz / n;
  const mt = st / n;
  let szz = 0;
  let stt = 0;
  let szt = 0;
  for (let k = 0; k < temperatureC.length; k++) {
    const t = temperatureC[k]!;
    const z = elevationM[k]!;
    if (t !== t || z !== z) continue;
    szz += (z - mz) * (z - mz);
    stt += (t - mt) * (t - mt);
    szt += (z - mz) * (t - mt);
  }
  const spread = Math.sqrt(szz / n);
  if (spread < MIN_ELEVATION_SPREAD_M) return fallback(`elevation spread ${spread.toFixed(0)} m, under ${MIN_ELEVATION_SPREAD_M} m`);
  const slopePerM = szt / szz;
  const r2 = stt > 0 ? (szt * szt) / (szz * stt) : 0;
  if (r2 < MIN_R2) return fallback(`R² ${r2.toFixed(2)}, under ${MIN_R2}`, r2);
  const [lo, hi] = GRADIENT_BOUNDS_K_PER_KM;
  const gradient = Math.min(hi, Math.max(lo, slopePerM * 1000));
  return { gradientKPerKm: gradient, fitted: true, r2, cells: n, ...(gradient !== slopePerM * 1000 ? { reason: `bounded from ${(slopePerM * 1000).toFixed(1)} K/km` } : {}) };
}
