/**
 * Output precision of weather.php: how many decimals each field carries.
 * Values are computed at full precision and rounded once, when the response
 * is assembled, so that derived fields (dew point from humidity, the trend)
 * never compound rounding errors. docs/api.md lists the same table.
 */

/** Decimals per response field. */
export const DECIMALS = {
  /** °C: the model's own skill is about 1 K; a tenth keeps trends readable. */
  temperature: 1,
  /** °C */
  dew_point: 1,
  /** %: integer, as stations report it. */
  humidity: 0,
  /** hPa: a tenth, as synoptic reports (WMO-No. 306 FM 12) give it. */
  pressure_msl: 1,
  /** km/h */
  wind_speed: 1,
  /** degrees: integer, 0..359. */
  wind_direction: 0,
  /** km/h */
  wind_gust: 1,
  /** °C change in 3 h. */
  trend_delta: 1,
  /** ms: microsecond resolution; finer would be noise. */
  elapsed_ms: 3,
} as const;

/** 10^d for d = 0…6. */
const SCALES: readonly number[] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/**
 * Round half away from zero to `decimals` places (symmetric for negative
 * temperatures, unlike Math.round), never returning −0.
 */
export function roundTo(value: number, decimals: number): number {
  // 10^d from a table for the decimals the answers use: a power is a call into the C library, and an
  // answer rounds some thirty values. The same doubles (10 ** d is exact for these d).
  const f = SCALES[decimals] ?? 10 ** decimals;
  const r = (Math.sign(value) * Math.round(Math.abs(value) * f)) / f;
  return r === 0 ? 0 : r;
}

/** roundTo for nullable values: null (and NaN, ±∞) stay null. */
export function roundOrNull(value: number | null, decimals: number): number | null {
  return value === null || !Number.isFinite(value) ? null : roundTo(value, decimals);
}
